"""Carver DB census shortcuts held equal to the general forms: the periods begun by the calculation
date and the event date (``inputs``), and the top-heavy minimum, which reads no compensation when the
plan was never Top-Heavy (``estimates.benefit_at_nrd`` passes none then)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from benefits.engine.plans.carver_db.accrued import AccrualData, accrued_at
from benefits.engine.plans.carver_db.inputs import _event_date, _periods_by
from benefits.engine.plans.carver_db.limits import top_heavy_minimum
from benefits.engine.trace import traces_off
from benefits.engine.types import EmploymentPeriod

days = st.dates(min_value=date(1960, 1, 1), max_value=date(2040, 12, 31))


@st.composite
def histories(draw: st.DrawFn) -> tuple[EmploymentPeriod, ...]:
    out, start = [], draw(days)
    for _ in range(draw(st.integers(1, 3))):
        end = draw(st.one_of(st.none(), st.just(start + timedelta(days=draw(st.integers(0, 4000))))))
        out.append(EmploymentPeriod(start, end))
        if end is None:
            break
        start = end + timedelta(days=draw(st.integers(1, 2000)))
    return tuple(out)


def _general_event_date(
    periods: tuple[EmploymentPeriod, ...], death: date | None, as_of: date
) -> date | None:
    ends = [x.end for x in periods if x.start <= as_of]
    term = ends[-1] if ends and ends[-1] is not None and ends[-1] < as_of else None
    if death is not None and death <= as_of:
        term = min(term, death) if term else death
    return term


@given(histories(), st.one_of(st.none(), days), days)
def test_periods_and_event_date_equal_the_general_forms(
    periods: tuple[EmploymentPeriod, ...], death: date | None, as_of: date
) -> None:
    begun = _periods_by(periods, as_of)
    assert begun == tuple(x for x in periods if x.start <= as_of)
    assert _event_date(begun, death, as_of) == _general_event_date(periods, death, as_of)


pay = st.dictionaries(
    st.integers(1980, 2030), st.decimals(min_value=0, max_value=500_000, places=2), max_size=12
)


@given(pay, st.lists(st.integers(1980, 2030), max_size=5), st.booleans(), st.booleans())
def test_never_top_heavy_reads_no_compensation(
    compensation: dict[int, Decimal], years: list[int], key: bool, average_all: bool
) -> None:
    general = top_heavy_minimum(
        compensation=compensation,
        top_heavy_years=(),
        vesting_service_years=years,
        key_employee=key,
        average_all_if_fewer_than_5=average_all,
    )
    quick = top_heavy_minimum(
        compensation={},
        top_heavy_years=(),
        vesting_service_years=years,
        key_employee=key,
        average_all_if_fewer_than_5=average_all,
    )
    assert quick == general


@given(
    st.dates(min_value=date(1965, 1, 1), max_value=date(2005, 12, 31)),
    st.one_of(st.none(), st.dates(min_value=date(1966, 1, 1), max_value=date(2010, 12, 31))),
    pay,
    st.decimals(min_value=0, max_value=40_000, places=2),
)
def test_untraced_accrued_benefit_has_the_traced_figures(
    hire: date, end: date | None, compensation: dict[int, Decimal], ssa: Decimal
) -> None:
    if end is not None and end < hire:
        end = None
    data = AccrualData(
        periods=(EmploymentPeriod(hire, end),),
        compensation=compensation,
        social_security_amount=ssa,
        nrd=date(2030, 1, 1),
        termination_date=end,
    )
    traced = accrued_at(data)
    with traces_off():
        untraced = accrued_at(data)
    assert untraced == replace(traced, trace=untraced.trace) and untraced.trace.steps == ()
