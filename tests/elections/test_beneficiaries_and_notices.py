"""Beneficiary claims after a participant's death, disability deadlines, the loan papers, the claim file."""

import io
from datetime import timedelta
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from accounts.models import User
from benefits.demo.loader import load_demo_prime_rates
from benefits.models import MarketRate, Participant
from benefits.services.documents import document_bytes
from elections.claims import services
from elections.models import BeneficiaryLink, Claim, ClaimState
from tests.elections.conftest import AS_OF, demo_for_the_module, file_db_claim, membership
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker, tmp_path_factory):
    """Loaded once: no test here commits (see demo_for_the_module)."""
    yield from demo_for_the_module(django_db_blocker, tmp_path_factory)


ON = AS_OF


@pytest.fixture
def alicia(demo):
    """Alicia Bell, verified by an administrator as the Beneficiary of Marcus Bell (died 2012)."""
    user = UserFactory(role=User.Role.PARTICIPANT)
    BeneficiaryLink.objects.create(
        user=user,
        participant=Participant.objects.get(participant_number="CFS-10006"),
        beneficiary_name="Alicia Bell",
        relationship="spouse",
        verified_at=timezone.now(),
    )
    return user


def test_a_verified_beneficiary_files_a_death_benefit_claim(alicia, client):
    marcus = Participant.objects.get(participant_number="CFS-10006")
    [(m, as_beneficiary)] = services.memberships_claimable_by(alicia)
    assert m.participant == marcus and as_beneficiary
    claim = services.claim_file(
        filer=alicia,
        membership=m,
        claim_type="death_benefit",
        details={},
        statement="Spouse's benefit",
        on=ON,
    )
    assert (claim.claimant_name, claim.claimant_relationship) == ("Alicia Bell", "spouse")
    assert claim.engine_check["death_date"] == "2012-12-14"
    client.force_login(alicia)
    assert client.get(reverse("elections:claim_detail", args=[claim.pk])).status_code == 200
    home = client.get(reverse("elections:claims_home")).text
    assert "as Beneficiary of Marcus Bell" in home and f"{claim.pk}: Death benefit" in home


def test_an_unverified_link_gives_nothing_and_only_death_benefits_are_open_to_beneficiaries(alicia, demo):
    BeneficiaryLink.objects.update(verified_at=None)
    assert services.memberships_claimable_by(alicia) == []
    BeneficiaryLink.objects.update(verified_at=timezone.now())
    from elections.claims import checks

    m = Participant.objects.get(participant_number="CFS-10006").memberships.get()
    with pytest.raises(checks.ClaimInvalid):
        services.claim_file(filer=alicia, membership=m, claim_type="commencement", details={}, on=ON)


def test_a_disability_based_claim_runs_on_the_disability_clock(pat, committee):
    claim = file_db_claim(pat, on=ON, disability_based=True)
    assert claim.due_on == ON + timedelta(days=45)
    services.claim_start_review(claim=claim, actor=committee, on=ON)
    # (f)(3): an extension for missing information gives the claimant at least 45 days to answer.
    with pytest.raises(Exception, match="at least 45 days"):
        services.claim_request_information(
            claim=claim, actor=committee, what="x", respond_by=ON + timedelta(days=44), extend=True, on=ON
        )
    claim = services.claim_extend(
        claim=claim, actor=committee, reason="Medical records", on=ON + timedelta(days=40)
    )
    assert claim.due_on == ON + timedelta(days=75)
    claim = services.claim_decide(
        claim=claim,
        actor=committee,
        outcome="denied",
        reasons="r",
        provisions="p",
        perfecting_material="m",
        on=ON + timedelta(days=50),
    )
    assert claim.appeal_by == ON + timedelta(days=50 + 180)
    # Disability: the appeal goes to someone other than the first decider (2560.503-1(h)(3)(ii), (h)(4)).
    claim = services.claim_appeal(claim=claim, actor=pat, statement="x", on=ON + timedelta(days=60))
    assert claim.due_on == ON + timedelta(days=60 + 45)
    with pytest.raises(Exception, match="someone other than"):
        services.claim_start_review(claim=claim, actor=committee, on=ON + timedelta(days=61))


def test_approved_loan_papers_show_the_engine_schedule(
    pat, committee, committee2, django_capture_on_commit_callbacks
):
    load_demo_prime_rates(as_of=ON)
    assert MarketRate.objects.get(series="prime_rate", period=ON.replace(day=1)).source.startswith(
        "DEMO ONLY"
    )
    claim = services.claim_file(
        filer=pat,
        membership=membership(pat, "carver-401k"),
        claim_type="loan",
        details={"amount": Decimal("12000"), "term_months": 36, "principal_residence": False},
        on=ON,
    )
    assert claim.engine_check["rate_percent"] == "7.75"
    services.claim_start_review(claim=claim, actor=committee, on=ON)
    with django_capture_on_commit_callbacks(execute=True):
        claim = services.claim_decide(
            claim=claim,
            actor=committee,
            outcome="approved",
            reasons="Within §8.2",
            provisions="§8.2; §8.3",
            on=ON,
        )
    note = claim.notices.get(kind="loan_note").document
    note.refresh_from_db()
    assert note.status == "done", note.error
    loan = note.payload["loan"]
    assert loan["number_of_payments"] == 78 and loan["principal"] == "12000.00"
    text = " ".join(PdfReader(io.BytesIO(document_bytes(note))).pages[0].extract_text().split())
    assert "$12,000.00" in text and "7.75%" in text and f"${loan['level_payment']}" in text
    assert "Promissory note" in text and "Amortization schedule" in text


def test_claim_page_shows_the_engine_figures_before_filing(pat, client):
    load_demo_prime_rates(as_of=services.today())
    client.force_login(pat)
    resp = client.get(reverse("elections:claim_new", args=[membership(pat, "carver-401k").pk, "loan"]))
    assert "Most you can borrow (§8.2)" in resp.text and "$50,000.00" in resp.text


def test_claim_states_are_visible_to_the_claimant_with_next_step(pat, committee):
    claim = file_db_claim(pat, on=ON)
    services.claim_start_review(claim=claim, actor=committee, on=ON)
    claim = services.claim_request_information(
        claim=claim, actor=committee, what="Your birth certificate", respond_by=ON + timedelta(days=30), on=ON
    )
    # The next step says what is asked and by when (issue 14).
    assert claim.next_step == f"Send by {ON + timedelta(days=30):%B %-d, %Y}: Your birth certificate"
    assert Claim.objects.get(pk=claim.pk).state == ClaimState.INFO_REQUESTED
