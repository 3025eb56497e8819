"""Statement batches' background work on the job task base class (``benefits/jobs/base.py``).

A chunk renders ``STATEMENT_BATCH_CHUNK_SIZE`` PDFs; its time limit stays below the broker's visibility
timeout. Run twice (a redelivered message, a worker killed mid-chunk), it skips the items already done.
"""

from __future__ import annotations

from celery import shared_task

from benefits.jobs.base import JobTask


def _chunk_failed(job, reason: str) -> None:
    from benefits.batches.services import batch_chunk_failed

    batch_chunk_failed(job, reason)


@shared_task(
    base=JobTask,
    name="statement_batch.chunk",
    label="Annual statements (part of a batch)",
    job_queue="pdf",
    time_limit=900,
    max_attempts=5,
    job_failed=_chunk_failed,
)
def render_statement_chunk(job) -> None:
    from benefits.batches.services import batch_chunk_run

    batch_chunk_run(job)
