"""Code-health checks on the parameter data files themselves (PolicyEngine-style)."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal

import pytest

from benefits.engine.parameters import DATA_DIR, parameter, parameter_names

ANNUAL = {
    # name: first year it is in force (every year from then to LAST_YEAR must have a 1 January value)
    "irs_401a17_compensation_limit": 1989,
    "irs_415b_dollar_limit": 1983,  # TEFRA's $90,000 (the plans' earliest limitation years)
    "irs_415c_annual_additions_limit": 1994,
    "irs_402g_elective_deferral_limit": 1988,  # IR-89-10: $7,313 for 1988 (1987's $7,000 unconfirmed)
    "irs_414v_catch_up_limit": 2002,
    "irs_414v_catch_up_limit_age_60_63": 2025,
    "irs_414q_hce_compensation_threshold": 1997,
    "irs_416i_key_employee_compensation_threshold": 2002,
    "ssa_taxable_wage_base": 1994,
    "irs_409o_esop_distribution_threshold": 2014,
    "irs_409o_esop_distribution_increment": 2014,
}
LAST_YEAR = 2026

# Values set under the current indexing rule are multiples of the rounding interval from this year on.
INDEXED_FROM = {
    "irs_401a17_compensation_limit": 1994,  # $10,000 steps 1994-2001, $5,000 after: both multiples of 5,000
    "irs_415b_dollar_limit": 1995,
    "irs_415c_annual_additions_limit": 1994,
    "irs_402g_elective_deferral_limit": 1996,
    "irs_414v_catch_up_limit": 2002,
    "irs_414q_hce_compensation_threshold": 1997,
    "irs_416i_key_employee_compensation_threshold": 2002,
    "ssa_taxable_wage_base": 1994,
    "irs_409o_esop_distribution_threshold": 2014,
    "irs_409o_esop_distribution_increment": 2014,
}


def test_every_expected_parameter_has_a_file():
    assert set(ANNUAL) | {"irs_411a11_cash_out_limit"} == set(parameter_names())


@pytest.mark.parametrize("name", parameter_names())
def test_file_schema(name):
    raw = json.loads((DATA_DIR / f"{name}.json").read_text(encoding="utf-8"))
    assert raw["name"] == name
    assert set(raw) >= {
        "name",
        "description",
        "unit",
        "period",
        "applies_to",
        "rounding",
        "references",
        "values",
    }
    assert raw["unit"] == "currency-USD"
    # The cash-out limit is a statutory amount in force until the law changes it; the others are
    # annual limits published one year at a time.
    assert raw["period"] == ("statute" if name == "irs_411a11_cash_out_limit" else "year")
    assert raw["rounding"]["type"] in {"downwards", "nearest", "none"}
    assert raw["references"] and all(r["title"] for r in raw["references"])
    assert "\t" not in (DATA_DIR / f"{name}.json").read_text(encoding="utf-8")
    for v in raw["values"]:
        assert set(v) == {"date", "value", "source"}
        assert v["source"].strip(), f"{name} {v['date']}: every value needs a source"
        # values are strings (exact Decimals), never floats
        assert v["value"] is None or isinstance(v["value"], str)


@pytest.mark.parametrize("name", parameter_names())
def test_dates_strictly_increasing_and_values_positive(name):
    p = parameter(name)
    dates = [e.effective for e in p.entries]
    assert dates == sorted(dates) and len(set(dates)) == len(dates)
    for e in p.entries:
        assert e.value is None or e.value > 0


@pytest.mark.parametrize(("name", "first_year"), ANNUAL.items())
def test_every_year_in_covered_range_present(name, first_year):
    p = parameter(name)
    years = {e.effective.year for e in p.entries if e.effective == date(e.effective.year, 1, 1)}
    assert set(range(first_year, LAST_YEAR + 1)) <= years
    assert p.first_date == date(first_year, 1, 1)


@pytest.mark.parametrize(("name", "from_year"), INDEXED_FROM.items())
def test_values_follow_rounding_interval(name, from_year):
    p = parameter(name)
    interval = p.rounding.interval
    assert interval > 0
    for e in p.entries:
        if e.effective.year >= from_year and e.value is not None:
            assert e.value % interval == 0, f"{name} {e.effective}: {e.value} not a multiple of {interval}"


@pytest.mark.parametrize(
    "name",
    [
        "irs_401a17_compensation_limit",
        "irs_415b_dollar_limit",
        "irs_402g_elective_deferral_limit",
        "irs_411a11_cash_out_limit",
    ],
)
def test_limits_the_plans_use_carry_no_value_from_memory(name):
    # Issue 12: a value "from memory" is confirmed from a published source or removed.
    for e in parameter(name).entries:
        assert "memory" not in e.source and "unconfirmed" not in e.source, (name, e)


def test_pre_1994_limits_cite_the_irs_releases():
    # 1989-1993 §401(a)(17), 1988-1993 §415(b) and §402(g): the IRS's annual news releases.
    for name, first in (
        ("irs_401a17_compensation_limit", 1990),
        ("irs_415b_dollar_limit", 1988),
        ("irs_402g_elective_deferral_limit", 1988),
    ):
        for e in parameter(name).entries:
            if first <= e.effective.year < 1994:
                assert "News Release" in e.source, (name, e)


def test_rounding_metadata_is_decimal():
    assert parameter("irs_402g_elective_deferral_limit").rounding.interval == Decimal(500)
    assert parameter("irs_411a11_cash_out_limit").rounding.type == "none"
