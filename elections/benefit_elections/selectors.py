"""Scoped reads: a participant sees only their own notices, elections and designations (404 otherwise);
plan staff see any (each view audited by the view through ``services.staff_viewed``)."""

from __future__ import annotations

from django.http import Http404

from benefits.models import GeneratedDocument, Participant
from elections.benefit_elections.models import (
    BeneficiaryDesignation,
    Election,
    ElectionDraft,
    Notice,
    NoticeBatch,
    NoticeBatchItem,
)
from elections.consents.selectors import consents_uploaded_for


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


def designation_get_for_viewer(*, user, designation_id: int) -> BeneficiaryDesignation:
    qs = BeneficiaryDesignation.objects.select_related("participant", "membership__plan")
    return _get(_scope(qs, user), designation_id)


def election_consents(election: Election) -> list:
    """The consents to one election, with their forms (the caller has scoped the election)."""
    return list(election.consents.select_related("form_document").all())


def designations_for_membership(membership) -> list[BeneficiaryDesignation]:
    """Every version for one plan membership, newest first, with its consents (the caller has
    already scoped the membership to the viewer)."""
    return list(
        BeneficiaryDesignation.objects.filter(membership=membership)
        .prefetch_related("consents__form_document")
        .order_by("-version")
    )


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
    consents = consents_uploaded_for(participant)
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


def batch_counts(batch: NoticeBatch) -> dict[str, int]:
    counts = {s: 0 for s in NoticeBatchItem.State.values}
    for state in batch.items.values_list("state", flat=True):
        counts[state] += 1
    return counts


def batch_progress(batch: NoticeBatch, *, items: bool = False) -> dict:
    """A batch, how many of its items stand in each state and, with ``items``, the failed ones and
    those issued (or already issued)."""
    out = {"batch": batch, "counts": batch_counts(batch)}
    if items:
        out["failed"] = list(
            batch.items.filter(state=NoticeBatchItem.State.FAILED).select_related("membership__participant")
        )
        out["issued"] = list(
            batch.items.exclude(
                state__in=[NoticeBatchItem.State.FAILED, NoticeBatchItem.State.PENDING]
            ).select_related("membership__participant", "notice")
        )
    return out
