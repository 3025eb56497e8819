"""E-mail that fails safely: a claim notice's e-mail reaches a real SMTP server (aiosmtpd on loopback)
with its link; with the relay down the decision still succeeds, the e-mail is a job tried again with
its reason on the Background work page, and it arrives once the relay is back."""

from __future__ import annotations

import email
import email.policy

import pytest
from django.test import Client

from benefits.jobs.models import Job
from benefits.tasks import send_mail
from elections.claims import services
from tests.conftest import login_with_totp, token
from tests.elections.conftest import file_db_claim
from tests.objectstore import free_port

pytestmark = pytest.mark.django_db


class Inbox:
    def __init__(self):
        self.messages = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's handler name
        self.messages.append(
            (envelope.rcpt_tos, email.message_from_bytes(envelope.content, policy=email.policy.default))
        )
        return "250 Message accepted for delivery"


def smtp_server(port: int):
    from aiosmtpd.controller import Controller

    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    return controller, inbox


def relay(settings, port: int) -> None:
    from config.settings.base import smtp_mailer

    settings.MAILERS = {"default": smtp_mailer(f"smtp://127.0.0.1:{port}")}
    settings.SITE_URL = "https://benefits.example.com"


def _deny(claim, committee):
    services.claim_start_review(claim=claim, actor=committee)
    return services.claim_decide(
        claim=claim, actor=committee, outcome="denied", reasons="r", provisions="p", perfecting_material="m"
    )


def test_a_notice_email_arrives_at_the_relay_with_its_link(
    pat, committee, settings, django_capture_on_commit_callbacks
):
    port = free_port()
    relay(settings, port)
    controller, inbox = smtp_server(port)
    try:
        claim = file_db_claim(pat)
        inbox.messages.clear()  # the committee's "claim filed" e-mail
        with django_capture_on_commit_callbacks(execute=True):
            _deny(claim, committee)
    finally:
        controller.stop()
    [(recipients, message)] = [m for m in inbox.messages if pat.email in m[0]]
    assert recipients == [pat.email]
    assert message["Subject"].endswith("Notice of denial of your claim")
    body = message.get_body(preferencelist=("plain",)).get_content()
    assert f"https://benefits.example.com/claims/{claim.pk}/" in body
    job = Job.objects.filter(kind=send_mail.name, args__subject__endswith="denial of your claim").get()
    # Sent: the row keeps to whom and what, not the text.
    assert job.status == Job.Status.DONE and job.args == {
        "subject": message["Subject"],
        "to": [pat.email],
        "sent": True,
    }


def test_with_the_relay_down_the_decision_stands_and_the_email_waits_with_its_reason(
    pat, committee, admin_user, password, settings, django_capture_on_commit_callbacks
):
    port = free_port()  # nothing listens here yet
    relay(settings, port)
    claim = file_db_claim(pat)
    with django_capture_on_commit_callbacks(execute=True):
        claim = _deny(claim, committee)  # no exception reaches the caller (a request, in the app)
    assert claim.notices.filter(kind="denial").exists()
    job = Job.objects.filter(kind=send_mail.name, args__subject__endswith="denial of your claim").get()
    # In-process mode tries every attempt at once; with workers they are 5 s, 30 s and 2 min apart.
    assert job.status == Job.Status.FAILED and job.attempts == job.max_attempts == 4
    assert job.error.startswith("The mail server did not take the message (ConnectionRefusedError")

    staff = Client()
    login_with_totp(staff, admin_user, password)
    page = staff.get("/benefits/staff/jobs/")
    assert "E-mail (job" in page.text and "The mail server did not take the message" in page.text

    controller, inbox = smtp_server(port)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            retry = staff.post(f"/benefits/staff/jobs/{job.pk}/retry/", {"submission_token": token()})
            assert retry.status_code == 302
    finally:
        controller.stop()
    job.refresh_from_db()
    assert job.status == Job.Status.DONE
    assert [r for r, _ in inbox.messages] == [[pat.email]]


def test_a_relay_fault_while_retrying_is_listed_before_it_fails(pat, committee, settings):
    """With workers, a failed attempt leaves the job waiting with the reason, shown at once."""
    from benefits.jobs import selectors
    from benefits.jobs.services import job_execute
    from benefits.mail import mail_enqueue

    relay(settings, free_port())
    settings.CELERY_TASK_ALWAYS_EAGER = False  # nothing runs the job but us
    settings.CELERY_BROKER_URL = "memory://"
    job = mail_enqueue(subject="s", body="b", to=["x@example.com"])
    job_execute(job.pk, task_id="t1", worker="w1")
    job.refresh_from_db()
    assert job.status in (Job.Status.PENDING, Job.Status.QUEUED) and job.attempts == 1
    assert "mail server did not take the message" in job.error
    assert job in selectors.jobs_needing_attention(user=committee)
