"""Background jobs are never lost: a row per job, sent after commit, waiting (not 500) while the broker is
down, re-sent by the sweeper, put back when their worker dies, failed with a reason and retried by staff."""

from datetime import timedelta
from pathlib import Path
from unittest import mock

import pytest
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerDown

from benefits.jobs import services
from benefits.jobs.models import Job
from benefits.models import AuditEvent, GeneratedDocument
from benefits.services.documents import document_request
from benefits.tasks import render_document
from tests.conftest import token

pytestmark = pytest.mark.django_db(transaction=True)
TEST_TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


@pytest.fixture(autouse=True)
def _test_templates(settings, tmp_path):
    from django.template import engines

    templates = [dict(settings.TEMPLATES[0])]
    templates[0]["DIRS"] = [*templates[0]["DIRS"], TEST_TEMPLATES]
    settings.TEMPLATES = templates
    settings.PRIVATE_STORAGE_ROOT = tmp_path
    engines._engines = {}
    engines.__dict__.pop("templates", None)
    yield
    engines._engines = {}
    engines.__dict__.pop("templates", None)


@pytest.fixture
def broker(settings):
    """A real (not in-process) broker whose availability the test controls; records what was sent."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    sent = []
    state = {"up": True}

    def apply_async(args, **options):
        if not state["up"]:
            raise BrokerDown("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        sent.append((args[0], options))

    with mock.patch("benefits.jobs.base.JobTask.apply_async", side_effect=apply_async):
        yield state, sent


def _document(participant, template="pdf/test_document.html"):
    return document_request(
        kind="test", participant=participant, title="Test statement", template_name=template, payload={}
    )


def test_a_document_has_its_own_job_which_runs_after_commit(participant_user):
    document = _document(participant_user.participant)
    document.refresh_from_db()
    job = document.job
    assert job.kind == render_document.name and job.target_id == document.pk and job.queue == "pdf"
    assert job.status == Job.Status.DONE and job.attempts == 1
    assert document.status == GeneratedDocument.Status.DONE


def test_the_same_unique_key_is_one_job(participant_user):
    first = render_document.job_create(target_id=1, unique_key="document.render:1")
    again = render_document.job_create(target_id=1, unique_key="document.render:1")
    assert first.pk == again.pk and Job.objects.count() == 1


def test_broker_down_the_request_succeeds_and_the_job_waits_then_the_sweeper_sends_it(
    participant_user, broker
):
    state, sent = broker
    state["up"] = False
    document = _document(participant_user.participant)  # no exception reaches the caller
    job = Job.objects.get(pk=document.job_id)
    assert job.status == Job.Status.PENDING and job.waiting_for_broker
    assert "could not be reached" in job.enqueue_error and not sent
    document.refresh_from_db()
    assert document.status == GeneratedDocument.Status.PENDING

    assert services.jobs_sweep(resend_after=0)["resent"] == 0  # still down
    state["up"] = True
    counts = services.jobs_sweep(resend_after=0)
    job.refresh_from_db()
    assert counts["resent"] == 1 and job.status == Job.Status.QUEUED and not job.enqueue_error
    assert sent == [(job.pk, mock.ANY)] and sent[0][1]["queue"] == "pdf"
    assert sent[0][1]["time_limit"] == job.time_limit


def test_a_pdf_request_while_the_broker_is_down_says_it_waits(client, participant_user, password, broker):
    from tests.factories import PlanFactory

    state, _ = broker
    state["up"] = False
    plan = PlanFactory()
    document = document_request(
        kind="statement",
        participant=participant_user.participant,
        title="Statement",
        template_name="pdf/test_document.html",
        payload={"plan_key": plan.key, "as_of": "2026-01-01"},
    )
    assert Job.objects.get(pk=document.job_id).waiting_for_broker
    client.post("/accounts/login/", {"login": participant_user.email, "password": password})
    url = f"/benefits/participants/{participant_user.participant.pk}/plans/{plan.key}/statement/"
    page = client.get(url).content.decode()
    assert "waiting to be prepared; it will be prepared automatically" in page
    assert "could not be reached" not in page and "Error" not in page


def test_a_message_lost_with_the_broker_is_sent_again_when_the_queue_is_empty(participant_user, broker):
    _, sent = broker
    document = _document(participant_user.participant)
    job = Job.objects.get(pk=document.job_id)
    assert job.status == Job.Status.QUEUED and len(sent) == 1
    Job.objects.filter(pk=job.pk).update(enqueued_at=timezone.now() - timedelta(minutes=5))
    with mock.patch.object(services, "broker_queue_size", return_value=3):
        assert services.jobs_sweep()["resent"] == 0  # the queue still holds messages
    with mock.patch.object(services, "broker_queue_size", return_value=0):
        assert services.jobs_sweep()["resent"] == 1  # Redis lost it: send again
    assert len(sent) == 2


def _running(job, *, task_id="task-1", minutes_ago=1, attempts=1, beat_seconds_ago=None):
    """The job held by ``task_id`` since ``minutes_ago``; its last heartbeat ``beat_seconds_ago`` (None:
    none since it started)."""
    now = timezone.now()
    Job.objects.filter(pk=job.pk).update(
        status=Job.Status.RUNNING,
        task_id=task_id,
        attempts=attempts,
        started_at=now - timedelta(minutes=minutes_ago),
        heartbeat_at=None if beat_seconds_ago is None else now - timedelta(seconds=beat_seconds_ago),
    )


def test_a_duplicate_message_leaves_a_held_job_alone_and_a_redelivery_resumes_it(participant_user, broker):
    document = _document(participant_user.participant)
    job = document.job
    _running(job, minutes_ago=0)
    assert services.job_execute(job.pk, task_id="another-message") is None
    assert Job.objects.get(pk=job.pk).status == Job.Status.RUNNING
    # The same message again: its worker was lost (reject_on_worker_lost requeued it).
    services.job_execute(job.pk, task_id="task-1")
    job.refresh_from_db()
    document.refresh_from_db()
    assert job.status == Job.Status.DONE and job.attempts == 2
    assert document.status == GeneratedDocument.Status.DONE


def test_a_job_whose_heartbeat_stopped_is_put_back_and_sent_again(participant_user, broker, settings):
    _, sent = broker
    job = _document(participant_user.participant).job
    # Its last heartbeat is older than the grace: the worker died (or lost the database).
    _running(job, beat_seconds_ago=settings.JOBS_STALL_GRACE + 1)
    counts = services.jobs_sweep()
    job.refresh_from_db()
    assert counts["requeued"] == 1 and job.status == Job.Status.QUEUED and not job.task_id
    assert job.error == "Its worker stopped before it finished."
    assert sent[-1][0] == job.pk


def test_a_job_with_a_fresh_heartbeat_is_left_alone_whatever_the_workers_answer(
    participant_user, broker, settings
):
    """Started long ago, but its heartbeat is recent: still running (no worker is asked at all, so a
    worker that cannot answer after a broker restart does not matter)."""
    job = _document(participant_user.participant).job
    _running(job, minutes_ago=2, beat_seconds_ago=settings.JOBS_STALL_GRACE - 5)  # within its time limit
    with mock.patch("config.celery.app.control.inspect", side_effect=AssertionError("no probe")):
        assert services.jobs_sweep()["requeued"] == 0
    assert Job.objects.get(pk=job.pk).status == Job.Status.RUNNING


def test_a_job_without_any_heartbeat_is_judged_from_its_start(participant_user, broker, settings):
    job = _document(participant_user.participant).job
    grace = settings.JOBS_STALL_GRACE
    Job.objects.filter(pk=job.pk).update(
        status=Job.Status.RUNNING, task_id="task-1", attempts=1, heartbeat_at=None,
        started_at=timezone.now() - timedelta(seconds=grace - 5),
    )  # fmt: skip
    assert services.jobs_sweep()["requeued"] == 0  # within the grace of its start
    Job.objects.filter(pk=job.pk).update(started_at=timezone.now() - timedelta(seconds=grace + 1))
    assert services.jobs_sweep()["requeued"] == 1


def test_a_running_job_writes_its_heartbeat_and_stops_when_it_is_put_back(participant_user, settings):
    """The heartbeat thread of a real (not in-process) execution: it moves ``heartbeat_at`` while the
    body runs, and stops moving it once the sweeper gave the job to another execution."""
    import threading
    import time

    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.JOBS_HEARTBEAT_SECONDS = 1
    job = render_document.job_create(target_id=0)
    _running(job, minutes_ago=0, beat_seconds_ago=600)
    seen = []
    release = threading.Event()
    with services.heartbeat(job.pk, "task-1"):
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            beat = Job.objects.get(pk=job.pk).heartbeat_at
            if beat > timezone.now() - timedelta(seconds=5):
                seen.append(beat)
                break
            time.sleep(0.2)
        # The sweeper put it back (another execution will hold it): this one's beats no longer land.
        Job.objects.filter(pk=job.pk).update(status=Job.Status.PENDING, task_id="", heartbeat_at=None)
        release.wait(2.5)
    assert seen, "no heartbeat was written while the job ran"
    assert Job.objects.get(pk=job.pk).heartbeat_at is None


def test_a_job_past_its_time_limit_on_its_last_attempt_fails_visibly(participant_user, broker):
    document = _document(participant_user.participant)
    job = document.job
    _running(job, minutes_ago=60, attempts=job.max_attempts, beat_seconds_ago=1)  # alive, but too long
    assert services.jobs_sweep()["failed"] == 1
    job.refresh_from_db()
    document.refresh_from_db()
    assert job.status == Job.Status.FAILED and "ran past its time limit of 3 minutes" in job.error
    assert document.status == GeneratedDocument.Status.FAILED and "time limit" in document.error
    assert AuditEvent.objects.filter(event_type="job.failed", extra_data__job_id=job.pk).exists()


def test_a_redelivery_after_the_last_attempt_fails_instead_of_looping(participant_user, broker):
    job = _document(participant_user.participant).job
    _running(job, attempts=job.max_attempts)
    assert services.job_execute(job.pk, task_id="task-1") is None
    job.refresh_from_db()
    assert job.status == Job.Status.FAILED and "stopped before finishing 3 times" in job.error


def test_a_transient_error_is_retried_and_a_permanent_one_fails_at_once(participant_user, broker):
    _, sent = broker
    job = _document(participant_user.participant).job
    with mock.patch("benefits.services.documents.document_render", side_effect=OSError("disk full")):
        services.job_execute(job.pk, task_id="t1")
    job.refresh_from_db()
    assert job.status == Job.Status.QUEUED and "disk full" in job.error
    assert sent[-1][1]["countdown"] == services.BACKOFF_SECONDS[0]
    with mock.patch("benefits.services.documents.document_render", side_effect=KeyError("plan_name")):
        services.job_execute(job.pk, task_id="t2")
    job.refresh_from_db()
    assert job.status == Job.Status.FAILED and job.attempts == 2 and "KeyError" in job.error


def test_staff_retry_a_failed_job_from_the_background_work_page(
    participant_user, committee_user, staff_client
):
    document = _document(participant_user.participant, template="pdf/broken_document.html")
    document.refresh_from_db()
    assert document.status == GeneratedDocument.Status.FAILED and document.job.status == Job.Status.FAILED
    client = staff_client(committee_user)
    page = client.get("/benefits/staff/jobs/").content.decode()
    assert "PDF document" in page and "Refused to fetch" in page and "Try again" in page

    GeneratedDocument.objects.filter(pk=document.pk).update(template_name="pdf/test_document.html")
    response = client.post(f"/benefits/staff/jobs/{document.job_id}/retry/", {"submission_token": token()})
    assert response.status_code == 302
    document.refresh_from_db()
    assert document.status == GeneratedDocument.Status.DONE and document.job.status == Job.Status.DONE
    assert AuditEvent.objects.filter(event_type="job.retried", acting_user=committee_user).exists()


def test_participants_read_plain_words_about_a_failed_document(client, participant_user, password):
    from tests.factories import PlanFactory

    plan = PlanFactory()
    document = document_request(
        kind="statement",
        participant=participant_user.participant,
        title="Statement",
        template_name="pdf/broken_document.html",
        payload={"plan_key": plan.key, "as_of": "2026-01-01"},
    )
    document.refresh_from_db()
    assert document.status == GeneratedDocument.Status.FAILED
    client.post("/accounts/login/", {"login": participant_user.email, "password": password})
    page = client.get(f"/benefits/participants/{participant_user.participant.pk}/plans/{plan.key}/statement/")
    text = page.content.decode()
    assert "could not be prepared yet; the plan administrator has been told" in text
    assert "Refused to fetch" not in text


def test_a_failed_denial_notice_is_not_shown_as_delivered(participant_user):
    from django.template.loader import render_to_string

    document = _document(participant_user.participant, template="pdf/broken_document.html")
    document.refresh_from_db()
    html = render_to_string("benefits/_document_state.html", {"d": document, "user": participant_user})
    assert "could not be prepared" in html and "delivered" not in html
