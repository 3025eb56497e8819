"""Malformed files never give a server error or a partial import (hypothesis)."""

from __future__ import annotations

import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.benefits.imports.conftest import run, snapshot

pytestmark = pytest.mark.django_db

COLUMNS = ["participant_number", "plan", "period_year", "hours", "overtime", "", "Hours"]
NASTY = st.sampled_from(
    [
        "",
        "FSB-77001",
        "fairport-esop",
        "2023",
        "2080",
        "-1",
        "8785",
        "1e308",
        "9" * 400,
        "NaN",
        "Infinity",
        '=HYPERLINK("http://evil.test","x")',
        "@SUM(A1)",
        "+1",
        "\x00",
        "\u202e",
        "2023-02-30",
        "   ",
        '"',
        "0x10",
        "१२३",
        "2,080",
        "$5",
        "None",
    ]
)
CELL = st.one_of(NASTY, st.text(max_size=30))


@st.composite
def csv_files(draw):
    header = draw(st.lists(st.sampled_from(COLUMNS), min_size=0, max_size=6))
    rows = draw(st.lists(st.lists(CELL, min_size=0, max_size=7), max_size=6))
    lines = [",".join(header)] + [",".join(r) for r in rows]
    text = "\n".join(lines)
    encoding = draw(st.sampled_from(["utf-8", "utf-16", "latin-1", "cp1252", "utf-8-sig"]))
    data = text.encode(encoding, errors="replace")
    if draw(st.booleans()):
        data = data + draw(st.binary(max_size=20))
    return data


@st.composite
def xlsx_files(draw):
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.append(draw(st.lists(st.sampled_from(COLUMNS[:4]), min_size=2, max_size=5)))
    for _ in range(draw(st.integers(0, 4))):
        row = draw(
            st.lists(
                st.one_of(NASTY, st.integers(-(10**20), 10**20), st.floats(allow_nan=True), st.none()),
                max_size=5,
            )
        )
        sheet.append([v if not (isinstance(v, str) and "\x00" in v) else "x" for v in row])
    buf = io.BytesIO()
    book.save(buf)
    data = buf.getvalue()
    if draw(st.booleans()):
        cut = draw(st.integers(0, len(data)))
        data = data[:cut]  # a truncated workbook
    return data


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.one_of(csv_files(), st.binary(max_size=200)))
def test_malformed_csv_is_refused_or_applied_whole(member, data):
    _check(data, "fuzz.csv")


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=xlsx_files())
def test_malformed_xlsx_is_refused_or_applied_whole(member, data):
    _check(data, "fuzz.xlsx")


def _check(data: bytes, name: str) -> None:
    from django.db import transaction

    from benefits.models import HoursOfService

    with transaction.atomic():
        before = snapshot()
        batch, checked = run("hours", data, file_name=name)  # never raises
        if checked.errors:
            assert batch.status == "previewed"
            assert snapshot() == before  # nothing half-applied
        else:
            assert batch.status == "applied"
            assert (
                HoursOfService.objects.filter(membership__participant__participant_number="FSB-77001").count()
                >= 2
            )
        for e in checked.errors:
            assert isinstance(e.row, int) and isinstance(e.column, str) and e.message
        transaction.set_rollback(True)


def test_upload_page_never_errors_on_malformed_files(member, admin_user, staff_client):
    """The same through the web: a 302 to the preview or a 400 form error, never a 500."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    client = staff_client(admin_user)
    samples = [
        b"\xff\xfe\x00\x00garbage",
        b"PK\x03\x04broken-zip",
        b"",
        b"participant_number\n\x00\x00",
        b"participant_number,plan,period_year,hours\nFSB-77001,fairport-esop,2023,=1+1\n",
    ]
    from django.test import TestCase

    for i, data in enumerate(samples):
        with TestCase.captureOnCommitCallbacks(execute=True):  # the background check runs too
            resp = client.post(
                "/benefits/staff/imports/upload/",
                {"kind": "hours", "file": SimpleUploadedFile(f"f{i}.csv", data)},
            )
        assert resp.status_code in (302, 400), resp.status_code
        if resp.status_code == 302:
            assert client.get(resp["Location"]).status_code == 200
