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


@dataclass(frozen=True)
class OtherClaims:
    """What the committee weighs beside a claim: the participant's other claims under the same plan
    still open or approved, and the benefits already in pay or paid (issue 22)."""

    open: list[Claim]
    in_pay: list[Claim]
    elections_in_force: list


# States where a claim still holds money of the plan: being decided, approved, or waiting for its election.
_STILL_OPEN = (*COMMITTEE_OPEN, "approved", "approved_on_review", "election_required")
_IN_PAY = ("in_pay", "paid", "loan_in_effect")


def other_claims_for_committee(*, user, claim: Claim) -> OtherClaims:
    if not user.is_authenticated or not user.is_committee:
        raise Http404
    from elections.benefit_elections.models import Election
    from elections.claims.one_benefit import ELECTION_IN_FORCE

    others = list(
        Claim.objects.filter(membership_id=claim.membership_id)
        .exclude(pk=claim.pk)
        .filter(state__in=(*_STILL_OPEN, *_IN_PAY))
        .order_by("received_on", "pk")
    )
    elections = list(
        Election.objects.filter(membership_id=claim.membership_id, state__in=ELECTION_IN_FORCE)
        .exclude(claim_id=claim.pk)
        .order_by("asd", "pk")
    )
    return OtherClaims(
        open=[c for c in others if c.state in _STILL_OPEN],
        in_pay=[c for c in others if c.state in _IN_PAY],
        elections_in_force=elections,
    )


@dataclass(frozen=True)
class BenefitStart:
    """What already starts a participant's benefit under one plan: the claim to start it (open,
    approved, in pay or paid) and any election in force. Read for the modeler (issue 22)."""

    claim: Claim | None
    election: object | None

    @property
    def exists(self) -> bool:
        return self.claim is not None or self.election is not None


def benefit_start_for(*, user, membership) -> BenefitStart:
    if not user.is_authenticated or membership.participant.user_id != user.pk:
        raise Http404
    from elections.claims import limits, one_benefit

    claim = one_benefit.commencement_claim(membership)
    if claim is None:  # an account plan: a distribution of the whole account, pending or paid
        claim = (
            Claim.objects.filter(membership=membership, claim_type__in=limits.WHOLE_BALANCE)
            .exclude(state__in=("denied", "denied_on_review"))
            .order_by("received_on", "pk")
            .first()
        )
    return BenefitStart(claim=claim, election=one_benefit.election_in_force(membership))


def commencement_claim_for(*, user, membership) -> Claim | None:
    """The claim already starting this benefit, for a claimant who may file for the membership."""
    if not user.is_authenticated or not user.is_participant_role:
        raise Http404
    from elections.claims import one_benefit

    return one_benefit.commencement_claim(membership)
