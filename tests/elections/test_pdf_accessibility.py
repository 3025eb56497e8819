"""Every PDF is tagged PDF/UA-1 (WeasyPrint's pdf_variant "pdf/ua-1"): marked, with a structure tree,
the document's language, its title shown, and the PDF/UA identification in its metadata; the engine
version stays in the metadata and never in the printed text."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.test import TestCase
from pypdf import PdfReader

from benefits.models import GeneratedDocument
from benefits.services.documents import document_bytes
from elections.claims import services as claims
from elections.models import Claim, ClaimState
from tests.elections.conftest import AS_OF, file_withdrawal
from tests.elections.test_benefit_elections import elect

pytestmark = pytest.mark.django_db


def check_pdf_ua(document: GeneratedDocument) -> None:
    reader = PdfReader(io.BytesIO(document_bytes(document)))
    root = reader.trailer["/Root"]
    assert bool(root["/MarkInfo"]["/Marked"]), document.title
    assert "/StructTreeRoot" in root, document.title
    assert str(root["/Lang"]).startswith("en"), document.title
    assert root["/ViewerPreferences"]["/DisplayDocTitle"], document.title
    metadata = root["/Metadata"].get_object().get_data().decode()
    assert "pdfuaid" in metadata, document.title
    text = " ".join(p.extract_text() for p in reader.pages)
    assert "engine, version" not in text and "calculation engine 0." not in text, document.title
    assert f"Page 1 of {len(reader.pages)}" in " ".join(text.split()), document.title


def test_every_notice_consent_form_and_letter_is_pdf_ua(pat, committee):
    pat_claim = Claim.objects.get(membership__participant__user=pat, state=ClaimState.ELECTION_REQUIRED)
    elect(pat_claim, pat, form="life")  # the explanation, the spouse's consent form
    claim = file_withdrawal(pat, on=AS_OF)  # pat's Carver DB benefit is held by the claim elected above
    claims.claim_start_review(claim=claim, actor=committee, on=AS_OF)
    with TestCase.captureOnCommitCallbacks(execute=True):
        claims.claim_request_information(  # a claim letter
            claim=claim,
            actor=committee,
            what="Proof of age.",
            respond_by=AS_OF + timedelta(days=30),
            on=AS_OF,
        )
    documents = GeneratedDocument.objects.filter(status="done")
    kinds = set(documents.values_list("kind", flat=True))
    assert {"spousal_consent_form", "claim_information_request"} <= kinds, kinds
    for document in documents:
        check_pdf_ua(document)
