"""The beat sweeper: re-sends, puts back or fails the jobs of every job task (``benefits/jobs/base.py``)."""

from __future__ import annotations

from celery import shared_task


@shared_task(ignore_result=True, name="jobs.sweep")
def sweep_jobs() -> dict:
    from benefits.jobs.services import jobs_sweep

    return jobs_sweep()
