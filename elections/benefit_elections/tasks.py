"""Celery tasks for notices: thin, ids only; the service is imported inside the task."""

from __future__ import annotations

import logging

from celery import shared_task

logger = logging.getLogger(__name__)


@shared_task(
    bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True, name="elections.notice_batch"
)
def notice_batch_task(self, batch_id: int) -> None:
    """Run or resume a notice batch. Each item commits on its own, so a worker killed mid-batch leaves
    the items it finished done; the redelivered task (acks_late) carries on with the pending ones."""
    from elections.benefit_elections.services import batch_run

    batch_run(batch_id)
