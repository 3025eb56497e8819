"""Large imports and the recalculation after an import are jobs (``benefits/jobs``): each has its row,
runs on commit, is idempotent when run twice, and a job that gives up reports on the import."""

from __future__ import annotations

import pytest

from benefits.imports.models import ImportBatch
from benefits.imports.tasks import apply_import, check_import, recalculate_results
from benefits.jobs import services as jobs
from benefits.jobs.models import Job

pytestmark = pytest.mark.django_db


def test_import_tasks_run_on_the_default_queue_with_the_long_limit():
    for task in (check_import, apply_import, recalculate_results):
        assert task.job_queue == "default" and task.time_limit == 1800


def test_a_check_job_for_a_batch_past_checking_changes_nothing(admin_user):
    batch = ImportBatch.objects.create(
        kind="participants", file_name="x.csv", sha256="0" * 64, size=1, stored_file="imports/none.csv",
        status=ImportBatch.Status.APPLIED, uploaded_by=admin_user,
    )  # fmt: skip
    job = check_import.job_create(target_id=batch.pk)
    jobs.job_execute(job.pk)  # a redelivered message after the import was applied
    batch.refresh_from_db()
    assert batch.status == ImportBatch.Status.APPLIED
    assert Job.objects.get(pk=job.pk).status == Job.Status.DONE


def test_a_failed_check_job_reports_on_the_import(admin_user):
    batch = ImportBatch.objects.create(
        kind="participants", file_name="x.csv", sha256="0" * 64, size=1, stored_file="imports/missing.csv",
        status=ImportBatch.Status.CHECKING, uploaded_by=admin_user,
    )  # fmt: skip
    job = check_import.job_create(target_id=batch.pk)
    Job.objects.filter(pk=job.pk).update(max_attempts=1)
    jobs.job_execute(job.pk)  # the stored file is missing: OSError, no attempts left
    batch.refresh_from_db()
    assert Job.objects.get(pk=job.pk).status == Job.Status.FAILED
    assert batch.status == ImportBatch.Status.FAILED
    assert batch.failure.startswith("The file could not be checked: A file could not be read")
