"""Elapsed-time service (benefits/engine/service.py): Period of Service, Severance, spanning."""

from datetime import date

from benefits.engine.service import ElapsedRules, ParentalLeave, ParityRule, elapsed_service
from benefits.engine.types import EmploymentPeriod as EP

RULES = ElapsedRules(
    service_section="§1.48", severance_section="§1.45", parity=ParityRule("§4.3(b)", min_breaks=5)
)


def run(periods, as_of, vested=lambda n: n >= 1, **kw):
    return elapsed_service(periods=periods, as_of=as_of, rules=RULES, is_vested=vested, **kw)


def test_days_divided_by_365_fraction_dropped():
    h = run((EP(date(1998, 3, 2), None),), date(2003, 1, 31))
    assert (h.total_days, h.total_years) == (1797, 4)
    assert h.projected_date(5) == date(2003, 2, 28)  # the leap day moves it one day earlier


def test_rehire_within_twelve_months_spans_the_gap():
    h = run((EP(date(2001, 2, 5), date(2001, 8, 31)), EP(date(2002, 5, 13), None)), date(2003, 12, 31))
    assert [r.kind for r in h.periods] == ["employment", "spanned gap", "employment"]
    assert h.periods[1].days == 254
    assert h.total_days == 1060


def test_rehire_after_twelve_months_counts_severance_not_gap():
    h = run(
        (EP(date(2001, 2, 5), date(2001, 8, 31)), EP(date(2002, 9, 16), None)),
        date(2003, 12, 31),
        vested=lambda n: False,
    )
    sev = h.periods[1]
    assert sev.kind == "severance" and sev.severance_periods == 1 and sev.days == 0
    assert h.total_days == 680


def test_five_severance_periods_lose_unvested_service():
    periods = (EP(date(1990, 1, 1), date(1991, 12, 31)), EP(date(1997, 3, 1), None))
    h = run(periods, date(1997, 12, 31), vested=lambda n: False)
    assert h.events[0].breaks == 5 and h.events[0].lost
    assert h.total_days == 306
    kept = run(periods, date(1997, 12, 31), vested=lambda n: n >= 1)
    assert not kept.events[0].lost and kept.events[0].account_frozen


def test_second_year_of_parental_absence_is_excluded():
    leave = ParentalLeave(date(2010, 1, 1), date(2011, 12, 31))
    h = run((EP(date(2009, 1, 1), None),), date(2011, 12, 31), parental_leaves=(leave,))
    assert h.total_days == 1095 - 365


def test_terminated_projection_is_none():
    h = run((EP(date(2009, 1, 1), date(2010, 6, 30)),), date(2012, 1, 1))
    assert h.projected_date(5) is None
    assert h.periods[-1].kind == "severance"
