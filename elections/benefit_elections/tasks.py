"""The notice batch's background work on the job task base class (``benefits/jobs/base.py``): its job
row, its time limit, the sweeper's watch.

A batch starts as one job that chooses the people; it then queues more runs of the same batch so that
each worker process takes items (``NOTICE_BATCH_RUNNERS``). Each item commits on its own (and under a
row lock taken with SKIP LOCKED), so any number of runs — the fan-out, a redelivered message, a worker
killed mid-batch and the sweeper's reclaim, a second job queued by "Resume" — issue each notice once
and carry on with the rest.
"""

from __future__ import annotations

from celery import shared_task
from django.db import transaction
from django.utils import timezone

from benefits.jobs.base import JobTask


def _batch_failed(job, reason: str) -> None:
    """The job gave up (after its attempts): its waiting notices fail with the reason, so the batch page
    lists them and "Retry failed" queues them again."""
    from elections.benefit_elections.models import NoticeBatch, NoticeBatchItem

    NoticeBatchItem.objects.filter(batch_id=job.target_id, state=NoticeBatchItem.State.PENDING).update(
        state=NoticeBatchItem.State.FAILED,
        failure_reason=f"The batch stopped before this notice was issued: {reason}"[:2000],
        finished_at=timezone.now(),
    )
    NoticeBatch.objects.filter(pk=job.target_id).exclude(state=NoticeBatch.State.DONE).update(
        state=NoticeBatch.State.DONE, finished_at=timezone.now()
    )


def _batches_sweep() -> int:
    """Queue again each running batch with notices still waiting and no job left to issue them (its run
    passed items another worker held, and that worker stopped before finishing them)."""
    from benefits.jobs.models import Job
    from elections.benefit_elections.models import NoticeBatch, NoticeBatchItem

    open_jobs = Job.objects.filter(kind=issue_notice_batch.name, status__in=Job.OPEN).values("target_id")
    stranded = (
        NoticeBatch.objects.filter(
            state=NoticeBatch.State.RUNNING, items__state=NoticeBatchItem.State.PENDING
        )
        .exclude(pk__in=open_jobs)
        .distinct()
    )
    count = 0
    for batch in stranded:
        with transaction.atomic():
            notice_batch_queue(batch)
        count += 1
    return count


@shared_task(
    base=JobTask,
    name="notice_batch.run",
    label="Election notices (a batch)",
    # Below the broker's visibility timeout (3,600 s). A batch longer than this is stopped at its soft
    # limit and tried again: the next attempt carries on with the notices still waiting, so five
    # attempts cover a batch of hours.
    time_limit=1800,
    max_attempts=5,
    job_failed=_batch_failed,
    job_sweep=_batches_sweep,
)
def issue_notice_batch(job) -> None:
    from elections.benefit_elections.services import batch_run

    batch_run(job.target_id)


def notice_batch_queue(batch, actor=None) -> None:
    """Queue the batch's job on commit (call inside the transaction that makes the work necessary).

    A job still waiting for a worker is sent again rather than doubled; otherwise (none, or one already
    running, which listed its items when it started) a new job is made: the two share the items safely."""
    from benefits.jobs.models import Job
    from benefits.jobs.services import enqueue_on_commit

    waiting = (
        Job.objects.filter(
            kind=issue_notice_batch.name,
            target_id=batch.pk,
            status__in=(Job.Status.PENDING, Job.Status.QUEUED),
        )
        .order_by("pk")
        .first()
    )
    if waiting is not None:
        enqueue_on_commit(waiting)
    else:
        issue_notice_batch.enqueue_on_commit(target_id=batch.pk, created_by=actor)


def notice_batch_fan_out(batch) -> int:
    """Queue runs of the batch until ``NOTICE_BATCH_RUNNERS`` are open (this one included), but no more
    than there are waiting items; returns how many were queued. Runs share the items through their row
    locks, so an extra run costs one query and ends when nothing is left to take."""
    from django.conf import settings

    from benefits.jobs.models import Job
    from elections.benefit_elections.models import NoticeBatchItem

    runners = int(getattr(settings, "NOTICE_BATCH_RUNNERS", 1) or 1)
    if runners <= 1:
        return 0
    open_runs = Job.objects.filter(
        kind=issue_notice_batch.name, target_id=batch.pk, status__in=Job.OPEN
    ).count()
    waiting = NoticeBatchItem.objects.filter(batch=batch, state=NoticeBatchItem.State.PENDING).count()
    wanted = max(0, min(runners - max(open_runs, 1), waiting - 1))
    with transaction.atomic():
        for _ in range(wanted):
            issue_notice_batch.enqueue_on_commit(target_id=batch.pk)
    return wanted
