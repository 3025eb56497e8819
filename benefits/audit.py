"""Audit events: every write service records one inside its own transaction."""

from __future__ import annotations

from django.utils import timezone

from benefits.models import AuditEvent, Participant


def client_ip(request) -> str | None:
    """The client's address: behind ``ALLAUTH_TRUSTED_PROXY_COUNT`` proxies, the address the nearest
    trusted proxy saw (X-Forwarded-For), never the proxy's own; otherwise REMOTE_ADDR."""
    if request is None:
        return None
    from allauth.account.adapter import get_adapter

    try:
        return get_adapter(request).get_client_ip(request) or None
    except Exception:  # noqa: BLE001 - a forged or short X-Forwarded-For: fall back to the socket's peer
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
