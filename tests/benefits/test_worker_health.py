"""Workers that come back: every queue has a supervised process in deploy/, the sweeper has a queue and
worker of its own, and Background work says when no worker takes work or the sweeper stopped."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from benefits.jobs.base import job_tasks
from benefits.jobs.models import Job
from benefits.jobs.services import SWEPT_AT_KEY, jobs_sweep
from benefits.tasks import render_document
from tests.conftest import login_with_totp

ROOT = Path(__file__).resolve().parents[2]


def _procfile() -> dict[str, str]:
    lines = (ROOT / "deploy/Procfile").read_text().splitlines()
    return dict(line.split(": ", 1) for line in lines if line and not line.startswith("#"))


def test_every_queue_has_a_supervised_worker_and_the_sweeper_its_own(settings):
    procs = _procfile()
    queues = {m for cmd in procs.values() for m in re.findall(r"worker -Q (\S+)", cmd)}
    needed = {task.job_queue for task in job_tasks().values()} | {"sweep"}
    assert needed <= queues, needed - queues
    assert "beat" in procs["beat"] and "sweep" in procs
    assert settings.CELERY_TASK_ROUTES["jobs.sweep"] == {"queue": "sweep"}
    sweep = next(e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == "jobs.sweep")
    assert sweep["options"]["expires"] == settings.JOBS_SWEEP_SECONDS  # sweeps never pile up
    for unit in ("plan-benefits-web", "plan-benefits-worker@", "plan-benefits-beat", "plan-benefits"):
        text = (ROOT / f"deploy/systemd/{unit}.service").read_text()
        assert "Restart=always" in text and "RestartSec=5" in text, unit


@pytest.fixture
def staff(admin_user, password):
    client = Client()
    login_with_totp(client, admin_user, password)
    return client


@pytest.mark.django_db
def test_background_work_says_when_no_worker_takes_work_and_the_sweeper_is_quiet(staff, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False  # workers, as in production (none runs here)
    settings.CELERY_BROKER_URL = "memory://"
    settings.JOBS_IDLE_ALERT_SECONDS = 300
    cache.delete(SWEPT_AT_KEY)
    page = staff.get("/benefits/staff/jobs/").text
    assert "No worker is taking work" not in page  # nothing waits
    assert "The sweeper is not running" in page and "No run of it is recorded" in page
    assert "Waiting work is sent again automatically" not in page

    job = render_document.job_create(target_id=1)
    Job.objects.filter(pk=job.pk).update(
        status=Job.Status.QUEUED, created_at=timezone.now() - timedelta(minutes=12)
    )
    page = staff.get("/benefits/staff/jobs/").text
    assert "No worker is taking work" in page
    assert "1 job has waited and no worker has started any work for 12 minutes" in page

    # A job started 2 minutes ago: a worker is taking work, however long others wait.
    started = render_document.job_create(target_id=2)
    Job.objects.filter(pk=started.pk).update(
        status=Job.Status.RUNNING, started_at=timezone.now() - timedelta(minutes=2)
    )
    assert "No worker is taking work" not in staff.get("/benefits/staff/jobs/").text

    jobs_sweep()  # the sweeper ran: no warning, and the page promises the resend again
    page = staff.get("/benefits/staff/jobs/").text
    assert "The sweeper is not running" not in page and "Waiting work is sent again automatically" in page
