"""The import area's background work on the job task base class (``benefits/jobs/base.py``): checking a
large file, importing it, and recomputing the stored results an import or a table made stale. Each may run
twice (a redelivered message, a worker put back) without harm:

- a check runs only while the batch is still being checked (it writes only the batch row);
- an import locks its batch row and refuses a batch already imported, so a second run writes nothing;
- a recalculation stores each membership's result afresh.
"""

from __future__ import annotations

import contextlib

from celery import shared_task

from benefits.jobs.base import JobTask

# A large file may take minutes: more than a PDF's limit.
TIME_LIMIT = 1800


def _check_failed(job, reason: str) -> None:
    from benefits.imports.services import import_mark_failed

    import_mark_failed(job.target_id, f"The file could not be checked: {reason}")


@shared_task(
    base=JobTask,
    name="import.check",
    label="Checking an imported file",
    time_limit=TIME_LIMIT,
    job_failed=_check_failed,
)
def check_import(job) -> None:
    from benefits.imports.models import ImportBatch
    from benefits.imports.services import import_check

    if ImportBatch.objects.filter(pk=job.target_id, status=ImportBatch.Status.CHECKING).exists():
        import_check(job.target_id)


def _apply_failed(job, reason: str) -> None:
    from benefits.imports.services import import_mark_failed

    import_mark_failed(job.target_id, f"Nothing was imported: {reason}")


@shared_task(
    base=JobTask,
    name="import.apply",
    label="Importing a file",
    time_limit=TIME_LIMIT,
    job_failed=_apply_failed,
)
def apply_import(job) -> None:
    from benefits.imports.services import ImportRefused, import_apply

    # Refused: the batch is back to its preview (which lists the errors), or was imported already.
    with contextlib.suppress(ImportRefused):
        import_apply(job.target_id)


@shared_task(
    base=JobTask,
    name="results.recalculate",
    label="Recalculating stored results after an import",
    time_limit=TIME_LIMIT,
    max_attempts=4,
)
def recalculate_results(job) -> None:
    from benefits.imports.services import results_recalculate

    results_recalculate(job.args.get("membership_ids"))


@shared_task(
    base=JobTask,
    name="tables.recalculate",
    label="Recalculating stored results after a regulatory table was loaded",
    time_limit=TIME_LIMIT,
    max_attempts=4,
)
def recalculate_after_tables(job) -> None:
    from benefits.imports.services import tables_recalculate

    tables_recalculate(job.args["kind"], list(job.args["years"]))
