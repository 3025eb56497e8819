"""Sending, running, retrying and sweeping jobs (a job's row is made by its task: ``JobTask.job_create``).

State machine: pending (committed; not accepted by the broker yet) → queued (the broker has the message)
→ running (a worker claimed it) → done | failed. A transient error (database, disk, broker, time limit)
puts the job back to pending for another attempt; any other error fails it at once with its reason,
because a template or data error does not fix itself. ``max_attempts`` bounds every loop, including a
message redelivered after its worker was killed.
"""

from __future__ import annotations

import logging
import threading
from contextlib import contextmanager
from datetime import timedelta

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, close_old_connections, connections, transaction
from django.db.models.functions import Coalesce
from django.utils import timezone

from benefits.audit import AuditEventType, audit_record
from benefits.jobs.base import job_label, job_task, job_tasks
from benefits.jobs.models import Job

logger = logging.getLogger(__name__)

# Errors that may pass on their own: the job gets another attempt.
SWEPT_AT_KEY = "jobs:swept_at"
TRANSIENT = (DatabaseError, OSError, SoftTimeLimitExceeded, ConnectionError, TimeoutError)
BACKOFF_SECONDS = (5, 30, 120)
# A row left from a kind of work no task does any longer (renamed or removed in a new version).
GONE = "This version no longer does this kind of work, so it was not run."


def enqueue_on_commit(job: Job, *, using: str | None = None) -> None:
    """Send ``job`` to its queue once the current transaction commits (at once outside a transaction).

    Never raises for a broker fault: the job stays pending, the page shows it waiting, and the sweeper
    sends it when the broker is back."""
    job_id = job.pk
    transaction.on_commit(lambda: job_send(job_id), using=using)


def job_send(job_id: int, *, countdown: int | None = None) -> bool:
    """Hand a job to the broker; True when the broker accepted it. Broker faults are recorded, not raised."""
    job = Job.objects.filter(pk=job_id).only("pk", "kind", "queue", "time_limit", "status").first()
    if job is None or job.status in (Job.Status.DONE, Job.Status.FAILED, Job.Status.RUNNING):
        return False
    task = job_task(job.kind)
    if task is None:  # no task carries this kind any longer: say so on the job rather than loop
        with transaction.atomic():
            locked = Job.objects.select_for_update().get(pk=job.pk)
            if locked.status in (Job.Status.PENDING, Job.Status.QUEUED):
                _fail(locked, GONE)
        return False
    eager = settings.CELERY_TASK_ALWAYS_EAGER
    try:
        task.apply_async(
            args=[job.pk],
            queue=job.queue,
            time_limit=job.time_limit,
            soft_time_limit=max(1, job.time_limit - 10),
            countdown=None if eager else countdown,
        )
    except Exception as exc:
        if eager:  # in-process mode: the job itself ran and raised; that is a bug to see, not a broker fault
            raise
        reason = f"The task queue could not be reached ({type(exc).__name__}); the job will be sent again."
        Job.objects.filter(pk=job.pk, status__in=(Job.Status.PENDING, Job.Status.QUEUED)).update(
            status=Job.Status.PENDING, enqueue_error=reason[:300], enqueued_at=timezone.now()
        )
        logger.warning("Job %s not sent: %s", job.pk, exc)
        return False
    Job.objects.filter(pk=job.pk, status=Job.Status.PENDING).update(
        status=Job.Status.QUEUED, enqueued_at=timezone.now(), enqueue_error=""
    )
    return True


# --- Worker side ---------------------------------------------------------------------------------


def _claim(job_id: int, task_id: str, worker: str) -> Job | None:
    with transaction.atomic():
        job = Job.objects.select_for_update().filter(pk=job_id).first()
        if job is None or job.status in (Job.Status.DONE, Job.Status.FAILED):
            return None
        if job.status == Job.Status.RUNNING and job.task_id != task_id:
            return None  # another execution holds it (a duplicate message): leave it alone
        if job.attempts >= job.max_attempts:
            # Its last attempt never finished: the worker died or the hard time limit killed it.
            _fail(
                job,
                f"It stopped before finishing {job.attempts} times (the worker was stopped or it "
                f"ran past its time limit of {_duration(job.time_limit)}).",
            )
            return None
        job.status = Job.Status.RUNNING
        job.attempts += 1
        job.started_at = job.heartbeat_at = timezone.now()
        job.task_id = task_id
        job.worker = worker[:200]
        job.save(update_fields=["status", "attempts", "started_at", "heartbeat_at", "task_id", "worker"])
    return job


@contextmanager
def heartbeat(job_id: int, task_id: str):
    """While the body runs, a thread writes the job's ``heartbeat_at`` every JOBS_HEARTBEAT_SECONDS.

    A thread, not calls sprinkled through each job's loop: one long PDF or calculation beats as well as
    a batch, and the beat stops exactly when the process does (SIGKILL, the hard time limit, a crash).
    Only the execution that holds the job beats (``task_id``): one put back by the sweeper stops
    moving the row. Off in the in-process (eager) mode, where no worker can die apart from the request."""
    interval = settings.JOBS_HEARTBEAT_SECONDS
    if interval <= 0 or settings.CELERY_TASK_ALWAYS_EAGER:
        yield
        return
    stop = threading.Event()

    def beat() -> None:
        try:
            while not stop.wait(interval):
                try:
                    Job.objects.filter(pk=job_id, task_id=task_id, status=Job.Status.RUNNING).update(
                        heartbeat_at=timezone.now()
                    )
                except DatabaseError as exc:  # the database is away: the next beat reconnects
                    logger.warning("Job %s heartbeat not written: %s", job_id, exc)
                    connections["default"].close()
        finally:
            connections.close_all()  # this thread's own connections

    thread = threading.Thread(target=beat, name=f"job-{job_id}-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=5)


def job_execute(job_id: int, *, task=None, task_id: str = "", worker: str = "", body=None) -> Job | None:
    """Run one job (``JobTask.__call__``); idempotent: a finished or held job is left alone.

    ``task`` is the job's task (found by the row's ``kind`` when not given); ``body`` replaces its
    function for a run in another process that reports as it goes (a management command): the job row,
    its heartbeat and the sweeper's watch are the same, so a killed command's work is put back and
    finished by a worker."""
    job = _claim(job_id, task_id, worker)
    if job is None:
        return None
    task = task or job_task(job.kind)
    if task is None and body is None:
        with transaction.atomic():
            _fail(Job.objects.select_for_update().get(pk=job.pk), GONE)
        return job
    try:
        with heartbeat(job.pk, task_id):
            (body or task.run)(job)
    except Exception as exc:
        _after_error(job, exc)
        return job
    Job.objects.filter(pk=job.pk, task_id=task_id, status=Job.Status.RUNNING).update(
        status=Job.Status.DONE, finished_at=timezone.now(), error=""
    )
    return job


def _reason(exc: BaseException) -> str:
    if getattr(exc, "job_reason", None):  # the job said why, in words staff can act on
        return exc.job_reason
    if isinstance(exc, SoftTimeLimitExceeded):
        return "It ran past its time limit."
    if isinstance(exc, DatabaseError):
        return f"The database was unavailable ({type(exc).__name__})."
    if isinstance(exc, OSError):
        return f"A file could not be read or written ({exc})."
    return f"{type(exc).__name__}: {exc}"


def _after_error(job: Job, exc: Exception) -> None:
    if isinstance(exc, DatabaseError):
        close_old_connections()  # a dropped connection must not poison the next query
    reason = _reason(exc)
    if isinstance(exc, TRANSIENT) and job.attempts < job.max_attempts:
        logger.warning("Job %s (%s) attempt %s failed, will retry: %s", job.pk, job.kind, job.attempts, exc)
        Job.objects.filter(pk=job.pk).update(status=Job.Status.PENDING, task_id="", error=reason[:2000])
        job_send(job.pk, countdown=BACKOFF_SECONDS[min(job.attempts, len(BACKOFF_SECONDS)) - 1])
        return
    logger.error("Job %s (%s) failed: %s", job.pk, job.kind, exc, exc_info=exc)
    with transaction.atomic():
        locked = Job.objects.select_for_update().get(pk=job.pk)
        if locked.status in (Job.Status.DONE, Job.Status.FAILED):
            return
        _fail(locked, reason)


def _fail(job: Job, reason: str) -> None:
    """Mark the job failed and tell its target (call inside a transaction)."""
    job.status = Job.Status.FAILED
    job.error = reason[:2000]
    job.finished_at = timezone.now()
    job.save(update_fields=["status", "error", "finished_at"])
    task = job_task(job.kind)
    if task is not None and task.job_failed:
        task.job_failed(job, reason)
    audit_record(
        event_type=AuditEventType.JOB_FAILED,
        summary=f"{job_label(job)} could not be completed: {reason}"[:300],
        job_id=job.pk,
        kind=job.kind,
        target_id=job.target_id,
        attempts=job.attempts,
    )


def _duration(seconds: int) -> str:
    return f"{seconds // 60} minutes" if seconds >= 120 else f"{seconds} seconds"


# --- People's side ----------------------------------------------------------------------------------


def job_retry(*, job: Job, actor, request=None) -> Job:
    """Try a failed (or stuck) job again from the start: the target waits again, the attempts restart."""
    task = job_task(job.kind)
    with transaction.atomic():
        job = Job.objects.select_for_update().get(pk=job.pk)
        if job.status == Job.Status.DONE:
            return job
        job.status = Job.Status.PENDING
        job.attempts = 0
        job.task_id = ""
        job.error = ""
        job.enqueue_error = ""
        job.started_at = job.finished_at = job.heartbeat_at = None
        job.save()
        if task is not None and task.job_retried:
            task.job_retried(job)
        audit_record(
            event_type=AuditEventType.JOB_RETRIED,
            summary=f"{job_label(job)} tried again",
            actor=actor,
            request=request,
            job_id=job.pk,
            kind=job.kind,
            target_id=job.target_id,
        )
        enqueue_on_commit(job)
    return job


# --- The sweeper (celery beat) -------------------------------------------------------------------------


def broker_queue_size(queue: str) -> int | None:
    """Messages waiting in ``queue`` on the broker, or None when the broker cannot tell us."""
    from kombu.exceptions import ChannelError

    from config.celery import app

    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1)
            try:
                return conn.default_channel.queue_declare(queue=queue, passive=True).message_count
            except ChannelError:
                return 0  # Redis deletes an empty list: "no such queue" is an empty queue
    except Exception:
        return None


def jobs_sweep(*, resend_after: int | None = None, grace: int | None = None) -> dict:
    """Re-send jobs left pending or whose message was lost; put back or fail jobs whose worker is gone.

    Safe to run at any time and in parallel with workers: every re-send can at worst duplicate a message,
    and a duplicate finds its job already held or finished. A worker is judged gone by the job's own
    heartbeat, not by asking the workers (``inspect().active()``): after a broker restart a worker that
    is still running may not answer, and one that died cannot."""
    resend_after = settings.JOBS_RESEND_AFTER if resend_after is None else resend_after
    grace = settings.JOBS_STALL_GRACE if grace is None else grace
    counts = {"resent": 0, "requeued": 0, "failed": 0}
    now = timezone.now()
    cutoff = now - timedelta(seconds=resend_after)

    # 1. Committed but never accepted by the broker (it was down), or the send failed.
    pending = Job.objects.filter(status=Job.Status.PENDING, created_at__lt=cutoff).exclude(
        enqueued_at__gte=cutoff
    )
    for job_id in pending.values_list("pk", flat=True):
        counts["resent"] += job_send(job_id)

    # 2. Queued, but the broker's queue is empty: the message was lost (e.g. Redis restarted).
    for queue in Job.objects.filter(status=Job.Status.QUEUED).values_list("queue", flat=True).distinct():
        if broker_queue_size(queue) != 0:
            continue
        stale = Job.objects.filter(status=Job.Status.QUEUED, queue=queue, enqueued_at__lt=cutoff)
        for job_id in stale.values_list("pk", flat=True):
            Job.objects.filter(pk=job_id, status=Job.Status.QUEUED).update(status=Job.Status.PENDING)
            counts["resent"] += job_send(job_id)

    # 3. Running, but its heartbeat stopped (the worker is gone) or it ran past its time limit.
    running = Job.objects.filter(status=Job.Status.RUNNING, started_at__lt=now - timedelta(seconds=grace))
    for job in running.annotate(last_beat=Coalesce("heartbeat_at", "started_at")):
        overdue = job.started_at < now - timedelta(seconds=job.time_limit + grace)
        orphaned = job.last_beat < now - timedelta(seconds=grace)
        if not (overdue or orphaned):
            continue
        reason = (
            f"It ran past its time limit of {_duration(job.time_limit)}."
            if overdue
            else "Its worker stopped before it finished."
        )
        with transaction.atomic():
            locked = Job.objects.select_for_update().get(pk=job.pk)
            if locked.status != Job.Status.RUNNING or locked.task_id != job.task_id:
                continue
            if locked.attempts >= locked.max_attempts:
                _fail(locked, f"{reason} It was tried {locked.attempts} times.")
                counts["failed"] += 1
                continue
            locked.status, locked.task_id, locked.error = Job.Status.PENDING, "", reason
            locked.save(update_fields=["status", "task_id", "error"])
        counts["requeued"] += 1
        job_send(job.pk)

    # 4. Work a run passed by (held by another worker at the time) and no job is left to finish.
    for task in job_tasks().values():
        if task.job_sweep:
            counts["requeued"] += task.job_sweep()
    if any(counts.values()):
        logger.info("Job sweep: %s", counts)
    cache.set(SWEPT_AT_KEY, now.isoformat(), timeout=None)  # Background work shows when it last ran
    return counts
