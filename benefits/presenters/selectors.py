"""Scoped reads for the portal pages: every lookup starts from a participant the viewer may see."""

from __future__ import annotations

from django.http import Http404

from benefits import selectors
from benefits.models import GeneratedDocument, ModelerRun, PlanMembership, SavedQuote


def membership_get_for_viewer(*, user, participant_id: int, plan_key: str) -> PlanMembership:
    participant = selectors.participant_get_for_viewer(user=user, participant_id=participant_id)
    try:
        return PlanMembership.objects.select_related("plan", "plan__employer", "participant").get(
            participant=participant, plan__key=plan_key
        )
    except PlanMembership.DoesNotExist as exc:
        raise Http404 from exc


def run_get_for_viewer(*, user, participant_id: int, run_id: int) -> ModelerRun:
    participant = selectors.participant_get_for_viewer(user=user, participant_id=participant_id)
    try:
        return ModelerRun.objects.select_related("membership__plan", "membership__participant").get(
            pk=run_id, membership__participant=participant
        )
    except ModelerRun.DoesNotExist as exc:
        raise Http404 from exc


def quote_get_for_viewer(*, user, participant_id: int, quote_id: int) -> SavedQuote:
    participant = selectors.participant_get_for_viewer(user=user, participant_id=participant_id)
    try:
        return SavedQuote.objects.select_related("membership__plan", "participant", "document").get(
            pk=quote_id, participant=participant
        )
    except SavedQuote.DoesNotExist as exc:
        raise Http404 from exc


def quotes_for_membership(membership: PlanMembership):
    return SavedQuote.objects.filter(membership=membership).select_related("document")


def statements_for_membership(membership: PlanMembership):
    return GeneratedDocument.objects.filter(
        participant=membership.participant, kind="statement", payload__plan_key=membership.plan.key
    )[:10]
