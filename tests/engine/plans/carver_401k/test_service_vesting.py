"""Carver 401(k) elapsed-time service, vesting by source, NRD and ERD (SPEC §2.3-§2.6, §5, §13)."""

from datetime import date
from decimal import Decimal
from types import MappingProxyType

from benefits.engine.plans.carver_401k import rules
from benefits.engine.types import EmploymentPeriod as EP
from benefits.engine.types import Participant
from benefits.engine.vesting import vested_after_distribution

S = rules.ServiceVestingSettings()


def person(birth, hire, *, term=None, periods=(), death=None, disability=None, plan_data=None):
    return Participant(
        id="t",
        birth_date=birth,
        hire_date=hire,
        termination_date=term,
        employment_periods=periods,
        death_date=death,
        disability_date=disability,
        plan_data=MappingProxyType(plan_data or {}),
    )


def test_example_2_service_spanning_within_a_year():
    p = person(
        date(1981, 11, 2),
        date(2001, 2, 5),
        periods=(EP(date(2001, 2, 5), date(2001, 8, 31)), EP(date(2002, 5, 13), None)),
    )
    c = rules.core(p, date(2003, 12, 31), S)
    gap = c.service.periods[1]
    assert gap.kind == "spanned gap" and gap.days == 254
    assert c.service.date_years_reached(1) <= date(2002, 5, 12)  # a year of service at rehire
    assert c.service.total_days == 1060 and c.service.total_years == 2
    assert c.vesting.percent == 40


def test_example_2_variant_b_prime_severance_and_parity():
    p = person(
        date(1981, 11, 2),
        date(2001, 2, 5),
        periods=(EP(date(2001, 2, 5), date(2001, 8, 31)), EP(date(2002, 9, 16), None)),
    )
    c = rules.core(p, date(2003, 12, 31), S)
    assert c.service.periods[1].severance_periods == 1
    assert not c.service.events[0].lost  # 0% vested, 1 < max(5, 0): earlier 208 days count
    assert c.service.total_days == 208 + 472
    assert c.service.total_years == 1 and c.vesting.percent == 20


def test_example_3_vested_percent_by_source_and_full_vesting_date():
    c = rules.core(person(date(1968, 2, 20), date(1998, 3, 2)), date(2003, 1, 31), S)
    assert c.service.total_days == 1797 and c.service.total_years == 4
    assert c.vesting.percent == 80
    pct = {k: v.percent for k, v in c.by_source.items()}
    assert pct == {
        "before_tax": 100,
        "matching_pre2002": 80,
        "matching_2002": 100,
        "rollover": 100,
        "discretionary": 80,
        "nonelective": 80,
        "special": 100,
    }
    assert c.vesting.next_milestone.on == date(2003, 2, 28)
    # Vested total of the Example 3 table: 30,210.00.
    balances = {
        "before_tax": "21450.00",
        "matching_pre2002": "6300.00",
        "matching_2002": "1240.00",
        "discretionary": "2000.00",
        "nonelective": "1100.00",
    }
    total = sum(Decimal(v) * pct[k] / 100 for k, v in balances.items())
    assert total == Decimal("30210.00")
    assert rules.SCHEDULE_BEFORE_1998.percent(4) == 40
    assert rules.TOP_HEAVY_SCHEDULE.percent(4) == 60


def test_example_4_no_early_retirement_date_and_nrd():
    c = rules.core(person(date(1968, 2, 20), date(1998, 3, 2), term=date(2003, 1, 31)), date(2003, 6, 30), S)
    assert c.normal_retirement_date == date(2033, 3, 1)
    assert c.earliest_retirement_date is None
    assert c.vesting.percent == 80 and c.vesting.next_milestone.on is None


def test_example_5_x_formula():
    assert vested_after_distribution(Decimal(60), Decimal("4200.00"), Decimal("1800.00")) == Decimal(
        "1800.00"
    )


def test_example_6_rehire_after_payout_restored_vesting():
    periods = (EP(date(1999, 6, 1), date(2002, 6, 30)), EP(date(2004, 3, 1), None))
    at_term = rules.core(
        person(date(1970, 1, 1), date(1999, 6, 1), periods=periods[:1]), date(2002, 6, 30), S
    )
    assert at_term.service.total_days == 1126 and at_term.vesting.percent == 60
    c = rules.core(person(date(1970, 1, 1), date(1999, 6, 1), periods=periods), date(2005, 6, 30), S)
    assert c.service.periods[1].severance_periods == 1
    assert c.service.total_days == 1613 and c.vesting.percent == 80
    assert c.vesting.next_milestone.on == date(2006, 1, 28)


def test_example_9_retirement_dates():
    active = rules.core(person(date(1962, 8, 17), date(1995, 1, 9)), date(2020, 1, 1), S)
    assert active.earliest_retirement_date == date(2022, 9, 1)
    assert active.normal_retirement_date == date(2027, 9, 1)
    left = rules.core(
        person(date(1962, 8, 17), date(1995, 1, 9), term=date(2015, 3, 31)), date(2020, 1, 1), S
    )
    assert left.earliest_retirement_date == date(2022, 8, 17)  # §1.21 second paragraph (GAP-20)
    alt = rules.core(
        person(date(1962, 8, 17), date(1995, 1, 9), term=date(2015, 3, 31)),
        date(2020, 1, 1),
        rules.ServiceVestingSettings(erd_after_early_termination="first_of_month"),
    )
    assert alt.earliest_retirement_date == date(2022, 9, 1)


def test_full_vesting_events_4_1_b():
    young = date(1980, 1, 1)
    died = rules.core(
        person(young, date(2010, 1, 4), term=date(2011, 5, 1), death=date(2011, 5, 1)), date(2011, 6, 1), S
    )
    assert died.vesting.percent == 100
    disabled = rules.core(
        person(young, date(2010, 1, 4), term=date(2011, 5, 1), disability=date(2011, 3, 1)),
        date(2011, 6, 1),
        S,
    )
    assert disabled.vesting.percent == 100
    at65 = rules.core(person(date(1945, 1, 1), date(2008, 1, 7)), date(2010, 1, 1), S)
    assert at65.service.total_years == 1 and at65.vesting.percent == 100  # NRA while employed
    quit_ = rules.core(person(young, date(2010, 1, 4), term=date(2011, 5, 1)), date(2011, 6, 1), S)
    assert quit_.vesting.percent == 20


def test_pre_september_1998_schedule_for_early_terminations():
    c = rules.core(person(date(1960, 1, 1), date(1993, 1, 4), term=date(1997, 6, 30)), date(1998, 1, 1), S)
    assert c.service.total_years == 4 and c.vesting.percent == 40


def test_example_9_day_count_discrepancy():
    # SPEC Example 9 says "10,083 days by then" (1995-01-09 → 2022-09-01). Counting both ends (A1)
    # gives 10,098 (10,097 without the last day); the ERD is unaffected. Recomputed here.
    c = rules.core(person(date(1962, 8, 17), date(1995, 1, 9)), date(2022, 9, 1), S)
    assert c.service.total_days == 10098
