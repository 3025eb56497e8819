"""Scoped reads: a participant reaches only their own memberships and elections (404 otherwise); plan
staff see any participant's history (each view audited by the view through ``services.staff_viewed``)."""

from __future__ import annotations

from django.http import Http404

from benefits.models import Participant, PlanMembership
from benefits.selectors import with_engine_rows
from elections.account_elections.models import DeferralElection, DiversificationElection


def membership_get_for_owner(*, user, membership_id: int) -> PlanMembership:
    """The participant's own membership (the election pages are the participant's alone)."""
    if not user.is_authenticated or not user.is_participant_role:
        raise Http404
    qs = with_engine_rows(PlanMembership.objects.filter(participant__user=user))
    try:
        membership = qs.get(pk=membership_id)
    except PlanMembership.DoesNotExist as exc:
        raise Http404 from exc
    user.participant = membership.participant  # the layout's navigation asks again; answer from memory
    return membership


def diversification_history(participant: Participant):
    return (
        DiversificationElection.objects.filter(participant=participant)
        .select_related("membership__plan", "made_by", "confirmation")
        .order_by("membership__plan__name", "-plan_year", "-version")
    )


def deferral_history(participant: Participant):
    return (
        DeferralElection.objects.filter(participant=participant)
        .select_related("membership__plan")
        .order_by("membership__plan__name", "-filed_on", "-pk")
    )


def has_account_elections(participant: Participant) -> bool:
    return (
        DiversificationElection.objects.filter(participant=participant).exists()
        or DeferralElection.objects.filter(participant=participant).exists()
    )
