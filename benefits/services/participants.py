"""Participant-level writes: a staff member's audited read-only view of a participant's pages."""

from __future__ import annotations

from datetime import date

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from benefits.audit import AuditEventType, audit_record
from benefits.models import Participant


def participant_view_as_staff(*, viewer, participant: Participant, page: str, request=None) -> None:
    """Record that a committee member or administrator opened a participant's page (read-only)."""
    if not viewer.is_plan_staff:
        raise PermissionDenied
    with transaction.atomic():
        audit_record(
            event_type=AuditEventType.PARTICIPANT_VIEWED_BY_STAFF,
            summary=f"{viewer.email} viewed {page} of {participant.participant_number}",
            actor=viewer,
            participant=participant,
            request=request,
            page=page,
        )


def today() -> date:
    return timezone.localdate()
