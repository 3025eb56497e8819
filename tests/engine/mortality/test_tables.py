"""Mortality tables: golden q values from the published tables, provenance, and the §417(e) mapping.

Golden q65 values: the published tables (SOA tables, the IRS §417(e)(3) tables of each year's notice).
"""

from __future__ import annotations

import json
import time
from datetime import date

import numpy as np
import pytest

from benefits.engine.mortality import (
    DATA_DIR,
    AgeOutOfRange,
    MortalityTable,
    TableNotAvailable,
    UnknownTable,
    applicable_417e_table,
    blend,
    get_table,
    improvement_scale,
    revrul_2001_62_reading,
    table_keys,
)


@pytest.mark.parametrize(
    ("key", "age", "q"),
    [
        ("up1984", 65, 0.022562),
        ("gatt1983_unisex", 65, 0.011328),
        ("irs_2008_applicable", 65, 0.009602),
        ("irs_417e_2008", 65, 0.009602),
        ("irs_417e_2009", 65, 0.009508),
        ("irs_417e_2016", 65, 0.008880),
        ("irs_417e_2017", 65, 0.008795),
        ("irs_417e_2018", 65, 0.007601),
        ("irs_417e_2019", 65, 0.007774),
        ("irs_417e_2020", 65, 0.007923),
        ("irs_417e_2021", 65, 0.007943),
        ("irs_417e_2022", 65, 0.007424),
        ("irs_417e_2023", 65, 0.007305),
        ("irs_417e_2024", 65, 0.00740),
        ("irs_417e_2025", 65, 0.00734),  # recomputed by the IRS method (provisional)
        ("irs_417e_2026", 65, 0.00729),  # Notice 2025-40 unisex q65 (margensoftware quote)
        ("gam1994_static_male", 65, 0.014535),
        ("gam1994_static_female", 65, 0.008636),
        ("gam1983_male", 65, 0.015592),
        ("gam1983_female", 65, 0.007064),
    ],
)
def test_published_q(key, age, q):
    assert get_table(key).q(age) == pytest.approx(q, abs=5e-7)


def test_shared_published_417e_columns_copied_exactly():
    # Every age of every year of the IRS published transcription (sources/) is in the data files.
    import csv

    src = DATA_DIR.parent / "sources" / "irs-417e-applicable-mortality-published-2008-2024.csv"
    rows = list(csv.reader(src.open()))
    header = [h.strip() for h in rows[0]]
    for row in rows[1:]:
        age = int(row[0])
        for year, cell in zip(header[1:], row[1:], strict=True):
            assert get_table(f"irs_417e_{year}").q(age) == pytest.approx(float(cell), abs=1e-12)


@pytest.mark.parametrize(
    ("year", "soa_id"),
    [
        (2008, 2801),
        (2009, 3166),
        (2010, 3173),
        (2011, 3180),
        (2012, 3187),
        (2013, 3194),
        (2014, 3201),
        (2015, 3208),
        (2016, 3159),
    ],
)
def test_irs_tables_equal_pymort_soa_tables(year, soa_id):
    pymort = pytest.importorskip("pymort")
    values = pymort.MortXML.from_id(soa_id).Tables[0].Values["vals"]
    table = get_table(f"irs_417e_{year}")
    for age in range(15, 121):
        assert table.q(age) == pytest.approx(float(values[age]), abs=1e-12)


@pytest.mark.parametrize(
    ("key", "soa_id"),
    [
        ("up1984", 831),
        ("gatt1983_unisex", 844),
        ("gam1983_male", 826),
        ("gam1983_female", 825),
        ("gam1994_static_male", 835),
        ("gam1994_static_female", 834),
        ("irs_2008_applicable", 2801),
    ],
)
def test_soa_data_files_match_pymort(key, soa_id):
    pymort = pytest.importorskip("pymort")
    values = pymort.MortXML.from_id(soa_id).Tables[0].Values["vals"]
    table = get_table(key)
    assert table.min_age == int(values.index[0]) and table.max_age == int(values.index[-1])
    np.testing.assert_allclose(table.qx, values.to_numpy(dtype=float), atol=1e-12)


def test_gatt_table_is_the_50_50_blend_of_1983_gam():
    # Rev. Rul. 95-6: 1983 GAM, fixed blend of 50% male and 50% female rates.
    b = blend(get_table("gam1983_male"), get_table("gam1983_female"), 0.5)
    gatt = get_table("gatt1983_unisex")
    assert (b.min_age, b.max_age) == (gatt.min_age, gatt.max_age)
    np.testing.assert_allclose(b.qx, gatt.qx, atol=1e-6)  # SOA rounds the blend to 6 places


def test_rev_rul_2001_62_table_both_readings_unloaded_until_confirmed():
    # Issue 24: the ruling's own rates are not available, so the table is built both ways it can be
    # read (sources/revrul-2001-62-PROVENANCE.md): the 50/50 blend of the unloaded 1994 GAM basic
    # (q65 .011441) or the loaded 1994 GAM static rates (q65 .010641), projected to 2002 with Scale AA.
    assert "gar1994_unisex" not in table_keys()
    unloaded, loaded = get_table("revrul_2001_62_unloaded"), get_table("revrul_2001_62_loaded")
    assert unloaded.q(65) == 0.011441 and loaded.q(65) == 0.010641
    assert unloaded.q(55) == 0.003197 and loaded.q(85) == 0.078240
    assert unloaded.provisional and loaded.provisional and "computed" in unloaded.source
    for when in (date(2002, 12, 31), date(2005, 6, 1), date(2007, 12, 31)):
        t = applicable_417e_table(when)
        assert t.key == "revrul_2001_62_unloaded" and "unconfirmed" in t.name
        with revrul_2001_62_reading("loaded"):
            t = applicable_417e_table(when)
        assert t.key == "revrul_2001_62_loaded" and "confirmed by the plan administrator" in t.name
    # the day before, Rev. Rul. 95-6
    assert applicable_417e_table(date(2002, 12, 30)).key == "gatt1983_unisex"
    with pytest.raises(ValueError), revrul_2001_62_reading("both"):
        pass


def test_every_table_has_provenance_and_recomputed_years_are_provisional():
    catalog = json.loads((DATA_DIR / "catalog.json").read_text())
    for key, meta in catalog.items():
        assert meta["source"].strip() and meta["name"].strip(), key
    for year in (2025, 2026):
        t = get_table(f"irs_417e_{year}")
        assert t.provisional and "PROVISIONAL" in t.source
    assert not get_table("irs_417e_2024").provisional
    # 2027: the recomputation ignores the SECURE 2.0 improvement cap (Notice 2026-27), so no table
    assert "irs_417e_2027" not in table_keys()
    # the 2022 table is Notice 2020-85 (IRB 2020-51), the 2018 and 2019 tables Notices 2017-60, 2018-02
    assert "Notice 2020-85" in get_table("irs_417e_2022").source
    assert "Notice 2017-60" in get_table("irs_417e_2018").source
    assert "Notice 2018-02" in get_table("irs_417e_2019").source
    for key in table_keys():
        assert "unconfirmed" not in get_table(key).source and "/work" not in get_table(key).source
    for key in ("revrul_2001_62_unloaded", "revrul_2001_62_loaded"):  # computed, not transcribed
        assert get_table(key).provisional and "PROVISIONAL" in get_table(key).source


def test_table_keys_excludes_scales():
    keys = table_keys()
    assert "up1984" in keys and "irs_417e_2026" in keys
    assert "scale_aa_male" not in keys
    with pytest.raises(UnknownTable):
        get_table("scale_aa_male")
    with pytest.raises(UnknownTable):
        get_table("no_such_table")
    assert improvement_scale("scale_aa_male").q(65) == pytest.approx(0.014)


def test_ranges_and_terminal_age():
    up = get_table("up1984")
    assert (up.min_age, up.max_age) == (15, 110)
    assert up.q(110) == pytest.approx(0.924666)  # as published
    assert up.lx[-1] == 0.0  # but nobody survives past 110
    assert up.q(115) == 1.0
    with pytest.raises(AgeOutOfRange):
        up.q(14)
    with pytest.raises(AgeOutOfRange):
        up.survival(10.0, np.array([1.0]))


def test_survival_udd_between_integer_ages():
    t = get_table("up1984")
    q65 = t.q(65)
    assert t.survival(65.0, np.array([0.5]))[0] == pytest.approx(1 - 0.5 * q65)
    assert t.survival(65.0, np.array([1.0]))[0] == pytest.approx(1 - q65)
    two_years = (1 - q65) * (1 - t.q(66))
    assert t.survival(65.0, np.array([2.0]))[0] == pytest.approx(two_years)
    assert t.survival(65.0, np.array([200.0]))[0] == 0.0


def test_arrays_are_read_only():
    t = get_table("up1984")
    with pytest.raises(ValueError):
        t.qx[0] = 0.5


def test_blend_weights():
    m, f = get_table("gam1983_male"), get_table("gam1983_female")
    assert blend(m, f, 1.0).q(65) == pytest.approx(m.q(65))
    assert blend(m, f, 0.0).q(65) == pytest.approx(f.q(65))
    assert blend(m, f, 0.8).q(65) == pytest.approx(0.8 * m.q(65) + 0.2 * f.q(65))
    with pytest.raises(ValueError):
        blend(m, f, 1.5)


@pytest.mark.parametrize(
    ("when", "key"),
    [
        (1995, "gatt1983_unisex"),
        (2000, "gatt1983_unisex"),
        (date(2002, 12, 30), "gatt1983_unisex"),
        (2008, "irs_417e_2008"),
        (date(2016, 7, 1), "irs_417e_2016"),
        (2024, "irs_417e_2024"),
        (2026, "irs_417e_2026"),
    ],
)
def test_applicable_417e_table(when, key):
    assert applicable_417e_table(when).key == key


@pytest.mark.parametrize(
    ("asd", "period_start", "key"),
    [
        # Keyed by the stability period containing the ASD (Notices 2008-85 ff.), not the ASD's year:
        (date(2009, 3, 1), date(2008, 7, 1), "irs_417e_2008"),
        (date(2009, 7, 1), date(2009, 7, 1), "irs_417e_2009"),
        (date(2024, 5, 1), date(2023, 10, 1), "irs_417e_2023"),
        # A plan year beginning 7/1/1997 with a 1998 ASD: still Rev. Rul. 95-6 (ASD before 12/31/2002)
        (date(1998, 3, 1), date(1997, 7, 1), "gatt1983_unisex"),
    ],
)
def test_table_keyed_by_stability_period(asd, period_start, key):
    assert applicable_417e_table(asd, period_start=period_start).key == key


def test_a_2008_asd_in_a_plan_year_that_began_in_2007_is_pre_ppa():
    # Rev. Rul. 2007-67: the 2008 table for plan years beginning on or after 1/1/2008; an ASD in
    # March 2008 of a plan year beginning 7/1/2007 stays on the pre-PPA table (Rev. Rul. 2001-62).
    assert (
        applicable_417e_table(date(2008, 3, 1), period_start=date(2007, 7, 1)).key
        == "revrul_2001_62_unloaded"
    )


@pytest.mark.parametrize("when", [1994, 2027, date(1994, 12, 31)])
def test_applicable_417e_table_out_of_range(when):
    with pytest.raises(TableNotAvailable):
        applicable_417e_table(when)


def test_table_choice_is_recorded_for_the_trace():
    from benefits.engine.parameters import recorded_reads
    from benefits.engine.trace import TraceBuilder

    with recorded_reads():
        tb = TraceBuilder()
        applicable_417e_table(date(2010, 5, 1))
        (step,) = tb.build().steps
    assert "IRS 2010" in step.rule and "Notice 2008-85" in dict(step.inputs)["source"]


def test_loading_is_fast_and_cached():
    start = time.perf_counter()
    for key in table_keys():
        get_table(key)
    assert time.perf_counter() - start < 2.0
    assert get_table("up1984") is get_table("up1984")


def test_custom_table():
    t = MortalityTable("t", "test", "hand", 60, np.array([0.1, 0.2, 1.0]))
    assert t.max_age == 62
    np.testing.assert_allclose(t.lx, [1.0, 0.9, 0.72, 0.0])


def test_rev_rul_2001_62_data_files_are_the_source_columns():
    import csv

    src = DATA_DIR.parent / "sources" / "revrul-2001-62-both-readings-computed.csv"
    rows = list(csv.DictReader(src.open()))
    for key, column in (
        ("revrul_2001_62_unloaded", "unloaded_round_at_end"),
        ("revrul_2001_62_loaded", "loaded_round_at_end"),
    ):
        t = get_table(key)
        assert (t.min_age, t.max_age) == (1, 120)
        assert [t.q(int(r["age"])) for r in rows] == [float(r[column]) for r in rows]
