"""Scoped reads: a participant reaches only their own memberships and elections (404 otherwise); plan
staff see any participant's history (each view audited by the view through ``services.staff_viewed``)."""

from __future__ import annotations

from benefits.models import Participant
from elections.account_elections.models import DeferralElection, DiversificationElection


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
