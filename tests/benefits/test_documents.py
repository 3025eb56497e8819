"""PDFs: requested in a transaction, rendered after commit by the task, served only to the right people."""

import io
from pathlib import Path

import pytest
from pypdf import PdfReader

from benefits.models import AuditEvent, GeneratedDocument
from benefits.services.documents import document_request

pytestmark = pytest.mark.django_db(transaction=True)

TEST_TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


@pytest.fixture(autouse=True)
def _test_templates(settings, tmp_path):
    from django.template import engines

    templates = [dict(settings.TEMPLATES[0])]
    templates[0]["DIRS"] = [*templates[0]["DIRS"], TEST_TEMPLATES]
    settings.TEMPLATES = templates
    settings.PRIVATE_STORAGE_ROOT = tmp_path
    # Engines are built once per process and cached: rebuild them with the test folder.
    engines._engines = {}
    engines.__dict__.pop("templates", None)
    yield
    engines._engines = {}
    engines.__dict__.pop("templates", None)


def _request(participant, template="pdf/test_document.html"):
    return document_request(
        kind="test",
        participant=participant,
        title="Test statement",
        template_name=template,
        payload={"as_of": "2026-11-21", "vested_balance": "12,345.67"},
    )


def test_document_is_rendered_on_commit_and_contains_its_numbers(participant_user):
    document = _request(participant_user.participant)
    document.refresh_from_db()
    assert document.status == GeneratedDocument.Status.DONE
    text = PdfReader(io.BytesIO(_bytes(document))).pages[0].extract_text()
    assert "Vested balance: 12,345.67" in text
    assert "Test statement" in text and participant_user.participant.participant_number in text
    assert len(document.sha256) == 64
    assert AuditEvent.objects.filter(event_type="document.rendered").exists()


def _bytes(document):
    from benefits.services.documents import document_bytes

    return document_bytes(document)


def test_a_document_that_cannot_render_is_reported_not_dropped(participant_user):
    # The template asks for an outside URL: the fetcher refuses it, fatally.
    document = _request(participant_user.participant, template="pdf/broken_document.html")
    document.refresh_from_db()
    assert document.status == GeneratedDocument.Status.FAILED
    assert "Refused to fetch" in document.error
    assert AuditEvent.objects.filter(event_type="document.failed").exists()


def test_owner_downloads_their_pdf(client, participant_user, password):
    document = _request(participant_user.participant)
    client.post("/accounts/login/", {"login": participant_user.email, "password": password})
    resp = client.get(f"/benefits/documents/{document.pk}/")
    assert resp.status_code == 200 and resp["Content-Type"] == "application/pdf"
    assert b"".join(resp.streaming_content).startswith(b"%PDF")


def test_another_participant_gets_404(client, participant_user, other_participant, password):
    document = _request(other_participant)
    client.post("/accounts/login/", {"login": participant_user.email, "password": password})
    assert client.get(f"/benefits/documents/{document.pk}/").status_code == 404


def test_staff_download_is_audited(staff_client, committee_user, other_participant):
    document = _request(other_participant)
    client = staff_client(committee_user)
    assert client.get(f"/benefits/documents/{document.pk}/").status_code == 200
    assert AuditEvent.objects.filter(
        event_type="participant.viewed_by_staff", participant=other_participant
    ).exists()
