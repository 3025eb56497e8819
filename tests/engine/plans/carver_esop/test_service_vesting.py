"""Carver ESOP: assumed service/vesting settings (base plan unknown, Fairport SPEC B4-B6, D2.1)."""

from datetime import date
from types import MappingProxyType

from benefits.engine.plans.carver_esop import rules
from benefits.engine.types import Participant


def person(birth, hire, *, term=None, hours=None, plan_data=None):
    return Participant(
        id="t",
        birth_date=birth,
        hire_date=hire,
        termination_date=term,
        hours=MappingProxyType(hours or {}),
        plan_data=MappingProxyType(plan_data or {}),
    )


def test_default_assumption_is_statutory_six_year_graded():
    p = person(1970 and date(1970, 5, 5), date(2001, 2, 1), hours={y: 2000 for y in range(2001, 2005)})
    c = rules.core(p, date(2004, 12, 31), rules.ServiceVestingSettings())
    assert c.service.total_years == 4 and c.vesting.percent == 60
    assert any("assumed" in n for n in c.notes)


def test_nra_from_plan_data_and_e9_assumption_65():
    p = person(date(1960, 3, 15), date(2001, 2, 1))
    assert rules.core(p, date(2004, 1, 1), rules.ServiceVestingSettings()).normal_retirement_date == date(
        2025, 4, 1
    )
    q = person(date(1960, 3, 15), date(2001, 2, 1), plan_data={"normal_retirement_age": 62})
    assert rules.core(q, date(2004, 1, 1), rules.ServiceVestingSettings()).normal_retirement_date == date(
        2022, 4, 1
    )


def test_no_early_retirement_known():
    p = person(date(1960, 3, 15), date(2001, 2, 1))
    assert rules.core(p, date(2004, 1, 1), rules.ServiceVestingSettings()).earliest_retirement_date is None
    s = rules.ServiceVestingSettings(early_retirement_age=55)
    assert rules.core(p, date(2004, 1, 1), s).earliest_retirement_date == date(2015, 3, 15)


def test_other_schedules_and_nra_vesting():
    p = person(date(1970, 5, 5), date(2001, 2, 1), hours={2001: 2000, 2002: 2000, 2003: 2000})
    cliff = rules.ServiceVestingSettings(vesting_schedule="three_year_cliff")
    assert rules.core(p, date(2003, 12, 31), cliff).vesting.percent == 100
    assert rules.core(p, date(2002, 12, 31), cliff).vesting.percent == 0
    old = person(date(1935, 5, 5), date(1998, 2, 1), hours={1998: 2000})
    assert rules.core(old, date(2001, 1, 1), rules.ServiceVestingSettings()).vesting.percent == 100
