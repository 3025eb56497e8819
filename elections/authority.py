"""Who may act in the elections app, how a refusal is told, and the audit of a staff member's view.

Every area of the app (benefit elections, consents, account elections, claims) uses these; they import
no area, so an area that needs them never reaches into another.
"""

from __future__ import annotations

from allauth.mfa.utils import is_mfa_enabled
from django.core.exceptions import PermissionDenied
from django.db import transaction

from benefits.audit import AuditEventType, audit_record


class ElectionInvalid(Exception):
    """Refused whole: ``errors`` maps each field to the rule it broke, in words for the participant."""

    def __init__(self, errors: dict[str, str]) -> None:
        super().__init__("; ".join(errors.values()))
        self.errors = errors


def require_administrator(actor) -> None:
    if actor is None:  # the command line and Celery workers act for the plan administrator
        return
    if not getattr(actor, "is_authenticated", False) or not actor.is_administrator:
        raise PermissionDenied("Only a plan administrator may do this.")
    if not is_mfa_enabled(actor):
        raise PermissionDenied("Administrators act only after logging in with two-factor authentication.")


def require_owner(participant, actor) -> None:
    if not getattr(actor, "is_authenticated", False) or participant.user_id != actor.pk:
        raise PermissionDenied("Only the participant may do this.")


def staff_viewed(
    *,
    viewer,
    participant,
    what: str,
    request=None,
    event_type: str = AuditEventType.ELECTION_VIEWED_BY_STAFF,
    **extra,
) -> None:
    """Every staff view of an election, a consent, a designation or an account election is an audit
    event (``event_type`` names which)."""
    if not getattr(viewer, "is_plan_staff", False):
        return
    with transaction.atomic():
        audit_record(
            event_type=event_type,
            summary=f"{viewer.email} viewed {what} of {participant.participant_number}",
            actor=viewer,
            participant=participant,
            request=request,
            what=what,
            **extra,
        )
