"""Every document names the plan, its three-digit plan number, the sponsor, and the plan
administrator with an address and a telephone number (issue 25 item 6; the SPD content rule of
29 CFR 2520.102-3(a)-(c), (f) names the same facts). An administrator maintains them, audited."""

from __future__ import annotations

import io
import pathlib
from datetime import date
from types import SimpleNamespace

import pytest
from django.core.exceptions import PermissionDenied
from django.core.management import call_command
from pypdf import PdfReader

from benefits.audit import AuditEventType
from benefits.models import AuditEvent, Plan
from benefits.plan_identity.models import PlanContact
from benefits.plan_identity.services import plan_identity_update
from benefits.services.documents import document_request, render_pdf_bytes

pytestmark = pytest.mark.django_db

TEMPLATES = pathlib.Path(__file__).resolve().parents[2] / "templates" / "pdf"
BLOCK = {
    "plan_name": "Example Savings Bank Retirement Plan",
    "plan_number": "002",
    "sponsor_name": "Example Savings Bank",
    "sponsor_address": ["10 Harbor Road", "Troy, NY 12180"],
    "administrator_name": "Retirement Committee",
    "administrator_address": ["10 Harbor Road", "Troy, NY 12180"],
    "administrator_phone": "(518) 555-0142",
}


def pdf_templates() -> list[str]:
    return sorted(
        str(p.relative_to(TEMPLATES.parent))
        for p in TEMPLATES.rglob("*.html")
        if not p.name.startswith("_") and p.name != "base.html"
    )


def pdf_text(pdf: bytes) -> str:
    return " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages).split())


def test_the_list_covers_every_kind_of_document():
    names = pdf_templates()
    for kind in (
        "pdf/notices/qjsa_explanation.html",
        "pdf/notices/spousal_consent_claim.html",
        "pdf/statement_account.html",
        "pdf/claims/denial.html",
        "pdf/account_elections/diversification_confirmation.html",
        "pdf/payments.html",
        "pdf/taxes/form_1099r.html",
    ):
        assert kind in names


@pytest.mark.parametrize("template_name", pdf_templates())
def test_every_pdf_prints_the_plan_identification(template_name):
    document = SimpleNamespace(title="A document", pk=7, engine_version="", created_at=date(2027, 4, 1))
    participant = SimpleNamespace(full_name="Pat Example", participant_number="P-1")
    try:
        pdf = render_pdf_bytes(
            template_name,
            {"document": document, "payload": {"plan_identity": [BLOCK]}, "participant": participant},
        )
    except Exception as exc:  # a template that needs its own payload to render at all
        pytest.fail(f"{template_name} did not render with an empty payload: {exc!r}")
    text = pdf_text(pdf)
    assert "Example Savings Bank Retirement Plan, plan number 002" in text
    assert "Plan sponsor: Example Savings Bank, 10 Harbor Road, Troy, NY 12180" in text
    assert (
        "Plan administrator: Retirement Committee, 10 Harbor Road, Troy, NY 12180. Telephone (518) 555-0142"
        in text
    )


def test_demo_plans_are_identified_and_marked_as_demo_data(settings, tmp_path):
    settings.PRIVATE_STORAGE_ROOT = tmp_path
    call_command("load_demo", as_of=date(2026, 11, 26))
    contacts = {c.plan.key: c for c in PlanContact.objects.select_related("plan")}
    assert set(contacts) == set(Plan.objects.values_list("key", flat=True))
    assert all(len(c.plan_number) == 3 and c.plan_number.isdigit() for c in contacts.values())
    assert all(c.demo_data for c in contacts.values())  # no plan text states its Form 5500 number
    # Two plans of one sponsor never share a number (Form 5500 line 1b).
    carver = [c.plan_number for c in contacts.values() if c.sponsor_name == "Carver Federal Savings Bank"]
    assert len(carver) == len(set(carver))


def test_a_document_records_the_identification_of_the_plan_it_names(participant_user, admin_user):
    from benefits.models import PlanMembership

    plan = PlanMembership.objects.get(participant=participant_user.participant).plan
    plan_identity_update(
        plan=plan,
        values={
            "plan_number": "003",
            "sponsor_name": "Sponsor Co.",
            "sponsor_address": "1 Main Street\nAlbany, NY 12207",
            "administrator_name": "Plan Committee",
            "administrator_address": "PO Box 9\nAlbany, NY 12201",
            "administrator_phone": "(518) 555-0101",
        },
        actor=admin_user,
    )
    doc = document_request(
        kind="statement",
        participant=participant_user.participant,
        title="Statement",
        template_name="pdf/statement_db.html",
        payload={"plan_name": plan.name},
    )
    (block,) = doc.payload["plan_identity"]
    assert block["plan_number"] == "003"
    assert block["administrator_address"] == ["PO Box 9", "Albany, NY 12201"]
    assert block["administrator_phone"] == "(518) 555-0101"
    # A document naming no plan (a payment history) names every plan of the participant.
    doc = document_request(
        kind="payments",
        participant=participant_user.participant,
        title="Payments",
        template_name="pdf/payments.html",
        payload={},
    )
    assert [b["plan_name"] for b in doc.payload["plan_identity"]] == [plan.name]


def test_only_an_administrator_changes_it_and_each_change_is_audited(admin_user, committee_user):
    from tests.factories import PlanFactory

    plan = PlanFactory()
    values = {
        "plan_number": "001",
        "sponsor_name": "Sponsor Co.",
        "sponsor_address": "1 Main Street\nAlbany, NY 12207",
        "administrator_name": "Plan Committee",
        "administrator_address": "1 Main Street\nAlbany, NY 12207",
        "administrator_phone": "(518) 555-0101",
    }
    with pytest.raises(PermissionDenied):
        plan_identity_update(plan=plan, values=values, actor=committee_user)
    plan_identity_update(plan=plan, values=values, actor=admin_user)
    plan_identity_update(
        plan=plan, values=values | {"administrator_phone": "(518) 555-0199"}, actor=admin_user
    )
    events = AuditEvent.objects.filter(event_type=AuditEventType.PLAN_IDENTITY_CHANGED).order_by("pk")
    assert events.count() == 2
    assert events.last().extra_data["changes"] == {
        "administrator_phone": {"old": "(518) 555-0101", "new": "(518) 555-0199"}
    }
    # Saving the same values again records nothing.
    plan_identity_update(
        plan=plan, values=values | {"administrator_phone": "(518) 555-0199"}, actor=admin_user
    )
    assert events.count() == 2


def test_the_form_refuses_a_plan_number_that_is_not_three_digits(admin_user, staff_client):
    from tests.factories import PlanFactory

    plan = PlanFactory()
    client = staff_client(admin_user)
    resp = client.post(
        f"/benefits/staff/plans/{plan.key}/identification/",
        {
            "plan_number": "12",
            "sponsor_name": "S",
            "sponsor_address": "1 Main Street",
            "administrator_name": "A",
            "administrator_address": "1 Main Street",
            "administrator_phone": "555-0101",
        },
    )
    assert resp.status_code == 400
    body = resp.content.decode()
    assert "three digits" in body and "area code" in body
    assert not PlanContact.objects.filter(plan=plan).exists()
