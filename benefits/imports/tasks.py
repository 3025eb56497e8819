"""Celery tasks of the import area: they pass ids and import their service inside the function."""

from __future__ import annotations

import logging

from celery import shared_task

logger = logging.getLogger(__name__)

# A large file may take minutes: more than the default limits (settings) allow for a PDF.
LIMITS = {"soft_time_limit": 1500, "time_limit": 1800}


@shared_task(bind=True, acks_late=True, ignore_result=True, name="benefits.import_check", **LIMITS)
def import_check_task(self, batch_id: int) -> None:
    from benefits.imports.services import import_check, import_mark_failed

    try:
        import_check(batch_id)
    except Exception as exc:
        logger.exception("Checking import %s failed", batch_id)
        import_mark_failed(batch_id, f"The file could not be checked: {type(exc).__name__}: {exc}")


@shared_task(bind=True, acks_late=True, ignore_result=True, name="benefits.import_apply", **LIMITS)
def import_apply_task(self, batch_id: int) -> None:
    from benefits.imports.services import ImportRefused, import_apply, import_mark_failed

    try:
        import_apply(batch_id)
    except ImportRefused:
        pass  # the batch is back to its preview, which now lists the errors
    except Exception as exc:
        logger.exception("Import %s failed", batch_id)
        import_mark_failed(batch_id, f"Nothing was imported: {type(exc).__name__}: {exc}")


@shared_task(
    bind=True, acks_late=True, ignore_result=True, max_retries=3, name="benefits.recalculate", **LIMITS
)
def recalculate_task(self, membership_ids: list[int] | None) -> None:
    """Recompute the stored results an import made stale; retried, never dropped silently."""
    from benefits.imports.services import results_recalculate

    try:
        results_recalculate(membership_ids)
    except Exception as exc:
        logger.exception(
            "Recalculating %s memberships failed", "all" if membership_ids is None else len(membership_ids)
        )
        raise self.retry(exc=exc, countdown=30) from exc
