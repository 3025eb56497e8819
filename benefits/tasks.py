"""Thin Celery tasks: they call services and pass ids only (HackSoft style)."""

from __future__ import annotations

import logging

from celery import shared_task

logger = logging.getLogger(__name__)


@shared_task(
    bind=True,
    acks_late=True,
    max_retries=3,
    ignore_result=True,
    name="benefits.render_document",
)
def render_document_task(self, document_id: int) -> None:
    """Render one PDF. I/O errors are retried with backoff; anything else is reported on the document."""
    from benefits.services.documents import document_mark_failed, document_render

    try:
        document_render(document_id)
    except OSError as exc:
        if self.request.retries >= self.max_retries:
            document_mark_failed(document_id, f"Could not write the document: {exc}")
            return
        raise self.retry(exc=exc, countdown=2 ** (self.request.retries + 1)) from exc
    except Exception as exc:
        # A template or data error will not fix itself on retry: report it on the document and the log.
        logger.exception("Rendering document %s failed", document_id)
        document_mark_failed(document_id, f"{type(exc).__name__}: {exc}")


@shared_task(bind=True, acks_late=True, ignore_result=True, name="benefits.modeler_run")
def modeler_run_task(self, run_id: int) -> None:
    """Price a modeler run's commencement dates; a failure is reported on the run, never dropped."""
    from benefits.services.modeler import modeler_run_execute, modeler_run_fail

    try:
        modeler_run_execute(run_id)
    except Exception as exc:
        logger.exception("Modeler run %s failed", run_id)
        modeler_run_fail(run_id, f"{type(exc).__name__}: {exc}")
