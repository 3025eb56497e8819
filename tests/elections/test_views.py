"""Pages: who may see and do what (anonymous → login, another participant → 404, wrong role → 403),
filing through the form with the engine's messages, uploads checked by content, notices delivered."""

import io
from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from pypdf import PdfReader

from elections.claims import services
from elections.models import Claim, ClaimDocument, ClaimState
from tests.conftest import login_with_totp, token
from tests.elections.conftest import (
    AS_OF,
    clear_demo_claims,
    demo_claim_ids,
    demo_for_the_module,
    file_db_claim,
    file_withdrawal,
    membership,
    start_date,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker, tmp_path_factory):
    """Loaded once: no test here commits (see demo_for_the_module)."""
    yield from demo_for_the_module(django_db_blocker, tmp_path_factory)


PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32


def upload(name, content, ctype="application/pdf"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, content, content_type=ctype)


@pytest.fixture
def claim(pat):
    return file_db_claim(pat)


@pytest.fixture
def pat_client(client, pat):
    client.force_login(pat)
    return client


@pytest.fixture
def committee_client(client, committee2):
    assert login_with_totp(client, committee2).status_code == 302
    return client


def test_anonymous_is_sent_to_login(client, claim):
    for url in (
        reverse("elections:claims_home"),
        reverse("elections:claim_detail", args=[claim.pk]),
        reverse("elections:committee_queue"),
        reverse("elections:claim_new", args=[claim.membership_id, "commencement"]),
    ):
        resp = client.get(url)
        assert resp.status_code == 302 and "/accounts/login/" in resp["Location"], url


def test_another_participant_gets_404(client, claim, other_participant):
    client.force_login(other_participant.user)
    doc = ClaimDocument.objects.create(
        claim=claim,
        original_name="a.pdf",
        content_type="application/pdf",
        size=1,
        sha256="x",
        file_name="claims/x.pdf",
        uploaded_by=claim.filed_by,
    )
    assert client.get(reverse("elections:claim_detail", args=[claim.pk])).status_code == 404
    assert client.get(reverse("elections:claim_document", args=[doc.pk])).status_code == 404
    assert (
        client.post(reverse("elections:claim_appeal", args=[claim.pk]), {"statement": "x"}).status_code == 404
    )
    assert (
        client.get(reverse("elections:claim_new", args=[claim.membership_id, "commencement"])).status_code
        == 404
    )


def test_participant_sees_only_their_own_claims(pat_client, claim, other_participant):
    resp = pat_client.get(reverse("elections:claims_home"))
    assert resp.status_code == 200 and f"{claim.pk}: Start of benefit payments" in resp.text
    assert list(resp.context["rows"])[0]["claim"] == claim


def test_participant_cannot_use_committee_actions(pat_client, claim):
    for name in (
        "claim_start_review",
        "claim_decide",
        "claim_extend",
        "claim_request_information",
        "claim_resume",
    ):
        assert pat_client.post(reverse(f"elections:{name}", args=[claim.pk]), {}).status_code == 403, name
    assert pat_client.get(reverse("elections:committee_queue")).status_code == 403


def test_committee_cannot_file_or_appeal_for_a_participant(committee_client, claim):
    assert (
        committee_client.get(
            reverse("elections:claim_new", args=[claim.membership_id, "commencement"])
        ).status_code
        == 403
    )
    assert (
        committee_client.post(
            reverse("elections:claim_appeal", args=[claim.pk]), {"statement": "x"}
        ).status_code
        == 403
    )


def test_administrators_cannot_see_or_decide(client, admin_user, claim):
    assert login_with_totp(client, admin_user).status_code == 302
    assert client.get(reverse("elections:committee_queue")).status_code == 403
    assert client.get(reverse("elections:claim_detail", args=[claim.pk])).status_code == 403
    assert client.get(reverse("elections:claims_home")).status_code == 403
    assert (
        client.post(reverse("elections:claim_decide", args=[claim.pk]), {"outcome": "approved"}).status_code
        == 403
    )


def test_decision_without_an_mfa_login_is_refused(client, committee2, claim):
    client.force_login(committee2)  # a session without the second factor
    resp = client.post(reverse("elections:claim_start_review", args=[claim.pk]))
    assert resp.status_code == 403
    assert Claim.objects.get(pk=claim.pk).state == ClaimState.RECEIVED


def test_filing_through_the_form(pat_client, pat):
    m = membership(pat, "carver-db")
    clear_demo_claims(m)  # the benefit is claimed once (issue 22)
    url = reverse("elections:claim_new", args=[m.pk, "commencement"])
    page = pat_client.get(url)
    assert page.status_code == 200 and "50% joint and survivor annuity" in page.text
    resp = pat_client.post(
        url,
        {
            "submission_token": token(),
            "commencement_date": start_date().isoformat(),
            "form": "js50",
            "statement": "Retiring",
            "documents": [upload("proof.png", PNG, "image/png")],
        },
    )
    assert resp.status_code == 302
    claim = Claim.objects.latest("pk")
    assert claim.documents.get().content_type == "image/png"
    detail = pat_client.get(resp["Location"])
    assert (
        "Decision due" in detail.text
        and f"{claim.received_on + timedelta(days=90):%B %-d, %Y}" in detail.text
    )


def test_a_request_over_the_engine_limit_is_refused_whole_with_the_rule(pat_client, pat):
    from decimal import Decimal

    from benefits.models import MarketRate

    MarketRate.objects.update_or_create(
        series="prime_rate",
        period=services.today().replace(day=1),
        defaults={"percent": Decimal("6.75"), "source": "t"},
    )
    m = membership(pat, "carver-401k")
    resp = pat_client.post(
        reverse("elections:claim_new", args=[m.pk, "loan"]),
        {"submission_token": token(), "amount": "75000", "term_months": "60", "statement": "car"},
    )
    assert resp.status_code == 400
    assert "Loan amount: the most you can borrow is $50,000.00 (§8.2" in resp.text
    assert 'value="75000"' in resp.text  # nothing the claimant typed is lost
    assert not Claim.objects.exclude(pk__in=demo_claim_ids()).exists()


def test_uploads_are_checked_by_content_not_by_name(pat_client, pat):
    m = membership(pat, "carver-db")
    url = reverse("elections:claim_new", args=[m.pk, "commencement"])
    data = {
        "commencement_date": start_date().isoformat(),
        "form": "js50",
        "documents": [upload("letter.pdf", b"MZ\x90\x00 not a pdf")],
    }
    resp = pat_client.post(url, data)
    assert resp.status_code == 400 and "only PDF, JPEG or PNG" in resp.text
    assert not Claim.objects.exclude(pk__in=demo_claim_ids()).exists()


def test_uploads_are_size_limited(pat_client, pat, settings):
    from elections import uploads

    m = membership(pat, "carver-db")
    big = PDF + b"0" * (uploads.MAX_UPLOAD_BYTES + 1)
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 30 * 1024 * 1024
    resp = pat_client.post(
        reverse("elections:claim_new", args=[m.pk, "commencement"]),
        {
            "submission_token": token(),
            "commencement_date": start_date().isoformat(),
            "form": "js50",
            "documents": [upload("big.pdf", big)],
        },
    )
    assert resp.status_code == 400 and "at most 10 MB" in resp.text


def test_uploaded_documents_are_served_only_through_the_checked_view(pat_client, pat, settings, client):
    m = membership(pat, "carver-db")
    clear_demo_claims(m)  # the benefit is claimed once (issue 22)
    pat_client.post(
        reverse("elections:claim_new", args=[m.pk, "commencement"]),
        {
            "submission_token": token(),
            "commencement_date": start_date().isoformat(),
            "form": "js50",
            "documents": [upload("a.pdf", PDF)],
        },
    )
    doc = ClaimDocument.objects.get()
    assert str(settings.PRIVATE_STORAGE_ROOT) not in doc.file_name and doc.file_name.startswith("claims/")
    resp = pat_client.get(reverse("elections:claim_document", args=[doc.pk]))
    assert resp.status_code == 200 and b"".join(resp.streaming_content) == PDF
    assert resp["Cache-Control"] == "private, no-store"


def test_committee_queue_is_sorted_by_due_date_with_flags(committee_client, pat):
    # The Carver DB benefit is claimed once (issue 22): the other two are 401(k) withdrawals.
    first = file_withdrawal(pat, on=AS_OF - timedelta(days=95))  # overdue
    second = file_withdrawal(pat, on=services.today() - timedelta(days=80))  # due soon
    third = file_db_claim(pat)
    resp = committee_client.get(reverse("elections:committee_queue"))
    rows = resp.context["rows"]
    assert [r.claim for r in rows] == [first, second, third]
    assert [r.flag for r in rows] == ["overdue", "due_soon", ""]
    assert "(overdue)" in resp.text and "(due soon)" in resp.text


def _pdf_text(notice) -> str:
    from benefits.services.documents import document_bytes

    notice.document.refresh_from_db()
    assert notice.document.status == "done", notice.document.error
    reader = PdfReader(io.BytesIO(document_bytes(notice.document)))
    return " ".join(" ".join(p.extract_text().split()) for p in reader.pages)


def test_denial_notice_states_everything_the_regulation_requires(
    committee_client, claim, pat, django_capture_on_commit_callbacks
):
    committee_client.post(reverse("elections:claim_start_review", args=[claim.pk]))
    with django_capture_on_commit_callbacks(execute=True):
        resp = committee_client.post(
            reverse("elections:claim_decide", args=[claim.pk]),
            {
                "submission_token": token(),
                "outcome": "denied",
                "reasons": "Your service record shows a break we must verify.",
                "provisions": "§13.7(A); §1.1(H)",
                "perfecting_material": "A letter from payroll confirming 1999 hours, "
                "because the hours decide the service credited.",
            },
        )
    assert resp.status_code == 302
    claim = Claim.objects.get(pk=claim.pk)
    text = _pdf_text(claim.notices.get(kind="denial"))
    assert "Your claim is denied" in text
    assert "Your service record shows a break we must verify." in text
    assert "§13.7(A); §1.1(H)" in text
    assert "A letter from payroll confirming 1999 hours" in text and "why it is needed" in text
    assert f"by {claim.appeal_by:%B %-d, %Y}" in text and "(60 days after you received this notice)" in text
    assert "within 60 days after your appeal is received" in text and "within 120 days" in text
    assert "free of charge" in text
    assert "section 502(a)" in text and "ERISA" in text
    assert len(mail.outbox) == 1 and mail.outbox[0].to == [pat.email]
    assert (
        "denied" not in mail.outbox[0].body.lower().split("ready:")[0]
    )  # the email carries no decision text
    # Delivered on the claim page to the claimant.
    pat_page = _as(pat).get(reverse("elections:claim_detail", args=[claim.pk]))
    notice = claim.notices.get(kind="denial")
    assert reverse("elections:claim_notice", args=[claim.pk, notice.pk]) in pat_page.text


def test_review_denial_notice_states_document_rights_and_502a(
    pat, committee, committee2, django_capture_on_commit_callbacks
):
    claim = file_db_claim(pat)
    services.claim_start_review(claim=claim, actor=committee)
    claim = services.claim_decide(
        claim=claim, actor=committee, outcome="denied", reasons="r", provisions="p", perfecting_material="m"
    )
    claim = services.claim_appeal(claim=claim, actor=pat, statement="please")
    services.claim_start_review(claim=claim, actor=committee2)
    with django_capture_on_commit_callbacks(execute=True):
        claim = services.claim_decide(
            claim=claim, actor=committee2, outcome="denied", reasons="Still short.", provisions="§7.1"
        )
    text = _pdf_text(claim.notices.get(kind="review_decision"))
    assert "On review, your claim is denied" in text and "Still short." in text and "§7.1" in text
    assert "free of charge" in text and "section 502(a)" in text


def _as(user):
    from django.test import Client

    c = Client()
    c.force_login(user)
    return c


def test_the_committee_is_emailed_when_a_claim_is_filed(pat, committee, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        claim = file_db_claim(pat)
    [message] = mail.outbox
    assert committee.email in message.to and f"Claim {claim.pk}" in message.subject
    assert pat.participant.full_name not in message.body  # no participant data in the email


def test_the_claims_page_offers_a_distribution_after_leaving_only_to_someone_who_has_left(pat_client, pat):
    """Carver 401(k) §7.5: the distribution after termination waits for the end of employment, so the
    page does not offer it to pat, who is employed (a 59½ withdrawal, §7.3, it does); once he has left,
    it does. Quaker City's lump sum (§5.11(a)(iv)) follows the same rule."""
    from datetime import date

    page = pat_client.get(reverse("elections:claims_home")).text
    assert "Distribution after termination" not in page
    assert "withdrawal" in page.lower()
    participant = pat.participant
    participant.termination_date = date(2026, 6, 30)
    participant.save(update_fields=["termination_date"])
    page = pat_client.get(reverse("elections:claims_home")).text
    assert "Distribution after termination" in page
