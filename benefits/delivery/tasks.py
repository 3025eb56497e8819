"""Document delivery's background work on the job task base class (``benefits/jobs/base.py``)."""

from __future__ import annotations

from celery import shared_task

from benefits.jobs.base import JobTask


def _email_failed(job, reason: str) -> None:
    from benefits.delivery.services import delivery_email_failed

    delivery_email_failed(job, reason)


def _email_retried(job) -> None:
    from benefits.delivery.services import delivery_email_retry

    delivery_email_retry(job)


@shared_task(
    base=JobTask,
    name="delivery.email",
    label="Email that a document is ready",
    time_limit=120,
    max_attempts=5,  # a mail relay that is down for a while: 5 s, 30 s, 2 min, 2 min apart
    job_failed=_email_failed,
    job_retried=_email_retried,
)
def send_delivery_email(job) -> None:
    from benefits.delivery.services import delivery_email_job

    delivery_email_job(job)
