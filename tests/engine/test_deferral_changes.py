"""Deferral rate changes through the plan protocol's ``deferrals`` (Carver 401(k) §3.1, §3.3) and the
year's dollar limit (Code §402(g)(1); §414(v) catch-up; SECURE 2.0 §109 for ages 60-63 from 2025).
Dollar figures: the IRS's annual limits (Notice 2024-80, Notice 2025-67: 402(g) 23,500 in 2025, 24,500 in 2026; catch-up 7,500 in
2024 and 2025, 8,000 in 2026; 11,250 at 60-63 in 2025 and 2026)."""

from datetime import date
from decimal import Decimal as D

import pytest

from benefits.engine.deferral_limits import elective_deferral_limit
from benefits.engine.plans import get_plan
from benefits.engine.plans.carver_401k.settings import BenefitSettings

K = get_plan("carver-401k").deferrals


def test_only_the_401k_has_deferrals_and_it_has_no_roth():
    assert K is not None and [k.value for k in K.kinds] == ["before_tax"]
    assert all(
        get_plan(p).deferrals is None
        for p in ("carver-db", "fairport-esop", "carver-esop", "quaker-cash-balance")
    )


@pytest.mark.parametrize(
    ("rate", "ok"),
    [("0", True), ("1", True), ("15", True), ("16", False), ("0.5", False), ("1.5", False), ("-1", False)],
)
def test_rates_at_the_limits(rate, ok):
    problems = K.check_rate(D(rate))
    assert (problems == ()) is ok
    if not ok:
        assert all("§3.1" in p for p in problems)


@pytest.mark.parametrize(
    ("filed", "effective"),
    [
        (date(2026, 11, 21), date(2026, 12, 1)),  # exactly 10 days before December 1
        (date(2026, 11, 22), date(2027, 1, 1)),  # 9 days: too late for December
        (date(2026, 12, 22), date(2027, 1, 1)),  # exactly 10 days before January 1
        (date(2026, 12, 23), date(2027, 2, 1)),
    ],
)
def test_effective_date_is_the_first_payroll_of_a_month_ten_days_ahead(filed, effective):
    assert K.next_effective(filed, [], D(6)) == effective
    assert K.check_change(filed, effective, D(6), []) == ()


def test_one_change_a_quarter_but_stopping_any_time():
    earlier = [(date(2026, 10, 5), D(8))]
    # a second change in Q4 is refused and the next one can be made from January 1 (effective Feb 1)
    assert K.quarter_used(date(2026, 11, 21), earlier)
    assert K.next_effective(date(2026, 11, 21), earlier, D(6)) == date(2027, 2, 1)
    problems = K.check_change(date(2026, 11, 21), date(2026, 12, 1), D(6), earlier)
    assert any("one change" in p and "§3.3" in p for p in problems)
    # stopping is allowed outside the quarterly limit (GAP-23's default reading)
    assert K.check_change(date(2026, 11, 21), date(2026, 12, 1), D(0), earlier) == ()
    strict = BenefitSettings(stop_deferrals_outside_quarterly_limit=False)
    assert K.check_change(date(2026, 11, 21), date(2026, 12, 1), D(0), earlier, strict) != ()
    # a change in the previous quarter does not count
    assert not K.quarter_used(date(2027, 1, 2), earlier)


def test_a_change_must_reach_a_months_first_payroll_ten_days_ahead():
    assert K.check_change(date(2026, 11, 25), date(2026, 12, 1), D(6), []) != ()
    assert K.check_change(date(2026, 11, 1), date(2026, 11, 15), D(6), []) != ()


@pytest.mark.parametrize(
    ("year", "birth", "offered", "total", "catch_up"),
    [
        (2026, date(1980, 1, 1), True, "24500", "0"),  # 46: no catch-up
        (2026, date(1976, 12, 31), True, "32500", "8000"),  # reaches 50 on the year's last day
        (2026, date(1977, 1, 1), True, "24500", "0"),  # reaches 50 only in 2027
        (2026, date(1963, 6, 1), True, "35750", "11250"),  # 63 in 2026: the SECURE 2.0 amount
        (2026, date(1962, 6, 1), True, "32500", "8000"),  # 64: back to the regular catch-up
        (2026, date(1966, 6, 1), True, "35750", "11250"),  # 60 in 2026
        (2025, date(1965, 3, 1), True, "34750", "11250"),  # 60 in 2025: 23,500 + 11,250
        (2024, date(1964, 3, 1), True, "30500", "7500"),  # 60 in 2024: no enhanced amount before 2025
        (2026, date(1963, 6, 1), False, "24500", "0"),  # the plan offers none
    ],
)
def test_the_years_dollar_limit_with_catch_up_by_age(year, birth, offered, total, catch_up):
    lim = elective_deferral_limit(year, birth, catch_up_offered=offered, why_not="none")
    assert (lim.total, lim.catch_up) == (D(total), D(catch_up))
    assert lim.base + lim.catch_up == lim.total


def test_carver_has_no_catch_up_and_says_so():
    lim = K.annual_limit(2026, date(1962, 3, 14))  # Pat, 64 in 2026
    assert lim.total == D("24500") and lim.catch_up == 0
    assert "does not offer catch-up" in lim.catch_up_note
    assert K.annual_limit(1999, date(1962, 3, 14)).total == D("10000")  # §3.2(b) states 1998-1999


def test_estimate_is_rate_times_pay_stopped_at_the_limit():
    e = K.estimate(D(9), D("92338.01"), 2026, date(1962, 3, 14))
    assert e.amount == D("8310.42") and not e.stops_at_limit  # 9% × 92,338.01 = 8,310.4209
    high = K.estimate(D(15), D("200000"), 2026, date(1962, 3, 14))
    assert high.amount == D("24500") and high.stops_at_limit  # 30,000 stopped at §402(g)
    capped = K.estimate(D(10), D("500000"), 2026, date(1962, 3, 14))
    assert capped.pay_counted == D("360000.00")  # §401(a)(17) for 2026


def test_a_year_not_yet_published_uses_the_latest_limit_and_says_so():
    lim = elective_deferral_limit(2027, date(1980, 1, 1), catch_up_offered=True)
    assert lim.total == D("24500") and lim.projected
    assert "not published yet" in lim.sources[0]
    assert not elective_deferral_limit(2026, date(1980, 1, 1), catch_up_offered=True).projected


def test_the_estimate_for_a_year_not_published_yet_uses_the_latest_limits():
    e = K.estimate(D(10), D("500000"), 2027, date(1962, 3, 14))
    assert e.pay_counted == D("360000.00") and e.amount == D("24500") and e.limit.projected
