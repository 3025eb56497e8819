"""Scoped reads: every read of participant data goes through a function that takes the requesting user.

A participant sees only their own record; committee members and administrators may view any
participant read-only (the view records an audit event). Anything else answers 404, so a participant
cannot even learn that another participant's record exists.
"""

from __future__ import annotations

from django.db.models import QuerySet
from django.http import Http404

from benefits.models import AuditEvent, Participant, Plan, PlanMembership


def participant_for_user(user) -> Participant | None:
    """The participant record linked to this login, if any."""
    if not user.is_authenticated or not user.is_participant_role:
        return None
    return Participant.objects.filter(user=user).first()


def participant_get_for_viewer(*, user, participant_id: int) -> Participant:
    """The participant ``user`` may see, or 404."""
    if not user.is_authenticated:
        raise Http404
    qs = Participant.objects.select_related("employer")
    if user.is_participant_role:
        qs = qs.filter(user=user)
    elif not user.is_plan_staff:
        raise Http404
    try:
        return qs.get(pk=participant_id)
    except Participant.DoesNotExist as exc:
        raise Http404 from exc


def memberships_for_participant(participant: Participant) -> QuerySet[PlanMembership]:
    return (
        PlanMembership.objects.filter(participant=participant)
        .select_related("plan", "plan__employer")
        .order_by("plan__name")
    )


def participants_for_staff(*, user, query: str = "") -> QuerySet[Participant]:
    if not user.is_authenticated or not user.is_plan_staff:
        raise Http404
    qs = Participant.objects.select_related("employer").prefetch_related("memberships__plan")
    # PostgreSQL refuses NUL in text and nobody's name holds control characters: drop them, and bound it.
    query = "".join(ch for ch in query if ch.isprintable())[:100].strip()
    if query:
        from django.db.models import Q

        qs = qs.filter(
            Q(last_name__icontains=query)
            | Q(first_name__icontains=query)
            | Q(participant_number__iexact=query)
        )
    return qs.order_by("last_name", "first_name")


def plans_for_admin(*, user) -> QuerySet[Plan]:
    if not user.is_authenticated or not user.is_administrator:
        raise Http404
    return Plan.objects.select_related("employer", "settings_confirmed_by").order_by("name")


def audit_events_for_admin(*, user, limit: int = 200) -> QuerySet[AuditEvent]:
    if not user.is_authenticated or not user.is_administrator:
        raise Http404
    return AuditEvent.objects.select_related("acting_user", "participant")[:limit]


def document_get_for_viewer(*, user, document_id: int):
    """A generated document the user may download: their own, or any for committee/administrators."""
    from benefits.models import GeneratedDocument

    if not user.is_authenticated:
        raise Http404
    qs = GeneratedDocument.objects.select_related("participant")
    if user.is_participant_role:
        qs = qs.filter(participant__user=user)
    elif not user.is_plan_staff:
        raise Http404
    try:
        return qs.get(pk=document_id)
    except GeneratedDocument.DoesNotExist as exc:
        raise Http404 from exc
