"""Scoped reads of claims: a claimant sees the claims they filed; committee members see every claim;
anyone else (administrators included) gets 404, so a claim's existence is not disclosed."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db.models import QuerySet
from django.http import Http404

from elections.claims import deadlines
from elections.claims.models import COMMITTEE_OPEN, Claim, ClaimDocument

_RELATED = ("participant", "membership__plan", "filed_by", "initial_decided_by")


def claims_for_claimant(*, user) -> QuerySet[Claim]:
    if not user.is_authenticated or not user.is_participant_role:
        raise Http404
    return Claim.objects.filter(filed_by=user).select_related(*_RELATED)


def claim_get_for_viewer(*, user, claim_id: int) -> Claim:
    if not user.is_authenticated:
        raise Http404
    qs = Claim.objects.select_related(*_RELATED)
    if user.is_participant_role:
        qs = qs.filter(filed_by=user)
    elif not user.is_committee:
        raise Http404
    try:
        return qs.get(pk=claim_id)
    except Claim.DoesNotExist as exc:
        raise Http404 from exc


def claim_document_get_for_viewer(*, user, document_id: int) -> ClaimDocument:
    """An upload, for the claimant who filed the claim or a committee member; 404 for anyone else."""
    if not user.is_authenticated:
        raise Http404
    qs = ClaimDocument.objects.select_related("claim", "claim__participant")
    if user.is_participant_role:
        qs = qs.filter(claim__filed_by=user)
    elif not user.is_committee:
        raise Http404
    try:
        return qs.get(pk=document_id)
    except ClaimDocument.DoesNotExist as exc:
        raise Http404 from exc


@dataclass(frozen=True)
class QueueRow:
    claim: Claim
    due: date | None
    flag: str
    paused: bool


def committee_queue(
    *,
    user,
    today: date,
    include_closed: bool = False,
    plan_key: str = "",
    state: str = "",
    due_within: int | None = None,
    mine: bool = False,
) -> list[QueueRow]:
    """Open claims, the most urgent first. Due dates are computed now (a stopped clock's date moves on).
    Filters: the plan, the claim's state, a decision due within ``due_within`` days (overdue included),
    and claims assigned to ``user``."""
    if not user.is_authenticated or not user.is_committee:
        raise Http404
    qs = Claim.objects.select_related(*_RELATED, "assigned_to")
    if state:
        qs = qs.filter(state=state)
    elif not include_closed:
        qs = qs.filter(state__in=COMMITTEE_OPEN)
    if plan_key:
        qs = qs.filter(membership__plan__key=plan_key)
    if mine:
        qs = qs.filter(assigned_to=user)
    rows = []
    for claim in qs:
        open_ = claim.state in COMMITTEE_OPEN
        clock = claim.clock()
        due = clock.due(today=today) if open_ else None
        if due_within is not None and (due is None or (due - today).days > due_within):
            continue
        rows.append(QueueRow(claim, due, deadlines.flag(due, today=today) if open_ else "", clock.paused))
    rows.sort(key=lambda r: (r.due is None, r.due or date.max, r.claim.pk))
    return rows
