"""Notice batches an operator can leave alone: one started from the command line has the same job row
as one started from the page (so a killed command is finished by a worker through the sweeper), and a
batch picks only people its notice can be issued for."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.test import TestCase

from benefits.jobs.models import Job
from benefits.jobs.services import jobs_sweep
from benefits.models import Plan
from elections.benefit_elections import services
from elections.benefit_elections.models import Notice, NoticeBatch, NoticeBatchItem
from elections.benefit_elections.tasks import issue_notice_batch
from tests.elections.conftest import AS_OF

pytestmark = pytest.mark.django_db


@pytest.fixture
def awaiting(pat):
    """The demo's claim of pat's awaiting an election: the command's batch issues its explanation."""
    from elections.models import Claim, ClaimState

    return Claim.objects.get(membership__participant__user=pat, state=ClaimState.ELECTION_REQUIRED)


def test_a_command_line_batch_has_the_job_row_the_sweeper_watches(awaiting):
    out = io.StringIO()
    with TestCase.captureOnCommitCallbacks(execute=True):
        call_command("issue_notices", "carver-db", "--json", stdout=out)
    summary = json.loads(out.getvalue().splitlines()[-1])
    batch = NoticeBatch.objects.get()
    job = Job.objects.get(kind=issue_notice_batch.name, target_id=batch.pk)
    assert job.status == Job.Status.DONE and job.worker.startswith("issue_notices@")
    assert summary["issued"] == batch.items.filter(state=NoticeBatchItem.State.ISSUED).count() >= 1


def test_a_killed_command_line_batch_is_finished_by_the_sweeper(awaiting, monkeypatch):
    real = services.batch_item_run_next

    def killed(batch_id):
        raise KeyboardInterrupt  # the command's process stops here (SIGINT; SIGKILL leaves the same rows)

    monkeypatch.setattr(services, "batch_item_run_next", killed)
    with pytest.raises(KeyboardInterrupt):
        call_command("issue_notices", "carver-db", stdout=io.StringIO())
    batch = NoticeBatch.objects.get()
    job = Job.objects.get(kind=issue_notice_batch.name, target_id=batch.pk)
    pending = batch.items.filter(state=NoticeBatchItem.State.PENDING).count()
    assert job.status == Job.Status.RUNNING and pending >= 1 and not Notice.objects.exists()

    monkeypatch.setattr(services, "batch_item_run_next", real)
    # Its heartbeat stopped: the sweeper puts the job back and a worker (in-process here) resumes it.
    with TestCase.captureOnCommitCallbacks(execute=True):
        counts = jobs_sweep(grace=0)
    assert counts["requeued"] == 1
    job.refresh_from_db()
    batch.refresh_from_db()
    assert job.status == Job.Status.DONE and batch.state == NoticeBatch.State.DONE
    assert not batch.items.exclude(state=NoticeBatchItem.State.ISSUED).exists()
    assert Notice.objects.count() == pending  # each once


def test_a_rollover_notice_batch_picks_only_people_with_a_single_sum(demo, monkeypatch):
    """The Carver ESOP batch chose 84 people and failed every one: "No single sum is payable …"."""
    from benefits.demo.population import generate_population

    generate_population(400, as_of=AS_OF, seed=28)
    plan = Plan.objects.get(key="carver-esop")
    chosen = services.batch_candidates(plan, "asd_within", on=AS_OF, within_days=366)
    monkeypatch.setattr(services, "_issuable", lambda *a: True)
    before = services.batch_candidates(plan, "asd_within", on=AS_OF, within_days=366)
    monkeypatch.undo()
    assert len(before) > len(chosen)  # the old rule picked people the notice refuses
    batch = NoticeBatch.objects.create(plan=plan, rule="asd_within", within_days=366, as_of=AS_OF)
    services.batch_run(batch.pk)
    assert (
        list(batch.items.filter(state=NoticeBatchItem.State.FAILED).values_list("failure_reason", flat=True))
        == []
    )
    assert batch.items.count() == len(chosen)
