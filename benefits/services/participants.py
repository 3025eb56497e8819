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
from benefits.readings import Reading, plan_readings


@dataclass(frozen=True)
class PlanOverview:
    plan: Plan
    participant_count: int
    readings: list[Reading]

    @property
    def needs_confirmation(self) -> bool:
        return self.plan.settings_confirmed_at is None

    @property
    def unset_required(self) -> list[Reading]:
        return [r for r in self.readings if r.unconfirmed]


def plan_overview(plan: Plan) -> PlanOverview:
    return PlanOverview(plan=plan, participant_count=plan.memberships.count(), readings=plan_readings(plan))


class PlanReadingsIncomplete(Exception):
    pass


def plan_confirm_settings(*, plan: Plan, actor, request=None) -> Plan:
    """An administrator confirms the plan's readings as a whole; a required reading must be set first."""
    if not actor.is_administrator:
        raise PermissionDenied("Only an administrator confirms a plan's readings.")
    missing = [r.name for r in plan_readings(plan) if r.unconfirmed]
    if missing:
        raise PlanReadingsIncomplete(
            "Set these readings before confirming (the plan text leaves them blank): " + ", ".join(missing)
        )
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
