"""Every estimate a participant asks for (``calculate_benefits``), each kept apart so one date's error does
not hide the others.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date
from typing import Any

from benefits.engine.core import CoreResult
from benefits.engine.trace import Trace
from benefits.engine.types import Participant

from .accrued import AccrualData
from .commencement import earliest_commencement_date
from .estimates import (
    CarverBenefits,
    Estimate,
    Limits415,
    NrdBenefit,
    _annuitant_birth,
    benefit_at_nrd,
    estimate,
)
from .forms import prime_limit_ratios
from .inputs import ZERO, accrual_data, settings_of


def _safe_estimate(
    p: Participant,
    as_of: date,
    d: date,
    core: CoreResult,
    assumptions: Mapping[str, Any] | None,
    nb: NrdBenefit,
    data: AccrualData,
    limits: Limits415 | None = None,
) -> Estimate:
    """One estimate; a date the plan cannot price (e.g. beyond Table A) becomes an estimate error."""
    try:
        return estimate(p, as_of, d, core, assumptions, nrd_benefit=nb, data=data, limits=limits)
    except ValueError as exc:
        trace = Trace().add(str(exc), section="Table A, §9.3", result=None)
        normal = "js50" if p.is_married else "life"
        return Estimate(d, "none", ZERO, normal, {}, None, None, None, trace, str(exc))


def calculate_benefits(
    p: Participant, as_of: date, core: CoreResult, assumptions: Mapping[str, Any] | None = None
) -> CarverBenefits:
    """The whole Carver DB benefit picture for one participant (the web app's entry point)."""

    def price(data: AccrualData, nb: NrdBenefit) -> tuple[Estimate, ...]:
        limits = Limits415(p, core, data, traced=True)  # what does not change with the date, read once
        return tuple(
            _safe_estimate(p, as_of, d, core, assumptions, nb, data, limits) for d in p.commencement_dates
        )

    return benefit_picture(p, core, as_of, price)


def benefit_picture(
    p: Participant,
    core: CoreResult,
    as_of: date,
    price: Callable[[AccrualData, NrdBenefit], tuple[Estimate, ...]],
) -> CarverBenefits:
    """The benefit picture with each date's estimate from ``price(data, benefit at NRD)``: the
    scalar path (``calculate_benefits``) and the one-pass path (``dates.grid_benefits``) differ only
    there. The dates' shared factors are priced first (``prime_dates``)."""
    data = accrual_data(p, as_of, core)
    nb = benefit_at_nrd(p, as_of, core, data)
    earliest = (
        earliest_commencement_date(p.birth_date, data.termination_date, p.hire_date)
        if nb.vested_percent > 0
        else None
    )
    prime_dates(p, nb)
    return CarverBenefits(nb, earliest, price(data, nb), settings_of(core), plan_notes(core))


def prime_dates(p: Participant, nb: NrdBenefit) -> None:
    """Price together what every date of the request reads from the same tables (the §6.1(C)(3)
    5%/GATT ratios), before the dates are priced one by one: only caches, the figures are the same."""
    if len(p.commencement_dates) > 1 and nb.vested_percent > 0 and p.death_date is None:
        prime_limit_ratios(p.birth_date, _annuitant_birth(p), p.is_married, p.commencement_dates)


def plan_notes(core: CoreResult) -> tuple[str, ...]:
    """The result's notes (the same whichever path priced the dates)."""
    if core.normal_retirement_date > date(2000, 12, 31):
        return (
            "No increase for starting after Normal Retirement Date: the plan's late retirement factor "
            "counts no time after 12/31/2000 (GAP-7).",
        )
    return ()
