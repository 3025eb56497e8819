"""Scoped reads: a participant sees only their own notices, elections and consents (404 otherwise);
plan staff see any (each view audited by the view through ``services.staff_viewed``)."""

from __future__ import annotations

from django.db.models import Q
from django.http import Http404

from benefits.models import GeneratedDocument, Participant
from elections.benefit_elections.models import (
    BeneficiaryDesignation,
    Election,
    ElectionDraft,
    Notice,
    NoticeBatch,
)
from elections.consents.models import SpousalConsent

# A consent names one election, designation or claim, and belongs to that thing's participant.
_CONSENT_SUBJECTS = ("election", "designation", "claim")
_CONSENT_SUBJECT_ROWS = tuple(
    f"{s}__{related}" for s in _CONSENT_SUBJECTS for related in ("participant", "membership__plan")
)


def _scope(qs, user, field: str = "participant__user"):
    if not user.is_authenticated:
        raise Http404
    if user.is_participant_role:
        return qs.filter(**{field: user})
    if user.is_plan_staff:
        return qs
    raise Http404


def _get(qs, pk):
    try:
        return qs.get(pk=pk)
    except qs.model.DoesNotExist as exc:
        raise Http404 from exc


def notice_get_for_viewer(*, user, notice_id: int) -> Notice:
    return _get(_scope(Notice.objects.select_related("participant", "plan", "document"), user), notice_id)


def election_get_for_viewer(*, user, election_id: int) -> Election:
    qs = Election.objects.select_related("participant", "membership__plan", "notice", "claim")
    return _get(_scope(qs, user), election_id)


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
    return _get(qs, consent_id)


def designation_get_for_viewer(*, user, designation_id: int) -> BeneficiaryDesignation:
    qs = BeneficiaryDesignation.objects.select_related("participant", "membership__plan")
    return _get(_scope(qs, user), designation_id)


def designations_for_membership(membership) -> list[BeneficiaryDesignation]:
    """Every version for one plan membership, newest first, with its consents (the caller has
    already scoped the membership to the viewer)."""
    return list(
        BeneficiaryDesignation.objects.filter(membership=membership)
        .prefetch_related("consents__form_document")
        .order_by("-version")
    )


def claim_consents(claim) -> list[SpousalConsent]:
    return list(SpousalConsent.objects.filter(claim=claim).select_related("form_document"))


def election_for_claim(claim) -> Election | None:
    """The claim's standing election (the newest not replaced or revoked), with its consents."""
    return (
        Election.objects.filter(claim=claim)
        .exclude(state__in=(Election.State.SUPERSEDED, Election.State.REVOKED))
        .prefetch_related("consents")
        .order_by("-version", "-pk")
        .first()
    )


def draft_get_for_owner(*, user, draft_id: int) -> ElectionDraft:
    if not user.is_authenticated or not user.is_participant_role:
        raise Http404
    qs = ElectionDraft.objects.select_related("participant", "membership__plan", "notice", "claim")
    return _get(qs.filter(created_by=user, participant__user=user), draft_id)


def documents_for_participant(participant: Participant) -> dict:
    """Everything the participant has been given, newest first: generated documents (statements,
    quotes, claim letters, notices, consent forms) and the consent forms they uploaded."""
    documents = list(GeneratedDocument.objects.filter(participant=participant).order_by("-created_at", "-pk"))
    consents = list(
        SpousalConsent.objects.filter(_consents_of("participant", participant))
        .exclude(upload_file="")
        .select_related("election", "designation", "claim")
        .order_by("-uploaded_at")
    )
    designations = list(
        BeneficiaryDesignation.objects.filter(participant=participant)
        .select_related("membership__plan")
        .order_by("-signed_at")
    )
    return {"documents": documents, "consents": consents, "designations": designations}


def elections_for_participant(participant: Participant):
    return (
        Election.objects.filter(participant=participant)
        .select_related("membership__plan", "notice")
        .prefetch_related("consents")
    )


def notices_for_participant(participant: Participant):
    return Notice.objects.filter(participant=participant).select_related("plan", "document")


def batches_recent(limit: int = 20):
    return NoticeBatch.objects.select_related("plan", "created_by")[:limit]


def consents_awaiting_verification():
    return (
        SpousalConsent.objects.filter(state=SpousalConsent.State.AWAITING_VERIFICATION)
        .select_related(*_CONSENT_SUBJECT_ROWS)
        .order_by("uploaded_at")
    )


def designations_awaiting_consent():
    return (
        BeneficiaryDesignation.objects.filter(state=BeneficiaryDesignation.State.AWAITING_CONSENT)
        .select_related("participant", "membership__plan")
        .order_by("signed_at")
    )


def elections_awaiting_consent():
    return (
        Election.objects.filter(state=Election.State.AWAITING_CONSENT)
        .select_related("participant", "membership__plan")
        .order_by("signed_at")
    )


def memberships_of(participant):
    """The participant's plan memberships (the caller has scoped the participant to the viewer)."""
    from benefits.models import PlanMembership

    return (
        PlanMembership.objects.filter(participant=participant)
        .select_related("plan", "participant")
        .order_by("plan__name")
    )


def final_explanation_for(notice):
    """The final explanation that replaced a provisional one (issue 25), or None; same participant."""
    from elections.benefit_elections.models import Notice

    return Notice.objects.filter(replaces=notice, participant_id=notice.participant_id).first()
