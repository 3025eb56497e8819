"""The import area's background work as jobs (``benefits/jobs``): checking a large file, importing it,
and recomputing the stored results an import made stale. Each has its row, its time limit and the
sweeper's watch; each may run twice (a redelivered message, a worker put back) without harm:

- a check runs only while the batch is still being checked (it writes only the batch row);
- an import locks its batch row and refuses a batch already imported, so a second run writes nothing;
- a recalculation stores each membership's result afresh.
"""

from __future__ import annotations

import contextlib

from benefits.jobs.registry import JobKind, register_job_kind

IMPORT_CHECK = "import.check"
IMPORT_APPLY = "import.apply"
RESULTS_RECALCULATE = "results.recalculate"
TABLES_RECALCULATE = "tables.recalculate"  # benefits/imports/tables.py

# A large file may take minutes: more than a PDF's limit.
TIME_LIMIT = 1800


def register() -> None:
    register_job_kind(
        JobKind(
            name=IMPORT_CHECK,
            label="Checking an imported file",
            run="benefits.imports.jobs:import_check_job",
            time_limit=TIME_LIMIT,
            on_failed="benefits.imports.jobs:import_check_failed",
        )
    )
    register_job_kind(
        JobKind(
            name=IMPORT_APPLY,
            label="Importing a file",
            run="benefits.imports.jobs:import_apply_job",
            time_limit=TIME_LIMIT,
            on_failed="benefits.imports.jobs:import_apply_failed",
        )
    )
    register_job_kind(
        JobKind(
            name=RESULTS_RECALCULATE,
            label="Recalculating stored results after an import",
            run="benefits.imports.jobs:results_recalculate_job",
            time_limit=TIME_LIMIT,
            max_attempts=4,
        )
    )
    register_job_kind(
        JobKind(
            name=TABLES_RECALCULATE,
            label="Recalculating stored results after a regulatory table was loaded",
            run="benefits.imports.jobs:tables_recalculate_job",
            time_limit=TIME_LIMIT,
            max_attempts=4,
        )
    )


def import_check_job(job) -> None:
    from benefits.imports.models import ImportBatch
    from benefits.imports.services import import_check

    if ImportBatch.objects.filter(pk=job.target_id, status=ImportBatch.Status.CHECKING).exists():
        import_check(job.target_id)


def import_check_failed(job, reason: str) -> None:
    from benefits.imports.services import import_mark_failed

    import_mark_failed(job.target_id, f"The file could not be checked: {reason}")


def import_apply_job(job) -> None:
    from benefits.imports.services import ImportRefused, import_apply

    # Refused: the batch is back to its preview (which lists the errors), or was imported already.
    with contextlib.suppress(ImportRefused):
        import_apply(job.target_id)


def import_apply_failed(job, reason: str) -> None:
    from benefits.imports.services import import_mark_failed

    import_mark_failed(job.target_id, f"Nothing was imported: {reason}")


def results_recalculate_job(job) -> None:
    from benefits.imports.services import results_recalculate

    results_recalculate(job.args.get("membership_ids"))


def tables_recalculate_job(job) -> None:
    from benefits.imports.services import tables_recalculate

    tables_recalculate(job.args["kind"], list(job.args["years"]))
