"""Scoped reads: a participant sees only their own notices, elections and consents (404 otherwise);
plan staff see any (each view audited by the view through ``services.staff_viewed``)."""

from __future__ import annotations

from django.http import Http404

from benefits.models import GeneratedDocument, Participant
from elections.benefit_elections.models import Election, ElectionDraft, Notice, NoticeBatch, SpousalConsent


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


def consent_get_for_viewer(*, user, consent_id: int) -> SpousalConsent:
    qs = SpousalConsent.objects.select_related(
        "election__participant", "election__membership__plan", "form_document"
    )
    return _get(_scope(qs, user, "election__participant__user"), consent_id)


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
        SpousalConsent.objects.filter(election__participant=participant)
        .exclude(upload_file="")
        .select_related("election")
        .order_by("-uploaded_at")
    )
    return {"documents": documents, "consents": consents}


def elections_for_participant(participant: Participant):
    return (
        Election.objects.filter(participant=participant)
        .select_related("membership__plan", "notice")
        .prefetch_related("consents")
    )


def benefits_in_pay(participant: Participant) -> list[Election]:
    return list(
        Election.objects.filter(participant=participant, state=Election.State.EFFECTIVE)
        .select_related("membership__plan")
        .order_by("asd")
    )


def notices_for_participant(participant: Participant):
    return Notice.objects.filter(participant=participant).select_related("plan", "document")


def batches_recent(limit: int = 20):
    return NoticeBatch.objects.select_related("plan", "created_by")[:limit]


def consents_awaiting_verification():
    return (
        SpousalConsent.objects.filter(state=SpousalConsent.State.AWAITING_VERIFICATION)
        .select_related("election__participant", "election__membership__plan")
        .order_by("uploaded_at")
    )


def elections_awaiting_consent():
    return (
        Election.objects.filter(state=Election.State.AWAITING_CONSENT)
        .select_related("participant", "membership__plan")
        .order_by("signed_at")
    )
