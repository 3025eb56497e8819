"""Carver DB plan data, parsed once: the accrual data (credited service, earnings, the frozen Social
Security Amount) and the event dates read from ``plan_data``, with JSON-pointer errors.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, timedelta
from decimal import Decimal
from types import MappingProxyType
from typing import Any

from benefits.engine.core import CoreResult
from benefits.engine.missing import MissingInput
from benefits.engine.plan_support import pd_decimal, pd_text_date
from benefits.engine.service import ServiceHistory
from benefits.engine.types import EmploymentPeriod, Participant

from .accrued import AccrualData
from .settings import DEFAULT_SETTINGS, BenefitSettings

ZERO = Decimal(0)


HUNDRED = Decimal(100)


ONE_DAY = timedelta(days=1)


NRD_POINTER = {
    "rule": "The benefit at Normal Retirement Date, as traced under accrued_benefit.monthly_at_nrd",
    "section": "§3.1, §5.2(A)",
    "inputs": {},
    "result": "accrued_benefit.monthly_at_nrd",
}


def _pd_decimal(p: Participant, key: str, default: Decimal | None = ZERO) -> Decimal | None:
    return pd_decimal(p, key, default, blank_is_missing=True)


def _pd_date(p: Participant, key: str) -> date | None:
    return pd_text_date(p, key, rule="must be a date")


def pay_by_year(compensation: Mapping[Any, Any]) -> dict[int, Decimal]:
    """``{int(k): Decimal(v) for k, v in compensation.items()}``: a parsed participant's map (whole
    years to Decimals) is that already, and is copied as it is."""
    if set(map(type, compensation)) <= {int} and set(map(type, compensation.values())) <= {Decimal}:
        return dict(compensation)
    return {int(k): Decimal(v) for k, v in compensation.items()}


def settings_of(core: CoreResult | None) -> BenefitSettings:
    given = (core.settings or {}).get("benefits") if core is not None else None
    return given if isinstance(given, BenefitSettings) else DEFAULT_SETTINGS


def event_date(p: Participant, as_of: date) -> date | None:
    """The earliest of Termination of Employment, retirement or death on or before ``as_of``."""
    return _event_date(_periods_by(p.periods, as_of), p.death_date, as_of)


def _periods_by(periods: tuple[EmploymentPeriod, ...], as_of: date) -> tuple[EmploymentPeriod, ...]:
    """The employment periods begun by ``as_of`` (the usual one period as it is)."""
    if len(periods) == 1 and periods[0].start <= as_of:
        return periods
    return tuple(x for x in periods if x.start <= as_of)


def _event_date(periods: tuple[EmploymentPeriod, ...], death: date | None, as_of: date) -> date | None:
    """``event_date`` from the periods begun by ``as_of``."""
    last = periods[-1].end if periods else None
    term = last if last is not None and last < as_of else None
    if death is not None and death <= as_of:
        term = min(term, death) if term else death
    return term


def _credited_years(core: CoreResult) -> list[int]:
    if isinstance(core.service, ServiceHistory):  # the Plan Years alone, without building the rows
        return [year for year, credited, _ in core.service.year_summary() if credited]
    out = []
    for y in getattr(core.service, "years", ()):
        try:
            if y.credited:
                out.append(int(y.label))
        except (AttributeError, ValueError):
            continue
    return out


def accrual_data(p: Participant, as_of: date, core: CoreResult) -> AccrualData:
    """What §3.1 needs, read once from the participant record and the service core."""
    ssa = _pd_decimal(p, "social_security_amount", None)
    if ssa is None:
        # Blocks the benefit figures only: vesting and dates stay (engine-cli.md, ``missing``).
        raise MissingInput(
            "/plan_data/social_security_amount",
            "the frozen Social Security Amount (§1.1(II)) is needed to compute the Accrued Benefit",
        )
    periods = _periods_by(p.periods, as_of)
    event = _event_date(periods, p.death_date, as_of)
    years_before_event = [y for y in _credited_years(core) if event is None or y <= event.year]
    return AccrualData(
        periods=periods,
        compensation=MappingProxyType(pay_by_year(p.compensation)),
        social_security_amount=ssa,
        nrd=core.normal_retirement_date,
        termination_date=event,
        prior_plan_benefit=_pd_decimal(p, "prior_plan_benefit") or ZERO,
        benefit_at_1997_12_31=_pd_decimal(p, "benefit_at_1997_12_31") or ZERO,
        max_offset_401l=_pd_decimal(p, "max_offset_401l", None),
        years_of_service=len(years_before_event) if years_before_event or p.hours else None,
        hours=MappingProxyType(dict(p.hours)),
    )
