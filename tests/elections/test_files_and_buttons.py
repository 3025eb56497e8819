"""Files and rows together, and buttons that start work pressed twice (issue 30).

A file written in a transaction that rolls back is removed (benefits/stored_files.py); ``check_files``
lists files without rows and rows without files; the statement-PDF button (and every button that starts
work) runs once per one-time token, even when the same form is sent twice at the same instant."""

from __future__ import annotations

import io
import json
import os
import time
from datetime import date, timedelta
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from accounts.models import SubmissionToken, User
from benefits.audit import AuditEventType
from benefits.models import AuditEvent, GeneratedDocument
from benefits.stored_files import atomic_with_files, write_file
from tests.conftest import token
from tests.elections.conftest import AS_OF
from tests.parallel import run_together

pytestmark = pytest.mark.django_db(transaction=True)

PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def _files(root) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in Path(root).rglob("*") if p.is_file())


def test_a_file_written_in_a_block_that_rolls_back_is_removed(settings, tmp_path):
    settings.PRIVATE_STORAGE_ROOT = tmp_path
    with pytest.raises(RuntimeError), atomic_with_files():
        write_file("a/one.pdf", PDF)
        assert _files(tmp_path) == ["a/one.pdf"]
        raise RuntimeError("the change failed after the file was written")
    assert _files(tmp_path) == []
    # A nested block that committed hands its file to the enclosing block: the outer rollback removes it.
    with pytest.raises(RuntimeError), atomic_with_files():
        with atomic_with_files():
            write_file("a/two.pdf", PDF)
        raise RuntimeError("the outer change failed")
    assert _files(tmp_path) == []
    with atomic_with_files():
        write_file("a/three.pdf", PDF)
    assert _files(tmp_path) == ["a/three.pdf"]
    assert (tmp_path / "a/three.pdf").read_bytes() == PDF


def test_a_consent_upload_that_rolls_back_leaves_no_file(demo, settings, monkeypatch):
    from elections.consents import services as consents
    from elections.consents.models import SpousalConsent
    from elections.uploads import check_upload
    from tests.elections.test_election_races import _draft, _sign

    pat = User.objects.get(email="pat@demo.test")
    from elections.models import Claim, ClaimState

    claim = Claim.objects.get(membership__participant__user=pat, state=ClaimState.ELECTION_REQUIRED)
    election = _sign(_draft(claim, pat, form="life"), pat)
    consent = election.consents.get()
    real = consents.audit_record

    def failing(**kwargs):
        if kwargs["event_type"] == AuditEventType.CONSENT_UPLOADED:
            raise RuntimeError("the audit log is unavailable")
        return real(**kwargs)

    monkeypatch.setattr(consents, "audit_record", failing)
    with pytest.raises(RuntimeError):
        consents.consent_upload(
            consent=consent,
            user=pat,
            upload=check_upload(SimpleUploadedFile("consent.pdf", PDF)),
            details={
                "signed_on": AS_OF + timedelta(days=2),
                "witness": "notary",
                "witness_name": "Alex Rivera",
                "notary_commission_number": "01RI6123456",
                "notary_commission_state": "NY",
                "notary_commission_expires": date(2028, 6, 30),
                "witnessing": "in_person",
            },
        )
    consent.refresh_from_db()
    assert consent.state == SpousalConsent.State.AWAITING_FORM and not consent.upload_file
    assert not (Path(settings.PRIVATE_STORAGE_ROOT) / "consents").exists() or not _files(
        Path(settings.PRIVATE_STORAGE_ROOT) / "consents"
    )
    assert not AuditEvent.objects.filter(event_type=AuditEventType.CONSENT_UPLOADED).exists()


def test_check_files_lists_files_without_rows_and_rows_without_files(demo, settings):
    root = Path(settings.PRIVATE_STORAGE_ROOT)
    out = io.StringIO()
    call_command("check_files", "--json", stdout=out)
    assert json.loads(out.getvalue().splitlines()[-1]) == {
        "files_without_rows": [],
        "rows_without_files": [],
        "deleted": [],
    }, "the demo's documents and their files agree"
    stray = root / "claims" / "999" / "left-behind.pdf"
    stray.parent.mkdir(parents=True)
    stray.write_bytes(PDF)
    document = GeneratedDocument.objects.exclude(file_name="").first()
    (root / document.file_name).unlink()
    out = io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("check_files", "--json", stdout=out)
    assert exit_.value.code == 1
    found = json.loads(out.getvalue().splitlines()[-1])
    assert found["files_without_rows"] == ["claims/999/left-behind.pdf"]
    assert found["rows_without_files"] == [f"document {document.pk}: {document.file_name}"]
    # A young file may belong to a transaction still in progress: kept until it is older than the limit.
    with pytest.raises(SystemExit):
        call_command("check_files", "--delete-orphans", stdout=io.StringIO())
    assert stray.exists()
    old = time.time() - 2 * 3600
    os.utime(stray, (old, old))
    with pytest.raises(SystemExit):  # the row without its file is still reported
        call_command("check_files", "--delete-orphans", stdout=io.StringIO())
    assert not stray.exists()


def _statement_pdf(client, pid, submission_token):
    def press():
        return client.post(
            reverse("benefits:plan_statement_pdf", args=[pid, "carver-db"]),
            {"submission_token": submission_token},
        )

    return press


def test_the_statement_pdf_button_pressed_twice_at_once_makes_one_pdf(demo):
    pat = User.objects.get(email="pat@demo.test")
    pid = pat.participant.pk
    clients = []
    for _ in range(2):
        c = Client()
        c.force_login(pat)
        clients.append(c)
    before = GeneratedDocument.objects.filter(kind="statement").count()
    same = token()
    first, second = run_together(_statement_pdf(clients[0], pid, same), _statement_pdf(clients[1], pid, same))
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"]
    assert GeneratedDocument.objects.filter(kind="statement").count() == before + 1
    assert SubmissionToken.objects.filter(token=same).count() == 1
    requested = AuditEvent.objects.filter(
        event_type=AuditEventType.DOCUMENT_REQUESTED, extra_data__kind="statement"
    )
    assert requested.count() == 1
    # Pressed again later with the same (stale) form: sent to the result, nothing made.
    again = _statement_pdf(clients[0], pid, same)()
    assert (
        again.status_code == 302 and GeneratedDocument.objects.filter(kind="statement").count() == before + 1
    )
    # A fresh page (a fresh token) makes a new PDF; a form without a token is refused whole.
    assert _statement_pdf(clients[0], pid, token())().status_code == 302
    assert GeneratedDocument.objects.filter(kind="statement").count() == before + 2
    refused = clients[0].post(reverse("benefits:plan_statement_pdf", args=[pid, "carver-db"]))
    assert refused.status_code == 400 and "reload the page" in refused.content.decode()
    assert GeneratedDocument.objects.filter(kind="statement").count() == before + 2


def test_the_statement_page_gives_its_pdf_button_a_fresh_token(demo):
    pat = User.objects.get(email="pat@demo.test")
    c = Client()
    c.force_login(pat)
    url = reverse("benefits:plan_statement", args=[pat.participant.pk, "carver-db"])
    first, second = (c.get(url).content.decode() for _ in range(2))
    marker = 'name="submission_token" value="'
    assert marker in first and marker in second
    assert first.split(marker)[1][:32] != second.split(marker)[1][:32]
