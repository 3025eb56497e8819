"""Annual statement batches: one PDF per participant of a plan, exactly once, resumable; one participant's
failure is reported and the rest are issued. The population comes from generate_population."""

import io
from datetime import date
from unittest import mock

import pytest
from django.core.management import call_command
from django.db import IntegrityError, transaction
from pypdf import PdfReader

from benefits.batches import services
from benefits.batches.models import StatementBatch, StatementBatchItem
from benefits.batches.tasks import render_statement_chunk
from benefits.jobs.models import Job
from benefits.jobs.services import job_execute
from benefits.models import GeneratedDocument, Participant, Plan, PlanMembership
from tests.conftest import token

pytestmark = pytest.mark.django_db(transaction=True)
AS_OF = date(2026, 11, 2)


@pytest.fixture
def population(settings, tmp_path):
    settings.PRIVATE_STORAGE_ROOT = tmp_path
    settings.STATEMENT_BATCH_CHUNK_SIZE = 4
    call_command("generate_population", "30", "--as-of", AS_OF.isoformat(), verbosity=0)
    return Plan.objects.get(key="quaker-cash-balance")


def test_generate_population_spreads_realistic_people_over_the_five_plans(population):
    generated = Participant.objects.filter(participant_number__startswith="GEN-")
    assert generated.count() == 30
    assert len({p.ssn_hash for p in generated}) == 30 and all(p.user_id is None for p in generated)
    plans = set(PlanMembership.objects.filter(participant__in=generated).values_list("plan__key", flat=True))
    assert plans == {"carver-db", "quaker-cash-balance", "carver-401k", "fairport-esop", "carver-esop"}
    for membership in PlanMembership.objects.filter(participant__in=generated)[:10]:
        assert membership.hours.exists() and membership.compensation.exists()
    # A second run adds people after the first, never the same numbers or SSNs.
    call_command("generate_population", "5", "--as-of", AS_OF.isoformat(), verbosity=0)
    assert Participant.objects.filter(participant_number__startswith="GEN-").count() == 35


def test_a_batch_issues_one_statement_per_participant_exactly_once(population, admin_user):
    batch = services.batch_start(plan=population, year=2025, actor=admin_user)
    members = PlanMembership.objects.filter(plan=population).count()
    assert batch.total == members > 4
    batch.refresh_from_db()
    assert batch.status == StatementBatch.Status.DONE and batch.finished_at
    items = StatementBatchItem.objects.filter(batch=batch)
    assert items.filter(status="done").count() == members
    documents = GeneratedDocument.objects.filter(batch_item__batch=batch)
    assert documents.count() == members
    first = documents.first()
    from benefits.services.documents import document_bytes

    pdf = PdfReader(io.BytesIO(document_bytes(first)))
    assert "Annual statement 2025" in pdf.pages[0].extract_text()
    assert Job.objects.filter(kind=render_statement_chunk.name, status="done").count() == -(-members // 4)

    # Starting again, or running a chunk again (a redelivered message), issues nothing twice.
    again = services.batch_start(plan=population, year=2025, actor=admin_user)
    assert again.pk == batch.pk
    replay = render_statement_chunk.job_create(
        target_id=batch.pk,
        args={"batch": batch.pk, "items": list(items.values_list("pk", flat=True))},
    )
    job_execute(replay.pk, task_id="replay")
    assert GeneratedDocument.objects.filter(batch_item__batch=batch).count() == members


def test_the_database_refuses_a_second_item_for_a_membership(population):
    batch = services.batch_start(plan=population, year=2024)
    item = batch.items.first()
    with pytest.raises(IntegrityError), transaction.atomic():
        StatementBatchItem.objects.create(batch=batch, membership_id=item.membership_id)


def test_a_crash_mid_batch_resumes_where_it_stopped(population, settings):
    """Chunks queued but never run (the worker died): the sweeper's re-send finishes the batch."""
    with mock.patch("benefits.jobs.services.job_send") as send:
        batch = services.batch_start(plan=population, year=2025)
    assert send.called
    chunks = list(Job.objects.filter(kind=render_statement_chunk.name).order_by("pk"))
    job_execute(chunks[0].pk, task_id="first")  # one chunk done before the "crash"
    assert services.batch_counts(batch)["done"] == 4
    for job in chunks[1:]:
        job_execute(job.pk, task_id=f"after-restart-{job.pk}")
    batch.refresh_from_db()
    assert services.batch_counts(batch) == {"pending": 0, "done": batch.total, "failed": 0}
    assert batch.status == StatementBatch.Status.DONE


def test_one_participant_that_fails_is_reported_and_the_rest_are_issued(population, admin_user, staff_client):
    from benefits import statement_inputs

    broken = PlanMembership.objects.filter(plan=population).order_by("pk")[2]
    real = statement_inputs.statement_figures

    def payload(membership, **kwargs):
        if membership.pk == broken.pk:
            raise RuntimeError("opening balance is not a number")
        return real(membership, **kwargs)

    with mock.patch("benefits.statement_inputs.statement_figures", side_effect=payload):
        batch = services.batch_start(plan=population, year=2025, actor=admin_user)
    batch.refresh_from_db()
    counts = services.batch_counts(batch)
    assert counts == {"pending": 0, "done": batch.total - 1, "failed": 1}
    assert batch.status == StatementBatch.Status.DONE_WITH_FAILURES
    failed = batch.items.get(status="failed")
    assert failed.membership_id == broken.pk and "opening balance is not a number" in failed.error

    client = staff_client(admin_user)
    page = client.get(f"/benefits/staff/statement-batches/{batch.pk}/").content.decode()
    assert "opening balance is not a number" in page and broken.participant.participant_number in page
    client.post(f"/benefits/staff/statement-batches/{batch.pk}/retry/", {"submission_token": token()})
    batch.refresh_from_db()
    assert services.batch_counts(batch) == {"pending": 0, "done": batch.total, "failed": 0}
    assert batch.status == StatementBatch.Status.DONE


def test_only_administrators_start_batches(population, committee_user):
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        services.batch_start(plan=population, year=2025, actor=committee_user)
    assert not StatementBatch.objects.exists()


def test_the_401k_annual_statement_for_2025_covers_2025(settings, tmp_path, admin_user):
    """An annual statement for a year covers that plan year, even when later balances are on file
    (the 2025 batch once printed "Plan year 2026: January 1 to November 26, 2026")."""
    settings.PRIVATE_STORAGE_ROOT = tmp_path
    call_command("load_demo", as_of=date(2026, 11, 26), verbosity=0)
    plan = Plan.objects.get(key="carver-401k")
    batch = services.batch_start(plan=plan, year=2025, actor=admin_user)
    batch.refresh_from_db()
    documents = GeneratedDocument.objects.filter(batch_item__batch=batch)
    assert documents.exists()
    for document in documents:
        assert document.payload["period"].startswith("Plan year 2025"), document.payload["period"]
        assert "2026" not in document.payload["period"]
        assert document.payload["as_of"] <= "2025-12-31"
