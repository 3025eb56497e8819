"""Every spousal consent form carries the two ways the law allows the spouse's signature to be
witnessed (Code §417(a)(2)(A)(iii); ERISA §205(c)(2)(A)(iii): "witnessed by a plan representative or
a notary public"): a notary's acknowledgment and the plan representative's statement, with the live
audio-video conditions (photo identification shown live, direct interaction, the form sent the same
day; Notice 2021-03, REG-114666-22)."""

from __future__ import annotations

import io
from datetime import date
from types import SimpleNamespace

import pytest
from pypdf import PdfReader

from benefits.services.documents import render_pdf_bytes

FORMS = [
    "pdf/notices/spousal_consent.html",
    "pdf/notices/spousal_consent_beneficiaries.html",
    "pdf/notices/spousal_consent_claim.html",
]


@pytest.mark.parametrize("template_name", FORMS)
def test_the_consent_form_has_the_notary_acknowledgment_and_the_plan_representative_alternative(
    template_name,
):
    payload = {
        "plan": "Example Bank Retirement Plan",
        "participant": "Pat Example",
        "spouse": "Jordan Example",
        "asd": "2027-04-01",
        "approved_on": "2027-03-03",
        "signed_on": "2027-03-03",
        "period_opens": "2027-01-01",
    }
    document = SimpleNamespace(title="Spousal consent", pk=1, engine_version="", created_at=date(2027, 3, 3))
    participant = SimpleNamespace(full_name="Pat Example", participant_number="P-1")
    pdf = render_pdf_bytes(
        template_name, {"document": document, "payload": payload, "participant": participant}
    )
    text = " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages).split())
    assert "A. Notary public's acknowledgment" in text
    assert "Jordan Example appeared and proved to me on the basis of satisfactory evidence" in text
    assert "Commission number" in text and "(Seal)" in text
    assert "B. Or: statement of the plan representative" in text
    assert (
        "authorized by the plan administrator of the Example Bank Retirement Plan to witness spousal consents"
        in text
    )
    assert "photo identification shown to me live" in text and "sent to me the same day" in text
    assert "2027-0" not in text  # dates in words
