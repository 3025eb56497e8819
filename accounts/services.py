"""Linking a login to a Participant record, by proving identity with data the plan already holds."""

from __future__ import annotations

import hmac
from datetime import date

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from benefits.audit import AuditEventType, audit_record, client_ip
from benefits.models import Participant

GENERIC_FAILURE = (
    "We could not match those details to a plan record. Check them against your plan statement "
    "and try again, or contact your plan administrator."
)


class IdentityLinkError(Exception):
    pass


class IdentityLinkLocked(IdentityLinkError):
    pass


def _attempt_keys(user, request) -> list[str]:
    keys = [f"identity-link:user:{user.pk}"]
    ip = client_ip(request)
    if ip:
        keys.append(f"identity-link:ip:{ip}")
    return keys


def identity_link_attempts_exceeded(*, user, request=None) -> bool:
    limit = settings.IDENTITY_LINK_MAX_ATTEMPTS
    return any((cache.get(key) or 0) >= limit for key in _attempt_keys(user, request))


def _count_failure(user, request) -> None:
    window = settings.IDENTITY_LINK_WINDOW_SECONDS
    for key in _attempt_keys(user, request):
        cache.add(key, 0, timeout=window)
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, timeout=window)


def participant_link_identity(
    *, user, participant_number: str, birth_date: date, ssn_last4: str, request=None
) -> Participant:
    """Link ``user`` to the Participant these three items identify, or fail without saying which was wrong.

    Repeated failures (per user and per IP) lock further attempts for a window.
    """
    if not user.is_participant_role:
        raise IdentityLinkError("Only participant accounts link to a plan record.")
    if hasattr(user, "participant"):
        raise IdentityLinkError("Your account is already linked to a plan record.")
    if identity_link_attempts_exceeded(user=user, request=request):
        raise IdentityLinkLocked(
            "Too many unsuccessful attempts. For your security, try again later or contact your plan administrator."
        )

    with transaction.atomic():
        candidate = (
            Participant.objects.select_for_update()
            .filter(participant_number=participant_number.strip(), user__isnull=True)
            .first()
        )
        matched = (
            candidate is not None
            and candidate.birth_date == birth_date
            and hmac.compare_digest(candidate.ssn_last4, (ssn_last4 or "").strip())
        )
        if matched:
            candidate.user = user
            candidate.save(update_fields=["user"])
            audit_record(
                event_type=AuditEventType.IDENTITY_LINKED,
                summary=f"{user.email} linked to participant {candidate.participant_number}",
                actor=user,
                participant=candidate,
                request=request,
            )
            return candidate
        audit_record(
            event_type=AuditEventType.IDENTITY_LINK_FAILED,
            summary=f"{user.email} failed an identity check",
            actor=user,
            request=request,
        )
    _count_failure(user, request)
    raise IdentityLinkError(GENERIC_FAILURE)
