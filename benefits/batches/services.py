"""Batch annual statements: start (or resume) a plan's batch, render it in chunk jobs, retry failures.

Exactly once: one item per membership (unique), and an item becomes ``done`` in the same transaction
that creates its document, under a row lock, so a chunk run twice (a redelivered message, a worker
killed mid-chunk, a second worker) skips what is done and finishes the rest. A file written by a run
that died before its commit is overwritten by the next (its name is the item's, not the document's).
"""

from __future__ import annotations

import hashlib
import logging
from datetime import date

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from benefits.audit import AuditEventType, audit_record
from benefits.batches.models import StatementBatch, StatementBatchItem
from benefits.batches.tasks import render_statement_chunk
from benefits.jobs.services import TRANSIENT
from benefits.models import GeneratedDocument, Plan, PlanMembership
from benefits.stored_files import atomic_with_files, write_file

logger = logging.getLogger(__name__)

TEMPLATES = {
    "account": "pdf/statement_account.html",
    "cash_balance": "pdf/statement_cash_balance.html",
    "db": "pdf/statement_db.html",
}


def _require_administrator(actor) -> None:
    if actor is not None and not getattr(actor, "is_administrator", False):
        raise PermissionDenied("Only plan administrators start statement batches.")


def batch_start(
    *, plan: Plan, year: int, actor=None, request=None, as_of: date | None = None
) -> StatementBatch:
    """Start the annual statements of ``plan`` for ``year``, or resume that batch if it exists.

    Lists every membership of the plan as an item (new members since a first run are added) and queues
    the items still waiting in chunks of ``STATEMENT_BATCH_CHUNK_SIZE``."""
    _require_administrator(actor)
    with transaction.atomic():
        batch, created = StatementBatch.objects.get_or_create(
            plan=plan,
            year=year,
            defaults={"as_of": as_of or date(year, 12, 31), "created_by": actor},
        )
        batch = StatementBatch.objects.select_for_update().get(pk=batch.pk)
        membership_ids = PlanMembership.objects.filter(plan=plan).values_list("pk", flat=True)
        StatementBatchItem.objects.bulk_create(
            (StatementBatchItem(batch=batch, membership_id=m) for m in membership_ids.iterator()),
            batch_size=5000,
            ignore_conflicts=True,
        )
        batch.total = batch.items.count()
        batch.status = StatementBatch.Status.RUNNING
        batch.finished_at = None
        batch.save(update_fields=["total", "status", "finished_at"])
        chunks = _queue_waiting(batch, actor)
        audit_record(
            event_type=AuditEventType.STATEMENT_BATCH_STARTED,
            summary=f"Annual statements {year} for {plan.name} {'started' if created else 'resumed'}: "
            f"{batch.total} participants, {chunks} parts queued",
            actor=actor,
            request=request,
            batch_id=batch.pk,
            plan=plan.key,
            year=year,
            resumed=not created,
        )
    if chunks == 0:
        batch_refresh(batch.pk)
    return batch


def _queue_waiting(batch: StatementBatch, actor) -> int:
    """One chunk job per ``CHUNK_SIZE`` waiting items not already in an open chunk job."""
    from benefits.jobs.models import Job

    size = settings.STATEMENT_BATCH_CHUNK_SIZE
    held: set[int] = set()
    open_jobs = Job.objects.filter(
        kind=render_statement_chunk.name, args__batch=batch.pk, status__in=Job.OPEN
    )
    for items in open_jobs.values_list("args__items", flat=True):
        held.update(items or ())
    waiting = [
        pk
        for pk in batch.items.filter(status=StatementBatchItem.Status.PENDING).values_list("pk", flat=True)
        if pk not in held
    ]
    for offset in range(0, len(waiting), size):
        part = waiting[offset : offset + size]
        render_statement_chunk.enqueue_on_commit(
            target_id=batch.pk, args={"batch": batch.pk, "items": part}, created_by=actor
        )
    return (len(waiting) + size - 1) // size


def batch_retry_failed(*, batch: StatementBatch, actor, request=None) -> int:
    """Put the failed statements of a batch back in the queue (after the cause was fixed)."""
    _require_administrator(actor)
    with transaction.atomic():
        batch = StatementBatch.objects.select_for_update().get(pk=batch.pk)
        count = batch.items.filter(status=StatementBatchItem.Status.FAILED).update(
            status=StatementBatchItem.Status.PENDING, error="", attempts=0
        )
        batch.status = StatementBatch.Status.RUNNING
        batch.finished_at = None
        batch.save(update_fields=["status", "finished_at"])
        _queue_waiting(batch, actor)
        audit_record(
            event_type=AuditEventType.STATEMENT_BATCH_RETRIED,
            summary=f"{count} failed statements of {batch} queued again",
            actor=actor,
            request=request,
            batch_id=batch.pk,
        )
    return count


# --- Worker side ---------------------------------------------------------------------------------------


def batch_chunk_run(job) -> None:
    """Its task's body: render each waiting item of the chunk; an item's own failure does not stop the rest."""
    batch = StatementBatch.objects.select_related("plan", "plan__employer").get(pk=job.args["batch"])
    for item_id in job.args["items"]:
        batch_item_render(batch, item_id)
    batch_refresh(batch.pk)


def batch_chunk_failed(job, reason: str) -> None:
    """The chunk could not finish (after its attempts): its waiting items fail with the reason."""
    StatementBatchItem.objects.filter(
        pk__in=job.args.get("items") or [], status=StatementBatchItem.Status.PENDING
    ).update(status=StatementBatchItem.Status.FAILED, error=reason[:2000], finished_at=timezone.now())
    batch_refresh(job.args["batch"])


def statement_file_name(batch: StatementBatch, item_id: int) -> str:
    return f"statements/{batch.plan.key}/{batch.year}/{item_id}.pdf"


def batch_item_render(batch: StatementBatch, item_id: int) -> str:
    """Render one participant's statement unless it is done; returns the item's status afterwards."""
    from benefits.plan_identity.selectors import identity_blocks
    from benefits.presenters.statements import statement_payload
    from benefits.services.documents import render_pdf_bytes
    from benefits.statement_inputs import statement_figures

    try:
        with atomic_with_files():  # the statement's file goes if its item is not recorded as done
            item = (
                StatementBatchItem.objects.select_for_update(of=("self",))
                .select_related("membership__participant", "membership__plan__employer")
                .get(pk=item_id)
            )
            if item.status != StatementBatchItem.Status.PENDING:
                return item.status
            membership = item.membership
            payload = statement_payload(
                statement_figures(membership, today=batch.as_of, year=batch.year, whole_year=True)
            )
            payload["batch"] = {"id": batch.pk, "year": batch.year}
            payload["plan_identity"] = identity_blocks([membership.plan])  # printed by pdf/base.html
            document = GeneratedDocument.objects.create(
                participant=membership.participant,
                kind="statement",
                title=f"Annual statement {batch.year} — {batch.plan.name}",
                template_name=TEMPLATES[payload["kind"]],
                payload=payload,
                engine_version=payload.get("engine_version", ""),
            )
            context = {"document": document, "payload": payload, "participant": membership.participant}
            pdf = render_pdf_bytes(document.template_name, context)
            now = timezone.now()
            document.file_name = write_file(statement_file_name(batch, item.pk), pdf)
            document.sha256 = hashlib.sha256(pdf).hexdigest()
            document.size = len(pdf)
            document.status = GeneratedDocument.Status.DONE
            document.rendered_at = now
            document.save(update_fields=["file_name", "sha256", "size", "status", "rendered_at"])
            item.status = StatementBatchItem.Status.DONE
            item.document = document
            item.attempts += 1
            item.error = ""
            item.finished_at = now
            item.save(update_fields=["status", "document", "attempts", "error", "finished_at"])
            audit_record(
                event_type=AuditEventType.STATEMENT_BATCH_STATEMENT_ISSUED,
                summary=f"{document.title} issued",
                participant=membership.participant,
                batch_id=batch.pk,
                document_id=document.pk,
                sha256=document.sha256,
            )
            from benefits.delivery.services import delivery_arrange

            delivery_arrange(document=document)  # the email that it is ready, or a paper copy to mail
            return item.status
    except TRANSIENT:
        raise  # the database, a disk or a time limit: the whole chunk is tried again
    except Exception as exc:
        # This participant's data or template: record it for staff; the rest of the batch goes on.
        logger.exception("Statement batch %s item %s failed", batch.pk, item_id)
        reason = _item_reason(exc)
        with transaction.atomic():
            StatementBatchItem.objects.filter(pk=item_id, status=StatementBatchItem.Status.PENDING).update(
                status=StatementBatchItem.Status.FAILED, error=reason, finished_at=timezone.now()
            )
            audit_record(
                event_type=AuditEventType.STATEMENT_BATCH_STATEMENT_FAILED,
                summary=f"A statement of {batch} failed: {reason}"[:300],
                batch_id=batch.pk,
                item_id=item_id,
            )
        return StatementBatchItem.Status.FAILED


def _item_reason(exc: Exception) -> str:
    from benefits.engine_adapter import CalculationError
    from benefits.presenters.labels import field_words

    if isinstance(exc, CalculationError):
        return f"The statement cannot be calculated: {field_words(exc.field)} is missing or unusable."
    return f"{type(exc).__name__}: {exc}"[:2000]


def batch_refresh(batch_id: int) -> StatementBatch:
    """Finish the batch when no statement is waiting."""
    with transaction.atomic():
        batch = StatementBatch.objects.select_for_update().get(pk=batch_id)
        if batch.status == StatementBatch.Status.PREPARING:
            return batch
        counts = batch_counts(batch)
        if counts["pending"] == 0 and batch.finished_at is None:
            batch.status = (
                StatementBatch.Status.DONE_WITH_FAILURES if counts["failed"] else StatementBatch.Status.DONE
            )
            batch.finished_at = timezone.now()
            batch.save(update_fields=["status", "finished_at"])
            audit_record(
                event_type=AuditEventType.STATEMENT_BATCH_FINISHED,
                summary=f"{batch}: {counts['done']} issued, {counts['failed']} failed",
                batch_id=batch.pk,
                **counts,
            )
    return batch


def batch_counts(batch: StatementBatch) -> dict[str, int]:
    from django.db.models import Count

    counts = {"pending": 0, "done": 0, "failed": 0}
    counts.update(dict(batch.items.values_list("status").annotate(n=Count("pk")).order_by()))
    return counts
