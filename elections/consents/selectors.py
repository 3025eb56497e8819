"""Scoped reads of spouses' consents: a participant sees only the consents to their own elections,
designations and claims (404 otherwise); plan staff see any (each view audited by the view)."""

from __future__ import annotations

from django.db.models import Q
from django.http import Http404

from elections.consents.models import SpousalConsent

# A consent names one election, designation or claim, and belongs to that thing's participant.
_CONSENT_SUBJECTS = ("election", "designation", "claim")
_CONSENT_SUBJECT_ROWS = tuple(
    f"{s}__{related}" for s in _CONSENT_SUBJECTS for related in ("participant", "membership__plan")
)


def _consents_of(owner: str, value) -> Q:
    """Consents whose election, designation or claim has ``{owner: value}`` (``participant`` or
    ``participant__user``)."""
    q = Q()
    for subject in _CONSENT_SUBJECTS:
        q |= Q(**{f"{subject}__{owner}": value})
    return q


def consent_get_for_viewer(*, user, consent_id: int) -> SpousalConsent:
    qs = SpousalConsent.objects.select_related(*_CONSENT_SUBJECT_ROWS, "form_document")
    if not user.is_authenticated:
        raise Http404
    if user.is_participant_role:
        qs = qs.filter(_consents_of("participant__user", user))
    elif not user.is_plan_staff:
        raise Http404
    try:
        return qs.get(pk=consent_id)
    except SpousalConsent.DoesNotExist as exc:
        raise Http404 from exc


def claim_consents(claim) -> list[SpousalConsent]:
    """The consents to one loan or withdrawal claim (the caller has scoped the claim to the viewer)."""
    return list(SpousalConsent.objects.filter(claim=claim).select_related("form_document"))


def consents_uploaded_for(participant) -> list[SpousalConsent]:
    """The signed forms uploaded for the participant's elections, designations and claims, newest
    first (the caller has scoped the participant to the viewer)."""
    return list(
        SpousalConsent.objects.filter(_consents_of("participant", participant))
        .exclude(upload_file="")
        .select_related("election", "designation", "claim")
        .order_by("-uploaded_at")
    )


def consents_awaiting_verification():
    return (
        SpousalConsent.objects.filter(state=SpousalConsent.State.AWAITING_VERIFICATION)
        .select_related(*_CONSENT_SUBJECT_ROWS)
        .order_by("uploaded_at")
    )
