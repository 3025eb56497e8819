"""The 401(k)'s optional forms besides the annuities and the cash lump sum (SPEC §6.3, plan §7.6(d)-(g)):
installments, a partial lump sum, a direct rollover and deferral, with the engine's figures.

Expected values are worked by hand from the plan text:

* §7.6(e): "equal monthly, quarterly or annual installments over a period not to exceed ten (10)
  years", not "beyond the life expectancy of such Participant"; A12 (GAP-27): each installment = the
  current vested balance ÷ the installments remaining (to the cent, half up).
* The plan names no life expectancy table: the Single Life Table of Treas. Reg. §1.401(a)(9)-9(b)
  (T.D. 9930, years from 2022) at the age on the birthday in the year payments start.
* SPEC §6.12 / Code §402(c)(4)(A): installments over 10 years or more are not eligible rollover
  distributions; shorter ones are.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benefits.engine.account_options import (
    account_options,
    check_choice,
    choice_figures,
    first_installment,
    installment_limit,
    rollover_eligible_installments,
    withholding_form,
)
from benefits.engine.life_expectancy import TableNotInForce, single_life_expectancy
from benefits.engine.plans import PLANS
from benefits.engine.plans.carver_401k.distributions import ACCOUNT_DISTRIBUTIONS as RULES

BALANCE = Decimal("243525.00")  # the demo's Pat Morgan: 148,250 + 21,400 + 61,875 + 12,000
BORN = date(1962, 3, 14)
ASD = date(2027, 2, 1)


def options(balance=BALANCE, born=BORN, asd=ASD):
    return account_options(
        RULES,
        balance,
        birth_date=born,
        asd=asd,
        normal_retirement_date=date(2027, 4, 1),
        deferral_until=date(2038, 4, 1),
    )


def test_the_plan_offers_the_capability_through_the_plan_interface():
    assert PLANS["carver-401k"].account_distributions is RULES
    assert PLANS["carver-db"].account_distributions is None
    assert RULES.frequencies == ("monthly", "quarterly", "annual")  # §7.6(e)
    assert RULES.max_installment_years == 10  # §7.6(e)


def test_single_life_table_values():
    # Treas. Reg. §1.401(a)(9)-9(b) as amended by T.D. 9930
    on = date(2027, 1, 1)
    assert single_life_expectancy(65, on) == Decimal("22.9")
    assert single_life_expectancy(80, on) == Decimal("11.2")
    assert single_life_expectancy(81, on) == Decimal("10.5")
    assert single_life_expectancy(82, on) == Decimal("9.9")
    assert single_life_expectancy(125, on) == Decimal("1.0")
    # Issue 24: before 2022 the T.D. 8987 table (Treas. Reg. §1.401(a)(9)-9, A-1) is read; before
    # 2002 no table is held.
    assert single_life_expectancy(65, date(2021, 12, 31)) == Decimal("21.0")
    assert single_life_expectancy(80, date(2002, 1, 1)) == Decimal("10.2")
    assert single_life_expectancy(115, date(2010, 6, 1)) == Decimal("1.0")  # 111 and over
    with pytest.raises(TableNotInForce):
        single_life_expectancy(65, date(2001, 12, 31))


def test_at_65_the_plans_ten_years_bind():
    lim = installment_limit(RULES, birth_date=BORN, asd=ASD)
    # age 65 on the 2027 birthday; life expectancy 22.9 > 10
    assert (lim.age, lim.life_expectancy, lim.max_years, lim.limited_by) == (65, Decimal("22.9"), 10, "plan")


def test_at_82_the_life_expectancy_binds():
    # born 1945: 82 on the 2027 birthday; 9.9 years → at most 9 whole years (§7.6(e))
    lim = installment_limit(RULES, birth_date=date(1945, 6, 1), asd=ASD)
    assert (lim.age, lim.life_expectancy, lim.max_years, lim.limited_by) == (
        82,
        Decimal("9.9"),
        9,
        "life_expectancy",
    )
    # 80 (11.2) still gets the plan's 10
    assert installment_limit(RULES, birth_date=date(1947, 6, 1), asd=ASD).max_years == 10


def test_first_installments_worked_by_hand():
    o = options().as_json()["installments"]
    ex = {e["years"]: e for e in o["examples"]}
    assert sorted(ex) == [5, 9, 10]
    # 243,525.00 ÷ 120 = 2,029.375 → 2,029.38 (half up); ÷ 40 = 6,088.125 → 6,088.13; ÷ 10 = 24,352.50
    assert ex[10]["first"] == {"monthly": "2029.38", "quarterly": "6088.13", "annual": "24352.50"}
    # ÷ 108 = 2,254.8611… → 2,254.86; ÷ 36 = 6,764.5833… → 6,764.58; ÷ 9 = 27,058.333… → 27,058.33
    assert ex[9]["first"] == {"monthly": "2254.86", "quarterly": "6764.58", "annual": "27058.33"}
    # ÷ 60 = 4,058.75; ÷ 20 = 12,176.25; ÷ 5 = 48,705.00
    assert ex[5]["first"] == {"monthly": "4058.75", "quarterly": "12176.25", "annual": "48705.00"}
    # SPEC §6.12: 10 years is not an eligible rollover distribution, 9 years is
    assert (ex[10]["rollover_eligible"], ex[10]["withholding_form"]) == (False, "W-4P")
    assert (ex[9]["rollover_eligible"], ex[9]["withholding_form"]) == (True, "W-4R")


def test_partial_lump_sum_rollover_and_deferral():
    o = options().as_json()
    p = o["partial_lump_sum"]
    # example: half the balance now (121,762.50); the rest ÷ 120 = 1,014.6875 → 1,014.69 a month
    assert (p["example_amount"], p["example_rest"], p["example_rest_monthly_first"]) == (
        "121762.50",
        "121762.50",
        "1014.69",
    )
    assert p["remainder"] == ["installments", "annuity"]  # §7.6(g)(i)-(ii)
    assert o["direct_rollover"] == {
        "available": True,
        "amount": "243525.00",
        "rollover_eligible": True,
        "section": "Plan §7.6(f), §7.9",
    }
    assert o["deferral"]["normal_retirement_date"] == "2027-04-01"
    assert not o["deferral"]["beyond_normal_retirement"]


def test_rollover_and_withholding_rules():
    assert rollover_eligible_installments(9) and not rollover_eligible_installments(10)
    assert withholding_form(periodic=True, rollover_eligible=False) == "W-4P"
    assert withholding_form(periodic=True, rollover_eligible=True) == "W-4R"
    assert withholding_form(periodic=False, rollover_eligible=True) == "W-4R"


def test_choices_are_checked_against_the_engines_options():
    o = options().as_json()
    assert check_choice("installments", {"frequency": "monthly", "years": "10"}, o) == {}
    too_long = check_choice("installments", {"frequency": "monthly", "years": "11"}, o)
    assert set(too_long) == {"years"} and "no more than 10 years" in too_long["years"]
    assert set(check_choice("installments", {"frequency": "weekly", "years": "0"}, o)) == {
        "frequency",
        "years",
    }
    old = options(born=date(1945, 6, 1)).as_json()
    over_le = check_choice("installments", {"frequency": "annual", "years": "10"}, old)
    assert "life expectancy" in over_le["years"] and "at most 9 years" in over_le["years"]
    over = check_choice(
        "partial_lump_sum", {"partial_amount": "243525.00", "frequency": "monthly", "years": "5"}, o
    )
    assert set(over) == {"partial_amount"} and "$243,525.00" in over["partial_amount"]
    assert "partial_amount" in check_choice(
        "partial_lump_sum", {"partial_amount": "-5", "frequency": "monthly", "years": "5"}, o
    )
    assert "partial_amount" in check_choice(
        "partial_lump_sum", {"partial_amount": "10.005", "frequency": "monthly", "years": "5"}, o
    )
    ok = {"partial_amount": "43525.00", "frequency": "quarterly", "years": "5"}
    assert check_choice("partial_lump_sum", ok, o) == {}
    # 243,525 − 43,525 = 200,000 ÷ 20 quarters = 10,000.00
    assert choice_figures("partial_lump_sum", ok, o) == {
        "frequency": "quarterly",
        "years": "5",
        "lump_sum": "43525.00",
        "rest": "200000.00",
        "installments": "20",
        "first_installment": "10000.00",
        "installments_rollover_eligible": "yes",
        "installments_withholding": "W-4R",
    }


def test_the_contract_result_carries_the_options_and_their_trace():
    from types import MappingProxyType

    from benefits.engine.plans.carver_401k import calculate
    from benefits.engine.types import Participant

    p = Participant(
        id="A",
        birth_date=date(1961, 3, 1),
        hire_date=date(1998, 3, 2),
        termination_date=date(2025, 12, 31),
        marital_status="married",
        spouse_birth_date=date(1964, 3, 1),
        commencement_dates=(date(2026, 3, 1),),
        plan_data=MappingProxyType({"balances": {"before_tax": "100000.00"}}),
    )
    r = calculate(p, date(2026, 1, 15), {})
    e = r["estimates"][0]
    inst = e["account_options"]["installments"]
    # age 65 on the 2026 birthday: 22.9 years, so the plan's 10 years bind; 100,000 ÷ 120 = 833.333… → 833.33
    assert (inst["age"], inst["max_years"], inst["life_expectancy"]) == (65, 10, "22.9")
    assert {x["years"]: x["first"]["monthly"] for x in inst["examples"]}[10] == "833.33"
    trace = r["traces"]["estimates.2026-03-01.account_options"]
    assert any("Single Life Table" in step["section"] for step in trace)


@given(
    balance=st.decimals(min_value=Decimal("0.01"), max_value=Decimal("5000000"), places=2),
    n_years=st.integers(min_value=1, max_value=10),
    frequency=st.sampled_from(["monthly", "quarterly", "annual"]),
)
def test_installments_pay_out_the_balance_to_within_half_a_cent_each(balance, n_years, frequency):
    per_year = {"monthly": 12, "quarterly": 4, "annual": 1}[frequency]
    n = n_years * per_year
    amount, _ = first_installment(balance, n_years, frequency)
    assert abs(amount * n - balance) <= Decimal("0.005") * n


@given(born=st.dates(min_value=date(1920, 1, 1), max_value=date(2005, 12, 31)))
def test_the_longest_period_never_passes_the_plan_cap_or_the_life_expectancy(born):
    lim = installment_limit(RULES, birth_date=born, asd=ASD)
    assert 0 <= lim.max_years <= 10
    assert lim.life_expectancy is not None and lim.max_years <= lim.life_expectancy


def test_single_life_table_every_row():
    """Every age of the Single Life Table, Treas. Reg. §1.401(a)(9)-9(b) (T.D. 9930), pinned in
    ten-year rows as the regulation prints them, and never rising with age."""
    rows = {
        0: "84.6 83.7 82.8 81.8 80.8 79.8 78.8 77.9 76.9 75.9",
        10: "74.9 73.9 72.9 71.9 70.9 69.9 69.0 68.0 67.0 66.0",
        20: "65.0 64.1 63.1 62.1 61.1 60.2 59.2 58.2 57.3 56.3",
        30: "55.3 54.4 53.4 52.5 51.5 50.5 49.6 48.6 47.7 46.7",
        40: "45.7 44.8 43.8 42.9 41.9 41.0 40.0 39.0 38.1 37.1",
        50: "36.2 35.3 34.3 33.4 32.5 31.6 30.6 29.8 28.9 28.0",
        60: "27.1 26.2 25.4 24.5 23.7 22.9 22.0 21.2 20.4 19.6",
        70: "18.8 18.0 17.2 16.4 15.6 14.8 14.1 13.3 12.6 11.9",
        80: "11.2 10.5 9.9 9.3 8.7 8.1 7.6 7.1 6.6 6.1",
        90: "5.7 5.3 4.9 4.6 4.3 4.0 3.7 3.4 3.2 3.0",
        100: "2.8 2.6 2.5 2.3 2.2 2.1 2.1 2.1 2.0 2.0",
        110: "2.0 2.0 2.0 1.9 1.9 1.8 1.8 1.6 1.4 1.1",
        120: "1.0",
    }
    on = date(2027, 1, 1)
    expected = {start + i: Decimal(v) for start, row in rows.items() for i, v in enumerate(row.split())}
    assert len(expected) == 121
    for age, value in expected.items():
        assert single_life_expectancy(age, on) == value, age
    values = [expected[a] for a in range(121)]
    assert all(a >= b for a, b in zip(values, values[1:], strict=False))
