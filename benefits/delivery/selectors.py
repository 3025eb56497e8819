"""Reads for electronic delivery, scoped to the requesting user."""

from __future__ import annotations

from django.db.models import QuerySet
from django.http import Http404

from benefits.delivery.models import DeliveryConsent, DeliveryTest, DocumentDelivery
from benefits.models import Participant


def consent_history(participant: Participant) -> QuerySet[DeliveryConsent]:
    """Every version of the participant's choice, newest first (the caller has scoped the participant)."""
    return DeliveryConsent.objects.filter(participant=participant).select_related("recorded_by")


def open_tests(participant: Participant) -> QuerySet[DeliveryTest]:
    """The test documents whose code has not been used yet, latest first."""
    return (
        DeliveryTest.objects.filter(participant=participant, used_at__isnull=True)
        .select_related("document")
        .order_by("-created_at", "-pk")
    )


def open_test(participant: Participant) -> DeliveryTest | None:
    """The latest test document whose code has not been used yet."""
    return open_tests(participant).first()


def recent_deliveries(participant: Participant, limit: int = 20) -> QuerySet[DocumentDelivery]:
    return (
        DocumentDelivery.objects.filter(participant=participant)
        .select_related("document")
        .order_by("-created_at", "-pk")[:limit]
    )


def _require_administrator(user) -> None:
    if not user.is_authenticated or not user.is_administrator:
        raise Http404


def deliveries_to_mail(*, user) -> QuerySet[DocumentDelivery]:
    """Paper copies to mail, and emails that failed for good (the administrator mails those too)."""
    _require_administrator(user)
    return (
        DocumentDelivery.objects.filter(
            state__in=(DocumentDelivery.State.TO_MAIL, DocumentDelivery.State.FAILED)
        )
        .select_related("participant", "document", "job")
        .order_by("created_at", "pk")
    )


def recently_mailed(*, user, limit: int = 50) -> QuerySet[DocumentDelivery]:
    _require_administrator(user)
    return (
        DocumentDelivery.objects.filter(state=DocumentDelivery.State.MAILED)
        .select_related("participant", "document", "mailed_by")
        .order_by("-mailed_on", "-pk")[:limit]
    )


def delivery_get_for_admin(*, user, delivery_id: int) -> DocumentDelivery:
    _require_administrator(user)
    try:
        return DocumentDelivery.objects.select_related("participant", "document").get(pk=delivery_id)
    except DocumentDelivery.DoesNotExist as exc:
        raise Http404 from exc
