"""Notice batches racing each other and a committee member (issue 30), with real parallel requests:
threads with their own PostgreSQL connections, committing for real.

Before the fix an item was claimed with ``FOR UPDATE SKIP LOCKED`` without ``OF``: that locked the
joined plan, person and batch rows too, so a second batch of the plan (or a committee note, which locked
the plan row through the claim) made the other batch skip items as if a worker held them, and the batch
was still called done."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from benefits.audit import AuditEventType
from benefits.models import AuditEvent, Plan
from elections.benefit_elections import services
from elections.benefit_elections.models import BatchRule, Notice, NoticeBatch, NoticeBatchItem
from elections.claims.committee_work import claim_note_add
from elections.models import Claim
from tests.elections.conftest import AS_OF
from tests.parallel import run_together

pytestmark = pytest.mark.django_db(transaction=True)


def _issue(plan_key: str):
    def call():
        out = io.StringIO()
        call_command("issue_notices", plan_key, "--within-days", "366", "--json", stdout=out)
        return json.loads(out.getvalue().strip().splitlines()[-1])

    return call


def _people(summary: dict) -> int:
    return summary["issued"] + summary["already_issued"] + len(summary["failed"]) + len(summary["waiting"])


@pytest.mark.parametrize("plan_key", ["carver-db", "carver-401k"])
def test_two_batches_of_one_plan_at_once_issue_every_notice_exactly_once(demo, plan_key):
    first, second = run_together(_issue(plan_key), _issue(plan_key))
    assert not isinstance(first, BaseException), first
    assert not isinstance(second, BaseException), second
    batches = list(NoticeBatch.objects.filter(plan__key=plan_key))
    assert len(batches) == 2
    people = {(i.membership_id, i.kind, i.asd) for i in NoticeBatchItem.objects.filter(batch__in=batches)}
    assert len(people) >= 2, "the demo gives these batches several people"
    # Every person of each batch is accounted for, and nobody is left waiting or failed.
    for summary in (first, second):
        assert _people(summary) == len(people)
        assert summary["waiting"] == [] and summary["failed"] == []
    # Each notice exactly once: one batch issued it, the other found it issued.
    assert first["issued"] + second["issued"] == len(people)
    assert first["already_issued"] + second["already_issued"] == len(people)
    # The batch's own kind (a 401(k) explanation that offers a single sum brings its §402(f) notice too).
    notices = Notice.objects.filter(plan__key=plan_key, kind__in={kind for _, kind, _ in people})
    assert notices.count() == len(people)
    assert {(n.membership_id, n.kind, n.asd) for n in notices} == people
    assert all(b.state == NoticeBatch.State.DONE for b in batches)
    assert not NoticeBatchItem.objects.filter(batch__in=batches, state=NoticeBatchItem.State.PENDING).exists()
    # The audit log agrees: one "issued" event per notice, one "finished" per batch.
    issued = AuditEvent.objects.filter(event_type=AuditEventType.NOTICE_ISSUED)
    assert sorted(issued.values_list("extra_data__notice_id", flat=True)) == sorted(
        Notice.objects.filter(plan__key=plan_key).values_list("pk", flat=True)
    )
    finished = AuditEvent.objects.filter(event_type=AuditEventType.NOTICE_BATCH_FINISHED)
    assert sorted(finished.values_list("extra_data__batch_id", flat=True)) == sorted(b.pk for b in batches)


def test_a_batch_beside_committee_notes_on_the_same_plan_leaves_nobody_out(demo, committee):
    plan = Plan.objects.get(key="carver-db")
    claim = Claim.objects.filter(membership__plan=plan).first()
    assert claim is not None
    batch = NoticeBatch.objects.create(plan=plan, rule=BatchRule.ASD_WITHIN, within_days=366, as_of=AS_OF)
    total = services.batch_select(batch)
    assert total >= 2
    state = {"running": True}

    def notes():
        written = 0
        while state["running"] and written < 200:
            claim_note_add(claim=claim, actor=committee, text=f"Checked the file ({written})")
            written += 1
        return written

    def run_batch():
        try:
            return services.batch_run(batch.pk)
        finally:
            state["running"] = False

    written, finished = run_together(notes, run_batch)
    assert not isinstance(finished, BaseException), finished
    assert isinstance(written, int) and written >= 1
    batch.refresh_from_db()
    assert batch.state == NoticeBatch.State.DONE
    counts = services.batch_counts(batch)
    assert counts[NoticeBatchItem.State.PENDING] == 0 and counts[NoticeBatchItem.State.FAILED] == 0
    assert counts[NoticeBatchItem.State.ISSUED] == total
    assert Notice.objects.filter(batch=batch).count() == total
    assert (
        AuditEvent.objects.filter(
            event_type=AuditEventType.NOTICE_ISSUED, extra_data__batch_id=batch.pk
        ).count()
        == total
    )
    assert AuditEvent.objects.filter(event_type=AuditEventType.CLAIM_NOTE_ADDED).count() == written
    (event,) = AuditEvent.objects.filter(
        event_type=AuditEventType.NOTICE_BATCH_FINISHED, extra_data__batch_id=batch.pk
    )
    assert event.extra_data["counts"]["issued"] == total


def test_a_run_that_passes_a_held_item_leaves_the_batch_running_and_the_sweeper_requeues_it(demo):
    """An item held by another worker is never counted done: the batch stays running, the command's JSON
    lists the person as waiting, and the sweeper queues the batch again; its job then finishes it."""
    from django.db import connections, transaction

    from benefits.jobs.services import jobs_sweep

    plan = Plan.objects.get(key="carver-db")
    batch = NoticeBatch.objects.create(plan=plan, rule=BatchRule.ASD_WITHIN, within_days=366, as_of=AS_OF)
    services.batch_select(batch)
    held = batch.items.order_by("pk").first()
    import threading

    locked, release = threading.Event(), threading.Event()

    def holder():
        try:
            with transaction.atomic():
                NoticeBatchItem.objects.select_for_update().get(pk=held.pk)
                locked.set()
                release.wait(60)
        finally:
            connections.close_all()

    thread = threading.Thread(target=holder, daemon=True)
    thread.start()
    assert locked.wait(30)
    try:
        services.batch_run(batch.pk)
        batch.refresh_from_db()
        assert batch.state == NoticeBatch.State.RUNNING and batch.finished_at is None
        assert list(batch.items.filter(state=NoticeBatchItem.State.PENDING).values_list("pk", flat=True)) == [
            held.pk
        ]
        assert not AuditEvent.objects.filter(event_type=AuditEventType.NOTICE_BATCH_FINISHED).exists()
    finally:
        release.set()
        thread.join(30)
    jobs_sweep(resend_after=0)  # eager in tests: the re-queued job runs at once
    batch.refresh_from_db()
    assert batch.state == NoticeBatch.State.DONE
    assert not batch.items.filter(state=NoticeBatchItem.State.PENDING).exists()
    assert Notice.objects.filter(batch=batch).count() == batch.items.count()
    assert (
        AuditEvent.objects.filter(
            event_type=AuditEventType.NOTICE_BATCH_FINISHED, extra_data__batch_id=batch.pk
        ).count()
        == 1
    )
