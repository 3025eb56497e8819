"""Hours-counting service (benefits/engine/service.py), rule by rule, on plan-neutral rules."""

from datetime import date

from benefits.engine.service import (
    HoursRules,
    ParentalLeave,
    ParityRule,
    estimate_first_year_hours,
    hours_service,
)
from benefits.engine.types import EmploymentPeriod as EP

PARITY = ParityRule("ERISA §203(b)(3)(D)", min_breaks=5, parity=True)
RULES = HoursRules(year_section="§Y", break_section="§B", parity=PARITY)


def run(periods, hours, as_of, rules=RULES, vested=lambda n: n >= 5, **kw):
    return hours_service(
        periods=periods,
        birth_date=kw.pop("birth", date(1960, 1, 1)),
        hours=hours,
        as_of=as_of,
        rules=rules,
        is_vested=vested,
        **kw,
    )


def test_year_needs_1000_hours_and_break_is_500_or_fewer():
    h = run((EP(date(2000, 1, 3), None),), {2000: 1000, 2001: 999, 2002: 501, 2003: 500}, date(2003, 12, 31))
    rows = {r.label: r for r in h.years}
    assert rows["2000"].credited and not rows["2000"].is_break
    assert not rows["2001"].credited and not rows["2001"].is_break
    assert not rows["2002"].credited and not rows["2002"].is_break
    assert rows["2003"].is_break
    assert h.total_years == 1


def test_break_threshold_is_a_rule():
    # A plan whose break is "fewer than 501" is the same as "500 or fewer"; one with 250 differs.
    rules = HoursRules(year_section="", break_section="", parity=PARITY, break_at_most_hours=250)
    h = run((EP(date(2000, 1, 3), None),), {2000: 2000, 2001: 300}, date(2001, 12, 31), rules=rules)
    assert not h.years[1].is_break


def test_year_in_progress_is_never_a_break():
    h = run((EP(date(2000, 1, 3), None),), {2000: 2000, 2001: 100}, date(2001, 6, 30))
    assert not h.years[-1].is_break
    assert "in progress" in h.years[-1].note


def test_parity_restores_when_breaks_fewer_than_five():
    periods = (EP(date(1990, 4, 2), date(1992, 12, 31)), EP(date(1997, 3, 3), None))
    hours = {1990: 1500, 1991: 2000, 1992: 2000, 1997: 1700, 1998: 1700}
    h = run(periods, hours, date(1998, 12, 31))
    assert h.total_years == 5
    assert h.events[0].breaks == 4 and not h.events[0].lost


def test_five_breaks_lose_unvested_service_but_not_vested():
    periods = (EP(date(1990, 4, 2), date(1992, 12, 31)), EP(date(1998, 3, 3), None))
    hours = {1990: 1500, 1991: 2000, 1992: 2000, 1998: 1700}
    h = run(periods, hours, date(1998, 12, 31))
    assert h.total_years == 1 and h.lost_years == 3 and h.events[0].lost
    kept = run(periods, hours, date(1998, 12, 31), vested=lambda n: n >= 1)
    assert kept.total_years == 4 and not kept.events[0].lost
    assert kept.events[0].account_frozen


def test_parity_keeps_long_pre_break_service():
    # 7 pre-break years, 6 consecutive breaks: 6 < 7, restored under the rule of parity.
    periods = (EP(date(1980, 1, 2), date(1986, 12, 31)), EP(date(1993, 1, 4), None))
    hours = {y: 2000 for y in range(1980, 1987)} | {1993: 2000}
    h = run(periods, hours, date(1993, 12, 31), vested=lambda n: False)
    assert h.total_years == 8
    no_parity = HoursRules(
        year_section="",
        break_section="",
        parity=ParityRule("", min_breaks=5, parity=False, vested_protects=False),
    )
    assert run(periods, hours, date(1993, 12, 31), rules=no_parity).total_years == 1


def test_first_year_rule_employment_year_replaces_short_hire_year():
    # Carver DB §1.1(HH)(2) / GAP-21 literal: the hire year is credited on 12-month hours.
    rules = HoursRules(
        year_section="", break_section="", parity=PARITY, first_year_rule="employment_year_for_hire_year"
    )
    h = run(
        (EP(date(1985, 9, 3), None),),
        {1985: 700, 1986: 2080},
        date(1986, 12, 31),
        rules=rules,
        first_year_hours=1200,
    )
    assert h.total_years == 2


def test_first_year_rule_next_year_if_neither():
    # Quaker §1.63(c) / Example 8: 1,220 hours in the first 12 months, 520 and 900 in the years.
    rules = HoursRules(
        year_section="", break_section="", parity=PARITY, first_year_rule="next_year_if_neither"
    )
    h = run(
        (EP(date(2000, 10, 2), None),),
        {2000: 520, 2001: 900},
        date(2001, 12, 31),
        rules=rules,
        first_year_hours=1220,
    )
    assert [r.credited for r in h.years] == [False, True]
    # Not applied when 2001 itself is a Year (Quaker Example 1).
    h = run((EP(date(2000, 9, 11), None),), {2000: 640, 2001: 2080}, date(2001, 12, 31), rules=rules)
    assert h.total_years == 1


def test_first_year_hours_estimate_is_pro_rata():
    # 640 + 2,080 × 253/365 (Jan 1 - Sep 10, 2001) = 640 + 1,441.
    assert estimate_first_year_hours(date(2000, 9, 11), {2000: 640, 2001: 2080}) == 2081


def test_parental_leave_hours_prevent_a_break_only():
    # Carver DB §1.1(HH)(2): up to 501 hours, 8 a day, to the year the absence began if that
    # prevents a break there.
    leave = ParentalLeave(date(2001, 3, 1), date(2001, 12, 31))
    h = run(
        (EP(date(2000, 1, 3), None),),
        {2000: 2000, 2001: 300, 2002: 2000},
        date(2002, 12, 31),
        parental_leaves=(leave,),
    )
    y2001 = h.years[1]
    assert not y2001.is_break and not y2001.credited
    assert h.total_years == 2


def test_parental_leave_goes_to_next_year_when_it_cannot_help_the_first():
    leave = ParentalLeave(date(2001, 11, 1), date(2002, 3, 31), hours=400)
    h = run(
        (EP(date(2000, 1, 3), None),),
        {2000: 2000, 2001: 1200, 2002: 200},
        date(2002, 12, 31),
        parental_leaves=(leave,),
    )
    assert not h.years[2].is_break


def test_hours_before_age_18_excluded():
    rules = HoursRules(year_section="", break_section="", parity=PARITY, exclude_before_age=18)
    h = run(
        (EP(date(2007, 6, 4), None),),
        {2007: 620, 2008: 1640},
        date(2008, 12, 31),
        rules=rules,
        birth=date(1990, 2, 10),
        hours_before_age={2008: 120},
    )
    assert [r.hours_counted for r in h.years] == [0, 1520]


def test_pre_effective_cap_and_overall_cap():
    rules = HoursRules(
        year_section="",
        break_section="",
        parity=PARITY,
        effective_year=2007,
        pre_effective_cap=3,
        max_years=10,
    )
    hours = {y: 2000 for y in range(1995, 2014)}
    h = run((EP(date(1995, 1, 3), None),), hours, date(2013, 12, 31), rules=rules)
    assert h.total_years == 10  # 3 pre-plan + 7 (2007-2013) = 10, at the cap


def test_prior_service_and_rehire_without_breaks():
    periods = (EP(date(2000, 1, 3), date(2000, 8, 31)), EP(date(2001, 2, 1), None))
    h = run(periods, {2000: 1200, 2001: 1800}, date(2001, 12, 31), prior_years=2)
    assert h.total_years == 4
    assert not any(r.is_break for r in h.years)


def test_projection_full_time_from_the_thousandth_hour():
    h = run((EP(date(2020, 1, 6), None),), {2020: 2000, 2021: 400}, date(2021, 3, 31))
    # 600 hours more at 2,080 a year = 106 days → 2021-07-15; year 3 on day 176 of 2022.
    assert h.projected_date(2) == date(2021, 7, 15)
    assert h.projected_date(3) == date(2022, 6, 25)
    assert h.date_years_reached(1) is not None
