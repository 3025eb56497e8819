"""Private files go through STORAGES["private"] on either backend: the local folder, or an S3-compatible
object store (moto's server on loopback) with objects private and encrypted, served only through the
application's permission-checked views and never by a URL of their own."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import pytest
from pypdf import PdfReader

from benefits import private_files
from benefits.models import GeneratedDocument
from benefits.services.documents import document_request
from tests.objectstore import moto_s3

pytestmark = pytest.mark.django_db(transaction=True)

TEST_TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


@pytest.fixture(params=["filesystem", "s3"])
def backend(request, settings, tmp_path, monkeypatch):
    """The private storage on the named backend, configured as production configures it."""
    from django.template import engines

    from config.settings.base import private_storage_config

    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [*settings.TEMPLATES[0]["DIRS"], TEST_TEMPLATES]}]
    engines._engines = {}
    engines.__dict__.pop("templates", None)
    settings.PRIVATE_STORAGE_ROOT = tmp_path / "private"
    if request.param == "filesystem":
        settings.STORAGES = {**settings.STORAGES, "private": private_storage_config()}
        yield None
    else:
        with moto_s3() as store:
            for name, value in store.environ.items():
                monkeypatch.setenv(name, value)
            settings.STORAGES = {**settings.STORAGES, "private": private_storage_config()}
            yield store
    engines._engines = {}
    engines.__dict__.pop("templates", None)


def _document(participant) -> GeneratedDocument:
    document = document_request(
        kind="test",
        participant=participant,
        title="Test statement",
        template_name="pdf/test_document.html",
        payload={"as_of": "2026-11-21", "vested_balance": "12,345.67"},
    )
    document.refresh_from_db()
    assert document.status == GeneratedDocument.Status.DONE
    return document


def test_a_rendered_pdf_is_stored_and_streamed_only_to_its_owner(
    backend, client, participant_user, other_participant, password, tmp_path
):
    document = _document(participant_user.participant)
    client.post("/accounts/login/", {"login": participant_user.email, "password": password})
    resp = client.get(f"/benefits/documents/{document.pk}/")
    assert resp.status_code == 200 and resp.streaming
    body = b"".join(resp.streaming_content)
    assert hashlib.sha256(body).hexdigest() == document.sha256 and len(body) == document.size
    assert "Vested balance: 12,345.67" in PdfReader(io.BytesIO(body)).pages[0].extract_text()
    # Someone else's document is not found, whichever backend holds it.
    assert client.get(f"/benefits/documents/{_document(other_participant).pk}/").status_code == 404
    local_files = [
        p.relative_to(tmp_path / "private").as_posix() for p in (tmp_path / "private").rglob("*.pdf")
    ]
    if backend is None:
        assert document.file_name in local_files
    else:
        # Nothing on this machine's disk: every machine reads the same objects from the store.
        assert local_files == [] and document.file_name in backend.object_keys()


def test_objects_in_the_store_are_private_encrypted_and_have_no_url(backend, participant_user):
    if backend is None:
        pytest.skip("object-store properties")
    document = _document(participant_user.participant)
    head = backend.client.head_object(Bucket=backend.bucket, Key=document.file_name)
    assert head["ServerSideEncryption"] == "AES256"
    grants = backend.client.get_object_acl(Bucket=backend.bucket, Key=document.file_name)["Grants"]
    assert [g["Permission"] for g in grants] == ["FULL_CONTROL"]  # the owner only: no public read
    assert all("AllUsers" not in str(g["Grantee"]) for g in grants)
    with pytest.raises(NotImplementedError):
        private_files.private_storage().url(document.file_name)


def test_uploads_and_import_files_round_trip(backend, participant_user):
    from benefits.imports.models import ImportBatch
    from benefits.imports.services import _store, batch_content
    from elections import uploads

    pdf = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
    checked = uploads.CheckedUpload("a.pdf", pdf, "application/pdf", "pdf", hashlib.sha256(pdf).hexdigest())
    name = uploads.store(17, checked)
    assert name.startswith("claims/17/") and name.endswith(".pdf")
    with uploads.open_stored(name) as handle:
        assert handle.read() == pdf
    with pytest.raises(uploads.UploadRefused):
        uploads.open_stored("../etc/passwd")

    csv = b"participant_number,hours\nCFS-1,2080\n"
    sha = hashlib.sha256(csv).hexdigest()
    stored = _store(csv, sha, "hours.csv")
    assert stored == f"imports/{sha}.csv" and _store(csv, sha, "again.csv") == stored  # kept once
    assert batch_content(ImportBatch(stored_file=stored, sha256=sha)) == csv


def test_verify_private_files_finds_a_changed_or_missing_file(backend, participant_user):
    """The check after a restore (docs/operations.md), on either backend."""
    from django.core.management import CommandError, call_command

    from benefits.management.commands.verify_private_files import verify

    first, second = _document(participant_user.participant), _document(participant_user.participant)
    counts, problems = verify()
    assert counts["benefits.GeneratedDocument"] == 2 and problems == []
    private_files.save_bytes(first.file_name, b"%PDF-1.7 not the rendered one")
    private_files.private_storage().delete(second.file_name)
    with pytest.raises(CommandError, match="2 stored file"):
        call_command("verify_private_files", stdout=io.StringIO(), stderr=io.StringIO())
    _, problems = verify()
    assert sorted(problems) == sorted(
        [
            f"benefits.GeneratedDocument {first.pk}: {first.file_name} does not match its SHA-256",
            f"benefits.GeneratedDocument {second.pk}: {second.file_name} is missing (FileNotFoundError)",
        ]
    )
