"""Words for each reader: the consent form speaks to the spouse about the participant by name; an
unmarried participant's explanation carries no spouse or QOSA text; the committee's claim page carries
no heading meant for the claimant; votes read as sentences."""

from __future__ import annotations

import io

import pytest
from django.test import TestCase
from django.urls import reverse
from pypdf import PdfReader

from benefits.models import GeneratedDocument
from benefits.services.documents import document_bytes
from elections.benefit_elections.presenters import present_content
from elections.models import Claim, ClaimState
from tests.conftest import login_with_totp
from tests.elections.conftest import demo_for_the_module
from tests.elections.test_benefit_elections import elect, issue

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker, tmp_path_factory):
    """Loaded once: no test here commits (see demo_for_the_module)."""
    yield from demo_for_the_module(django_db_blocker, tmp_path_factory)


@pytest.fixture
def claim(pat):
    return Claim.objects.get(membership__participant__user=pat, state=ClaimState.ELECTION_REQUIRED)


def pdf_text(document_id: int) -> str:
    document = GeneratedDocument.objects.get(pk=document_id)
    assert document.status == "done"
    return " ".join(p.extract_text() for p in PdfReader(io.BytesIO(document_bytes(document))).pages)


def test_the_consent_form_speaks_to_the_spouse_about_the_participant_by_name(claim, pat):
    name = pat.participant.full_name
    election = elect(
        claim,
        pat,
        form="cc10",
        beneficiaries=[{"name": "Sam Morgan", "relationship": "child", "percent": "100", "kind": "primary"}],
    )
    # The participant's own election still reads "You …".
    assert all(r.startswith("You ") for r in election.consent_reasons)
    payload = GeneratedDocument.objects.get(pk=election.consents.get().form_document_id).payload
    assert payload["reasons"] == [
        f"{name} chose a form other than the joint and survivor annuity with you (you would give up its "
        "survivor payments).",
        f"{name} named Sam Morgan rather than you as beneficiary.",
    ]
    text = pdf_text(election.consents.get().form_document_id)
    assert f"What {name} has chosen" in " ".join(text.split())
    for wrong in ("You chose", "You named", "What your spouse has chosen"):
        assert wrong not in text


def test_an_unmarried_participants_explanation_says_nothing_of_a_spouse(claim):
    participant = claim.membership.participant
    participant.marital_status = participant.MaritalStatus.SINGLE
    participant.spouse_name = ""
    participant.save(update_fields=["marital_status", "spouse_name"])
    notice = issue(claim).notice
    text = " ".join(pdf_text(notice.document_id).split())
    for words in ("spouse", "optional survivor", "waive the joint and survivor", "engine, version"):
        assert words not in text.lower(), words
    assert "Because you are not married" in text
    # The married participant's explanation keeps them (the other side of the rule).
    participant.marital_status = participant.MaritalStatus.MARRIED
    participant.save(update_fields=["marital_status"])
    c = present_content({**notice.content, "participant": {**notice.content["participant"], "married": True}})
    assert c["participant"]["married"]


def test_the_married_explanation_keeps_the_qosa_and_the_spouses_rights(claim):
    text = " ".join(pdf_text(issue(claim).notice.document_id).split())
    assert "qualified optional survivor annuity" in text
    assert "Your spouse's rights" in text or "Your spouse’s rights" in text
    assert "engine, version" not in text


def test_the_committee_page_has_no_claimants_heading(client, pat, committee, committee2):
    """A loan to a married participant needs the spouse's consent (§417(a)(4)): the claimant reads
    "Your spouse's consent", the committee "The spouse's consent"."""
    from decimal import Decimal

    from benefits.demo.loader import load_demo_prime_rates
    from elections.claims import services
    from tests.elections.conftest import AS_OF, membership

    on = AS_OF
    load_demo_prime_rates(as_of=on)
    claim = services.claim_file(
        filer=pat,
        membership=membership(pat, "carver-401k"),
        claim_type="loan",
        details={"amount": Decimal("12000"), "term_months": 36, "principal_residence": False},
        on=on,
    )
    services.claim_start_review(claim=claim, actor=committee, on=on)
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.claim_decide(
            claim=claim, actor=committee, outcome="approved", reasons="Within §8.2", provisions="§8.2", on=on
        )
    assert Claim.objects.get(pk=claim.pk).consents.exists()
    assert login_with_totp(client, committee2).status_code == 302
    html = client.get(reverse("elections:claim_detail", args=[claim.pk])).content.decode()
    assert "The spouse's consent" in html
    assert "Your spouse's consent" not in html
    client.force_login(pat)
    html = client.get(reverse("elections:claim_detail", args=[claim.pk])).content.decode()
    assert "Your spouse's consent" in html


def test_votes_read_as_sentences():
    from django.template.loader import render_to_string

    html = render_to_string(
        "pdf/claims/review_decision.html",
        {
            "payload": {
                "votes": [
                    {"member": "a@x.test", "outcome": "approved"},
                    {"member": "b@x.test", "outcome": "denied"},
                ]
            },
            "document": None,
        },
    )
    assert "a@x.test voted to approve." in html and "b@x.test voted to deny." in html
    assert "voted to approved" not in html
