"""Credited Service (§1.1(H)): elapsed full months of employment, none after the Plan Freeze Date."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from benefits.engine.dates import complete_months, day_after
from benefits.engine.trace import Trace, TraceBuilder
from benefits.engine.types import EmploymentPeriod

from .settings import DEFAULT_SETTINGS, PLAN_FREEZE_DATE, UNFROZEN_PROJECTION, BenefitSettings


@dataclass(frozen=True)
class CreditedService:
    months: int
    trace: Trace

    @property
    def years(self) -> Decimal:
        return Decimal(self.months) / 12


def _freeze_end(settings: BenefitSettings) -> date:
    # End exclusive: employment through 12/31/2000 counts up to 1/1/2001 (GAP-19 default).
    return day_after(PLAN_FREEZE_DATE) if settings.freeze_day_included else PLAN_FREEZE_DATE


def credited_service(
    periods: tuple[EmploymentPeriod, ...],
    *,
    up_to: date | None = None,
    participation_date: date | None = None,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> CreditedService:
    """Full months in each employment period, ended at the earliest of its end, ``up_to`` (exclusive)
    and the freeze; fractional months dropped per period (§1.1(H)(2)(a))."""
    tb = TraceBuilder()
    cap = _freeze_end(settings)
    if up_to is not None:
        cap = min(cap, up_to)
    total = 0
    for p in periods:
        start = p.start
        if settings.credited_service_from_participation and participation_date:
            start = max(start, participation_date)
        end = cap if p.end is None else min(day_after(p.end), cap)
        months = complete_months(start, end)
        total += months
        tb.step(
            "Full months of employment in this period; a fractional month is dropped and nothing "
            "after the Plan Freeze Date counts",
            section="§1.1(H)",
            result=months,
            start=start,
            counted_to=end,
        )
    tb.step("Credited Service in months", section="§1.1(H)", result=total)
    return CreditedService(total, tb.build())


def projected_service_months(
    periods: tuple[EmploymentPeriod, ...],
    nrd: date,
    *,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> tuple[int, Trace]:
    """Credited Service 'he would have had on his Normal Retirement Date had his Service not ceased'
    (§3.1(A)(2)(b)(ii)).

    A termination before the freeze uses the plan as constituted then (§5.2(A)): the ordinary
    projection to NRD. For anyone employed at the freeze the GAP-1 reading in ``settings`` decides.
    """
    tb = TraceBuilder()
    freeze_end = _freeze_end(settings)
    earlier = sum(
        complete_months(p.start, min(day_after(p.end), freeze_end)) for p in periods[:-1] if p.end is not None
    )
    last = periods[-1]
    terminated_before_freeze = last.end is not None and last.end < PLAN_FREEZE_DATE
    if terminated_before_freeze or settings.projected_cs_mode == UNFROZEN_PROJECTION:
        months = earlier + complete_months(last.start, nrd)
        why = (
            "terminated before the freeze, so the plan as then constituted projects to NRD"
            if terminated_before_freeze
            else "employment continued to NRD as if there were no freeze (GAP-1, interpretation II)"
        )
    else:
        # Interpretation I: Credited Service cannot accrue after the freeze "notwithstanding any
        # provision to the contrary" (§1.1(H)), so the projection equals the frozen service.
        months = earlier + complete_months(last.start, freeze_end)
        why = "Credited Service stops at the Plan Freeze Date (GAP-1, interpretation I)"
    tb.step(
        f"Projected Credited Service at Normal Retirement Date: {why}",
        section="§3.1(A)(2)(b)(ii), §1.1(H)",
        result=months,
        nrd=nrd,
    )
    return months, tb.build()
