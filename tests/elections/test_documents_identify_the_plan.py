"""The demo's real documents (explanations, the spouse's consent form, a claim letter) name the plan,
its plan number, the sponsor and the administrator with address and telephone, and print dates in
words (issue 25 item 6)."""

from __future__ import annotations

import io
import re
from datetime import timedelta

import pytest
from django.test import TestCase
from pypdf import PdfReader

from benefits.models import GeneratedDocument
from benefits.plan_identity.models import PlanContact
from benefits.services.documents import document_bytes
from elections.claims import services as claims
from elections.models import Claim, ClaimState
from tests.elections.conftest import AS_OF, file_withdrawal
from tests.elections.test_benefit_elections import elect

pytestmark = pytest.mark.django_db

ISO_DATE = re.compile(r"\b(19|20)\d\d-\d\d-\d\d\b")


def test_every_demo_document_names_its_plan_and_administrator(pat, committee):
    pat_claim = Claim.objects.get(membership__participant__user=pat, state=ClaimState.ELECTION_REQUIRED)
    elect(pat_claim, pat, form="life")
    claim = file_withdrawal(pat, on=AS_OF)
    claims.claim_start_review(claim=claim, actor=committee, on=AS_OF)
    with TestCase.captureOnCommitCallbacks(execute=True):
        claims.claim_request_information(
            claim=claim,
            actor=committee,
            what="Proof of age.",
            respond_by=AS_OF + timedelta(days=30),
            on=AS_OF,
        )
    documents = list(GeneratedDocument.objects.filter(status="done"))
    assert {"spousal_consent_form", "claim_information_request"} <= {d.kind for d in documents}
    contacts = {c.plan.name: c for c in PlanContact.objects.select_related("plan")}
    for document in documents:
        text = " ".join(
            " ".join(p.extract_text() for p in PdfReader(io.BytesIO(document_bytes(document))).pages).split()
        )
        named = [c for name, c in contacts.items() if f"{name}, plan number {c.plan_number}" in text]
        assert named, (document.kind, text[:400])
        for c in named:
            assert f"Plan sponsor: {c.sponsor_name}" in text
            assert f"Telephone {c.administrator_phone}" in text
            assert c.administrator_address.splitlines()[0] in text
        assert not ISO_DATE.search(text), (document.kind, ISO_DATE.search(text).group(0))
