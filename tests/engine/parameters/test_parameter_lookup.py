"""Lookups: value in force on a date (OpenFisca semantics), boundaries, errors.

Expected values are the IRS's published annual limits (its cost-of-living notices) and the plan texts.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from benefits.engine.parameters import (
    Parameter,
    ParameterEntry,
    ParameterNotInForce,
    Rounding,
    UnknownParameter,
    all_parameters,
    parameter,
)


@pytest.mark.parametrize(
    ("name", "year", "expected"),
    [
        ("irs_401a17_compensation_limit", 2026, 360_000),
        ("irs_401a17_compensation_limit", 2002, 200_000),  # EGTRRA jump (EGTRRA §611(c))
        ("irs_401a17_compensation_limit", 1997, 160_000),  # Carver DB plan text: $160,000 for 1997-1999
        ("irs_401a17_compensation_limit", 2000, 170_000),  # Carver DB plan text: $170,000 for 2000-2001
        ("irs_401a17_compensation_limit", 1995, 150_000),
        ("irs_415b_dollar_limit", 2024, 275_000),
        # IRS Notice 2019-59: $230,000 (ftwilliam's table repeats 2019)
        ("irs_415b_dollar_limit", 2020, 230_000),
        # IRS Notice 2017-64: $220,000 (not a secondary table's $250,000 misprint)
        ("irs_415b_dollar_limit", 2018, 220_000),
        ("irs_415b_dollar_limit", 2001, 140_000),  # Rev. Rul. 2001-51
        ("irs_415b_dollar_limit", 1998, 130_000),
        ("irs_415c_annual_additions_limit", 2026, 72_000),
        ("irs_415c_annual_additions_limit", 2000, 30_000),
        ("irs_402g_elective_deferral_limit", 2025, 23_500),
        ("irs_402g_elective_deferral_limit", 2001, 10_500),  # Carver 401(k) SPEC Example: 2001 limit $10,500
        ("irs_414v_catch_up_limit", 2002, 1_000),
        ("irs_414v_catch_up_limit", 2026, 8_000),
        ("irs_414v_catch_up_limit_age_60_63", 2025, 11_250),
        ("irs_414q_hce_compensation_threshold", 2026, 160_000),
        ("irs_414q_hce_compensation_threshold", 2000, 85_000),  # Carver 401(k) §1.32: $85,000 for 2000
        ("irs_414q_hce_compensation_threshold", 1999, 80_000),
        ("irs_416i_key_employee_compensation_threshold", 2026, 235_000),
        ("ssa_taxable_wage_base", 2026, 184_500),
        ("ssa_taxable_wage_base", 2000, 76_200),
        ("irs_409o_esop_distribution_threshold", 2026, 1_455_000),
        ("irs_409o_esop_distribution_increment", 2026, 290_000),
        ("irs_409o_esop_distribution_increment", 2017, 215_000),  # ebeclaw 2017 table
    ],
)
def test_value_for_year(name, year, expected):
    p = parameter(name)
    assert p.for_year(year) == Decimal(expected)
    # any day of the year gives the same value (all these change on 1 January)
    assert p.at(date(year, 7, 1)) == Decimal(expected)
    assert p.at(date(year, 12, 31)) == Decimal(expected)


@pytest.mark.parametrize(
    ("on", "expected"),
    [
        (date(1990, 6, 30), 3_500),
        (date(1997, 8, 5), 3_500),  # TRA '97: $5,000 for plan years beginning after 8/5/1997
        (date(1997, 8, 6), 5_000),
        (date(2023, 12, 31), 5_000),
        (date(2024, 1, 1), 7_000),  # SECURE 2.0 §304
        (date(2026, 11, 21), 7_000),
    ],
)
def test_cash_out_threshold_boundaries(on, expected):
    assert parameter("irs_411a11_cash_out_limit").at(on) == Decimal(expected)


def test_entry_at_gives_effective_date_and_source():
    entry = parameter("irs_415b_dollar_limit").entry_at(date(2024, 6, 30))
    assert entry.effective == date(2024, 1, 1)
    assert entry.value == Decimal(275_000)
    assert entry.source.startswith("IRS cost-of-living limits for 2024")
    assert ".md" not in entry.source  # a source names the public authority, never a project file


def test_boundary_day_before_new_value():
    p = parameter("irs_415b_dollar_limit")
    assert p.at(date(2025, 12, 31)) == Decimal(280_000)
    assert p.at(date(2026, 1, 1)) == Decimal(290_000)


def test_no_value_before_first_date_raises_naming_parameter_and_date():
    p = parameter("irs_414v_catch_up_limit_age_60_63")
    with pytest.raises(ParameterNotInForce) as err:
        p.at(date(2024, 12, 31))
    assert "irs_414v_catch_up_limit_age_60_63" in str(err.value)
    assert "2024-12-31" in str(err.value)
    assert p.at_or_none(date(2024, 12, 31)) is None


def test_no_401a17_cap_before_1989():
    p = parameter("irs_401a17_compensation_limit")
    assert p.at_or_none(date(1988, 12, 31)) is None
    assert p.at(date(1989, 1, 1)) == Decimal(200_000)


@pytest.mark.parametrize(
    ("name", "on", "words"),
    [
        ("irs_415b_dollar_limit", date(1982, 12, 31), "no value before its first one (1983-01-01)"),
        ("irs_415b_dollar_limit", date(2027, 1, 1), "no published value yet"),
        ("irs_401a17_compensation_limit", date(2027, 6, 30), "no published value yet"),
        ("irs_402g_elective_deferral_limit", date(1987, 12, 31), "no value before its first one"),
        ("irs_402g_elective_deferral_limit", date(2027, 1, 1), "no published value yet"),
        ("irs_411a11_cash_out_limit", date(1984, 12, 31), "no value before its first one"),
    ],
)
def test_out_of_table_lookup_is_an_error_naming_parameter_and_date(name, on, words):
    # Issue 12 item 4: never the latest value (a pre-1983 retirement used to get the 2026 $290,000).
    with pytest.raises(ParameterNotInForce) as err:
        parameter(name).at(on)
    assert name in str(err.value) and on.isoformat() in str(err.value) and words in str(err.value)


def test_latest_published_is_an_explicit_traced_estimate():
    from benefits.engine.parameters import recorded_reads

    with recorded_reads() as reads:
        entry = parameter("irs_415b_dollar_limit").latest_published(date(2030, 12, 31))
    assert entry.value == Decimal(290_000) and entry.effective == date(2026, 1, 1)
    assert reads[-1].projected and "estimate" in reads[-1].words()


@pytest.mark.parametrize(
    ("year", "expected"),
    [
        # TEFRA §235(a): $90,000 from 1983, no cost-of-living increase before 1988 (IRS letter 2/4/1993)
        (1983, 90_000),
        (1987, 90_000),
        (1988, 94_023),  # IR-89-10
        (1989, 98_064),  # IR-89-10, IR-90-15
        (1990, 102_582),  # IR-90-15
        (1991, 108_963),  # IR-91-12
        (1992, 112_221),  # IR-92-3
        (1993, 115_641),  # IR-93-2
        (1994, 118_800),
    ],
)
def test_415b_from_1983(year, expected):
    assert parameter("irs_415b_dollar_limit").for_year(year) == Decimal(expected)


@pytest.mark.parametrize(
    ("year", "limit_401a17", "limit_402g"),
    [
        (1988, None, 7_313),  # §401(a)(17) starts in 1989 (TRA '86); IR-89-10 for §402(g)
        (1989, 200_000, 7_627),
        (1990, 209_200, 7_979),  # IR-90-15
        (1991, 222_220, 8_475),  # IR-91-12, IR-92-3
        (1992, 228_860, 8_728),  # IR-92-3
        (1993, 235_840, 8_994),  # IR-93-2
        (1994, 150_000, 9_240),  # OBRA '93; IR-94-03
    ],
)
def test_401a17_and_402g_before_1994(year, limit_401a17, limit_402g):
    on = date(year, 1, 1)
    cap = parameter("irs_401a17_compensation_limit").at_or_none(on)
    assert cap == (None if limit_401a17 is None else Decimal(limit_401a17))
    assert parameter("irs_402g_elective_deferral_limit").at(on) == Decimal(limit_402g)


@pytest.mark.parametrize(
    ("distribution", "plan_year_start", "expected"),
    [
        # TD 8794: $5,000 applies to plan years beginning on or after 6 August 1997, not from that date.
        (date(1997, 9, 1), date(1997, 1, 1), 3_500),  # calendar plan year 1997 began before 8/6/1997
        (date(1997, 12, 31), date(1997, 1, 1), 3_500),
        (date(1998, 1, 1), date(1998, 1, 1), 5_000),  # first calendar plan year after 8/5/1997
        (date(1997, 8, 6), date(1997, 8, 6), 5_000),  # a plan year starting on 8/6/1997
        (date(1998, 7, 31), date(1997, 8, 1), 3_500),  # a plan year that began 8/1/1997 (not after 8/5)
        (date(1998, 8, 1), date(1998, 8, 1), 5_000),
        # SECURE 2.0 §304: $7,000 for distributions after 12/31/2023, whatever the plan year
        (date(2023, 12, 31), date(2023, 7, 1), 5_000),
        (date(2024, 1, 1), date(2023, 7, 1), 7_000),
    ],
)
def test_cash_out_limit_keyed_by_plan_year_then_distribution(distribution, plan_year_start, expected):
    from benefits.engine.parameters import cash_out_limit

    assert cash_out_limit(distribution, plan_year_start).value == Decimal(expected)


def test_null_value_ends_the_parameter():
    p = Parameter(
        name="test_param",
        description="",
        unit="currency-USD",
        period="year",
        applies_to="",
        rounding=Rounding("none", Decimal(0)),
        references=(),
        entries=(
            ParameterEntry(date(2000, 1, 1), Decimal(10), "a"),
            ParameterEntry(date(2005, 1, 1), None, "repealed"),
            ParameterEntry(date(2010, 1, 1), Decimal(20), "restored"),
        ),
    )
    assert p.at(date(2004, 12, 31)) == Decimal(10)
    with pytest.raises(ParameterNotInForce):
        p.at(date(2005, 1, 1))
    assert p.at(date(2010, 1, 1)) == Decimal(20)


def test_unknown_parameter():
    with pytest.raises(UnknownParameter):
        parameter("no_such_limit")


def test_all_parameters_lists_everything_loaded():
    params = all_parameters()
    assert "irs_415b_dollar_limit" in params
    assert all(isinstance(v, Parameter) for v in params.values())


def test_values_are_decimal():
    assert isinstance(parameter("ssa_taxable_wage_base").for_year(2026), Decimal)


def test_409o_increment_equals_415b_every_year():
    # ftwilliam.com's ESOP §409(o)(1)(C) table: the second amount equals the §415(b) limit in every year.
    inc, dollar = parameter("irs_409o_esop_distribution_increment"), parameter("irs_415b_dollar_limit")
    for year in range(2014, 2027):
        assert inc.for_year(year) == dollar.for_year(year)


@pytest.mark.parametrize(
    ("name", "year", "value"),
    [
        # each confirmed from the IRS news release of the year before (sources in the data files)
        ("irs_416i_key_employee_compensation_threshold", 2003, 130_000),  # IR-2002-111
        ("irs_416i_key_employee_compensation_threshold", 2006, 140_000),  # release of 10/18/2006
        ("irs_416i_key_employee_compensation_threshold", 2007, 145_000),
        ("irs_416i_key_employee_compensation_threshold", 2010, 160_000),  # IR-2009-94
        ("irs_416i_key_employee_compensation_threshold", 2012, 165_000),  # IR-2012-77
        ("irs_416i_key_employee_compensation_threshold", 2013, 165_000),
        ("irs_409o_esop_distribution_threshold", 2018, 1_105_000),  # Notice 2018-83
    ],
)
def test_years_once_unconfirmed_now_carry_a_published_value(name, year, value):
    # Issue 12: values "from memory" are confirmed or removed; these were removed, then confirmed.
    entry = parameter(name).entry_at(date(year, 1, 1))
    assert entry.value == value and entry.effective == date(year, 1, 1)
    assert "NOT CONFIRMED" not in entry.source and "memory" not in entry.source


def test_no_year_of_these_tables_is_left_unconfirmed():
    for name in ("irs_416i_key_employee_compensation_threshold", "irs_409o_esop_distribution_threshold"):
        assert all(e.value is not None for e in parameter(name).entries if e.effective.year <= 2026)
