"""Every write of benefit elections: notices (one and in batches), elections, spousal consent.

Each service checks who may act, makes its change and its audit event in one transaction, and queues
background work (PDF rendering, the batch) as job rows sent on commit (``benefits/jobs``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal, InvalidOperation

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from benefits import formatting
from benefits.audit import AuditEventType, audit_record
from benefits.delivery.services import delivery_arrange
from benefits.engine.elections import Window, WindowError, consent_problems, election_rules
from benefits.engine_adapter import memberships_retirement_dates
from benefits.locking import lock_row
from benefits.models import Plan, PlanMembership
from benefits.services.documents import document_request
from elections.authority import ElectionInvalid, require_administrator, require_owner
from elections.benefit_elections import explanation
from elections.benefit_elections.form_rules import (
    ACCOUNT_CHOICE_FORMS,
    consent_reasons,
    election_window,
    form_row,
    needs_beneficiaries,
    today,
)
from elections.benefit_elections.models import (
    BatchRule,
    Election,
    ElectionDraft,
    Notice,
    NoticeBatch,
    NoticeBatchItem,
    NoticeKind,
    PaymentMethod,
)
from elections.benefit_elections.provisional import provisional_words
from elections.benefit_elections.selectors import batch_counts
from elections.benefit_elections.tasks import notice_batch_fan_out, notice_batch_queue
from elections.consents import services as consents
from elections.consents.facts import consent_facts
from elections.consents.models import SpousalConsent

logger = logging.getLogger(__name__)

NOTICE_TEMPLATES = {
    NoticeKind.QJSA_EXPLANATION: "pdf/notices/qjsa_explanation.html",
    NoticeKind.QPSA_EXPLANATION: "pdf/notices/qpsa_explanation.html",
    NoticeKind.ROLLOVER_402F: "pdf/notices/rollover_402f.html",
    NoticeKind.DISTRIBUTION_EXPLANATION: "pdf/notices/distribution_explanation.html",
}


class ElectionWaits(ElectionInvalid):
    """The explanation for the date is provisional (issue 25): the election waits for the final one.
    ``notice`` is the provisional explanation, given and readable now."""

    def __init__(self, notice: Notice, words: str) -> None:
        super().__init__({"explanation": words})
        self.notice = notice


def election_waits_words(notice: Notice) -> str:
    """Why an election cannot be signed on this explanation yet ('' when it can): a provisional
    explanation, or one a final explanation has replaced (docs/plan-notes/provisional-explanations.md)."""
    if notice.kind != NoticeKind.QJSA_EXPLANATION:
        return ""
    if Notice.objects.filter(replaces=notice).exists():
        return (
            "Explanation: a new explanation with the final amounts has replaced the one this election was "
            "started on. Start your election again from the new explanation."
        )
    if notice.provisional:
        return provisional_words(notice.content).get("election_waits", "") or (
            "You make your election on the final explanation, once the interest rates are published."
        )
    return ""


def _d(d: date) -> str:
    return f"{formatting.date_words(d)}"


# ------------------------------------------------------------------------------------ notices


@dataclass(frozen=True)
class IssueOutcome:
    notice: Notice
    created: bool


def notice_issue(
    *,
    membership: PlanMembership,
    kind: str,
    asd: date,
    actor=None,
    on: date | None = None,
    batch: NoticeBatch | None = None,
    request=None,
    facts: dict | None = None,
) -> IssueOutcome:
    """Issue one notice (version 1) exactly once: the database refuses a second row for the same
    participant, plan, kind, ASD and version, and that refusal is reported as "already issued".
    ``facts``: a payment record's distribution, for a §402(f) notice about that payment."""
    if actor is not None and getattr(actor, "is_participant_role", False):
        require_owner(membership.participant, actor)  # a participant may ask for their own explanation
    else:
        require_administrator(actor)
    on = on or today()
    existing = Notice.objects.filter(
        participant=membership.participant, plan=membership.plan, kind=kind, asd=asd, version=1
    ).first()
    if existing is not None:
        return IssueOutcome(existing, False)

    # ExplanationUnavailable when there is nothing to explain
    content = explanation.build(kind, membership, asd=asd, explained_on=on, facts=facts)
    participant = membership.participant
    try:
        with transaction.atomic():
            notice = _notice_create(
                membership=membership,
                kind=kind,
                asd=asd,
                version=1,
                content=content,
                actor=actor,
                on=on,
                batch=batch,
                request=request,
            )
    except IntegrityError:
        # Another worker issued it between our check and our insert: exactly once, by the constraint.
        notice = Notice.objects.get(
            participant=participant, plan=membership.plan, kind=kind, asd=asd, version=1
        )
        return IssueOutcome(notice, False)
    if kind in (NoticeKind.QJSA_EXPLANATION, NoticeKind.DISTRIBUTION_EXPLANATION):
        _rollover_notice_with(notice, actor=actor, on=on, request=request)
    return IssueOutcome(notice, True)


def _notice_create(
    *,
    membership: PlanMembership,
    kind: str,
    asd: date,
    version: int,
    content: dict,
    actor,
    on: date,
    batch: NoticeBatch | None,
    request,
    replaces: Notice | None = None,
) -> Notice:
    """The notice row, its PDF requested, its delivery arranged and its audit event (in the caller's
    transaction). A provisional explanation (issue 25) is flagged with the months it stands in for."""
    from elections.benefit_elections.presenters import present_content

    participant = membership.participant
    provisional = dict(content.get("provisional") or {})
    title = f"{NoticeKind(kind).label} — payments from {_d(asd)}"
    if kind == NoticeKind.QPSA_EXPLANATION:
        title = NoticeKind(kind).label
    if provisional:
        title += " (estimated amounts: a final explanation follows)"
    elif replaces is not None:
        title += " (final amounts)"
    notice = Notice.objects.create(
        participant=participant,
        plan=membership.plan,
        membership=membership,
        kind=kind,
        asd=asd,
        version=version,
        content=content,
        engine_version=content.get("engine_version", ""),
        engine_fingerprint=content.get("fingerprint", ""),
        issued_on=on,
        issued_by=actor if getattr(actor, "is_authenticated", False) else None,
        batch=batch,
        provisional=bool(provisional),
        provisional_months=list(provisional.get("months") or []),
        replaces=replaces,
    )
    document = document_request(
        kind=kind,
        participant=participant,
        title=title,
        template_name=NOTICE_TEMPLATES[kind],
        payload=present_content(content),
        plans=membership.plan,
        requested_by=actor,
        request=request,
    )
    notice.document = document
    delivery = delivery_arrange(document=document, actor=actor, request=request)
    notice.delivery = "portal+email" if delivery.channel == delivery.Channel.EMAIL else "portal+paper"
    notice.save(update_fields=["document", "delivery"])
    extra = {}
    if provisional:
        extra = {"provisional_months": notice.provisional_months, "stand_in": provisional.get("stand_in")}
    if replaces is not None:
        extra = {"replaces_notice_id": replaces.pk, "final_on_months": replaces.provisional_months}
    audit_record(
        event_type=AuditEventType.NOTICE_ISSUED,
        summary=f"{NoticeKind(kind).label} issued to {participant.participant_number} for {asd}"
        + (" (provisional)" if provisional else " (final, replacing a provisional one)" if replaces else ""),
        actor=actor,
        participant=participant,
        request=request,
        notice_id=notice.pk,
        kind=kind,
        asd=asd.isoformat(),
        version=version,
        batch_id=batch.pk if batch else None,
        engine_version=notice.engine_version,
        engine_fingerprint=notice.engine_fingerprint,
        **extra,
    )
    return notice


def notice_reissue_final(
    *, provisional: Notice, actor=None, on: date | None = None, batch: NoticeBatch | None = None, request=None
) -> IssueOutcome:
    """Give a provisional explanation again on the published rates (issue 25), exactly once: the
    database refuses a second notice replacing the same one (``Notice.replaces`` is unique), and that
    refusal is reported as "already issued". Refused (``ExplanationUnavailable``) while any of its
    look-back months is still not published."""
    require_administrator(actor)
    on = on or today()
    existing = Notice.objects.filter(replaces=provisional).first()
    if existing is not None:
        return IssueOutcome(existing, False)
    if not provisional.provisional:
        raise explanation.ExplanationUnavailable("This explanation was given on published rates already.")
    membership = provisional.membership
    content = explanation.build(provisional.kind, membership, asd=provisional.asd, explained_on=on)
    if content.get("provisional"):
        raise explanation.ExplanationUnavailable(
            "The interest rates this explanation waits for are not all published yet: "
            + ", ".join(content["provisional"].get("months") or [])
        )
    content["replaces"] = {
        "notice_id": provisional.pk,
        "explained_on": provisional.issued_on.isoformat(),
        "months": list(provisional.provisional_months),
    }
    try:
        with transaction.atomic():
            latest = (
                Notice.objects.filter(
                    participant=provisional.participant,
                    plan=provisional.plan,
                    kind=provisional.kind,
                    asd=provisional.asd,
                ).aggregate(v=Max("version"))["v"]
                or 1
            )
            notice = _notice_create(
                membership=membership,
                kind=provisional.kind,
                asd=provisional.asd,
                version=latest + 1,
                content=content,
                actor=actor,
                on=on,
                batch=batch,
                request=request,
                replaces=provisional,
            )
    except IntegrityError:
        # Another worker (or another batch) gave it between our check and our insert.
        notice = Notice.objects.filter(replaces=provisional).first()
        if notice is None:  # a version number taken by something else: not ours to claim as done
            raise
        return IssueOutcome(notice, False)
    return IssueOutcome(notice, True)


def provisional_waiting(plan: Plan | None = None):
    """Provisional explanations with no final one yet (for elections still possible on their date)."""
    qs = Notice.objects.filter(
        provisional=True, final_explanation__isnull=True, kind=NoticeKind.QJSA_EXPLANATION
    )
    if plan is not None:
        qs = qs.filter(plan=plan)
    return qs


def on_market_rates_loaded(sender, *, months, actor=None, batch=None, **kwargs) -> None:
    """The import wrote market rates (``benefits.imports.signals.market_rates_loaded``): queue the final
    explanations now possible (in its transaction)."""
    rates_loaded(actor=actor)


def rates_loaded(*, actor=None, on: date | None = None, request=None) -> list[NoticeBatch]:
    """Market rates were loaded (called in the import's transaction): for each plan with provisional
    explanations whose look-back rates are now all published, a batch giving them again is recorded,
    audited and queued on commit. A plan whose batch of this kind is still waiting gets no second one."""
    on = on or today()
    batches = []
    for plan in Plan.objects.filter(pk__in=provisional_waiting().values("plan")).order_by("pk"):
        ready = len(_rates_published_candidates(plan, on=on))
        if not ready:
            continue
        waiting = NoticeBatch.objects.filter(
            plan=plan, rule=BatchRule.RATES_PUBLISHED, state=NoticeBatch.State.PENDING
        ).first()
        if waiting is not None:
            batches.append(waiting)
            continue
        batch = NoticeBatch.objects.create(
            plan=plan,
            rule=BatchRule.RATES_PUBLISHED,
            as_of=on,
            created_by=actor if getattr(actor, "is_authenticated", False) else None,
        )
        audit_record(
            event_type=AuditEventType.NOTICE_BATCH_CREATED,
            summary=f"Notice batch {batch.pk} for {plan.key}: {batch.get_rule_display()} ({ready} waiting)",
            actor=actor,
            request=request,
            batch_id=batch.pk,
            rule=batch.rule,
            waiting=ready,
        )
        notice_batch_queue(batch, actor)
        batches.append(batch)
    return batches


def _rates_published_candidates(plan: Plan, *, on: date) -> list[Notice]:
    """The plan's provisional explanations, for start dates still ahead, whose rates are all loaded now."""
    from benefits.start_rates import start_pricing

    waiting = (
        provisional_waiting(plan)
        .filter(asd__gt=on)
        .select_related("membership__participant", "membership__plan", "plan")
        .order_by("pk")
    )
    return [n for n in waiting if start_pricing(plan, n.asd).priceable]


def _rollover_notice_with(explanation_notice: Notice, *, actor, on: date, request=None) -> None:
    """Where the explanation offers a single sum, the §402(f) notice for the same start date goes with
    it (issue 27), so a single sum chosen on the explanation has had its rollover notice as long, and a
    waiver of the 30 days signed with the election comes after both (Treas. Reg. §1.402(f)-1 Q&A-2)."""
    single = next(
        (
            r
            for r in explanation_notice.content.get("forms", [])
            if (r.get("form") == "lump_sum" or r.get("distribution")) and r.get("lump_sum")
        ),
        None,
    )
    if single is None:
        return
    try:
        notice_issue(
            membership=explanation_notice.membership,
            kind=NoticeKind.ROLLOVER_402F,
            asd=explanation_notice.asd,
            actor=actor,
            on=on,
            request=request,
            facts={
                "amount": str(single["lump_sum"]),
                "payment_words": "a single sum, if you choose one (an estimate: your explanation gives the "
                "final amount once the interest rates it rests on are published),"
                if explanation_notice.provisional
                else "a single sum, if you choose one,",
            },
        )
    except explanation.ExplanationUnavailable as exc:
        logger.warning("§402(f) notice not issued with explanation %s: %s", explanation_notice.pk, exc)


# ------------------------------------------------------------------------------------ batches


def _first_of_month_on_or_after(d: date) -> date:
    return d if d.day == 1 else date(d.year + (d.month == 12), d.month % 12 + 1, 1)


def _claimed_asd(claim) -> date | None:
    value = (claim.details or {}).get("commencement_date")
    try:
        return date.fromisoformat(str(value)) if value else None
    except ValueError:
        return None


SELECTION_CHUNK = 500  # memberships read, dated and turned into batch items at a time


def batch_candidates(
    plan: Plan, rule: str, *, on: date, within_days: int | None
) -> list[tuple[PlanMembership, str, date]]:
    """Who the rule chooses: (membership, notice kind, date) for each person."""
    return [
        chosen
        for chunk in batch_candidate_chunks(plan, rule, on=on, within_days=within_days)
        for chosen in chunk
    ]


def batch_candidate_chunks(
    plan: Plan, rule: str, *, on: date, within_days: int | None, size: int = SELECTION_CHUNK
) -> Iterator[list[tuple[PlanMembership, str, date]]]:
    """The rule's choice in chunks of ``size`` memberships read: a fixed number of queries per chunk and
    the engine's light path (the retirement date alone, no trace, nothing stored), so the time per
    person and the memory stay flat however large the plan (issue 31)."""
    from elections.models import Claim, ClaimState, ClaimType

    rules = election_rules(plan.key)
    kind = NoticeKind.QJSA_EXPLANATION if rules.qjsa_applies else NoticeKind.ROLLOVER_402F
    if rule == BatchRule.RATES_PUBLISHED:
        yield [(n.membership, n.kind, n.asd) for n in _rates_published_candidates(plan, on=on)]
        return
    if rule == BatchRule.AWAITING_ELECTION:
        out: list[tuple[PlanMembership, str, date]] = []
        claims = Claim.objects.filter(
            membership__plan=plan, state=ClaimState.ELECTION_REQUIRED, claimant_relationship="participant"
        ).select_related("membership__participant", "membership__plan")
        for claim in claims.order_by("pk"):
            asd = _claimed_asd(claim)
            lump_or_start = claim.claim_type in (ClaimType.COMMENCEMENT, ClaimType.LUMP_SUM)
            if asd and lump_or_start and _issuable(claim.membership, kind, asd, on):
                out.append((claim.membership, kind, asd))
        yield out
        return
    ids = list(
        PlanMembership.objects.filter(plan=plan, participant__death_date__isnull=True)
        .order_by("participant__participant_number")
        .values_list("pk", flat=True)
    )
    if rule == BatchRule.REACHING_35:
        if not rules.qjsa_applies:
            return
        horizon = on + timedelta(days=within_days or 365)
        for i in range(0, len(ids), size):
            out = []
            for m in _memberships_in_order(ids[i : i + size]):
                birth = m.participant.birth_date
                try:
                    thirty_five = birth.replace(year=birth.year + 35)
                except ValueError:  # February 29
                    thirty_five = date(birth.year + 35, 3, 1)
                # The QPSA waiver period opens on the first day of the plan year of age 35
                # (§417(a)(6)(B)); the plan year is the calendar year for these plans.
                if on <= thirty_five <= horizon and m.participant.termination_date is None:
                    out.append((m, NoticeKind.QPSA_EXPLANATION, date(thirty_five.year, 1, 1)))
            yield out
        return
    # ASD within the next N days: the start date a participant has claimed, else the normal retirement date.
    horizon = on + timedelta(days=within_days if within_days is not None else rules.period_days)
    claimed: dict[int, date] = {}
    for claim in Claim.objects.filter(
        membership__plan=plan,
        claim_type__in=[ClaimType.COMMENCEMENT, ClaimType.LUMP_SUM],
        claimant_relationship="participant",
    ).exclude(state__in=[ClaimState.DENIED, ClaimState.DENIED_ON_REVIEW, ClaimState.IN_PAY, ClaimState.PAID]):
        asd = _claimed_asd(claim)
        if asd:
            claimed.setdefault(claim.membership_id, asd)
    in_effect = set(
        Election.objects.filter(membership__plan=plan, state=Election.State.EFFECTIVE).values_list(
            "membership_id", flat=True
        )
    )
    ids = [pk for pk in ids if pk not in in_effect]
    for i in range(0, len(ids), size):
        chunk = _memberships_in_order(ids[i : i + size])
        undated = [m for m in chunk if m.pk not in claimed]
        retirement = memberships_retirement_dates(undated, as_of=on)
        out = []
        for m in chunk:
            asd = claimed.get(m.pk)
            if asd is None:
                nrd = retirement.get(m.pk)
                asd = _first_of_month_on_or_after(nrd) if nrd else None
                if asd and asd <= on and m.participant.termination_date is not None:
                    # Past normal retirement and gone, nothing in pay: payments are due now (Code
                    # §401(a)(14)); the earliest start the 30-day explanation rule allows.
                    asd = _first_of_month_on_or_after(on + timedelta(days=30))
            if asd and on < asd <= horizon and _issuable(m, kind, asd, on):
                out.append((m, kind, asd))
        yield out


def _memberships_in_order(ids: list[int]) -> list[PlanMembership]:
    by_pk = {m.pk: m for m in PlanMembership.objects.filter(pk__in=ids).select_related("participant", "plan")}
    return [by_pk[pk] for pk in ids if pk in by_pk]


def _issuable(membership: PlanMembership, kind: str, asd: date, on: date) -> bool:
    """The batch picks only people its notice can be issued for: a §402(f) notice explains a single sum,
    so someone with none payable on the date (an active ESOP member at normal retirement, say) is not
    chosen, by the very test the notice applies (``explanation.rollover_notice``)."""
    if kind != NoticeKind.ROLLOVER_402F:
        return True
    try:
        explanation.rollover_notice(membership, asd=asd, explained_on=on)
    except explanation.ExplanationUnavailable:
        return False
    return True


def batch_create(
    *, plan: Plan, rule: str, within_days: int | None, actor, on: date | None = None, request=None
) -> NoticeBatch:
    """Record a batch and queue it; the worker chooses the people and issues each notice."""
    require_administrator(actor)
    if rule not in BatchRule.values:
        raise ElectionInvalid({"rule": "Choose one of the rules offered."})
    if rule == BatchRule.ASD_WITHIN and (within_days is None or not 1 <= within_days <= 366):
        raise ElectionInvalid({"within_days": "Days ahead: a whole number from 1 to 366."})
    with transaction.atomic():
        batch = NoticeBatch.objects.create(
            plan=plan,
            rule=rule,
            within_days=within_days,
            as_of=on or today(),
            created_by=actor if getattr(actor, "is_authenticated", False) else None,
        )
        audit_record(
            event_type=AuditEventType.NOTICE_BATCH_CREATED,
            summary=f"Notice batch {batch.pk} for {plan.key}: {batch.get_rule_display()}",
            actor=actor,
            request=request,
            batch_id=batch.pk,
            rule=rule,
            within_days=within_days,
        )
        notice_batch_queue(batch, actor)
    return batch


def batch_select(batch: NoticeBatch) -> int:
    """Create the batch's items once, a chunk at a time: each chunk's items are committed as soon as
    they are chosen, so the page counts them from the first second and workers can start on them. A
    rerun after a crash chooses again and adds only the items not there yet (one item per person and
    kind is a database rule); ``selected_at`` records that the choice is complete."""
    if batch.selected_at is not None:
        return batch.items.count()
    chunks = batch_candidate_chunks(batch.plan, batch.rule, on=batch.as_of, within_days=batch.within_days)
    for chosen in chunks:
        if chosen:
            NoticeBatchItem.objects.bulk_create(
                [NoticeBatchItem(batch=batch, membership=m, kind=k, asd=a) for m, k, a in chosen],
                ignore_conflicts=True,
            )
    batch.selected_at = timezone.now()
    NoticeBatch.objects.filter(pk=batch.pk).update(selected_at=batch.selected_at)
    return batch.items.count()


def batch_item_run_next(batch_id: int) -> NoticeBatchItem | None:
    """Take the first waiting item no other worker holds and issue it; None when none is left to take.

    The queue pattern (FOR UPDATE SKIP LOCKED on the next pending row): several runs of one batch on
    several workers each take a different item, so N workers issue N notices at a time."""
    with transaction.atomic():
        item = batch_item_next(batch_id).first()
        if item is None:
            return None
        _issue_item(item)
    return item


def batch_item_next(batch_id: int):
    """The batch's waiting items in order, each locked as read and skipped while another run holds it
    (served by the index ``batch_item_next_pending``, whatever the size of the batch)."""
    return (
        NoticeBatchItem.objects.select_for_update(skip_locked=True, of=("self",))
        .select_related("batch", "membership__participant", "membership__plan")
        .filter(batch_id=batch_id, state=NoticeBatchItem.State.PENDING)
        .order_by("pk")
    )


def _issue_item(item: NoticeBatchItem) -> None:
    """Issue a locked item's notice and record its outcome (inside the item's transaction)."""
    item.attempts += 1
    try:
        with transaction.atomic():
            if item.batch.rule == BatchRule.RATES_PUBLISHED:
                outcome = _reissue_item(item)
            else:
                outcome = notice_issue(
                    membership=item.membership,
                    kind=item.kind,
                    asd=item.asd,
                    on=item.batch.as_of,
                    batch=item.batch,
                )
        item.notice = outcome.notice
        item.state = NoticeBatchItem.State.ISSUED if outcome.created else NoticeBatchItem.State.ALREADY_ISSUED
        item.failure_reason = ""
    except explanation.ExplanationUnavailable as exc:
        item.state, item.failure_reason = NoticeBatchItem.State.FAILED, str(exc)
    except Exception as exc:  # reported on the item and the log, never dropped
        logger.exception("Notice batch item %s failed", item.pk)
        item.state, item.failure_reason = NoticeBatchItem.State.FAILED, f"Unexpected error: {exc}"
    item.finished_at = timezone.now()
    item.save()
    # One line per item in the worker's log: which process issued which notice (the two-machine test).
    logger.info("Notice batch %s: item %s %s", item.batch_id, item.pk, item.state)


def _reissue_item(item: NoticeBatchItem) -> IssueOutcome:
    """A rates-published batch's item: the final explanation replacing that date's provisional one."""
    provisional = (
        Notice.objects.filter(membership=item.membership, kind=item.kind, asd=item.asd, provisional=True)
        .order_by("-version")
        .first()
    )
    if provisional is None:
        raise explanation.ExplanationUnavailable("No provisional explanation is waiting for this date.")
    return notice_reissue_final(provisional=provisional, on=item.batch.as_of, batch=item.batch)


def batch_run(batch_id: int, *, item_hook=None) -> NoticeBatch:
    """Run (or resume) a batch: choose the people once, then issue pending items until none is left
    that no other run holds. Once the choice is made, more runs of the batch are queued
    (``NOTICE_BATCH_RUNNERS``) so that every worker process takes items at the same time."""
    batch = NoticeBatch.objects.select_related("plan").get(pk=batch_id)
    NoticeBatch.objects.filter(pk=batch.pk).update(
        state=NoticeBatch.State.RUNNING, started_at=batch.started_at or timezone.now(), finished_at=None
    )
    batch_select(batch)
    notice_batch_fan_out(batch)
    pause = float(getattr(settings, "NOTICE_BATCH_ITEM_PAUSE_SECONDS", 0) or 0)
    while (item := batch_item_run_next(batch.pk)) is not None:
        if item_hook is not None:
            item_hook(item)
        if pause:  # an operator's throttle (e.g. to spread mail delivery); 0 by default
            time.sleep(pause)
    return batch_finish(batch.pk)


def batch_finish(batch_id: int) -> NoticeBatch:
    """Mark the batch done once no item is waiting; otherwise it stays running.

    An item another worker held when this run passed it is still waiting: that worker finishes it and
    then this check (the last run to end sees nothing waiting), or, if it died, the sweeper queues the
    batch again (``notice_batches_sweep``). Under the batch's row lock, so it is finished (and audited)
    once."""
    with transaction.atomic():
        batch = NoticeBatch.objects.select_for_update(of=("self",)).select_related("plan").get(pk=batch_id)
        counts = batch_counts(batch)
        if counts[NoticeBatchItem.State.PENDING] == 0 and batch.state != NoticeBatch.State.DONE:
            batch.state, batch.finished_at = NoticeBatch.State.DONE, timezone.now()
            batch.save(update_fields=["state", "finished_at"])
            audit_record(
                event_type=AuditEventType.NOTICE_BATCH_FINISHED,
                summary=f"Notice batch {batch.pk} finished",
                batch_id=batch.pk,
                counts=counts,
            )
    return batch


def batch_retry_failed(*, batch: NoticeBatch, actor, request=None) -> int:
    """Put the failed items back to pending and run the batch again."""
    require_administrator(actor)
    with transaction.atomic():
        n = batch.items.filter(state=NoticeBatchItem.State.FAILED).update(
            state=NoticeBatchItem.State.PENDING, failure_reason=""
        )
        NoticeBatch.objects.filter(pk=batch.pk).update(state=NoticeBatch.State.PENDING)
        audit_record(
            event_type=AuditEventType.NOTICE_BATCH_RETRIED,
            summary=f"Notice batch {batch.pk}: {n} failed item(s) retried",
            actor=actor,
            request=request,
            batch_id=batch.pk,
        )
        notice_batch_queue(batch, actor)
    return n


def batch_resume(*, batch: NoticeBatch, actor, request=None) -> None:
    """Queue the batch again (after a worker stopped): only pending items are issued."""
    require_administrator(actor)
    with transaction.atomic():
        audit_record(
            event_type=AuditEventType.NOTICE_BATCH_RESUMED,
            summary=f"Notice batch {batch.pk} resumed",
            actor=actor,
            request=request,
            batch_id=batch.pk,
        )
        notice_batch_queue(batch, actor)


# ------------------------------------------------------------------------------------ elections


def _explanation_for(membership, asd: date, kind: str = NoticeKind.QJSA_EXPLANATION) -> Notice | None:
    return Notice.objects.filter(membership=membership, kind=kind, asd=asd).order_by("-version").first()


def draft_start(*, user, membership: PlanMembership, asd: date, claim=None, request=None) -> ElectionDraft:
    """Open an election for this start date; the explanation for it must have been given (it is
    issued now, on the participant's request, when it has not)."""
    require_owner(membership.participant, user)
    if claim is not None and (claim.membership_id != membership.pk or claim.filed_by_id != user.pk):
        raise PermissionDenied
    rules = election_rules(membership.plan.key)
    kind = NoticeKind.QJSA_EXPLANATION
    if not rules.qjsa_applies:
        # Outside §417: an account distributed in shares and cash is elected on its own explanation,
        # for an approved claim only (the engine says which forms the plan offers).
        from elections.benefit_elections.distribution_explanation import offers_distribution

        if claim is None or not offers_distribution(membership, as_of=today()):
            raise ElectionInvalid({"plan": f"{membership.plan.name} has no forms of payment to elect."})
        kind = NoticeKind.DISTRIBUTION_EXPLANATION
    claim = _claim_to_elect_for(membership, claim, user)
    if asd <= today():
        raise ElectionInvalid({"asd": "The payment start date must be in the future."})
    notice = _explanation_for(membership, asd, kind)
    if notice is None:
        notice = notice_issue(membership=membership, kind=kind, asd=asd, actor=user, request=request).notice
    waits = election_waits_words(notice)
    if waits:  # given (and readable) now; the election is made on the final explanation
        raise ElectionWaits(notice, waits)
    window = Window(notice.issued_on, asd, rules.period_days, rules.period_source)
    try:
        window.check_explanation()
    except WindowError as exc:
        raise ElectionInvalid({exc.field: str(exc)}) from None
    with transaction.atomic():
        ElectionDraft.objects.filter(membership=membership, asd=asd, created_by=user).delete()
        draft = ElectionDraft.objects.create(
            participant=membership.participant,
            membership=membership,
            claim=claim,
            notice=notice,
            asd=asd,
            created_by=user,
        )
        audit_record(
            event_type=AuditEventType.ELECTION_STARTED,
            summary=f"Election started for payments from {asd}",
            actor=user,
            participant=membership.participant,
            request=request,
            draft_id=draft.pk,
            notice_id=notice.pk,
            claim_id=claim.pk if claim else None,
        )
    return draft


def _claim_to_elect_for(membership: PlanMembership, claim, user):
    """Nothing goes into pay without the claims procedure's decision (issue 22): an election is made
    for an approved claim. Started without one (from the modeler or a notice), it is attached to the
    approved claim waiting for it; a benefit with a claim still being decided, or none, is refused
    with where to go instead. An election already past its revocation period is never replaced."""
    from elections.claims import one_benefit
    from elections.claims.checks import claim_types_for
    from elections.claims.models import Claim, ClaimState, ClaimType

    if claim is None:
        waiting = (
            Claim.objects.filter(membership=membership, state=ClaimState.ELECTION_REQUIRED, filed_by=user)
            .order_by("received_on", "pk")
            .first()
        )
        first = one_benefit.commencement_claim(membership)
        if waiting is not None:
            claim = waiting
        elif first is not None:
            raise ElectionInvalid({"claim": one_benefit.claim_words(first)})
        elif ClaimType.COMMENCEMENT in claim_types_for(membership, beneficiary=False):
            raise ElectionInvalid(
                {
                    "claim": "File a claim to start this benefit first: the plan's committee decides it, "
                    "and you make your election once it is approved."
                }
            )
    in_force = one_benefit.election_in_force(membership)
    if in_force is not None and (
        (in_force.claim_id is not None and claim is not None and in_force.claim_id != claim.pk)
        or not election_window(in_force).can_revoke(today())
    ):
        raise ElectionInvalid({"election": one_benefit.election_words(in_force)})
    return claim


def draft_save(*, draft: ElectionDraft, user, step: str, answers: dict, request=None) -> ElectionDraft:
    require_owner(draft.participant, user)
    with transaction.atomic():
        merged = {**draft.answers, **answers}
        if (
            step == "form"
            and draft.answers.get("form") != answers.get("form")
            and "beneficiaries" not in answers
        ):
            merged.pop("beneficiaries", None)  # a new form: its beneficiaries are asked again
            merged.pop("annuitant", None)
        draft.answers = merged
        draft.save(update_fields=["answers", "updated_at"])
        audit_record(
            event_type=AuditEventType.ELECTION_STEP_SAVED,
            summary=f"Election step '{step}' saved",
            actor=user,
            participant=draft.participant,
            request=request,
            draft_id=draft.pk,
            step=step,
        )
    return draft


def draft_explanation_read(*, draft: ElectionDraft, user, request=None) -> ElectionDraft:
    """The participant confirms having read this draft's explanation (its notice, that version): the
    election begins with it, and the signature records it (§417(a)(3): the explanation comes first)."""
    require_owner(draft.participant, user)
    read = {"notice_id": draft.notice_id, "at": timezone.now().isoformat()}
    return draft_save(
        draft=draft, user=user, step="explanation", answers={"explanation_read": read}, request=request
    )


def explanation_read_at(draft: ElectionDraft):
    """When the participant confirmed reading this draft's explanation; None if not (or another one)."""
    from datetime import datetime

    read = draft.answers.get("explanation_read") or {}
    if read.get("notice_id") != draft.notice_id or not read.get("at"):
        return None
    return datetime.fromisoformat(read["at"])


@dataclass(frozen=True)
class PaymentNeeds:
    """What the payment step asks for a form: whether it may (or must) be rolled over, and which
    withholding certificate applies — Form W-4R to a single sum or an eligible rollover distribution
    paid to the participant (Code §3405(b), (c)), Form W-4P to periodic payments that are not eligible
    rollover distributions (Code §3405(a)); ``bank_always``: part is paid to the participant's bank
    account whatever happens to the rest (the installments after a partial single sum rolled over)."""

    rollover_allowed: bool = False
    rollover_required: bool = False
    w4r: bool = False
    w4p: bool = True
    bank_always: bool = False
    single_sum: bool = False


def _choice(draft: ElectionDraft) -> dict:
    return dict(draft.answers.get("installments") or {})


def payment_needs(draft: ElectionDraft, row: dict) -> PaymentNeeds:
    from benefits.engine.account_options import rollover_eligible_installments

    form = row.get("form", "")
    if row.get("distribution"):  # a single sum in shares and cash: an eligible rollover distribution
        return PaymentNeeds(rollover_allowed=True, w4r=True, w4p=False, single_sum=True)
    if form == "direct_rollover":
        return PaymentNeeds(rollover_allowed=True, rollover_required=True, w4p=False, single_sum=True)
    if form == "lump_sum":
        return PaymentNeeds(rollover_allowed=True, w4r=True, w4p=False, single_sum=True)
    if form in ACCOUNT_CHOICE_FORMS:
        try:
            n_years = int(str(_choice(draft).get("years")))
        except ValueError:
            n_years = 0
        eligible = rollover_eligible_installments(n_years)
        if form == "installments":
            return PaymentNeeds(rollover_allowed=eligible, w4r=eligible, w4p=not eligible)
        return PaymentNeeds(
            rollover_allowed=True, w4r=True, w4p=not eligible, bank_always=not eligible, single_sum=True
        )
    return PaymentNeeds()


def validate_election(draft: ElectionDraft, *, on: date) -> dict[str, str]:
    """Every rule the election must meet, by field; empty when it may be signed."""
    a = draft.answers
    errors: dict[str, str] = {}
    if explanation_read_at(draft) is None:
        errors["explanation"] = (
            "Explanation: read the explanation for this start date and confirm that you have read it "
            "before you sign."
        )
    waits = election_waits_words(draft.notice)
    if waits:
        errors["explanation"] = waits
    rules = election_rules(draft.membership.plan.key)
    row = form_row(draft, a.get("form", ""))
    if row is None and draft.notice.kind == NoticeKind.DISTRIBUTION_EXPLANATION:
        from elections.benefit_elections.distribution_explanation import refused_form_words

        errors["form"] = refused_form_words(draft.notice.content)
        return errors
    if row is None:
        errors["form"] = "Form of payment: choose one of the forms in the explanation."
        return errors
    window = Window(draft.notice.issued_on, draft.asd, rules.period_days, rules.period_source)
    try:
        window.check_election(
            on, waive_30_days=bool(a.get("waive_30_days")), waiver_allowed=rules.waiver_30_days_allowed
        )
    except WindowError as exc:
        errors[exc.field] = str(exc)
    need = needs_beneficiaries(row["form"])
    if need == "annuitant":
        from elections.benefit_elections import annuitants

        errors.update(annuitants.check(draft, row["form"], a.get("annuitant"))[0])
    if need == "beneficiaries":
        bens = [b for b in a.get("beneficiaries") or [] if b.get("kind") == "primary"]
        total = sum((Decimal(str(b.get("percent") or 0)) for b in bens), Decimal(0))
        if not bens:
            errors["beneficiaries"] = (
                "Beneficiaries: name at least one primary beneficiary for the guaranteed payments."
            )
        elif total != 100:
            errors["beneficiaries"] = (
                f"Beneficiaries: the primary beneficiaries' shares must add up to 100% (they add up to {total}%)."
            )
    if row.get("account_option") and row["form"] in ACCOUNT_CHOICE_FORMS:
        from benefits.engine.account_options import check_choice

        errors.update(
            check_choice(
                row["form"], a.get("installments") or {}, draft.notice.content.get("account_options") or {}
            )
        )
    needs = payment_needs(draft, row)
    method = a.get("payment_method")
    if method not in PaymentMethod.values:
        errors["payment_method"] = "Payment: choose direct deposit or a direct rollover."
    elif method == PaymentMethod.DIRECT_ROLLOVER and not needs.rollover_allowed:
        errors["payment_method"] = (
            "Payment: periodic payments for life or over 10 years or more are not eligible rollover "
            "distributions (Code §402(c)(4)(A)); choose direct deposit."
        )
    elif method == PaymentMethod.DIRECT_DEPOSIT and needs.rollover_required:
        errors["payment_method"] = (
            "Payment: a direct rollover is paid to an IRA or another plan; choose direct rollover."
        )
    w = a.get("withholding") or {}
    if method == PaymentMethod.DIRECT_DEPOSIT and needs.w4r:
        try:
            rate = Decimal(str(w.get("w4r_rate", "")))
        except InvalidOperation:
            rate = Decimal(-1)
        if not Decimal(20) <= rate <= Decimal(100):
            errors["withholding"] = (
                "Withholding (Form W-4R): a single sum or an eligible rollover distribution paid to you has 20% "
                "federal income tax withheld (Code §3405(c)); you may choose a higher rate, up to 100%, but not "
                "a lower one."
            )
    periodic = w.get("installments") if isinstance(w.get("installments"), dict) else w
    if (
        needs.w4p
        and (method == PaymentMethod.DIRECT_DEPOSIT or needs.bank_always)
        and (
            periodic.get("form") != "W-4P"
            or periodic.get("w4p") not in ("none", "single", "married", "head_of_household")
        )
    ):
        errors.setdefault("withholding", "Withholding (Form W-4P): choose a filing status or no withholding.")
    return errors


def _check_password(user, password: str) -> bool:
    return bool(password) and user.check_password(password)


def election_sign(
    *, draft: ElectionDraft, user, password: str, on: date | None = None, request=None
) -> Election:
    """Sign the election: password re-entered, every rule met (or refused whole), a new version that
    supersedes the last one, the spouse's consent form when consent is needed."""
    require_owner(draft.participant, user)
    on = on or today()
    if not _check_password(user, password):
        raise ElectionInvalid({"password": "Password: re-enter your password to sign (it did not match)."})
    errors = validate_election(draft, on=on)
    if errors:
        raise ElectionInvalid(errors)
    a = draft.answers
    participant = draft.participant
    row = form_row(draft, a["form"])
    rules = election_rules(draft.membership.plan.key)
    married = participant.marital_status == participant.MaritalStatus.MARRIED
    reasons = consent_reasons(
        a,
        married=married,
        rules=rules,
        qjsa=draft.notice.content.get("qjsa_form", ""),
        spouse_name=participant.spouse_name,
    )
    need = needs_beneficiaries(row["form"])
    annuitant = (
        {
            "name": participant.spouse_name,
            "relationship": "spouse",
            "birth_date": participant.spouse_birth_date.isoformat() if participant.spouse_birth_date else "",
        }
        if need == "annuitant"
        else {}
    )
    figures = {
        k: row.get(k, "")
        for k in (
            "monthly",
            "survivor_monthly",
            "lump_sum",
            "relative_value_percent",
            "monthly_after_social_security",
        )
    }
    if row.get("distribution"):
        figures["distribution"] = dict(row["distribution"])
    if row.get("account_option") and row["form"] in ACCOUNT_CHOICE_FORMS:
        from benefits.engine.account_options import choice_figures

        figures = {k: v for k, v in figures.items() if k != "lump_sum"} | choice_figures(
            row["form"], a["installments"], draft.notice.content.get("account_options") or {}
        )
    if need == "annuitant" and (a.get("annuitant") or {}).get("who") == "other":
        # Priced again now, on the survivor's life (the explanation's figures assume the spouse).
        from elections.benefit_elections import annuitants

        problems, priced = annuitants.check(draft, row["form"], a["annuitant"])
        if problems:
            raise ElectionInvalid(problems)
        named = a["annuitant"]
        annuitant = {
            "name": named["name"].strip(),
            "relationship": named["relationship"],
            "birth_date": named["birth_date"],
            "max_survivor_percent": priced["max_survivor_percent"],
        }
        figures.update(
            monthly=priced["monthly"], survivor_monthly=priced["survivor_monthly"], relative_value_percent=""
        )
    withholding = dict(a.get("withholding") or {})
    if a.get("payment_method") == PaymentMethod.DIRECT_DEPOSIT and payment_needs(draft, row).w4r:
        withholding["mandatory_20_percent"] = True
    with transaction.atomic():
        _lock_for_signing(draft)
        # One election in force per benefit, whatever its start date: the new one supersedes the last
        # while it can still be revoked, and is refused beside one that can no longer be.
        previous = list(
            Election.objects.select_for_update()
            .filter(membership=draft.membership)
            .exclude(state__in=[Election.State.REVOKED, Election.State.SUPERSEDED])
        )
        _refuse_beside(previous, draft, on=on)
        for old in previous:  # out of force first: the database allows one in force at a time
            old.state = Election.State.SUPERSEDED
            old.save(update_fields=["state"])
        version = (
            Election.objects.filter(membership=draft.membership, asd=draft.asd).aggregate(v=Max("version"))[
                "v"
            ]
            or 0
        ) + 1
        election = _create_in_force(
            draft,
            participant=participant,
            membership=draft.membership,
            claim=draft.claim,
            notice=draft.notice,
            asd=draft.asd,
            version=version,
            form=row["form"],
            form_label=row["label"],
            figures=figures,
            spouse_name=participant.spouse_name if married else "",
            married=married,
            contingent_annuitant=annuitant,
            beneficiaries=a.get("beneficiaries") or [],
            payment_method=a["payment_method"],
            payment=a.get("payment") or {},
            withholding=withholding,
            waive_30_days=bool(a.get("waive_30_days")),
            needs_consent=bool(reasons),
            consent_reasons=reasons,
            signed_on=on,
            signed_at=timezone.now(),
            signed_by=user,
            signed_ip=(request.META.get("REMOTE_ADDR") if request else None),
            explanation_read_at=explanation_read_at(draft),
            state=Election.State.AWAITING_CONSENT if reasons else Election.State.WAITING_PERIOD,
        )
        for old in previous:
            old.superseded_by = election
            old.save(update_fields=["superseded_by"])
        audit_record(
            event_type=AuditEventType.ELECTION_SIGNED,
            summary=f"Election {election.pk} signed: {election.form_label} from {election.asd} (v{version})",
            actor=user,
            participant=participant,
            request=request,
            election_id=election.pk,
            version=version,
            form=election.form,
            needs_consent=election.needs_consent,
            supersedes=[e.pk for e in previous],
            notice_id=election.notice_id,
            explanation_read_at=election.explanation_read_at.isoformat()
            if election.explanation_read_at
            else "",
        )
        if reasons:
            _consent_open(election, actor=user, request=request)
        draft.delete()
        election_try_effective(election, actor=user, on=on, request=request)
    return election


def _refuse_beside(previous: list[Election], draft: ElectionDraft, *, on: date) -> None:
    """An election for another claim, or one past its revocation period, is not replaced: refused."""
    from elections.claims.one_benefit import election_words

    for old in previous:
        other_claim = old.claim_id is not None and old.claim_id != draft.claim_id
        if other_claim or not election_window(old).can_revoke(on):
            raise ElectionInvalid({"election": election_words(old)})


def _create_in_force(draft: ElectionDraft, **fields) -> Election:
    """Insert the election; the loser of two parallel signings gets the plain refusal, not a 500."""
    from elections.claims import one_benefit

    try:
        with transaction.atomic():
            return Election.objects.create(**fields)
    except IntegrityError as exc:
        if not any(
            one_benefit.is_violation(exc, name)
            for name in (one_benefit.ELECTION_CONSTRAINT, "election_version_once")
        ):
            raise
        first = one_benefit.election_in_force(draft.membership)
        if first is None:
            raise
        raise ElectionInvalid({"election": one_benefit.election_words(first)}) from None


def _lock_for_signing(draft: ElectionDraft) -> None:
    """One signature at a time per membership, and each draft signed once: a second window signing the
    same draft waits here, then finds it signed and is refused (nothing recorded)."""
    lock_row(draft.membership)
    if ElectionDraft.objects.select_for_update(of=("self",)).filter(pk=draft.pk).first() is None:
        raise ElectionInvalid(
            {
                "election": "This election has already been signed (in another window or tab): see your elections."
            }
        )


def _consent_open(election: Election, *, actor, request=None) -> SpousalConsent:
    """A consent record for the spouse of record, with the consent form naming this election."""
    return consents.consent_open(
        subject={"election": election},
        participant=election.participant,
        spouse_name=election.spouse_name,
        title=f"Spousal consent form for election {election.pk} ({election.form_label})",
        template_name="pdf/notices/spousal_consent.html",
        payload=consent_form_payload(election),
        actor=actor,
        request=request,
    )


def consent_form_payload(election: Election) -> dict:
    """The consent form's content: the specific form and beneficiaries it consents to (Q&A-31)."""
    from elections.benefit_elections.presenters import figure_words, installment_words, money, words

    p = election.participant
    rules = election_rules(election.membership.plan.key)
    qjsa = next((r for r in election.notice.content.get("forms", []) if r.get("is_qjsa")), {})
    return {
        "election_id": election.pk,
        "version": election.version,
        "plan": election.membership.plan.name,
        "participant": p.full_name,
        "participant_number": p.participant_number,
        "spouse": election.spouse_name,
        "form": election.form_label,
        "figures": figure_words(election.figures),
        "installments": installment_words(election.figures),
        "asd": words(election.asd),
        "qjsa_label": election.notice.content.get("qjsa_label", ""),
        "qjsa_figures": {k: money(qjsa.get(k)) for k in ("monthly", "survivor_monthly")},
        "beneficiaries": election.beneficiaries,
        "contingent_annuitant": election.contingent_annuitant,
        # The form speaks to the spouse: the same reasons, about the participant by name.
        "reasons": _reasons_to_spouse(election, rules) or election.consent_reasons,
        "period_opens": words(election.asd - timedelta(days=rules.period_days)),
        "period_source": rules.period_source,
        "consent_source": rules.consent_source,
    }


def _reasons_to_spouse(election: Election, rules) -> list[str]:
    named = election.contingent_annuitant or {}
    answers = {
        "form": election.form,
        "annuitant": {"who": "other", "name": named.get("name")}
        if named.get("name") and named.get("relationship") != "spouse"
        else {},
        "beneficiaries": election.beneficiaries or [],
    }
    return consent_reasons(
        answers,
        married=True,
        rules=rules,
        qjsa=election.notice.content.get("qjsa_form", ""),
        spouse_name=election.spouse_name,
        participant_name=election.participant.full_name,
    )


def election_consent_problems(consent: SpousalConsent, election: Election | None = None) -> dict[str, str]:
    """Why this consent does not (yet) make its election effective; empty when it does (the election's
    ``ConsentSubject``; ``election``: the row when the caller already holds it)."""
    election = election or consent.election
    p = election.participant
    spouse_now = p.spouse_name if p.marital_status == p.MaritalStatus.MARRIED else ""
    return consent_problems(
        consent_facts(consent, subject_id=election.pk),
        spouse_now=spouse_now,
        election_signed_on=election.signed_on,
        window=election_window(election),
    )


def election_try_effective(election: Election, *, actor=None, on: date | None = None, request=None) -> bool:
    """Make the election effective when everything it needs is in place; move its claim on."""
    from elections.benefit_elections.claim_effects import claim_election_effective

    on = on or today()
    with transaction.atomic():
        lock_row(election)  # a revocation in progress finishes first; its result is what we read
        if election.state not in (Election.State.AWAITING_CONSENT, Election.State.WAITING_PERIOD):
            return election.state == Election.State.EFFECTIVE
        if election.needs_consent and not any(
            not election_consent_problems(c, election) for c in election.consents.all()
        ):
            return False
        election.state, election.effective_at = Election.State.EFFECTIVE, timezone.now()
        election.save(update_fields=["state", "effective_at"])
        audit_record(
            event_type=AuditEventType.ELECTION_EFFECTIVE,
            summary=f"Election {election.pk} in effect: {election.form_label} from {election.asd}",
            actor=actor,
            participant=election.participant,
            request=request,
            election_id=election.pk,
        )
        if election.claim_id:
            claim_election_effective(election, actor=actor, on=on, request=request)
    return True


def election_revoke(*, election: Election, user, on: date | None = None, request=None) -> Election:
    """Revoke before the later of the ASD and the end of the 7-day period; no consent needed."""
    from elections.benefit_elections.claim_effects import claim_election_revoked

    require_owner(election.participant, user)
    on = on or today()
    window = election_window(election)
    if not window.can_revoke(on):
        raise ElectionInvalid(
            {
                "revoke": f"An election can be revoked until {_d(window.revocable_until)} (the later of the payment "
                "start date and 7 days after the explanation; Treas. Reg. §1.417(e)-1(b)(3)(ii)(B)); that date has passed."
            }
        )
    with transaction.atomic():
        lock_row(election)  # a verification making it effective finishes first: we revoke what it left
        if election.state in (Election.State.REVOKED, Election.State.SUPERSEDED):
            raise ElectionInvalid({"election": "This election is no longer in force."})
        was_effective = election.state == Election.State.EFFECTIVE
        election.state, election.revoked_at = Election.State.REVOKED, timezone.now()
        election.save(update_fields=["state", "revoked_at"])
        audit_record(
            event_type=AuditEventType.ELECTION_REVOKED,
            summary=f"Election {election.pk} revoked",
            actor=user,
            participant=election.participant,
            request=request,
            election_id=election.pk,
        )
        if was_effective and election.claim_id:
            claim_election_revoked(election, actor=user, on=on, request=request)
    return election
