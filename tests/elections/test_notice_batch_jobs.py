"""A notice batch is a job (``benefits/jobs``): its row commits with the batch, it waits (not 500) while
the broker is down, the sweeper covers it, "Resume" does not double a job still waiting, and a job that
gives up fails its waiting notices with the reason so staff can retry them."""

from __future__ import annotations

from unittest import mock

import pytest
from django.test import TestCase
from kombu.exceptions import OperationalError as BrokerDown

from benefits.jobs import services as jobs
from benefits.jobs.models import Job
from benefits.models import AuditEvent
from elections.benefit_elections import services
from elections.benefit_elections.models import Notice, NoticeBatch, NoticeBatchItem
from elections.benefit_elections.tasks import issue_notice_batch
from elections.models import Claim, ClaimState
from tests.elections.conftest import AS_OF

pytestmark = pytest.mark.django_db


@pytest.fixture
def plan(pat):
    return Claim.objects.get(
        membership__participant__user=pat, state=ClaimState.ELECTION_REQUIRED
    ).membership.plan


@pytest.fixture
def broker(settings):
    """A real (not in-process) broker that the test can take down; records what was sent."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    sent, state = [], {"up": True}

    def apply_async(args, **options):
        if not state["up"]:
            raise BrokerDown("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        sent.append((args[0], options))

    with mock.patch("benefits.jobs.base.JobTask.apply_async", side_effect=apply_async):
        yield state, sent


def _jobs(batch) -> list[Job]:
    return list(Job.objects.filter(kind=issue_notice_batch.name, target_id=batch.pk).order_by("pk"))


def test_a_batch_has_its_job_which_runs_on_commit_and_issues_the_notices(plan):
    with TestCase.captureOnCommitCallbacks(execute=True):
        batch = services.batch_create(
            plan=plan, rule="awaiting_election", within_days=None, actor=None, on=AS_OF
        )
    (job,) = _jobs(batch)
    assert job.status == Job.Status.DONE and job.attempts == 1 and job.queue == "default"
    batch.refresh_from_db()
    assert batch.state == NoticeBatch.State.DONE
    issued = batch.items.filter(state=NoticeBatchItem.State.ISSUED).count()
    assert issued == batch.items.count() >= 1 and Notice.objects.count() == issued


def test_broker_down_the_batch_is_recorded_and_waits_then_the_sweeper_sends_it(plan, broker):
    state, sent = broker
    state["up"] = False
    with TestCase.captureOnCommitCallbacks(execute=True):
        batch = services.batch_create(
            plan=plan, rule="awaiting_election", within_days=None, actor=None, on=AS_OF
        )
    (job,) = _jobs(batch)
    assert job.status == Job.Status.PENDING and job.waiting_for_broker and not sent
    state["up"] = True
    jobs.jobs_sweep(resend_after=0)
    job.refresh_from_db()
    assert job.status == Job.Status.QUEUED and not job.enqueue_error
    options = [o for pk, o in sent if pk == job.pk]
    assert len(options) == 1 and options[0]["queue"] == "default" and options[0]["time_limit"] == 1800


def test_resume_sends_a_waiting_job_again_and_adds_one_only_beside_a_running_job(plan, broker):
    _, sent = broker
    with TestCase.captureOnCommitCallbacks(execute=True):
        batch = services.batch_create(
            plan=plan, rule="awaiting_election", within_days=None, actor=None, on=AS_OF
        )
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.batch_resume(batch=batch, actor=None)
    (job,) = _jobs(batch)  # still queued: sent again, not doubled
    assert [pk for pk, _ in sent].count(job.pk) == 2
    # A running job listed its items when it started: items put back since need a job of their own.
    Job.objects.filter(pk=job.pk).update(status=Job.Status.RUNNING, task_id="t-1")
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.batch_resume(batch=batch, actor=None)
    first, second = _jobs(batch)
    assert first.pk == job.pk and second.status == Job.Status.QUEUED and sent[-1][0] == second.pk


def test_two_runs_of_the_same_batch_issue_each_notice_once(plan):
    """A reclaimed job whose first execution was still alive: both run the batch; none is issued twice."""
    batch = NoticeBatch.objects.create(plan=plan, rule="awaiting_election", as_of=AS_OF)
    services.batch_run(batch.pk)
    services.batch_run(batch.pk)
    issued = batch.items.filter(state=NoticeBatchItem.State.ISSUED).count()
    assert issued >= 1 and Notice.objects.count() == issued


def test_a_batch_job_that_gives_up_fails_its_waiting_notices_with_the_reason(plan, broker):
    batch = NoticeBatch.objects.create(plan=plan, rule="awaiting_election", as_of=AS_OF)
    services.batch_select(batch)
    job = issue_notice_batch.job_create(target_id=batch.pk)
    Job.objects.filter(pk=job.pk).update(attempts=job.max_attempts, status=Job.Status.QUEUED)
    # Its last attempt never finished (the worker died): the redelivered message fails it.
    assert jobs.job_execute(job.pk, task_id="t-9") is None
    job.refresh_from_db()
    assert job.status == Job.Status.FAILED and "stopped before finishing 5 times" in job.error
    batch.refresh_from_db()
    assert batch.state == NoticeBatch.State.DONE
    item = batch.items.get()
    assert item.state == NoticeBatchItem.State.FAILED and "stopped before this notice" in item.failure_reason
    assert AuditEvent.objects.filter(event_type="job.failed", extra_data__job_id=job.pk).exists()
    # Staff retry the failed notices: a new job issues them.
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert services.batch_retry_failed(batch=batch, actor=None) == 1
    assert _jobs(batch)[-1].status == Job.Status.QUEUED
