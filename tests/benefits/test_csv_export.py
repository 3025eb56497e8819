"""CSV exports write formula-leading cells as text (issue 26: OWASP CSV injection)."""

import csv
import io

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from benefits.audit import AuditEventType, audit_record
from benefits.presenters.csv_export import FORMULA_LEADS, SafeCsvWriter, safe_cell


@pytest.mark.parametrize("lead", FORMULA_LEADS)
def test_every_formula_lead_is_neutralised(lead):
    assert (
        safe_cell(f'{lead}HYPERLINK("http://evil.test","x")') == f'\'{lead}HYPERLINK("http://evil.test","x")'
    )


@pytest.mark.parametrize("value", ["-1250.00", "+3", "-0.5%", "Claim denied", "", "2026-04-01"])
def test_plain_numbers_and_words_are_left_alone(value):
    assert safe_cell(value) == value


def test_non_text_cells_pass_through():
    assert safe_cell(12) == 12 and safe_cell(None) is None


@given(st.text())
def test_no_written_cell_starts_a_formula(text):
    out = io.StringIO()
    SafeCsvWriter(out).writerow([text, "x"])
    [row] = list(csv.reader(io.StringIO(out.getvalue(), newline="")))
    cell = row[0]
    assert not cell.startswith(FORMULA_LEADS) or safe_cell(text) == text  # only plain numbers stay


@pytest.mark.django_db
def test_the_audit_csv_writes_a_committee_note_formula_as_text(staff_client, admin_user):
    client = staff_client(admin_user)
    audit_record(
        event_type=AuditEventType.CLAIM_NOTE_ADDED,
        summary='=HYPERLINK("http://evil.test","open")',
        actor=admin_user,
    )
    response = client.get(reverse("benefits:audit_log"), {"format": "csv", "what": "claim.note_added"})
    rows = list(csv.reader(io.StringIO(response.content.decode(), newline="")))
    cells = [cell for row in rows[1:] for cell in row]
    assert any(cell.startswith("'=HYPERLINK") for cell in cells)
    assert not any(cell.startswith("=") for cell in cells)
