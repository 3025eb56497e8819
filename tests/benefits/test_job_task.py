"""The job task base class (``benefits/jobs/base.py``): every piece of background work is a task declared
beside its service, its job row carries the task's Celery name and limits, and a row whose task is gone
fails with a reason instead of waiting for ever."""

from __future__ import annotations

import importlib.util

import pytest

from benefits.jobs import services
from benefits.jobs.base import JobTask, job_label, job_tasks
from benefits.jobs.models import Job
from benefits.models import AuditEvent
from benefits.tasks import render_document, send_mail

pytestmark = pytest.mark.django_db

KINDS = {  # the job kinds rows held before the task base class: the names stay, so no row is migrated
    "document.render",
    "modeler.run",
    "statement_batch.chunk",
    "delivery.email",
    "mail.send",
    "notice_batch.run",
    "import.check",
    "import.apply",
    "results.recalculate",
    "tables.recalculate",
}


def test_every_job_task_sits_in_a_tasks_module_beside_its_service():
    tasks = job_tasks()
    assert set(tasks) == KINDS
    for name, task in tasks.items():
        module = task.__module__
        assert module.endswith(".tasks"), (name, module)
        area = module.rpartition(".")[0]
        assert importlib.util.find_spec(f"{area}.services") is not None, (
            f"{name}: no services beside {module}"
        )
        assert task.label and task.soft_time_limit < task.time_limit and task.acks_late


def test_a_task_makes_its_job_row_with_its_own_name_queue_and_limits():
    job = render_document.job_create(target_id=7)
    assert (job.kind, job.queue, job.time_limit, job.max_attempts) == ("document.render", "pdf", 180, 3)
    mail = send_mail.job_create(args={"to": ["a@example.test"]})
    assert (mail.kind, mail.queue, mail.time_limit, mail.max_attempts) == ("mail.send", "default", 60, 4)
    assert job_label(job) == "PDF document"


def test_hooks_stay_plain_functions():
    """Celery puts task options on the task's class; a hook must not become a method taking the task."""
    seen = []

    class Probe(JobTask):
        job_failed = lambda job, reason: seen.append((job, reason))  # noqa: E731

    Probe.job_failed("job", "why")
    Probe().job_failed("job", "why")
    assert seen == [("job", "why"), ("job", "why")]


def test_a_job_whose_task_is_gone_fails_with_a_reason():
    job = Job.objects.create(kind="no.such.task", target_id=1)
    assert services.job_send(job.pk) is False
    job.refresh_from_db()
    assert job.status == Job.Status.FAILED and job.error == services.GONE
    assert job_label(job) == "no.such.task"
    assert AuditEvent.objects.filter(event_type="job.failed", extra_data__job_id=job.pk).exists()


def test_the_message_leaves_only_after_commit(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        job = render_document.enqueue_on_commit(target_id=0)
    assert Job.objects.get(pk=job.pk).status == Job.Status.PENDING and len(callbacks) == 1


def test_finding_the_job_tasks_leaves_logging_as_the_worker_set_it(monkeypatch):
    """A worker's pool child looks up job tasks while it runs its first job. The look-up imports the areas'
    tasks modules by name: Celery's own loader would run ``django.setup()`` again, whose logging
    configuration replaced the root logger's handlers, and every later line of that child was lost (the
    worker log then had no "succeeded" line and no notice batch progress)."""
    import logging

    from config.celery import app

    monkeypatch.setattr(app, "_job_tasks_imported", False, raising=False)
    root = logging.getLogger()
    worker_handler = logging.NullHandler()  # stands for the worker's log file handler
    root.addHandler(worker_handler)
    try:
        tasks = job_tasks()
        assert worker_handler in root.handlers
    finally:
        root.removeHandler(worker_handler)
    assert set(tasks) >= KINDS
