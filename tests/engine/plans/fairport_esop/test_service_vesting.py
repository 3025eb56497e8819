"""Fairport ESOP Vesting Years, vesting, NRD and Early Retirement (SPEC A2, A5, E3, E4, E6)."""

from datetime import date
from types import MappingProxyType

import pytest

from benefits.engine.missing import BENEFITS_BLOCKED
from benefits.engine.plans.fairport_esop import rules
from benefits.engine.types import EmploymentPeriod as EP
from benefits.engine.types import Participant

S = rules.ServiceVestingSettings(pre_plan_vesting_cap_years=0)


def person(birth, hire, *, term=None, hours=None, periods=(), plan_data=None, death=None):
    return Participant(
        id="t",
        birth_date=birth,
        hire_date=hire,
        termination_date=term,
        employment_periods=periods,
        hours=MappingProxyType(hours or {}),
        death_date=death,
        plan_data=MappingProxyType(plan_data or {}),
    )


NORA_HOURS = {2007: 620, 2008: 1640, 2009: 2080, 2010: 880, 2011: 1200, 2012: 2080, 2013: 2080}


def test_e3a_nora_age_18_and_a_short_year():
    p = person(
        date(1990, 2, 10),
        date(2007, 6, 4),
        hours=NORA_HOURS,
        plan_data={"hours_before_age_18": {"2008": 120}},
    )
    c = rules.core(p, date(2013, 12, 31), S)
    rows = {r.label: r for r in c.service.years}
    assert rows["2007"].hours_counted == 0 and not rows["2007"].is_break  # 620 > 500: no Break
    assert rows["2008"].hours_counted == 1520 and rows["2008"].credited
    assert not rows["2010"].credited and not rows["2010"].is_break
    assert c.service.total_years == 5 and c.vesting.percent == 80
    assert c.vesting.next_milestone.years == 6 and c.vesting.next_milestone.on.year == 2014
    # Without the split, the 18th-birthday year is pro-rated by days employed: still ≥ 1,000.
    c2 = rules.core(person(date(1990, 2, 10), date(2007, 6, 4), hours=NORA_HOURS), date(2013, 12, 31), S)
    assert c2.service.total_years == 5


OMAR = {y: 800 for y in range(2003, 2009)} | {y: 2080 for y in range(2009, 2013)} | {2013: 1750}


@pytest.mark.parametrize(
    ("measure", "pct", "early"),
    [
        ("elapsed", 100, True),
        ("hours_years", 80, False),
        ("vesting_years", 80, False),
    ],
)
def test_e3b_omar_ten_years_of_service_d1_3(measure, pct, early):
    p = person(date(1957, 6, 20), date(2003, 3, 3), term=date(2013, 10, 31), hours=OMAR)
    c = rules.core(
        p,
        date(2013, 12, 31),
        rules.ServiceVestingSettings(pre_plan_vesting_cap_years=0, early_retirement_service=measure),
    )
    assert c.service.total_years == 5
    assert c.vesting.percent == pct
    assert (c.earliest_retirement_date is not None) is early


@pytest.mark.parametrize(
    ("cap", "y2007", "p2007", "y2009", "p2009"),
    [
        (0, 1, 0, 3, 40),
        (3, 4, 60, 6, 100),
        (5, 6, 100, 8, 100),
        (99, 13, 100, 15, 100),
    ],
)
def test_e3c_vera_pre_plan_cap(cap, y2007, p2007, y2009, p2009):
    p = person(date(1970, 1, 1), date(1995, 1, 3), hours={y: 2080 for y in range(1995, 2010)})
    s = rules.ServiceVestingSettings(pre_plan_vesting_cap_years=cap)
    a, b = rules.core(p, date(2007, 12, 31), s), rules.core(p, date(2009, 12, 31), s)
    assert (a.service.total_years, a.vesting.percent) == (y2007, p2007)
    assert (b.service.total_years, b.vesting.percent) == (y2009, p2009)


def test_blank_pre_plan_cap_counts_no_pre_plan_year_until_confirmed_d1_2():
    # Issue 24 item 2: the blank §9.2 cap no longer stops the participant. Until a reading is
    # confirmed no pre-2007 Vesting Year counts (cap 0, the least any reading gives), and the core
    # names the reading the benefit figures wait for.
    p = person(date(1970, 1, 1), date(1995, 1, 3), hours={y: 2080 for y in range(1995, 2010)})
    c = rules.core(p, date(2009, 12, 31), rules.ServiceVestingSettings())
    zero = rules.core(p, date(2009, 12, 31), rules.ServiceVestingSettings(pre_plan_vesting_cap_years=0))
    assert (c.service.total_years, c.vesting.percent) == (zero.service.total_years, zero.vesting.percent)
    assert c.service.total_years == 3  # 2007, 2008, 2009
    blocked = c.extra[BENEFITS_BLOCKED]
    assert blocked.field == "/settings/pre_plan_vesting_cap_years"
    assert any("pre-plan Vesting Years" in n for n in c.notes)
    # Someone with no pre-2007 year of 1,000 hours is not blocked (Omar, E3b).
    rules.core(
        person(date(1957, 6, 20), date(2003, 3, 3), term=date(2013, 10, 31), hours=OMAR),
        date(2013, 12, 31),
        rules.ServiceVestingSettings(),
    )


def test_e4a_paul_forty_percent_then_rehire_sixty():
    periods = (EP(date(2008, 3, 1), date(2011, 4, 15)), EP(date(2014, 5, 1), None))
    hours = {2008: 1700, 2009: 2080, 2010: 2080, 2011: 600, 2014: 1400}
    p = person(date(1980, 1, 1), date(2008, 3, 1), periods=periods, hours=hours)
    left = rules.core(
        person(date(1980, 1, 1), date(2008, 3, 1), periods=periods[:1], hours=hours), date(2012, 12, 31), S
    )
    assert left.service.total_years == 3 and left.vesting.percent == 40
    rows = {r.label: r for r in left.service.years}
    assert not rows["2011"].is_break and rows["2012"].is_break
    assert left.service.first_break_year_now == 2012  # forfeiture certain 12/31/2012 (D1.5)
    c = rules.core(p, date(2014, 12, 31), S)
    assert c.service.events[0].breaks == 2 and not c.service.events[0].lost
    assert c.service.total_years == 4 and c.vesting.percent == 60


def test_e4b_quinn_one_vesting_year_zero_percent():
    periods = (EP(date(2009, 7, 1), date(2011, 3, 31)), EP(date(2012, 9, 4), None))
    hours = {2009: 980, 2010: 2000, 2011: 480, 2012: 600}
    c = rules.core(
        person(date(1985, 1, 1), date(2009, 7, 1), periods=periods, hours=hours), date(2012, 12, 31), S
    )
    assert [r.label for r in c.service.years if r.is_break] == ["2011"]
    assert c.service.total_years == 1 and c.vesting.percent == 0


def test_e6_normal_retirement_dates_and_early_retirement():
    sam = rules.core(
        person(
            date(1967, 2, 20),
            date(1999, 5, 10),
            term=date(2014, 8, 15),
            hours={y: 2080 for y in range(2007, 2014)},
        ),
        date(2014, 12, 31),
        S,
    )
    assert sam.normal_retirement_date == date(2032, 3, 1)
    assert sam.earliest_retirement_date is None  # left at 47
    tara = rules.core(
        person(
            date(1956, 9, 12),
            date(1998, 1, 5),
            term=date(2013, 12, 31),
            hours={y: 2080 for y in range(2007, 2014)},
        ),
        date(2014, 1, 1),
        S,
    )
    assert tara.normal_retirement_date == date(2021, 10, 1)
    assert tara.earliest_retirement_date == date(2011, 9, 12)  # age 55, 10 years elapsed by then
    assert tara.vesting.percent == 100


def test_full_vesting_at_nrd_and_death_9_3_1():
    old = rules.core(
        person(date(1946, 1, 1), date(2008, 1, 7), hours={2008: 2000, 2009: 2000, 2010: 2000}),
        date(2011, 2, 1),
        S,
    )
    assert old.service.total_years == 3 and old.vesting.percent == 100
    died = rules.core(
        person(
            date(1970, 1, 1),
            date(2010, 1, 4),
            term=date(2011, 5, 1),
            hours={2010: 2000, 2011: 600},
            death=date(2011, 5, 1),
        ),
        date(2011, 6, 1),
        S,
    )
    assert died.vesting.percent == 100
