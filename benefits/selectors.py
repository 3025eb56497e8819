"""Scoped reads: every read of participant data goes through a function that takes the requesting user.

Presenters never query the ORM: they get their rows from here (the account ledger functions below take a
membership already scoped by one of the ``*_for_viewer`` functions).

A participant sees only their own record; committee members and administrators may view any
participant read-only (the view records an audit event). Anything else answers 404, so a participant
cannot even learn that another participant's record exists.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db.models import Prefetch, Q, QuerySet
from django.http import Http404

from benefits.engine_adapter import Reading, plan_readings, plan_statutory_overrides
from benefits.models import (
    AccountBalance,
    AccountTransaction,
    AuditEvent,
    Compensation,
    EmploymentPeriod,
    GeneratedDocument,
    HoursOfService,
    ModelerRun,
    Participant,
    Plan,
    PlanMembership,
    SavedQuote,
)


def participant_for_user(user) -> Participant | None:
    """The participant record linked to this login, if any."""
    if not user.is_authenticated or not user.is_participant_role:
        return None
    participant = Participant.objects.select_related("employer").filter(user=user).first()
    if participant is not None:
        user.participant = participant  # the layout's navigation asks again; answer from memory
    return participant


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
        participant = qs.get(pk=participant_id)
    except Participant.DoesNotExist as exc:
        raise Http404 from exc
    if user.is_participant_role:
        user.participant = participant  # the layout's navigation asks again; answer from memory
    return participant


def with_engine_rows(qs: QuerySet[PlanMembership]) -> QuerySet[PlanMembership]:
    """Memberships with every row an engine request reads, fetched once for the whole queryset.

    Building a request (``engine_adapter.membership_request``) then runs no query, so a page costs the
    same number of queries whatever the number of plans, years of service or pay (bounded by tests in
    ``tests/benefits/test_query_bounds.py``)."""
    return qs.select_related(
        "plan", "plan__employer", "participant", "participant__employer"
    ).prefetch_related(
        # Ordered within the membership only: the models' default order ("membership" first) would join
        # every history read to the memberships table for its plan name, which PostgreSQL plans as a scan
        # of all memberships whenever its statistics are stale (issue 31).
        Prefetch("hours", queryset=HoursOfService.objects.order_by("membership_id", "period_year")),
        Prefetch("compensation", queryset=Compensation.objects.order_by("membership_id", "year")),
        Prefetch("balances", queryset=AccountBalance.objects.order_by("membership_id", "as_of", "source")),
        Prefetch("participant__employment_periods", queryset=EmploymentPeriod.objects.order_by("start")),
    )


def memberships_for_participant(participant: Participant) -> QuerySet[PlanMembership]:
    return with_engine_rows(PlanMembership.objects.filter(participant=participant)).order_by("plan__name")


def participants_for_staff(*, user, query: str = "") -> QuerySet[Participant]:
    """Participants in name order, matching ``query`` (name part or participant number), lazily: the
    caller takes one page (``participants_page``). Each filter and the order are served by an index
    (migration 0007), so a page costs the same at 27 or 100,000 participants."""
    if not user.is_authenticated or not user.is_plan_staff:
        raise Http404
    qs = Participant.objects.select_related("employer").prefetch_related("memberships__plan")
    # PostgreSQL refuses NUL in text and nobody's name holds control characters: drop them, and bound it.
    query = "".join(ch for ch in query if ch.isprintable())[:100].strip()
    if query:
        qs = qs.filter(
            Q(last_name__icontains=query)
            | Q(first_name__icontains=query)
            | Q(participant_number__iexact=query)
        )
    return qs.order_by("last_name", "first_name", "id")


@dataclass(frozen=True)
class Page:
    rows: list
    number: int
    has_previous: bool
    has_next: bool


PARTICIPANTS_PER_PAGE = 50


def participants_page(*, user, query: str = "", page: int = 1, per_page: int = PARTICIPANTS_PER_PAGE) -> Page:
    """One page of ``participants_for_staff``: one row more than the page is read to know whether a
    next page exists, so no COUNT over the whole table is needed."""
    page = max(1, page)
    start = (page - 1) * per_page
    rows = list(participants_for_staff(user=user, query=query)[start : start + per_page + 1])
    return Page(rows=rows[:per_page], number=page, has_previous=page > 1, has_next=len(rows) > per_page)


def plans_for_admin(*, user) -> QuerySet[Plan]:
    if not user.is_authenticated or not user.is_administrator:
        raise Http404
    return Plan.objects.select_related("employer", "settings_confirmed_by").order_by("name")


def audit_events_for_admin(*, user, limit: int = 200) -> QuerySet[AuditEvent]:
    if not user.is_authenticated or not user.is_administrator:
        raise Http404
    return AuditEvent.objects.select_related("acting_user", "participant")[:limit]


def audit_events_filtered(
    *, user, who: str = "", what: str = "", plan: str = "", start: date | None = None, end: date | None = None
) -> QuerySet[AuditEvent]:
    """The audit events an administrator asked for, newest first: by who acted (login email, or the
    participant's number), what happened, the plan, and the days (inclusive). Anyone else: 404."""
    if not user.is_authenticated or not user.is_administrator:
        raise Http404
    qs = AuditEvent.objects.select_related("acting_user", "participant")
    if who:
        # The account acted, or the event is about it (a failed sign-in, a role change: ``extra_data.email``).
        qs = qs.filter(
            Q(acting_user__email__icontains=who)
            | Q(extra_data__email__icontains=who)
            | Q(participant__participant_number=who)
        )
    if what:
        qs = qs.filter(event_type=what)
    if plan:
        qs = qs.filter(Q(extra_data__plan=plan) | Q(participant__memberships__plan__key=plan)).distinct()
    if start:
        qs = qs.filter(event_time__date__gte=start)
    if end:
        qs = qs.filter(event_time__date__lte=end)
    return qs.order_by("-event_time", "-pk")


def audit_event_types_stored(*, user) -> list[str]:
    if not user.is_authenticated or not user.is_administrator:
        raise Http404
    return list(AuditEvent.objects.values_list("event_type", flat=True).distinct())


def document_get_for_viewer(*, user, document_id: int):
    """A generated document the user may download: their own, or any for committee/administrators."""
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


@dataclass(frozen=True)
class PlanOverview:
    plan: Plan
    participant_count: int
    readings: list[Reading]
    statutory_overrides: tuple = ()  # where the law overrides the plan's own words

    @property
    def needs_confirmation(self) -> bool:
        return self.plan.settings_confirmed_at is None

    @property
    def unset_required(self) -> list[Reading]:
        return [r for r in self.readings if r.unconfirmed]


def plan_overview(plan: Plan) -> PlanOverview:
    return PlanOverview(
        plan=plan,
        participant_count=plan.memberships.count(),
        readings=plan_readings(plan),
        statutory_overrides=plan_statutory_overrides(plan),
    )


# ------------------------------------------------------------------ one membership's pages


def membership_get_for_viewer(*, user, participant_id: int, plan_key: str) -> PlanMembership:
    participant = participant_get_for_viewer(user=user, participant_id=participant_id)
    try:
        return with_engine_rows(PlanMembership.objects.all()).get(participant=participant, plan__key=plan_key)
    except PlanMembership.DoesNotExist as exc:
        raise Http404 from exc


def membership_get_for_owner(*, user, membership_id: int) -> PlanMembership:
    """The participant's own membership, or 404: the pages where a participant signs something
    (elections, beneficiary designations) are the participant's alone."""
    if not user.is_authenticated or not user.is_participant_role:
        raise Http404
    qs = with_engine_rows(PlanMembership.objects.filter(participant__user=user))
    try:
        membership = qs.get(pk=membership_id)
    except PlanMembership.DoesNotExist as exc:
        raise Http404 from exc
    user.participant = membership.participant  # the layout's navigation asks again; answer from memory
    return membership


def run_get_for_viewer(*, user, participant_id: int, run_id: int, with_result: bool = True) -> ModelerRun:
    """A modeler run the user may see; ``with_result=False`` leaves its (large) result to be read only
    if used (the result page serves a finished grid from the cache)."""
    participant = participant_get_for_viewer(user=user, participant_id=participant_id)
    qs = ModelerRun.objects.select_related(
        "membership__plan", "membership__plan__employer", "membership__participant"
    )
    if not with_result:
        qs = qs.defer("result")
    try:
        return qs.get(pk=run_id, membership__participant=participant)
    except ModelerRun.DoesNotExist as exc:
        raise Http404 from exc


def quote_get_for_viewer(*, user, participant_id: int, quote_id: int, with_result: bool = True) -> SavedQuote:
    """A saved quote the user may see; ``with_result=False`` as for ``run_get_for_viewer``."""
    participant = participant_get_for_viewer(user=user, participant_id=participant_id)
    qs = SavedQuote.objects.select_related("membership__plan", "participant", "document")
    if not with_result:
        qs = qs.defer("result")
    try:
        return qs.get(pk=quote_id, participant=participant)
    except SavedQuote.DoesNotExist as exc:
        raise Http404 from exc


def quotes_for_membership(membership: PlanMembership):
    return SavedQuote.objects.filter(membership=membership).select_related("document")


def statements_for_membership(membership: PlanMembership):
    return GeneratedDocument.objects.filter(
        participant=membership.participant, kind="statement", payload__plan_key=membership.plan.key
    )[:10]


# ------------------------------------------------------------------ an account's ledger (statements)


# Read once per membership object: a statement page asks for the ledger, its first date and the
# balances several times, and each answer comes from the same rows.


def membership_transactions(membership: PlanMembership) -> list[AccountTransaction]:
    memo = membership.__dict__.get("_transactions")
    if memo is None:
        memo = list(membership.transactions.order_by("date", "pk"))
        membership._transactions = memo
    return list(memo)


def membership_balances(membership: PlanMembership) -> list[AccountBalance]:
    return list(membership.balances.all())  # prefetched by ``with_engine_rows``


def membership_has_transactions(membership: PlanMembership) -> bool:
    return bool(membership_transactions(membership))


def membership_first_transaction_date(membership: PlanMembership) -> date | None:
    txs = membership_transactions(membership)
    return min(t.date for t in txs) if txs else None


def membership_first_balance_date(membership: PlanMembership) -> date | None:
    return min((b.as_of for b in membership_balances(membership)), default=None)


def membership_latest_balance_date(membership: PlanMembership) -> date | None:
    return max((b.as_of for b in membership_balances(membership)), default=None)


def plan_share_valuation(plan: Plan, *, source: str, on: date) -> AccountBalance | None:
    """The plan's latest valuation of ``source`` holding shares on or before ``on`` (the same stock for
    every participant, so any account holding shares that day gives it)."""
    return (
        AccountBalance.objects.filter(membership__plan=plan, source=source, shares__gt=0, as_of__lte=on)
        .order_by("-as_of")
        .first()
    )
