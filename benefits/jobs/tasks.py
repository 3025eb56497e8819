"""The two Celery tasks behind every job: run one job, and the beat sweeper."""

from __future__ import annotations

from celery import shared_task


@shared_task(
    bind=True,
    acks_late=True,  # the message stays on the broker until the job ran ...
    reject_on_worker_lost=True,  # ... and goes back to the queue if the worker process dies
    ignore_result=True,
    name="jobs.run",
)
def run_job(self, job_id: int) -> None:
    from benefits.jobs.services import job_execute

    job_execute(job_id, task_id=self.request.id or "", worker=self.request.hostname or "")


@shared_task(ignore_result=True, name="jobs.sweep")
def sweep_jobs() -> dict:
    from benefits.jobs.services import jobs_sweep

    return jobs_sweep()
