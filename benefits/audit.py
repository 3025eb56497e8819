"""Audit events: every write service records one inside its own transaction."""

from __future__ import annotations

from django.utils import timezone

from benefits.models import AuditEvent, Participant


def client_ip(request) -> str | None:
    if request is None:
        return None
    return request.META.get("REMOTE_ADDR") or None


def audit_record(
    *,
    event_type: str,
    summary: str,
    actor=None,
    participant: Participant | None = None,
    request=None,
    **extra_data: object,
) -> AuditEvent:
    """Write one audit event. Call it inside the transaction of the change it records."""
    acting_user = actor if actor is not None and getattr(actor, "is_authenticated", False) else None
    return AuditEvent.objects.create(
        event_time=timezone.now(),
        event_type=event_type,
        acting_user=acting_user,
        participant=participant,
        summary=summary[:300],
        extra_data=extra_data,
        ip_address=client_ip(request),
    )
