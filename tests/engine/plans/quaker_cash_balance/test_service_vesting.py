"""Quaker cash balance service, vesting, NRD and ERD against the plan text and SPEC §15."""

from datetime import date
from types import MappingProxyType

from benefits.engine.plans.quaker_cash_balance import rules
from benefits.engine.types import EmploymentPeriod as EP
from benefits.engine.types import Participant

S = rules.ServiceVestingSettings()


def person(birth, hire, *, term=None, hours=None, periods=(), plan_data=None):
    return Participant(
        id="t",
        birth_date=birth,
        hire_date=hire,
        termination_date=term,
        employment_periods=periods,
        hours=MappingProxyType(hours or {}),
        plan_data=MappingProxyType(plan_data or {}),
    )


def test_example_1_ana_entry_nrd_and_seven_years():
    hours = {2000: 640, 2007: 1640} | {y: 2080 for y in range(2001, 2007)}
    c = rules.core(
        person(date(1972, 8, 22), date(2000, 9, 11), term=date(2007, 10, 15), hours=hours),
        date(2008, 1, 1),
        S,
    )
    assert c.participation_date == date(2001, 10, 1)  # §1.62, §2.1(b)
    assert c.normal_retirement_date == date(2037, 9, 1)  # §1.38, §1.40
    assert not c.service.years[0].credited  # 2000: 640 hours; §1.63(c) does not apply
    assert c.service.total_years == 7
    assert c.vesting.percent == 100
    fifth = c.service.date_years_reached(5)
    assert fifth.year == 2005 and fifth.month == 6  # "about mid-June 2005"


def test_example_2_ben_nra_by_five_year_participation():
    hours = {y: 2080 for y in range(2000, 2006)} | {2006: 160}
    p = person(date(1940, 12, 15), date(2000, 1, 3), term=date(2006, 1, 31), hours=hours)
    c = rules.core(p, date(2006, 2, 1), S)
    assert c.participation_date == date(2001, 2, 1)
    assert c.extra["normal_retirement_age"] == date(2006, 2, 1)
    assert c.normal_retirement_date == date(2006, 2, 1)
    assert c.service.total_years == 6 and c.vesting.percent == 100
    # Before he left, early retirement (55 and 5 Years of Service, post-1999 participant) was open
    # from the first of the month after his 5th year (2004).
    early = rules.core(p, date(2005, 6, 1), S)
    assert early.earliest_retirement_date == date(2004, 7, 1)


def test_example_3_carla_pre_2000_participant_early_retirement_date():
    hours = {y: 2080 for y in range(1985, 2005)}
    p = person(date(1947, 6, 20), date(1985, 1, 7), term=date(2004, 12, 31), hours=hours)
    c = rules.core(p, date(2005, 1, 1), S)
    assert c.normal_retirement_date == date(2012, 7, 1)
    assert c.earliest_retirement_date == date(2005, 1, 1)


def test_example_4_dan_rehire_within_five_breaks_counts_pre_break_service():
    periods = (EP(date(2000, 2, 1), date(2003, 12, 31)), EP(date(2005, 3, 1), None))
    hours = {2000: 1920, 2001: 2080, 2002: 2080, 2003: 2080, 2004: 0, 2005: 1760}
    p = person(date(1975, 5, 5), date(2000, 2, 1), periods=periods, hours=hours)
    at_break = rules.core(p, date(2004, 12, 31), S)
    assert at_break.participation_date == date(2001, 2, 1)
    assert at_break.service.total_years == 4 and at_break.vesting.percent == 0
    c = rules.core(p, date(2005, 12, 31), S)
    assert [r.label for r in c.service.years if r.is_break] == ["2004"]
    assert not c.service.events[0].lost
    assert c.service.total_years == 5 and c.vesting.percent == 100
    fifth = c.service.date_years_reached(5)
    assert fifth.year == 2005 and fifth.month == 8  # "late August 2005"


def test_example_5_eve_part_timer_and_example_7_gina():
    hours = {2002: 1020} | {y: 1040 for y in range(2003, 2008)}
    c = rules.core(
        person(date(1968, 1, 10), date(2002, 1, 7), term=date(2007, 12, 31), hours=hours), date(2008, 1, 1), S
    )
    assert c.participation_date == date(2003, 2, 1)
    assert c.service.total_years == 6 and c.vesting.percent == 100
    g = rules.core(
        person(date(1958, 2, 10), date(2001, 5, 14), hours={y: 2080 for y in range(2001, 2009)}),
        date(2008, 8, 14),
        S,
    )
    assert g.participation_date == date(2002, 6, 1)
    assert g.vesting.percent == 100
    assert g.service.date_years_reached(5).year == 2005  # vested in 2005


def test_example_8_hal_first_year_rule_and_permanent_loss():
    periods = (EP(date(2000, 10, 2), date(2003, 6, 13)), EP(date(2008, 1, 7), None))
    hours = {2000: 520, 2001: 900, 2002: 1150, 2003: 450, 2008: 1200}
    p = person(
        date(1979, 4, 2),
        date(2000, 10, 2),
        periods=periods,
        hours=hours,
        plan_data={"first_year_hours": 1220},
    )
    c = rules.core(p, date(2008, 12, 31), S)
    rows = {r.label: r for r in c.service.years}
    assert c.participation_date == date(2001, 11, 1)
    assert not rows["2000"].credited and not rows["2000"].is_break
    assert rows["2001"].credited and rows["2001"].running_total == 1  # §1.63(c)
    assert rows["2002"].running_total == 2
    assert [y for y, r in rows.items() if r.is_break] == ["2003", "2004", "2005", "2006", "2007"]
    assert c.service.events[0].lost  # 5 consecutive breaks, not vested
    assert rows["2008"].running_total == 1 and c.service.total_years == 1
    assert c.vesting.percent == 0


def test_example_9_ivy_top_heavy_three_years_forty_percent():
    p = person(date(1980, 1, 1), date(2003, 1, 6), hours={2003: 2000, 2004: 2000, 2005: 2000})
    c = rules.core(p, date(2005, 12, 31), rules.ServiceVestingSettings(top_heavy_years=(2003, 2004, 2005)))
    assert c.service.total_years == 3
    assert c.vesting.percent == 40
    assert rules.core(p, date(2005, 12, 31), S).vesting.percent == 0  # cliff without top-heavy


def test_full_vesting_at_nra_ambig_11():
    # Hired at 62: NRA = 5th anniversary of participation; vest at NRA (default) or NRD.
    p = person(date(1940, 3, 10), date(2002, 1, 7), hours={y: 1500 for y in range(2002, 2009)})
    c = rules.core(p, date(2008, 2, 7), S)
    nra = c.extra["normal_retirement_age"]
    assert nra == date(2008, 2, 1)
    assert c.vesting.percent == 100
    short = person(date(1940, 3, 10), date(2002, 1, 7), hours={2002: 1500, 2003: 1500})
    assert rules.core(short, date(2003, 6, 1), S).vesting.percent == 0


def test_five_breaks_vested_participant_keeps_service_ambig_4():
    periods = (EP(date(1990, 1, 2), date(1996, 12, 31)), EP(date(2003, 1, 6), None))
    hours = {y: 2000 for y in range(1990, 1997)} | {2003: 2000}
    p = person(date(1965, 1, 1), date(1990, 1, 2), periods=periods, hours=hours)
    assert rules.core(p, date(2003, 12, 31), S).service.total_years == 8
    alt = rules.ServiceVestingSettings(vested_keep_service_after_five_breaks=False)
    assert rules.core(p, date(2003, 12, 31), alt).service.total_years == 1


def test_ambig_11_vest_at_nrd_alternative():
    # NRA 2008-02-01 is itself a first of the month; pick a birthday so NRA and NRD differ.
    p = person(
        date(1940, 3, 10),
        date(1990, 1, 8),
        term=date(2005, 3, 20),
        hours={1990: 800, 1991: 800, 2004: 1200, 2005: 300},
        plan_data={"participation_date": "1991-02-01"},
    )
    c = rules.core(p, date(2005, 3, 25), S)
    assert c.extra["normal_retirement_age"] == date(2005, 3, 10)
    assert c.normal_retirement_date == date(2005, 4, 1)
    assert c.vesting.percent == 100  # left after NRA (default: vest at NRA)
    alt = rules.core(p, date(2005, 3, 25), rules.ServiceVestingSettings(full_vesting_at="nrd"))
    assert alt.vesting.percent == 0  # left before the NRD, 1 Year of Vesting Service


def test_ambig_2_early_retirement_before_vesting():
    # Pre-2000 participant, 4 Years of Service, leaves at 57: ERD (default) though 0% vested.
    hours = {1996: 2000, 1997: 2000, 1998: 2000, 1999: 2000}
    p = person(date(1942, 5, 5), date(1996, 1, 8), term=date(1999, 12, 31), hours=hours)
    c = rules.core(p, date(2000, 1, 15), S)
    assert c.vesting.percent == 0
    assert c.earliest_retirement_date == date(2000, 1, 1)
    alt = rules.core(
        p, date(2000, 1, 15), rules.ServiceVestingSettings(early_retirement_requires_vesting=True)
    )
    assert alt.earliest_retirement_date is None
