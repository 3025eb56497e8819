"""Writes and engine calls for the benefits app.

Every write checks permission, changes state and records an audit event in one transaction.
Engine calls go through ``benefits.calculations``; the engine itself never sees Django.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from benefits.audit import audit_record
from benefits.models import Participant, Plan


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


def today() -> date:
    return timezone.localdate()
