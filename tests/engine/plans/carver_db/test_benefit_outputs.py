"""Carver DB contract output (engine-cli.md), the Python API and the modeler's grid, end to end
through the plan's service/vesting core."""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal as D
from types import MappingProxyType as M

from benefits.engine.plans import carver_db
from benefits.engine.plans.carver_db.estimates import estimate
from benefits.engine.plans.carver_db.grid import price_grid
from benefits.engine.plans.carver_db.results import calculate_benefits
from benefits.engine.plans.carver_db.rules import ServiceVestingSettings, core
from benefits.engine.plans.carver_db.settings import UNFROZEN_PROJECTION, BenefitSettings
from benefits.engine.types import Participant

AS_OF = date(2026, 11, 21)
CONTRACT_FORMS = {
    "life",
    "js50",
    "js66",
    "js75",
    "js100",
    "cc5",
    "cc10",
    "cc15",
    "cc20",
    "ss_level",
    "lump_sum",
}
MONEY = re.compile(r"^-?\d+\.\d{2}$")


def ex1(**kw) -> Participant:
    comp = {
        1991 + i: D(v)
        for i, v in enumerate([41000, 42500, 44000, 45500, 47000, 48800, 50600, 52400, 54300, 56200])
    }
    base = dict(
        id="ex1",
        birth_date=date(1958, 4, 10),
        hire_date=date(1982, 2, 15),
        hours=M({y: 2080 for y in range(1982, 2027)}),
        compensation=M(comp),
        commencement_dates=(date(2023, 5, 1),),
        plan_data=M({"social_security_amount": "15000"}),
    )
    base.update(kw)
    return Participant(**base)


def test_example1_contract_result():
    r = carver_db.calculate(ex1(), AS_OF, {})
    assert r["accrued_benefit"]["monthly_at_nrd"] == "1637.50"
    assert r["normal_retirement_date"] == "2023-05-01"
    est = r["estimates"][0]
    assert est["commencement_date"] == "2023-05-01"
    assert est["forms"]["life"] == {"monthly": "1637.50"}
    assert est["forms"]["cc10"]["monthly"] == "1522.88"
    assert set(est["forms"]) <= CONTRACT_FORMS
    assert "js50" not in est["forms"]  # unmarried, no Contingent Pensioner named


def test_every_money_figure_is_a_money_string_with_a_trace():
    p = ex1(
        marital_status="married",
        spouse_birth_date=date(1952, 1, 1),
        commencement_dates=(date(2023, 5, 1), date(2018, 5, 1)),
    )
    r = carver_db.calculate(p, AS_OF, {})
    traces = r["traces"]
    assert MONEY.match(r["accrued_benefit"]["monthly_at_nrd"])
    assert traces["accrued_benefit.monthly_at_nrd"]
    for i, est in enumerate(r["estimates"]):
        assert est["normal_form"] == "js50"
        for form, value in est["forms"].items():
            assert MONEY.match(value["monthly"])
            steps = traces[f"estimates[{i}].forms.{form}"]
            assert all(s["section"] for s in steps)  # every step names its plan section
    # Example 1c: 66-2/3% J&S to a Spouse 6 years older at 65 = .89 × 19,650 / 12.
    assert r["estimates"][0]["forms"]["js66"]["monthly"] == "1457.38"


def test_married_without_spouse_birth_date_prices_no_joint_forms():
    r = carver_db.calculate(ex1(marital_status="married"), AS_OF, {})
    assert "js50" not in r["estimates"][0]["forms"]
    assert "life" in r["estimates"][0]["forms"]


def test_commencement_before_age_55_is_refused_per_estimate():
    r = carver_db.calculate(ex1(commencement_dates=(date(2010, 5, 1),)), AS_OF, {})
    est = r["estimates"][0]
    assert est["forms"] == {}
    assert "cannot start before" in est["error"]


def test_example3_through_the_core_both_readings():
    comp = {
        1993: "26000",
        1994: "31000",
        1995: "32500",
        1996: "34000",
        1997: "36000",
        1998: "38000",
        1999: "40000",
        2000: "42000",
    }
    p = Participant(
        id="ex3",
        birth_date=date(1967, 1, 15),
        hire_date=date(1993, 3, 1),
        termination_date=date(2012, 5, 31),
        hours=M({**{y: 2080 for y in range(1993, 2012)}, 2012: 870}),
        compensation=M({k: D(v) for k, v in comp.items()}),
        commencement_dates=(date(2022, 2, 1),),
        plan_data=M({"social_security_amount": "13800"}),
    )
    r = carver_db.calculate(p, AS_OF, {})
    assert r["normal_retirement_date"] == "2032-02-01"
    assert r["estimates"][0]["forms"]["life"]["monthly"] == "285.05"
    r2 = carver_db.calculate(
        p, AS_OF, {}, {"benefits": BenefitSettings(projected_cs_mode=UNFROZEN_PROJECTION)}
    )
    assert r2["estimates"][0]["forms"]["life"]["monthly"] == "109.87"


def test_example6_top_heavy_through_the_core():
    p = Participant(
        id="ex6",
        birth_date=date(1975, 6, 30),
        hire_date=date(1998, 3, 16),
        termination_date=date(2002, 12, 31),
        hours=M({1998: 1600, 1999: 2000, 2000: 2000, 2001: 700, 2002: 1100}),
        compensation=M({1998: D(30000), 1999: D(36000), 2000: D(38000)}),
        commencement_dates=(date(2040, 7, 1),),
        plan_data=M({"social_security_amount": "12000"}),
    )
    th = {"service_vesting": ServiceVestingSettings(top_heavy_years=(1999, 2000))}
    r = carver_db.calculate(p, AS_OF, {}, th)
    assert r["vesting"]["vested_percent"] == "60"
    assert r["estimates"][0]["forms"]["life"]["monthly"] == "103.89"  # 1,246.67 / 12
    r2 = carver_db.calculate(
        p, AS_OF, {}, {**th, "benefits": BenefitSettings(projected_cs_mode=UNFROZEN_PROJECTION)}
    )
    assert r2["estimates"][0]["forms"]["life"]["monthly"] == "69.33"  # 832.00 / 12
    # Never Top-Heavy: 0% vested → a deemed cash-out of $0 (§13.7(G)).
    r3 = carver_db.calculate(p, AS_OF, {})
    assert r3["cash_out"]["required"] is True
    assert r3["estimates"][0]["forms"] == {"lump_sum": {"lump_sum": "0.00"}}


def test_small_benefit_is_cashed_out_at_termination_with_the_rate_given():
    p = Participant(
        id="small",
        birth_date=date(1972, 1, 10),
        hire_date=date(1996, 1, 2),
        termination_date=date(2000, 12, 31),
        hours=M({y: 2080 for y in range(1996, 2001)}),
        compensation=M({y: D(20000) for y in range(1996, 2001)}),
        commencement_dates=(date(2001, 2, 1), date(2037, 2, 1)),
        plan_data=M({"social_security_amount": "9800"}),
    )
    rates = {"2000-09": "5.83"}  # the third full calendar month before the 12/31/2000 termination
    # The 2037 start is a retirement: Table A's look-back is the third full month before it
    # (2036-11); from 2012 the §417(e)(3) segment rates of that month apply (given flat, 5%).
    segments = {"2036-11": ["5", "5", "5"]}
    r = carver_db.calculate(p, AS_OF, {"treasury_30y_monthly": rates, "segment_rates": segments})
    # Employed at the freeze, 59 months (1/2/1996 → 12/31/2000): (A) = (10,000 − 4,900) × 59/180
    # = 1,671.67 > (B) = 1,475 → 139.31 a month at NRD.
    assert r["accrued_benefit"]["monthly_at_nrd"] == "139.31"
    est = r["estimates"][0]  # age 29: deferred 36 years, Value far under $5,000
    assert est["cash_out"]["required"] is True
    assert set(est["forms"]) == {"lump_sum"}
    assert D(0) < D(est["forms"]["lump_sum"]["lump_sum"]) <= D(5000)
    late = r["estimates"][1]  # at NRD the same annuity is worth more than $5,000: no cash-out
    assert late["cash_out"]["required"] is False
    assert late["forms"]["life"]["monthly"] == "139.31"


def test_example5_spouse_benefit_through_the_core():
    p = Participant(
        id="ex5",
        birth_date=date(1962, 9, 12),
        hire_date=date(1986, 1, 6),
        termination_date=date(2014, 10, 20),
        death_date=date(2014, 10, 20),
        marital_status="married",
        spouse_birth_date=date(1975, 5, 1),
        hours=M({**{y: 2080 for y in range(1986, 2014)}, 2014: 1700}),
        compensation=M({1997: D(43000), 1998: D(45000), 1999: D(47000), 2000: D(49000)}),
        commencement_dates=(date(2027, 10, 1), date(2017, 10, 1)),
        plan_data=M({"social_security_amount": "14200", "marriage_date": "2005-06-01"}),
    )
    r = carver_db.calculate(p, AS_OF, {})
    psb = [e["preretirement_spouse_benefit"] for e in r["estimates"]]
    assert psb[0] == {"monthly": "652.36", "rule": "9.2(B)(1)"}
    assert psb[1]["monthly"] == "326.18"


def test_python_api_returns_decimals_and_traces():
    p = ex1()
    c = core(p, AS_OF, ServiceVestingSettings())
    result = calculate_benefits(p, AS_OF, c)
    assert result.at_nrd.annual == D(19650)
    assert result.at_nrd.monthly == D("1637.50")
    e = estimate(p, AS_OF, date(2020, 5, 1), c)
    assert e.kind == "early"
    assert e.forms["life"].annual == D(19650) * D(".79")  # 36 months early
    assert e.forms["life"].trace.steps


def test_price_grid_every_month_to_70():
    p = ex1(
        birth_date=date(1975, 4, 10),
        hire_date=date(1995, 2, 15),
        marital_status="married",
        spouse_birth_date=date(1977, 1, 1),
    )
    grid = price_grid(p, AS_OF)
    first, last = grid.rows[0].commencement_date, grid.rows[-1].commencement_date
    assert first == date(2030, 5, 1)  # first of the month on the 55th birthday (4/10/2030 → 5/1)
    assert last == date(2045, 5, 1)  # age 70
    assert len(grid.rows) == 181
    assert {"life", "js50", "js66", "js100", "cc5", "cc10", "cc15", "cc20"} <= set(grid.forms)
    lifes = [r.monthly["life"] for r in grid.rows]
    assert lifes == sorted(lifes)  # never more for an earlier start
