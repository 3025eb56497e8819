"""Contributions: §3.1, §3.3, §3.4, §3.6, §3.12, §3.13 (SPEC §4, Example 1). Expected values by hand."""

from datetime import date, timedelta
from decimal import Decimal as D

import pytest

from benefits.engine.plans.carver_401k.contributions import (
    ElectionChange,
    PayPeriod,
    check_election_change,
    match_for_periods,
    period_match,
    validate_deferral_percent,
    year_contributions,
)
from benefits.engine.plans.carver_401k.limits import (
    annual_additions_limit,
    deferral_limit_402g,
    reduce_to_415,
)
from benefits.engine.plans.carver_401k.settings import BenefitSettings


def example1_periods():
    """Participant A, 2002: 26 biweekly periods from 2002-01-07 at $2,000; 6% for 1–13, 3% for 14–26."""
    start = date(2002, 1, 7)
    return [
        PayPeriod(start + timedelta(days=14 * k), D("2000.00"), D(6) if k < 13 else D(3)) for k in range(26)
    ]


def test_example1_per_payroll_match_is_1820():
    # §3.4(a), A6: 13 × min(120, 80) + 13 × min(60, 80) = 1,040 + 780.
    r = match_for_periods(example1_periods())
    assert r.deferrals == D("2340.00")
    assert r.match == D("1820.00")
    assert r.source == "matching_2002"
    assert r.per_period[0] == D("80.00") and r.per_period[13] == D("60.00")


def test_example1_annual_true_up_is_2080():
    # GAP-6: min(2,340, 4% × 52,000 = 2,080).
    r = match_for_periods(example1_periods(), settings=BenefitSettings(match_annual_true_up=True))
    assert r.match == D("2080.00")


def test_example1_2001_match_is_half_of_deferrals_without_cap():
    # §3.4(a) before 2002: 50% × 3,000 = 1,500; at 15%: 50% × 7,500 = 3,750; Nonelective 2% × 50,000.
    yc = year_contributions(2001, "50000", "3000", nonelective_made=True)
    assert yc.amounts["matching_pre2002"] == D("1500.00")
    assert yc.amounts["matching"] == D("1500.00")
    assert yc.amounts["nonelective"] == D("1000.00")
    assert year_contributions(2001, "50000", "7500").amounts["matching_pre2002"] == D("3750.00")


def test_example1_discretionary_3_percent_is_1560():
    # §3.6: 3% × 52,000.
    yc = year_contributions(2002, "52000", "2340", discretionary_percent="3")
    assert yc.amounts["discretionary"] == D("1560.00")
    # from annual totals the match is the level-rate figure (Example 1's annual reading)
    assert yc.amounts["matching_2002"] == D("2080.00")


def test_nonelective_and_discretionary_need_employment_on_last_day():
    # §3.13, §3.6: employed on December 31.
    yc = year_contributions(
        2002, "52000", "0", nonelective_made=True, discretionary_percent="3", employed_last_day=False
    )
    assert yc.amounts["nonelective"] == D("0") and yc.amounts["discretionary"] == D("0")


def test_nonelective_only_from_2001():
    assert "nonelective" not in year_contributions(2000, "50000", "0", nonelective_made=True).amounts


def test_discretionary_above_15_percent_rejected():
    with pytest.raises(ValueError):
        year_contributions(2002, "50000", "0", discretionary_percent="16")


def test_period_match_edges():
    # §3.4(a): exactly 4% is matched in full; above is capped; pre-2002 half.
    assert period_match(D("80.00"), D("2000"), date(2002, 1, 7)) == D("80.00")
    assert period_match(D("80.01"), D("2000"), date(2002, 1, 7)) == D("80.00")
    assert period_match(D("0.01"), D("2000"), date(2001, 12, 31)) == D("0.01")  # 0.005 half up
    assert period_match(D("100"), D("2000"), date(2001, 12, 31)) == D("50.00")


def test_without_safe_harbor_amendment_the_50_percent_match_continues():
    # GAP-1: if Amendment One was not adopted.
    s = BenefitSettings(safe_harbor_2002_adopted=False)
    assert period_match(D("120"), D("2000"), date(2002, 1, 7), s) == D("60.00")


def test_402g_limits_stated_in_plan():
    # §3.2(b): $9,500 (1997), $10,000 (1998–99), $10,500 (2000–01).
    assert deferral_limit_402g(1997)[0] == D("9500")
    assert deferral_limit_402g(1999)[0] == D("10000")
    assert deferral_limit_402g(2001)[0] == D("10500")
    # after 2001 "adjusted" (OUTSIDE): the shared IRS parameter, e.g. $13,000 for 2004.
    assert deferral_limit_402g(2004)[0] == D("13000")
    assert deferral_limit_402g(2004, "12345")[0] == D("12345")


def test_excess_deferrals_not_matched():
    # §3.2(b)-(c): 2001 limit 10,500; deferring 11,000 of 100,000 leaves 500 excess, match on 10,500.
    yc = year_contributions(2001, "100000", "11000")
    assert yc.excess_deferrals == D("500.00")
    assert yc.amounts["matching_pre2002"] == D("5250.00")


def test_compensation_limit_caps_match_base():
    # §1.15: 2001 limit $170,000; 4% cap uses it from 2002 (2002 limit $200,000 OUTSIDE).
    yc = year_contributions(2002, "300000", "11000")
    assert yc.amounts["matching_2002"] == D("8000.00")  # 4% × 200,000


@pytest.mark.parametrize("pct,ok", [(0, True), (1, True), (15, True), (16, False), ("2.5", False)])
def test_deferral_percent_rule(pct, ok):
    # §3.1: whole percentages, 1% to 15%.
    if ok:
        validate_deferral_percent(pct)
    else:
        with pytest.raises(ValueError):
            validate_deferral_percent(pct)


def test_one_change_per_quarter_and_10_days_notice():
    # §3.3: Example 1's change filed 10+ days ahead, the only one that quarter.
    first = ElectionChange(date(2002, 6, 20), date(2002, 7, 1), D(3), D(6))
    assert check_election_change(first).allowed
    late = ElectionChange(date(2002, 6, 22), date(2002, 7, 1), D(3), D(6))
    assert not check_election_change(late).allowed  # 9 days before
    second = ElectionChange(date(2002, 6, 25), date(2002, 7, 15), D(4), D(3))
    assert not check_election_change(second, [first]).allowed
    next_q = ElectionChange(date(2002, 7, 2), date(2002, 7, 15), D(4), D(3))
    assert check_election_change(next_q, [first]).allowed


def test_stop_any_time_and_safe_harbor_window_extra():
    # §3.3 "terminate ... at any time" (GAP-23); §3.2 30-day window is "in addition".
    first = ElectionChange(date(2002, 1, 2), date(2002, 1, 21), D(5), D(6))
    stop = ElectionChange(date(2002, 2, 1), date(2002, 2, 18), D(0), D(5))
    assert check_election_change(stop, [first]).allowed
    strict = BenefitSettings(stop_deferrals_outside_quarterly_limit=False)
    assert not check_election_change(stop, [first], settings=strict).allowed
    window = ElectionChange(date(2002, 1, 5), date(2002, 1, 21), D(8), D(6), in_safe_harbor_window=True)
    assert check_election_change(first, [window]).allowed


def test_post_hardship_rate_cap():
    c = ElectionChange(date(2004, 6, 1), date(2004, 6, 21), D(10), D(0))
    assert not check_election_change(c, rate_cap=D(8)).allowed


def test_415_limit_and_reduction_order():
    # §3.12(d): 2001 lesser of $35,000 and 25% × 40,000 = 10,000.
    lim, _ = annual_additions_limit(2001, "40000")
    assert lim == D("10000.00")
    # from 2002, 100% of compensation (GAP-3): lesser of $40,000 and 30,000.
    assert annual_additions_limit(2002, "30000")[0] == D("30000.00")
    assert annual_additions_limit(
        2002, "30000", settings=BenefitSettings(section_415c_percent_from_2002=D(25))
    )[0] == D("7500.00")
    # §3.12(e): Discretionary first, then Nonelective, then Before-Tax ...
    allowed, excess, _ = reduce_to_415(
        {"discretionary": "1000", "nonelective": "600", "before_tax": "9000", "matching_pre2002": "4500"},
        D("14000"),
    )
    assert excess == D("1100.00")
    assert allowed["discretionary"] == D("0") and allowed["nonelective"] == D("500.00")
    assert allowed["before_tax"] == D("9000.00") and allowed["matching_pre2002"] == D("4500.00")


def test_per_period_match_stops_at_401a17_limit():
    # §1.15, §3.4(a): 2002 limit $200,000 (OUTSIDE). 26 × $10,000 at 4%: periods 1–20 count in full
    # (match 400 each = 8,000); from period 21 no Compensation is left under the limit → no match.
    periods = [PayPeriod(date(2002, 1, 7) + timedelta(days=14 * k), D("10000"), D(4)) for k in range(26)]
    r = match_for_periods(periods)
    assert r.per_period[19] == D("400.00") and r.per_period[20] == D("0.00")
    assert r.match == D("8000.00")
