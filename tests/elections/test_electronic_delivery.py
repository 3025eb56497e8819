"""Electronic delivery (Treas. Reg. §1.401(a)-21(b)): consent needs the disclosures and a shown ability to
open the format (the code in the test PDF); notices and statements are announced by email only to a
participant who consented, exactly once, through a job that is retried and shown to staff when the mail
relay fails; everyone else gets paper, listed for the administrator to mail."""

from __future__ import annotations

import re
import smtplib
from datetime import date

import pytest
from django.core import mail
from django.core.mail.backends.base import BaseEmailBackend
from django.db import IntegrityError, transaction
from django.test import Client, TestCase
from django.urls import reverse

from benefits.audit import AuditEventType
from benefits.delivery import disclosures
from benefits.delivery import services as delivery
from benefits.delivery.models import DeliveryConsent, DocumentDelivery
from benefits.jobs.models import Job
from benefits.jobs.services import job_execute
from benefits.models import AuditEvent, GeneratedDocument
from elections.benefit_elections import services as elections
from elections.models import Claim, ClaimState
from tests.conftest import login_with_totp, token
from tests.elections.conftest import AS_OF, demo_for_the_module

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker, tmp_path_factory):
    """Loaded once: no test here commits (see demo_for_the_module)."""
    yield from demo_for_the_module(django_db_blocker, tmp_path_factory)


class FailingBackend(BaseEmailBackend):
    """A mail relay that is down: every send raises the error smtplib raises."""

    def send_messages(self, messages):
        raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")


class FlakyBackend(BaseEmailBackend):
    """Down for the first two sends, then up (messages go to the test outbox)."""

    calls = 0

    def send_messages(self, messages):
        FlakyBackend.calls += 1
        if FlakyBackend.calls <= 2:
            raise ConnectionRefusedError(111, "Connection refused")
        mail.outbox.extend(messages)
        return len(messages)


def backend(settings, cls) -> None:
    settings.MAILERS = {"default": {"BACKEND": f"{__name__}.{cls.__name__}"}}


@pytest.fixture
def participant(pat):
    return pat.participant


@pytest.fixture
def claim(pat):
    return Claim.objects.get(membership__participant__user=pat, state=ClaimState.ELECTION_REQUIRED)


@pytest.fixture
def admin(demo):
    from accounts.models import User

    return User.objects.get(email="admin@demo.test")


def _admin_client(admin) -> Client:
    from benefits.demo.loader import ADMIN_TOTP_SECRET

    c = Client()
    assert login_with_totp(c, admin, password="demo-pass-2026", secret=ADMIN_TOTP_SECRET).status_code == 302
    return c


def _client(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def consent_through_the_page(pat, email="pat.home@example.test") -> DeliveryConsent:
    """The participant's own path: prepare the test PDF, read the code in it, consent."""
    c = _client(pat)
    pid = pat.participant.pk
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert (
            c.post(reverse("benefits:delivery_test", args=[pid]), {"submission_token": token()}).status_code
            == 302
        )
    page = c.get(reverse("benefits:delivery_preferences", args=[pid])).content.decode()
    test = pat.participant.documents.get(kind="delivery_test")
    assert test.status == GeneratedDocument.Status.DONE
    assert reverse("benefits:document_download", args=[test.pk]) in page
    code = test.payload["code"]
    response = c.post(
        reverse("benefits:delivery_consent", args=[pid]),
        {"submission_token": token(), "email": email, "code": code, "acknowledged": "on"},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    return DeliveryConsent.objects.get(participant=pat.participant, action="consent", email=email)


def issue(claim, on=AS_OF, execute=True):
    asd = date.fromisoformat(claim.details["commencement_date"])
    with TestCase.captureOnCommitCallbacks(execute=execute):
        return elections.notice_issue(
            membership=claim.membership, kind="qjsa_explanation", asd=asd, on=on
        ).notice


def delivery_of(notice) -> DocumentDelivery:
    return DocumentDelivery.objects.get(document_id=notice.document_id)


# ------------------------------------------------------------------------------------ consent


def test_consent_records_the_disclosures_and_the_demonstration(pat, participant):
    consent = consent_through_the_page(pat)
    assert consent.version == 1
    assert consent.disclosures["version"] == disclosures.VERSION
    keys = {item["key"] for item in consent.disclosures["items"]}
    # §1.401(a)-21(b)(2): scope, paper copy free, withdrawal, hardware/software, updating the address
    assert keys == {"scope", "paper_copy", "withdraw", "hardware_software", "email_address"}
    assert any("free of charge" in item["text"] for item in consent.disclosures["items"])
    test_document = participant.documents.get(kind="delivery_test")
    assert consent.demonstration["document_id"] == test_document.pk
    assert consent.demonstration["document_sha256"] == test_document.sha256
    assert consent.test.used_at is not None
    assert AuditEvent.objects.filter(
        event_type=AuditEventType.DELIVERY_CONSENT_GIVEN, participant=participant, acting_user=pat
    ).exists()
    with pytest.raises(ValueError):
        consent.save()  # versions are never edited


def test_consent_is_refused_without_the_code_from_the_test_document(pat, participant):
    c = _client(pat)
    url = reverse("benefits:delivery_consent", args=[participant.pk])
    data = {"submission_token": token(), "email": "pat@example.test", "code": "ABCDEF", "acknowledged": "on"}
    response = c.post(url, data)  # no test document yet
    assert response.status_code == 400
    assert "Code: open the test document first" in response.content.decode()
    with TestCase.captureOnCommitCallbacks(execute=True):
        delivery.delivery_test_start(participant=participant, actor=pat)
    real = participant.documents.get(kind="delivery_test").payload["code"]
    wrong = "Z" * 6 if real != "Z" * 6 else "Y" * 6
    response = c.post(url, data | {"submission_token": token(), "code": wrong})
    assert response.status_code == 400
    assert "that is not the code in your test document" in response.content.decode()
    response = c.post(url, data | {"submission_token": token(), "code": real, "acknowledged": ""})
    assert response.status_code == 400 and "Confirm that you have read" in response.content.decode()
    assert not DeliveryConsent.objects.filter(participant=participant).exists()
    # The code works once: a used test document cannot back a second consent.
    assert c.post(url, data | {"submission_token": token(), "code": real}).status_code == 302
    response = c.post(url, data | {"submission_token": token(), "code": real})
    assert response.status_code == 400
    assert DeliveryConsent.objects.filter(participant=participant).count() == 1


def test_only_the_participant_may_consent_for_themselves(pat, participant, admin):
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        delivery.delivery_test_start(participant=participant, actor=admin)
    with pytest.raises(PermissionDenied):
        delivery.delivery_consent_give(
            participant=participant, actor=admin, email="x@example.test", code="", acknowledged=True
        )


# ------------------------------------------------------------------------------------ delivering notices


def test_without_consent_a_notice_is_paper_to_be_mailed_and_no_email_is_sent(pat, claim, admin):
    mail.outbox.clear()
    notice = issue(claim)
    assert mail.outbox == []
    d = delivery_of(notice)
    assert (d.channel, d.state) == ("paper", "to_mail")
    assert d.paper_reason == "No consent to electronic delivery"
    assert notice.delivery == "portal+paper"
    admin_client = _admin_client(admin)
    page = admin_client.get(reverse("benefits:delivery_mailing")).content.decode()
    assert pat.participant.full_name in page and d.document.title in page
    response = admin_client.post(
        reverse("benefits:delivery_mark_mailed", args=[d.pk]), {"mailed_on": "2026-11-23"}
    )
    assert response.status_code == 302
    d.refresh_from_db()
    assert (d.state, d.mailed_on, d.mailed_by) == ("mailed", date(2026, 11, 23), admin)
    assert AuditEvent.objects.filter(event_type=AuditEventType.DELIVERY_MAILED, acting_user=admin).exists()


def test_with_consent_the_email_says_where_the_document_is_and_nothing_of_its_content(pat, claim, settings):
    settings.SITE_URL = "https://benefits.example.test"
    consent_through_the_page(pat, email="pat.home@example.test")
    mail.outbox.clear()
    notice = issue(claim)
    d = delivery_of(notice)
    assert (d.channel, d.state, d.consent.email) == ("email", "sent", "pat.home@example.test")
    assert notice.delivery == "portal+email"
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["pat.home@example.test"]
    assert message.attachments == []
    body = message.body
    assert "https://benefits.example.test" + reverse("elections:documents", args=[pat.participant.pk]) in body
    # Never the document's figures: no amount of the explanation appears, and no money at all.
    figures = {
        str(v)
        for row in notice.content["forms"]
        for k, v in row.items()
        if k in ("monthly", "survivor_monthly", "lump_sum", "relative_value_percent") and v
    }
    assert figures and not any(f in body for f in figures)
    assert "$" not in body and not re.search(r"\d+\.\d\d", body)
    assert (
        AuditEvent.objects.filter(
            event_type=AuditEventType.DELIVERY_EMAIL_SENT, participant=pat.participant
        ).count()
        == 1
    )


def test_the_email_is_sent_exactly_once(pat, claim):
    consent_through_the_page(pat)
    mail.outbox.clear()
    notice = issue(claim)
    d = delivery_of(notice)
    assert len(mail.outbox) == 1
    # A duplicate message, a second arrangement, or a re-run of the job body send nothing more.
    Job.objects.filter(pk=d.job_id).update(status=Job.Status.QUEUED)
    job_execute(d.job_id, task_id="duplicate")
    assert delivery.delivery_arrange(document=d.document).pk == d.pk
    delivery.delivery_email_job(Job.objects.get(pk=d.job_id))
    assert len(mail.outbox) == 1
    # The database refuses a second delivery of the same document.
    with pytest.raises(IntegrityError), transaction.atomic():
        DocumentDelivery.objects.create(
            document=d.document, participant=d.participant, channel="email", state="waiting"
        )
    # Issuing the same notice again issues nothing and emails nothing.
    issue(claim)
    assert len(mail.outbox) == 1


def test_withdrawn_consent_stops_the_emails(pat, claim):
    consent_through_the_page(pat)
    c = _client(pat)
    response = c.post(
        reverse("benefits:delivery_withdraw", args=[pat.participant.pk]), {"submission_token": token()}
    )
    assert response.status_code == 302
    latest = delivery.current_consent(pat.participant)
    assert (latest.version, latest.action) == (2, "withdraw")
    mail.outbox.clear()
    notice = issue(claim)
    assert mail.outbox == []
    d = delivery_of(notice)
    assert (d.channel, d.state, d.paper_reason) == (
        "paper",
        "to_mail",
        "Withdrew consent to electronic delivery",
    )


def test_consent_withdrawn_after_issue_but_before_sending_turns_the_email_into_paper(pat, claim):
    consent_through_the_page(pat)
    mail.outbox.clear()
    notice = issue(claim, execute=False)  # committed, but no worker has run yet
    d = delivery_of(notice)
    delivery.delivery_consent_withdraw(participant=pat.participant, actor=pat)
    from benefits.services.documents import document_render

    with TestCase.captureOnCommitCallbacks(execute=True):
        document_render(d.document_id)  # the PDF is ready: the email job is queued and runs
    d.refresh_from_db()
    assert mail.outbox == []
    assert (d.channel, d.state) == ("paper", "to_mail")
    assert "withdrawn before the email was sent" in d.paper_reason


def test_a_mail_relay_that_recovers_is_retried_and_sends_once(pat, claim, settings):
    consent_through_the_page(pat)
    backend(settings, FlakyBackend)
    FlakyBackend.calls = 0
    mail.outbox.clear()
    notice = issue(claim)
    d = delivery_of(notice)
    job = Job.objects.get(pk=d.job_id)
    assert (job.status, job.attempts) == (Job.Status.DONE, 3)  # two refusals, then sent
    assert d.state == "sent" and len(mail.outbox) == 1


def test_a_mail_relay_that_stays_down_fails_visibly_and_staff_can_retry(pat, claim, admin, settings):
    consent_through_the_page(pat)
    backend(settings, FailingBackend)
    mail.outbox.clear()
    notice = issue(claim)
    d = delivery_of(notice)
    job = Job.objects.get(pk=d.job_id)
    assert job.status == Job.Status.FAILED and job.attempts == job.max_attempts == 5
    assert "Connection unexpectedly closed" in job.error
    assert d.state == "failed" and mail.outbox == []
    assert AuditEvent.objects.filter(event_type=AuditEventType.JOB_FAILED, extra_data__job_id=job.pk).exists()

    staff = _admin_client(admin)
    jobs_page = staff.get(reverse("benefits:staff_jobs")).content.decode()
    assert "Email that a document is ready" in jobs_page and "Connection unexpectedly closed" in jobs_page
    mailing = staff.get(reverse("benefits:delivery_mailing")).content.decode()
    assert "Emails that could not be sent (1)" in mailing and d.document.title in mailing

    settings.MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert (
            staff.post(
                reverse("benefits:staff_job_retry", args=[job.pk]), {"submission_token": token()}
            ).status_code
            == 302
        )
    d.refresh_from_db()
    assert d.state == "sent" and len(mail.outbox) == 1


def test_an_annual_statement_is_announced_to_a_consenting_participant(pat, settings):
    from benefits.batches.services import batch_start
    from benefits.models import Plan

    consent_through_the_page(pat)
    mail.outbox.clear()
    plan = Plan.objects.get(key="carver-401k")
    with TestCase.captureOnCommitCallbacks(execute=True):
        batch_start(plan=plan, year=AS_OF.year - 1)
    statements = GeneratedDocument.objects.filter(kind="statement", payload__batch__isnull=False)
    pats = statements.filter(participant=pat.participant)
    assert pats.count() == 1
    assert DocumentDelivery.objects.get(document=pats.get()).state == "sent"
    assert [m.to for m in mail.outbox] == [[pat.participant.delivery_consents.get().email]]
    others = DocumentDelivery.objects.filter(document__in=statements).exclude(participant=pat.participant)
    assert others.exists() and set(others.values_list("state", flat=True)) == {"to_mail"}
