"""Issue 24, Quaker City: the §415(b) limit on every form, no crash on a separation before 2000 or
without vesting, the account without the NRD's mortality table, and late estimates without the NRD's
rate. Expected values are worked from the plan text (sections cited); SPEC §15 assumptions A1–A3.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from types import MappingProxyType as M

from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine.actuarial import form_factor, life_annuity, plan_basis
from benefits.engine.dates import months_between
from benefits.engine.plans.quaker_cash_balance import calculate
from benefits.engine.plans.quaker_cash_balance.annuity import applicable_basis
from benefits.engine.plans.quaker_cash_balance.estimates import estimate
from benefits.engine.plans.quaker_cash_balance.forms import _form
from benefits.engine.plans.quaker_cash_balance.grid import price_grid
from benefits.engine.plans.quaker_cash_balance.inputs import _core
from benefits.engine.plans.quaker_cash_balance.market import MarketData
from benefits.engine.plans.quaker_cash_balance.results import benefits
from benefits.engine.plans.quaker_cash_balance.settings import BenefitSettings
from benefits.engine.types import Participant

from .conftest import spec_assumptions

D = Decimal
FULL = 2080


def _m(d: dict) -> M:
    return M({k: (D(v) if isinstance(v, str) else v) for k, v in d.items()})


def _person(**kw) -> Participant:
    base = dict(
        id="q", birth_date=date(1960, 3, 15), hire_date=date(1985, 1, 7), termination_date=date(2004, 12, 31),
        hours=_m({y: FULL for y in range(1985, 2005)}), compensation=_m({y: "24000" for y in range(1995, 2005)}),
        plan_data=M({"opening_balance": "900000.00", "participation_date": "1990-02-01"}),
    )  # fmt: skip
    base.update(kw)
    return Participant(**base)


# -- (a) §415(b) on the early Joint and Survivor Annuity ------------------------------------------------

MARRIED = _person(
    marital_status="married", spouse_birth_date=date(1961, 1, 1), commencement_dates=(date(2005, 3, 1),)
)


def test_early_joint_and_survivor_annuity_is_held_to_the_415_limit_s1_2_s5_15a():
    # A vested former participant starts at 44 under §5.9(e), so his life annuity and his QJSA are
    # both bought directly from the $1.16 million balance (§1.2(g)); the QJSA alone came to 6,416.23.
    # §5.15(a)(ii): the high-3 average Statutory Compensation is 24,000 and he has 20 years of service
    # (fraction 1, §5.15(d)(ii)); the 2005 dollar limit of 170,000 reduced for a start at 44 (8%, §1.2(a))
    # is larger, so the limit is 24,000 a year: 2,000.00 a month for the life annuity. §5.15(a) leaves
    # the Spouse's survivor portion of the §5.10 QJSA out (Code §415(b)(2)(B)), so the QJSA's own
    # monthly amount is held to the same 2,000.00; "in no event shall ... exceed the maximum" (§1.2).
    r = calculate(MARRIED, date(2004, 12, 31), spec_assumptions())
    (est,) = r["estimates"]
    assert est["route"] == "vested_immediate"
    assert est["forms"]["life"]["monthly"] == "2000.00"
    assert est["forms"]["js50"]["monthly"] == "2000.00"
    assert est["forms"]["js50"]["survivor_monthly"] == "1000.00"
    assert any("joint and 50% survivor annuity" in n for n in est["notes"])
    steps = r["traces"]["estimates[0].forms.js50"]
    assert steps[-1]["section"].startswith("§1.2(a),(c), §5.15(a)")
    assert steps[-1]["inputs"]["before_limit"] == "6416.23"


def test_price_grid_holds_the_same_form_to_the_limit():
    (row, *_) = price_grid(MARRIED, date(2004, 12, 31), spec_assumptions(), start=date(2005, 3, 1))
    assert row.monthly["life"] == D("2000.00") and row.monthly["js50"] == D("2000.00")


def _converted_limit(
    limit: Decimal, key: str, table, birth: date, start: date, other: date | None
) -> Decimal:
    """§1.2(a): the straight life annuity of ``limit`` a year as form ``key`` (Applicable Mortality
    Table at 8%), a month; the married participant's QJSA keeps the whole limit (§5.15(a))."""
    basis = plan_basis(table, 0.08)
    age = months_between(birth, start) / 12.0
    spouse = months_between(other, start) / 12.0 if other is not None and key.startswith("js") else None
    ratio = life_annuity(basis, age) / form_factor(basis, _form(key), age, spouse)
    return limit * Decimal(repr(ratio)) / 12


@settings(max_examples=40, deadline=None)
@given(
    birth=st.dates(date(1940, 1, 1), date(1970, 12, 31)),
    pay=st.integers(15, 250).map(lambda k: D(k * 1000)),
    opening=st.integers(50, 4000).map(lambda k: D(k * 1000)),
    married=st.booleans(),
    other_offset=st.integers(-15, 15),
    start_months=st.integers(1, 180),
)
def test_no_form_pays_more_than_the_limit_converted_to_it(
    birth, pay, opening, married, other_offset, start_months
):
    # §1.2 (last sentence of (c)), §5.15(a); Code §415(b)(2)(B): every form, every route, every age.
    other = date(birth.year + other_offset, birth.month, min(birth.day, 28))
    p = _person(
        birth_date=birth, compensation=_m({y: str(pay) for y in range(1995, 2005)}),
        plan_data=M({"opening_balance": str(opening), "participation_date": "1990-02-01",
                     **({} if married else {"contingent_annuitant_birth_date": other.isoformat()})}),
        marital_status="married" if married else "single", spouse_birth_date=other if married else None,
    )  # fmt: skip
    as_of = date(2004, 12, 31)
    assumptions = spec_assumptions()
    market = MarketData.from_assumptions(assumptions)
    core = _core(p, as_of, None)
    start = date(2005 + (start_months - 1) // 12, (start_months - 1) % 12 + 1, 1)
    e = estimate(p, as_of, market, core, start, assumptions=assumptions, with_relative_values=False)
    if e.limit_415 is None:
        return
    table = applicable_basis(start, market).table
    annuitant = other
    for key, f in e.forms.items():
        if f.monthly is None:
            continue
        qjsa = key == "js50" and married
        cap = e.limit_415 / 12 if key == "life" or qjsa else _converted_limit(
            e.limit_415, key, table, birth, start, annuitant
        )  # fmt: skip
        assert f.monthly <= cap, (key, f.monthly, cap)


# -- (b) no crash for a separation before 2000 or without vesting ---------------------------------------


def _pre_2000(hire: date, term: date) -> Participant:
    return _person(
        birth_date=date(1950, 3, 15), hire_date=hire, termination_date=term,
        hours=_m({y: FULL for y in range(hire.year, term.year + 1)}),
        compensation=_m({y: "40000" for y in range(max(hire.year, 1995), term.year + 1)}),
        commencement_dates=(date(2012, 4, 1),),
        plan_data=M({"opening_balance": "30000.00", "dec31_1999_benefit": "300.00"}),
    )  # fmt: skip


def _assumptions_to_2012() -> dict:
    a = spec_assumptions()
    a["treasury_10y_november"].update({str(y): "4.50" for y in range(2010, 2013)})
    return a


def test_separation_before_2000_with_a_1999_benefit_returns_a_result():
    # Left June 30, 1998: the account opens January 1, 2000 with the Beginning Balance (§4.2), after
    # the separation, so the §5.16 test of this text was never made at that separation (the pre-2000
    # plan's rule applied then, GAP-1); the benefits are still priced.
    r = calculate(_pre_2000(date(1980, 1, 7), date(1998, 6, 30)), date(2011, 12, 31), _assumptions_to_2012())
    assert "error" not in r and r["vesting"]["vested_percent"] == "100"
    assert "cash_out" not in r
    assert any("before January 1, 2000" in n for n in r["benefit_notes"])
    assert r["estimates"][0]["forms"]["life"]["monthly"]


def test_unvested_separation_with_a_1999_benefit_returns_a_result():
    # Hired March 3, 1997, left June 30, 2000 with 4 Years of Vesting Service (§1.63): not vested
    # (§5.9(a), five-year cliff), so there is no lump sum at the separation and no floor to test.
    r = calculate(_pre_2000(date(1997, 3, 3), date(2000, 6, 30)), date(2011, 12, 31), _assumptions_to_2012())
    assert r["vesting"]["vested_percent"] == "0"
    assert r["cash_out"]["required"] is False
    assert r["estimates"][0]["route"] == "not_vested"


# -- (d) an NRD in 2003–2007: the account needs no mortality table --------------------------------------


def _nrd_2005() -> tuple[Participant, dict]:
    p = _person(
        birth_date=date(1940, 6, 15), hire_date=date(1990, 1, 7), termination_date=None,
        hours=_m({y: FULL for y in range(1990, 2012)}), compensation=_m({y: "40000" for y in range(1995, 2012)}),
        commencement_dates=(date(2012, 1, 1),), plan_data=M({"opening_balance": "30000.00"}),
    )  # fmt: skip
    a = _assumptions_to_2012()
    del a["applicable_mortality_table"]  # the law's table for each date
    return p, a


def test_nrd_in_2005_keeps_the_account_and_the_late_estimate_s4_s1_2f():
    # NRD July 1, 2005 falls where the §417(e)(3) table is Rev. Rul. 2001-62 (§1.2(f)); only the
    # conversion at NRD (§5.3(a), §1.2(g)) needs it. The account is Interest and Contribution Credits
    # (§4.3, §4.4), no mortality: it is the same with or without the annuity figures. The table is
    # now held both ways the ruling can be read: the unloaded reading prices the accrued benefit and
    # its trace says the plan's reading is unconfirmed; the 2012 late retirement (§5.7(b)) converts
    # the 2012 balance on the 2012 table.
    p, a = _nrd_2005()
    r = calculate(p, date(2011, 12, 31), a)
    account_only = benefits(p, date(2011, 12, 31), a, annuities=False).account
    assert r["account"]["balance"] == str(account_only.balance) and D(r["account"]["balance"]) > 30000
    assert not [m for m in r.get("missing", []) if m["blocks"]]
    basis = str(r["traces"]["accrued_benefit.monthly_at_nrd"])
    assert "Rev. Rul. 2001-62 table (unloaded reading" in basis and "unconfirmed" in basis
    (est,) = r["estimates"]
    assert est["route"] == "late" and D(est["forms"]["life"]["monthly"]) > 0
    # Once an administrator sets the plan's reading (loaded), that table prices it, and says so: the
    # loaded rates are lower, so the same balance buys a smaller annuity.
    loaded = calculate(
        p, date(2011, 12, 31), a, {"benefits": BenefitSettings(revrul_2001_62_reading="loaded")}
    )
    assert "loaded reading, confirmed" in str(loaded["traces"]["accrued_benefit.monthly_at_nrd"])
    assert D(loaded["accrued_benefit"]["monthly_at_nrd"]) < D(r["accrued_benefit"]["monthly_at_nrd"])


def test_late_estimate_without_the_nrds_rate_s5_7b():
    # The 30-year rate for May 2005 (the NRD's look-back month, §1.2(e)) prices only the accrued
    # benefit at NRD; the 2012 estimate uses the rate for November 2011.
    p, a = _nrd_2005()
    a.pop("applicable_interest_rate_default")
    a["applicable_interest_rate"] = {"2011-11": "3.00"}
    a["applicable_mortality_table"] = "rev-rul-95-6"
    r = calculate(p, date(2011, 12, 31), a)
    (m,) = [m for m in r["missing"] if m["blocks"]]
    assert m["field"] == "/assumptions/applicable_interest_rate/2005-05" and m["blocks"] == [
        "/accrued_benefit"
    ]
    assert r["estimates"][0]["forms"]["life"]["monthly"]
