"""The bridge from ORM rows to the engine: one contract request per membership, results stored.

The web app calls the engine through exactly the same entry point as the command line
(``benefits.engine.request.calculate_request``), so a number on a page can be reproduced from the
stored request with ``python -m benefits.engine calculate``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from datetime import date

from django.db import IntegrityError, transaction

from benefits.engine import ENGINE_VERSION
from benefits.engine.request import RequestError, calculate_request
from benefits.models import CalculationResult, MarketRate, Plan, PlanMembership


class CalculationError(Exception):
    """The engine could not calculate this membership; ``field`` is the JSON pointer it named."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def plan_assumptions(plan: Plan) -> dict:
    """Market data as administrators keep it (``MarketRate``), in the engine contract's assumption names.

    Dates past the last published rate are projections: they assume the last published rate
    continues, and the engine's trace says so for every number that uses one.
    """
    assumptions: dict = {}
    november = list(MarketRate.objects.filter(series="treasury_10y_november").order_by("period"))
    if november:
        assumptions["treasury_10y_november"] = {str(r.period.year): str(r.percent) for r in november}
        assumptions["treasury_10y_projection"] = str(november[-1].percent)
    monthly_30y = list(MarketRate.objects.filter(series="treasury_30y").order_by("period"))
    if monthly_30y:
        monthly = {f"{r.period:%Y-%m}": str(r.percent) for r in monthly_30y}
        assumptions["applicable_interest_rate"] = monthly  # quaker-cash-balance §1.2(e)
        assumptions["treasury_30y_monthly"] = monthly  # carver-db small-benefit cash-out basis
        assumptions["applicable_interest_rate_default"] = str(monthly_30y[-1].percent)
    return assumptions


def participant_payload(membership: PlanMembership, *, commencement_dates: Iterable[date] = ()) -> dict:
    """One participant in the engine contract's JSON shape."""
    p = membership.participant
    periods = list(p.employment_periods.all().order_by("start"))
    payload: dict = {
        "id": p.participant_number,
        "birth_date": p.birth_date.isoformat(),
        "hire_date": p.hire_date.isoformat(),
        "termination_date": p.termination_date.isoformat() if p.termination_date else None,
        "marital_status": p.marital_status,
        "spouse_birth_date": p.spouse_birth_date.isoformat() if p.spouse_birth_date else None,
        "hours": {str(h.period_year): h.hours for h in membership.hours.all()},
        "compensation": {str(c.year): f"{c.amount:.2f}" for c in membership.compensation.all()},
        "death_date": p.death_date.isoformat() if p.death_date else None,
        "disability_date": p.disability_date.isoformat() if p.disability_date else None,
        "plan_data": dict(membership.plan_data),
    }
    if len(periods) > 1:
        payload["employment_periods"] = [
            {"start": ep.start.isoformat(), "end": ep.end.isoformat() if ep.end else None} for ep in periods
        ]
    balances = {b.source: f"{b.balance:.2f}" for b in membership.balances.all()}
    if balances and "balances" not in payload["plan_data"]:
        payload["plan_data"]["balances"] = balances
    dates = [d.isoformat() for d in commencement_dates]
    if dates:
        payload["commencement_dates"] = dates
    return payload


def membership_request(
    membership: PlanMembership, *, as_of: date, commencement_dates: Iterable[date] = (), detail: bool = False
) -> dict:
    plan = membership.plan
    request = {
        "plan": plan.key,
        "as_of": as_of.isoformat(),
        "assumptions": plan_assumptions(plan),
        "participants": [participant_payload(membership, commencement_dates=commencement_dates)],
    }
    if plan.settings:
        request["settings"] = dict(plan.settings)
    if detail:
        request["options"] = {"detail": True}
    return request


def membership_calculate(
    membership: PlanMembership, *, as_of: date, commencement_dates: Iterable[date] = (), detail: bool = False
) -> dict:
    """The engine's contract result for this membership, stored once per request and engine version."""
    request = membership_request(
        membership, as_of=as_of, commencement_dates=commencement_dates, detail=detail
    )
    digest = hashlib.sha256(json.dumps(request, sort_keys=True).encode()).hexdigest()
    stored = CalculationResult.objects.filter(
        membership=membership, engine_version=ENGINE_VERSION, request_sha256=digest
    ).first()
    if stored is not None:
        result = stored.result
    else:
        try:
            result = calculate_request(request)["results"][0]
        except RequestError as exc:  # a stored value outside its plausible range: named, never a 500
            raise CalculationError(exc.pointer.removeprefix("/participants/0"), str(exc)) from None
        try:
            with transaction.atomic():
                CalculationResult.objects.create(
                    membership=membership,
                    as_of=as_of,
                    engine_version=ENGINE_VERSION,
                    request_sha256=digest,
                    request=request,
                    result=result,
                )
        except IntegrityError:  # another request stored the same result first
            pass
    if "error" in result:
        raise CalculationError(result["error"]["field"], result["error"]["message"])
    return result
