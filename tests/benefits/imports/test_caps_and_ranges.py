"""Imports capped in size, rows and cells, workbooks checked in a background job, and the engine's
input windows where plan data is written (issue 26): a message, never a 500, nothing half-done."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.test import Client

from tests.benefits.imports.conftest import csv_bytes, run, snapshot
from tests.conftest import login_with_totp

pytestmark = pytest.mark.django_db

P = (
    "participant_number,employer,first_name,last_name,birth_date,ssn,hire_date,termination_date,"
    "marital_status,spouse_name,spouse_birth_date"
)


def _workbook(rows: list[list[object]], pad_bytes: int = 0) -> bytes:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    for row in rows:
        sheet.append(row)
    buf = io.BytesIO()
    book.save(buf)
    if not pad_bytes:
        return buf.getvalue()
    out = io.BytesIO()  # the same workbook with a member that unpacks far (as a zip bomb does)
    with zipfile.ZipFile(buf) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            dst.writestr(info, src.read(info.filename))
        dst.writestr("xl/media/pad.bin", b"\0" * pad_bytes)
    return out.getvalue()


# ------------------------------------------------------------------------------------ imports


def test_a_workbook_that_unpacks_too_far_is_refused_before_it_is_parsed(member):
    data = _workbook([["participant_number", "plan", "period_year", "hours"]], pad_bytes=40 * 1024 * 1024)
    assert len(data) < 200_000
    before = snapshot()
    batch, checked = run("hours", data, file_name="bomb.xlsx")
    assert batch.status == "previewed" and snapshot() == before
    assert any("unpacks to" in e.message for e in checked.errors), checked.errors


def test_a_row_wider_than_any_kind_is_refused(member):
    header = ["participant_number", "plan", "period_year", "hours"]
    data = _workbook([header, ["FSB-77001", "fairport-esop", 2023, 2080, *(["x"] * 200)]])
    before = snapshot()
    batch, checked = run("hours", data, file_name="wide.xlsx")
    assert snapshot() == before
    assert any("more than 100 cells" in e.message for e in checked.errors), checked.errors
    wide_csv = csv_bytes(",".join(header), "FSB-77001,fairport-esop,2023,2080," + ",".join(["x"] * 200))
    _, checked = run("hours", wide_csv)
    assert any("more than 100 cells" in e.message for e in checked.errors), checked.errors


def test_a_file_past_the_cell_cap_is_refused(member, monkeypatch):
    from benefits.imports import parsing

    monkeypatch.setattr(parsing, "MAX_CELLS", 10)
    rows = [f"FSB-77001,fairport-esop,{y},2080" for y in range(2000, 2005)]
    before = snapshot()
    _, checked = run("hours", csv_bytes("participant_number,plan,period_year,hours", *rows))
    assert snapshot() == before
    assert any("more than 10 cells" in e.message for e in checked.errors), checked.errors


def test_a_web_upload_of_a_workbook_is_checked_in_the_background(member, django_capture_on_commit_callbacks):
    """The reproduction: a 118 KB workbook was checked inside the request, past the server's timeout,
    and its batch stayed "checking" for good."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from accounts.models import User
    from benefits.imports.models import ImportBatch
    from tests.conftest import enroll_totp
    from tests.factories import UserFactory

    admin = UserFactory(role=User.Role.ADMINISTRATOR, is_staff=True)
    enroll_totp(admin)
    client = Client()
    assert login_with_totp(client, admin).status_code == 302
    data = _workbook([["participant_number", "plan", "period_year", "hours"]], pad_bytes=40 * 1024 * 1024)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        resp = client.post(
            "/benefits/staff/imports/upload/",
            {"kind": "hours", "file": SimpleUploadedFile("bomb.xlsx", data)},
        )
    assert resp.status_code == 302
    batch = ImportBatch.objects.get()
    assert batch.status == ImportBatch.Status.CHECKING  # the request did not wait on the check
    assert callbacks  # the check job is sent once the upload is committed
    for callback in callbacks:
        callback()
    batch.refresh_from_db()
    assert batch.status != ImportBatch.Status.CHECKING
    assert batch.error_count and "unpacks to" in batch.errors[0]["message"]


def test_a_hire_date_of_9999_is_refused_by_the_import(member):
    before = snapshot()
    row = "FSB-77002,Fairport Savings Bank,Al,Bo,1970-01-01,900-77-7002,9999-12-31,,single,,"
    _, checked = run("participants", csv_bytes(P, row))
    assert snapshot() == before
    assert any(e.column == "hire_date" for e in checked.errors), checked.errors


def test_hire_dates_and_plan_data_cannot_be_written_in_the_django_admin(member):
    """The reproduction: 9999-12-31 or 1e309 saved in the admin made three pages answer 500."""
    from accounts.models import User
    from tests.conftest import enroll_totp
    from tests.factories import UserFactory

    admin = UserFactory(role=User.Role.ADMINISTRATOR, is_staff=True, is_superuser=True)
    enroll_totp(admin)
    client = Client()
    assert login_with_totp(client, admin).status_code == 302
    participant = member.participant
    membership = member
    resp = client.post(
        f"/django-admin/benefits/participant/{participant.pk}/change/",
        {"hire_date": "9999-12-31", "first_name": participant.first_name},
    )
    assert resp.status_code == 403
    resp = client.post(
        f"/django-admin/benefits/planmembership/{membership.pk}/change/", {"plan_data": '{"balance": 1e309}'}
    )
    assert resp.status_code == 403
    participant.refresh_from_db()
    membership.refresh_from_db()
    assert participant.hire_date.year < 9999 and "1e309" not in str(membership.plan_data)
