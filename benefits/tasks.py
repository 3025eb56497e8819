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
    from benefits.documents import document_mark_failed, document_render

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
