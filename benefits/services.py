"""Writes and engine calls for the benefits app.

Every write checks permission, changes state and records an audit event in one transaction.
ORM rows become engine inputs here (``participant_to_engine``); the engine itself never sees Django.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from types import MappingProxyType

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from benefits.audit import audit_record
from benefits.engine import types as engine_types
from benefits.models import Participant, Plan, PlanMembership


@dataclass(frozen=True)
class PlanOverview:
    plan: Plan
    participant_count: int
    settings: dict
    needs_confirmation: bool


def plan_overview(plan: Plan) -> PlanOverview:
    return PlanOverview(
        plan=plan,
        participant_count=plan.memberships.count(),
        settings=plan.settings,
        needs_confirmation=plan.settings_confirmed_at is None,
    )


def plan_confirm_settings(*, plan: Plan, actor, request=None) -> Plan:
    if not actor.is_administrator:
        raise PermissionDenied("Only an administrator confirms a plan's readings.")
    with transaction.atomic():
        plan.settings_confirmed_at = timezone.now()
        plan.settings_confirmed_by = actor
        plan.save(update_fields=["settings_confirmed_at", "settings_confirmed_by"])
        audit_record(
            event_type="plan.settings_confirmed",
            summary=f"Plan readings of {plan.key} confirmed",
            actor=actor,
            request=request,
            plan=plan.key,
            settings=plan.settings,
        )
    return plan


def participant_view_as_staff(*, viewer, participant: Participant, page: str, request=None) -> None:
    """Record that a committee member or administrator opened a participant's page (read-only)."""
    if not viewer.is_plan_staff:
        raise PermissionDenied
    with transaction.atomic():
        audit_record(
            event_type="participant.viewed_by_staff",
            summary=f"{viewer.email} viewed {page} of {participant.participant_number}",
            actor=viewer,
            participant=participant,
            request=request,
            page=page,
        )


def participant_to_engine(membership: PlanMembership) -> engine_types.Participant:
    """The engine's view of one participant in one plan (shared/contracts/engine-cli.md fields)."""
    p = membership.participant
    periods = tuple(
        engine_types.EmploymentPeriod(ep.start, ep.end) for ep in p.employment_periods.all().order_by("start")
    )
    return engine_types.Participant(
        id=p.participant_number,
        birth_date=p.birth_date,
        hire_date=p.hire_date,
        termination_date=p.termination_date,
        employment_periods=periods,
        marital_status=p.marital_status,
        spouse_birth_date=p.spouse_birth_date,
        hours=MappingProxyType({h.period_year: h.hours for h in membership.hours.all()}),
        compensation=MappingProxyType({c.year: c.amount for c in membership.compensation.all()}),
        death_date=p.death_date,
        disability_date=p.disability_date,
        plan_data=MappingProxyType(dict(membership.plan_data)),
    )


def today() -> date:
    return timezone.localdate()
