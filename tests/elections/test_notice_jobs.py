"""A decision and its notice are one unit: the notice's rendering job commits with the decision, a notice
whose PDF failed is never shown as delivered, staff see the failure, and a retry delivers it."""

import pytest
from django.test import Client
from django.urls import reverse

from benefits.jobs.models import Job
from benefits.models import GeneratedDocument
from elections.models import Claim
from tests.conftest import login_with_totp, token
from tests.elections.conftest import file_db_claim

pytestmark = pytest.mark.django_db


def _as(user):
    c = Client()
    c.force_login(user)
    return c


def test_a_denial_whose_notice_failed_is_not_delivered_until_staff_retry_it(
    pat, committee2, monkeypatch, django_capture_on_commit_callbacks
):
    from benefits.services import documents

    claim = file_db_claim(pat)
    committee = Client()
    assert login_with_totp(committee, committee2).status_code == 302
    committee.post(reverse("elections:claim_start_review", args=[claim.pk]))
    real_render = documents.render_pdf_bytes
    monkeypatch.setattr(
        documents, "render_pdf_bytes", lambda *a, **k: (_ for _ in ()).throw(KeyError("reasons"))
    )
    with django_capture_on_commit_callbacks(execute=True):
        committee.post(
            reverse("elections:claim_decide", args=[claim.pk]),
            {
                "submission_token": token(),
                "outcome": "denied",
                "reasons": "Not yet eligible.",
                "provisions": "§4.3",
                "perfecting_material": "None: the date itself is the reason.",
            },
        )
    claim = Claim.objects.get(pk=claim.pk)
    notice = claim.notices.get(kind="denial")
    document = GeneratedDocument.objects.get(pk=notice.document_id)
    assert document.status == "failed" and document.job.status == Job.Status.FAILED

    page = _as(pat).get(reverse("elections:claim_detail", args=[claim.pk])).content.decode()
    notice_url = reverse("elections:claim_notice", args=[claim.pk, notice.pk])
    assert notice_url not in page and "notice delivered" not in page
    assert (
        "could not be prepared yet; the plan administrator has been told" in page and "KeyError" not in page
    )
    staff_page = committee.get(reverse("benefits:staff_jobs")).content.decode()
    assert "KeyError" in staff_page and "Try again" in staff_page

    monkeypatch.setattr(documents, "render_pdf_bytes", real_render)
    with django_capture_on_commit_callbacks(execute=True):
        committee.post(
            reverse("benefits:staff_job_retry", args=[document.job_id]), {"submission_token": token()}
        )
    document.refresh_from_db()
    assert document.status == "done"
    page = _as(pat).get(reverse("elections:claim_detail", args=[claim.pk])).content.decode()
    assert notice_url in page and "notice delivered" in page
