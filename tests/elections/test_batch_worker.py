"""A notice batch on a real Celery worker (Redis broker) killed mid-batch and restarted: every notice
is issued exactly once — the items the killed worker finished stay done, the rest are issued after
the restart, and nothing is issued twice (the database's uniqueness rule backs the code's check).

The batch runs as its job (``notice_batch.run``); after the kill the job's heartbeat stops, the
sweeper puts it back and sends it again, and the restarted worker finishes it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from unittest import mock

import pytest
from django.db import connection

from benefits.jobs.models import Job
from benefits.jobs.services import jobs_sweep
from benefits.models import Plan
from elections.benefit_elections.models import BatchRule, Notice, NoticeBatch, NoticeBatchItem
from elections.benefit_elections.tasks import issue_notice_batch
from tests.elections.conftest import AS_OF

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]


def _redis_url() -> str:
    return os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/15")


def _redis_or_skip():
    import redis

    client = redis.Redis.from_url(_redis_url())
    try:
        client.ping()
    except redis.RedisError as exc:
        pytest.skip(f"Redis is not reachable: {exc}")
    return client


def _database_url() -> str:
    s = connection.settings_dict
    return f"postgres://{s['USER']}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def _start_worker(tmp_path) -> subprocess.Popen:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.local",
        "DATABASE_URL": _database_url(),
        "CELERY_BROKER_URL": _redis_url(),
        "REDIS_URL": _redis_url(),
        "PRIVATE_STORAGE_ROOT": str(tmp_path),
        "NOTICE_BATCH_ITEM_PAUSE_SECONDS": "2",
        "JOBS_HEARTBEAT_SECONDS": "1",
    }
    command = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "config",
        "worker",
        "-P",
        "solo",
        "-Q",
        "default",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
        "-l",
        "warning",
    ]
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # noqa: S603


def _send(job_id: int) -> bool:
    """What ``job_send`` does on a real broker (this test process runs tasks in-process)."""
    from celery import Celery

    # set_as_current=False: this client must not become the default app the rest of the suite uses.
    Celery(broker=_redis_url(), set_as_current=False).send_task(
        issue_notice_batch.name, args=[job_id], queue="default"
    )
    Job.objects.filter(pk=job_id, status=Job.Status.PENDING).update(status=Job.Status.QUEUED)
    return True


def _wait(condition, timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return
        time.sleep(0.1)
    pytest.fail(f"timed out waiting for {what}")


def test_worker_killed_mid_batch_then_restarted_issues_each_notice_once(demo, tmp_path):
    client = _redis_or_skip()
    client.delete("default", "pdf")
    batch = NoticeBatch.objects.create(
        plan=Plan.objects.get(key="carver-db"), rule=BatchRule.ASD_WITHIN, within_days=366, as_of=AS_OF
    )
    from elections.benefit_elections.services import batch_select

    total = batch_select(batch)
    assert total >= 2, "the demo gives this batch several participants"

    def done() -> int:
        return batch.items.exclude(state=NoticeBatchItem.State.PENDING).count()

    job = issue_notice_batch.job_create(target_id=batch.pk)
    worker = _start_worker(tmp_path)
    try:
        _send(job.pk)
        _wait(lambda: done() >= 1, 120, "the first notice")
        worker.send_signal(signal.SIGKILL)  # no warm shutdown: the task is cut off mid-batch
        worker.wait(30)
        finished_before_restart = done()
        assert 1 <= finished_before_restart < total, "the worker was killed mid-batch"
        held = Job.objects.get(pk=job.pk)
        assert held.status == Job.Status.RUNNING and held.heartbeat_at is not None

        worker = _start_worker(tmp_path)
        # Nobody beats for the job any more: once its heartbeat is older than the grace, the sweeper
        # puts it back and sends it again (no worker is asked whether it still holds it).
        with mock.patch("benefits.jobs.services.job_send", side_effect=_send):
            _wait(lambda: jobs_sweep(grace=3)["requeued"] == 1, 30, "the sweeper to put the job back")
        _wait(lambda: done() == total, 180, "the batch to finish after the restart")
        _wait(
            lambda: NoticeBatch.objects.get(pk=batch.pk).state == NoticeBatch.State.DONE,
            60,
            "the batch state",
        )
        _wait(lambda: Job.objects.get(pk=job.pk).status == Job.Status.DONE, 60, "the job to be done")
    finally:
        worker.kill()
        worker.wait(30)
        client.delete("default", "pdf")

    items = list(batch.items.all())
    issued = [i for i in items if i.state == NoticeBatchItem.State.ISSUED]
    failed = [i for i in items if i.state == NoticeBatchItem.State.FAILED]
    assert all(i.failure_reason for i in failed)
    assert Notice.objects.count() == len(issued)  # each notice once, none twice
    assert {i.notice_id for i in issued} == set(Notice.objects.values_list("pk", flat=True))
