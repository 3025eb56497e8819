"""Carver DB service, vesting, NRD and ERD against the plan text and SPEC §15 examples."""

from datetime import date
from types import MappingProxyType

from benefits.engine.plans.carver_db import rules
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


def test_example_1_nrd_participation_before_1992():
    # Born 4/10/1958, hired 2/15/1982: NRD-vesting 4/10/2023, NRD 5/1/2023; 100% vested.
    p = person(date(1958, 4, 10), date(1982, 2, 15), hours={y: 2080 for y in range(1982, 2024)})
    c = rules.core(p, date(2023, 5, 1), S)
    assert c.normal_retirement_date == date(2023, 5, 1)
    assert c.extra["nrd_vesting"] == date(2023, 4, 10)
    assert c.participation_date < date(1992, 1, 1)
    assert c.vesting.percent == 100
    assert c.earliest_retirement_date == date(2013, 5, 1)  # first of the month after age 55


def _example_2(**s):
    hours = {1985: 700, 1997: 1040} | {y: 2080 for y in range(1986, 1997)}
    p = person(
        date(1960, 7, 20),
        date(1985, 9, 3),
        term=date(1997, 6, 30),
        hours=hours,
        plan_data={"first_year_hours": 1100},
    )
    return rules.core(p, date(2026, 1, 1), rules.ServiceVestingSettings(**s))


def test_example_2_first_year_rule_gap_21_and_dates():
    c = _example_2()
    assert c.participation_date == date(1987, 1, 1)  # YES 9/3/1985-9/2/1986 → Entry 1/1/1987
    assert c.normal_retirement_date == date(2025, 8, 1)
    assert c.service.total_years == 13  # literal GAP-21 reading
    assert c.vesting.percent == 100
    # Early start at 55 (§5.2): 7/20/2015 → first of the month 8/1/2015.
    assert c.earliest_retirement_date == date(2015, 8, 1)
    alt = _example_2(first_year_overlap_counts=False)
    assert alt.service.total_years == 12  # GAP-21 alternative: "it would be 12"


def test_example_3_participation_after_1992_and_post_freeze_service():
    hours = {y: 2000 for y in range(1993, 2012)} | {2012: 870}
    p = person(date(1967, 1, 15), date(1993, 3, 1), term=date(2012, 5, 31), hours=hours)
    c = rules.core(p, date(2026, 1, 1), S)
    assert c.participation_date == date(1994, 7, 1)  # YES ends 2/28/1994
    assert c.extra["nrd_vesting"] == date(2032, 1, 15)  # later of 65 and 7/1/1999
    assert c.normal_retirement_date == date(2032, 2, 1)
    assert c.service.total_years == 19  # 1993-2011 including post-freeze years
    assert not c.service.years[-1].is_break  # 2012: 870 hours, no credit, no break
    assert c.earliest_retirement_date == date(2022, 2, 1)  # start at 55: 2/1/2022


def test_example_4_and_5_nrd():
    assert rules.core(
        person(date(1934, 3, 5), date(1975, 1, 2), hours={y: 2080 for y in range(1976, 2004)}),
        date(1999, 1, 1),
        S,
    ).normal_retirement_date == date(1999, 4, 1)
    c = rules.core(
        person(date(1962, 9, 12), date(1986, 1, 6), hours={y: 2080 for y in range(1986, 2015)}),
        date(2014, 10, 20),
        S,
    )
    assert c.normal_retirement_date == date(2027, 10, 1)
    assert c.vesting.percent == 100
    assert c.earliest_retirement_date == date(2017, 10, 1)  # Example 5 step 8: 10/1/2017


def _example_6(**s):
    hours = {1998: 1600, 1999: 2000, 2000: 2000, 2001: 700, 2002: 1100}
    p = person(date(1975, 6, 30), date(1998, 3, 16), term=date(2002, 12, 31), hours=hours)
    return rules.core(p, date(2003, 6, 1), rules.ServiceVestingSettings(**s))


def test_example_6_top_heavy_vesting():
    c = _example_6(top_heavy_years=(1999, 2000))
    assert c.participation_date == date(1999, 7, 1)
    assert c.extra["nrd_vesting"] == date(2040, 6, 30)
    assert c.normal_retirement_date == date(2040, 7, 1)
    assert c.service.total_years == 4
    row_2001 = next(r for r in c.service.years if r.label == "2001")
    assert not row_2001.credited and not row_2001.is_break
    assert c.vesting.percent == 60
    never = _example_6()
    assert never.vesting.percent == 0
    assert never.earliest_retirement_date is None  # 0% vested: no early retirement (§4.3)


def _example_7(rehire):
    periods = (EP(date(1990, 4, 2), date(1992, 12, 31)), EP(rehire, None))
    hours = {1990: 1500, 1991: 2000, 1992: 2000} | {y: 1700 for y in range(rehire.year, 2001)}
    return rules.core(
        person(date(1965, 5, 5), date(1990, 4, 2), periods=periods, hours=hours), date(2000, 12, 31), S
    )


def test_example_7_parity_restores_after_four_breaks():
    c = _example_7(date(1997, 3, 3))
    assert c.participation_date == date(1991, 7, 1)
    breaks = [r.label for r in c.service.years if r.is_break]
    assert breaks == ["1993", "1994", "1995", "1996"]
    assert c.service.events[0].breaks == 4 and not c.service.events[0].lost
    by_year = {r.label: r.running_total for r in c.service.years}
    assert by_year["1998"] == 5  # 3 + 2 at the end of 1998 → 100%
    assert c.vesting.percent == 100


def test_example_7_variant_five_breaks_disregard_service():
    c = _example_7(date(1998, 3, 3))
    assert c.service.events[0].breaks == 5 and c.service.events[0].lost
    assert c.service.lost_years == 3
    assert c.service.total_years == 3  # 1998-2000 only


def test_nrd_vesting_full_vesting_event_1_1_nn():
    # Service ceasing on or after NRD-vesting vests 100% even with under 5 years.
    p = person(
        date(1940, 1, 1),
        date(2002, 3, 1),
        term=date(2005, 6, 30),
        hours={2002: 1500, 2003: 2000, 2004: 2000, 2005: 900},
    )
    c = rules.core(p, date(2006, 1, 1), S)
    assert c.service.total_years == 3
    assert c.vesting.percent == 100
    assert c.vesting.full_vesting_event.startswith("Service ceases")


def test_prior_plan_participant_vests_at_60():
    p = person(
        date(1935, 1, 1),
        date(1968, 3, 1),
        term=date(1996, 6, 30),
        hours={},
        plan_data={"prior_plan_participant": True, "participation_date": "1969-01-01"},
    )
    c = rules.core(p, date(1997, 1, 1), S)
    assert c.vesting.percent == 100


def test_no_entry_after_the_freeze():
    p = person(date(1970, 1, 1), date(2000, 3, 1), hours={2000: 2000, 2001: 2000})
    c = rules.core(p, date(2002, 1, 1), S)
    assert c.participation_date is None  # would enter 7/1/2001, after the freeze


def test_calculate_contract_keys():
    hours = {1998: 1600, 1999: 2000, 2000: 2000, 2001: 700, 2002: 1100}
    p = person(
        date(1975, 6, 30),
        date(1998, 3, 16),
        term=date(2002, 12, 31),
        hours=hours,
        plan_data={"social_security_amount": "12000"},
    )
    r = rules.core(p, date(2003, 6, 1), S).contract()
    assert r["vesting"]["years_of_vesting_service"] == 4
    assert r["vesting"]["vested_percent"] == "0"
    assert r["normal_retirement_date"] == "2040-07-01"
    assert r["earliest_retirement_date"] is None
