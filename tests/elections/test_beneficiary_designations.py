"""Beneficiary designations (the plan's default, its consent rule, versions) and the spouse's consent to
a 401(k) loan or withdrawal, on the demo data (pat@demo.test is married to Jordan Morgan)."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import TestCase
from django.urls import reverse

from accounts.models import SubmissionToken, User
from benefits.models import AuditEvent, GeneratedDocument, MarketRate, Participant
from elections.benefit_elections import beneficiaries, services
from elections.benefit_elections.models import BeneficiaryDesignation
from elections.claims import services as claims
from elections.consents import services as consents
from elections.consents.models import SpousalConsent
from elections.models import ClaimState
from elections.uploads import check_upload
from tests.elections.conftest import AS_OF, demo_for_the_module, membership

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker, tmp_path_factory):
    """Loaded once: no test here commits (see demo_for_the_module)."""
    yield from demo_for_the_module(django_db_blocker, tmp_path_factory)


PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
DEMO_PASSWORD = "demo-pass-2026"  # noqa: S105 - the demo logins' password (README)
SPOUSE = "Jordan Morgan"


@pytest.fixture
def admin(demo):
    return User.objects.get(email="admin@demo.test")


def child(percent="100", kind="primary", name="Sam Morgan"):
    return {
        "kind": kind,
        "entity": "person",
        "name": name,
        "relationship": "child",
        "percent": percent,
        "birth_date": "1995-04-02",
        "address": "12 Elm Street, Harlem, NY 10027",
    }


def spouse(percent="100"):
    return {**child(percent), "name": SPOUSE, "relationship": "spouse", "birth_date": "1964-09-02"}


def sign(user, rows, on=AS_OF, key="carver-401k"):
    with TestCase.captureOnCommitCallbacks(execute=True):
        return beneficiaries.designation_sign(
            membership=membership(user, key), user=user, rows=rows, password=DEMO_PASSWORD, on=on
        )


def upload(consent, user, signed_on, **overrides):
    details = {
        "signed_on": signed_on,
        "witness": "notary",
        "witness_name": "Alex Rivera",
        "notary_commission_number": "01RI6123456",
        "notary_commission_state": "NY",
        "notary_commission_expires": date(2028, 6, 30),
        "witnessing": "in_person",
        **overrides,
    }
    return consents.consent_upload(
        consent=consent,
        user=user,
        upload=check_upload(SimpleUploadedFile("consent.pdf", PDF)),
        details=details,
    )


# ------------------------------------------------------------------------------------ designations


def test_the_spouse_alone_takes_effect_at_once_and_each_version_is_kept(pat):
    first = sign(pat, [spouse(), child(kind="contingent")])
    assert not first.needs_consent and first.state == BeneficiaryDesignation.State.EFFECTIVE
    second = sign(pat, [spouse()])
    first.refresh_from_db()
    assert (first.state, second.state, second.version) == ("superseded", "effective", 2)
    assert first.beneficiaries[1]["name"] == "Sam Morgan"  # the old version is kept as signed
    first.beneficiaries = []
    with pytest.raises(ValueError, match="never edited"):
        first.save()
    assert {"designation.signed", "designation.effective"} <= set(
        AuditEvent.objects.values_list("event_type", flat=True)
    )


def test_a_non_spouse_takes_effect_only_when_the_spouses_consent_is_verified(pat, admin):
    before = sign(pat, [spouse()])
    new = sign(pat, [child()])
    assert new.needs_consent and new.state == BeneficiaryDesignation.State.AWAITING_CONSENT
    assert "Sam Morgan" in new.consent_reasons[0] and "§7.2(a)(iv)" in new.consent_reasons[0]
    consent = new.consents.get()
    form = GeneratedDocument.objects.get(pk=consent.form_document_id)
    assert form.status == "done" and form.payload["beneficiaries"][0]["name"] == "Sam Morgan"
    assert form.payload["spouse"] == SPOUSE
    before.refresh_from_db()
    assert before.state == BeneficiaryDesignation.State.EFFECTIVE  # still in force meanwhile
    consent = upload(consent, pat, AS_OF + timedelta(days=1))
    new.refresh_from_db()
    assert new.state == BeneficiaryDesignation.State.AWAITING_CONSENT  # uploaded is not verified
    consents.consent_verify(consent=consent, actor=admin, on=AS_OF + timedelta(days=2))
    new.refresh_from_db()
    before.refresh_from_db()
    assert (new.state, before.state) == ("effective", "superseded")
    assert {"consent.uploaded", "consent.verified", "designation.effective"} <= set(
        AuditEvent.objects.values_list("event_type", flat=True)
    )


def test_a_consent_signed_before_the_designation_or_by_someone_else_is_refused(pat):
    new = sign(pat, [child()])
    consent = new.consents.get()
    with pytest.raises(services.ElectionInvalid) as exc:
        upload(consent, pat, AS_OF - timedelta(days=1))
    assert "before the beneficiary designation was made" in exc.value.errors["signed_on"]
    Participant.objects.filter(user=pat).update(spouse_name="Casey Smith")  # remarried since
    with pytest.raises(services.ElectionInvalid) as exc:
        upload(consent, pat, AS_OF + timedelta(days=1))
    assert "binds only the spouse who signs it" in exc.value.errors["spouse"]


def test_an_exception_certified_by_the_administrator_puts_it_in_effect(pat, admin):
    new = sign(pat, [child()])
    consents.consent_exception_certify(
        designation=new,
        actor=admin,
        exception="cannot_locate",
        certification="Searched the last known address and two databases; no trace since 2019.",
    )
    new.refresh_from_db()
    assert new.state == BeneficiaryDesignation.State.EFFECTIVE


def test_a_newer_designation_withdraws_the_one_waiting_for_consent(pat):
    waiting = sign(pat, [child()])
    sign(pat, [spouse()])
    waiting.refresh_from_db()
    assert waiting.state == BeneficiaryDesignation.State.WITHDRAWN


def test_an_invalid_designation_is_refused_whole(pat):
    with pytest.raises(services.ElectionInvalid) as exc:
        sign(pat, [child("60"), child("30", name="Lee Morgan")])
    assert "they add up to 90" in exc.value.errors["primary"]
    with pytest.raises(services.ElectionInvalid) as exc:
        beneficiaries.designation_sign(
            membership=membership(pat, "carver-401k"), user=pat, rows=[spouse()], password="wrong", on=AS_OF
        )
    assert set(exc.value.errors) == {"password"}
    assert not BeneficiaryDesignation.objects.exists()


def test_before_the_plan_year_of_35_the_spouse_must_stay_the_sole_primary(pat):
    # Code §417(a)(6)(B): born March 14, 1992, still employed: the waiver period opens January 1, 2027.
    Participant.objects.filter(user=pat).update(birth_date=date(1992, 3, 14))
    m = membership(pat, "carver-401k")
    problems, _ = beneficiaries.check_designation(m, [child()], on=date(2026, 12, 31))
    assert "January 1, 2027" in problems["primary"]
    problems, reasons = beneficiaries.check_designation(m, [child()], on=date(2027, 1, 1))
    assert problems == {} and reasons
    assert beneficiaries.check_designation(m, [spouse()], on=date(2026, 12, 31)) == ({}, [])


def test_a_plan_without_designations_outside_an_election_refuses(pat):
    problems, _ = beneficiaries.check_designation(membership(pat, "carver-db"), [spouse()], on=AS_OF)
    assert "only with a benefit election" in problems["plan"]


# ------------------------------------------------------------------------------------ pages


def test_the_page_shows_the_plans_default_and_the_change_form_signs_once(pat, client):
    client.force_login(pat)
    participant = Participant.objects.get(user=pat)
    page = client.get(reverse("elections:beneficiaries", args=[participant.pk])).text
    assert "Carver Federal Savings Bank 401(k)" in page and "No beneficiary is named" in page
    assert "Your spouse, if you are married when you die" in page
    assert (
        "Carver Federal Savings Bank Retirement Income Plan" not in page
    )  # designations only with an election
    url = reverse("elections:beneficiaries_change", args=[membership(pat, "carver-401k").pk])
    form = client.get(url)
    assert form.status_code == 200
    token = form.context["form"]["submission_token"].value()
    post = {
        "submission_token": token,
        "password": DEMO_PASSWORD,
        "confirm": "on",
        "kind_1": "primary",
        "entity_1": "person",
        "name_1": "Sam Morgan",
        "relationship_1": "child",
        "percent_1": "100",
        "birth_date_1": "1995-04-02",
        "address_1": "12 Elm Street, Harlem, NY 10027",
    }
    with TestCase.captureOnCommitCallbacks(execute=True):
        first = client.post(url, post)
    assert first.status_code == 302
    again = client.post(url, post)
    assert again.status_code == 302 and BeneficiaryDesignation.objects.count() == 1
    assert SubmissionToken.objects.filter(purpose__startswith="designation_sign").count() == 1
    page = client.get(reverse("elections:beneficiaries", args=[participant.pk])).text
    assert "Waiting for your spouse&#x27;s consent" in page or "Waiting for your spouse's consent" in page
    assert "Print the consent form" in page
    docs = client.get(reverse("elections:documents", args=[participant.pk])).text
    assert "Beneficiary designations" in docs and "version 1" in docs


def test_a_bad_share_is_shown_on_its_field_and_nothing_is_lost(pat, client):
    client.force_login(pat)
    url = reverse("elections:beneficiaries_change", args=[membership(pat, "carver-401k").pk])
    token = client.get(url).context["form"]["submission_token"].value()
    r = client.post(
        url,
        {
            "submission_token": token,
            "password": DEMO_PASSWORD,
            "confirm": "on",
            "kind_1": "primary",
            "entity_1": "person",
            "name_1": "Sam Morgan",
            "relationship_1": "child",
            "percent_1": "80",
            "birth_date_1": "1995-04-02",
            "address_1": "12 Elm Street, Harlem, NY 10027",
        },
    )
    assert r.status_code == 400
    assert "they add up to 80" in r.text and 'value="Sam Morgan"' in r.text
    assert not BeneficiaryDesignation.objects.exists()


def test_staff_read_only_view_is_audited(pat, admin, client):
    participant = Participant.objects.get(user=pat)
    sign(pat, [child()])
    client.force_login(admin)
    page = client.get(reverse("elections:beneficiaries", args=[participant.pk]))
    assert page.status_code == 200 and "Change beneficiaries" not in page.text
    assert AuditEvent.objects.filter(
        event_type="designation.viewed_by_staff", participant=participant
    ).exists()


# ------------------------------------------------------------------------------------ loans and withdrawals


def _prime():
    MarketRate.objects.update_or_create(
        series="prime_rate", period=AS_OF.replace(day=1), defaults={"percent": Decimal("6.75"), "source": "t"}
    )


def approve(claim, committee, on=AS_OF):
    claims.claim_start_review(claim=claim, actor=committee, on=on)
    with TestCase.captureOnCommitCallbacks(execute=True):
        return claims.claim_decide(
            claim=claim, actor=committee, outcome="approved", reasons="ok", provisions="§8.2", on=on
        )


def file_loan(pat):
    _prime()
    return claims.claim_file(
        filer=pat,
        membership=membership(pat, "carver-401k"),
        claim_type="loan",
        details={"amount": Decimal("10000"), "term_months": 24, "principal_residence": False},
        on=AS_OF,
    )


def test_a_married_borrowers_loan_is_made_when_the_spouses_consent_is_verified(pat, committee, admin, client):
    from elections.claims.views import _participant_facts

    filed = file_loan(pat)
    assert dict(_participant_facts(filed))["Spousal consent"].startswith("Needed once the claim is approved")
    claim = approve(filed, committee)
    assert claim.state == ClaimState.ELECTION_REQUIRED and "upload it here" in claim.next_step
    consent = SpousalConsent.objects.get(claim=claim)
    form = GeneratedDocument.objects.get(pk=consent.form_document_id)
    assert "a loan of $10,000.00" in form.payload["what"] and form.payload["period_days"] == 90
    client.force_login(pat)
    page = client.get(reverse("elections:claim_detail", args=[claim.pk])).text
    assert "Print the consent form" in page and "Upload the consent" in page

    def committee_reads() -> str:  # the committee's "Spousal consent" line, from the stored consent
        claim.refresh_from_db()
        return dict(_participant_facts(claim))["Spousal consent"]

    assert committee_reads().startswith("Needed and not yet received")
    consent = upload(consent, pat, AS_OF + timedelta(days=1))
    assert committee_reads().startswith("Signed form received on")
    verified_on = AS_OF + timedelta(days=5)
    with TestCase.captureOnCommitCallbacks(execute=True):
        consents.consent_verify(consent=consent, actor=admin, on=verified_on)
    assert committee_reads().startswith("Given:")
    claim.refresh_from_db()
    # The loan is "made" once the paying agent confirms its disbursement (payments); until then it is
    # scheduled for the first pay date after the plan's ten days' notice (§7.3, §7.4(a)).
    assert claim.state == ClaimState.PAYMENT_SCHEDULED
    assert claim.next_step == "Scheduled for December 1, 2026: the loan of $10,000.00 is paid out."
    notes = claim.notices.filter(kind="loan_note").order_by("pk")
    assert notes.count() == 2 and notes.last().document.payload["decided_on"] == "November 26, 2026"
    assert AuditEvent.objects.filter(
        event_type="claim.consent_complete", participant=claim.participant
    ).exists()


def test_a_loan_consent_signed_more_than_90_days_before_the_loan_is_refused(pat, committee, admin):
    # Code §417(a)(4): the consent counts within the 90 days ending on the day the loan is made.
    claim = approve(file_loan(pat), committee)
    consent = upload(SpousalConsent.objects.get(claim=claim), pat, AS_OF)
    with pytest.raises(services.ElectionInvalid) as exc:
        consents.consent_verify(consent=consent, actor=admin, on=AS_OF + timedelta(days=91))
    assert "90 days ending on the day the loan is made" in exc.value.errors["signed_on"]
    consents.consent_verify(consent=consent, actor=admin, on=AS_OF + timedelta(days=90))
    claim.refresh_from_db()
    assert claim.state == ClaimState.PAYMENT_SCHEDULED


def test_an_unmarried_borrower_needs_no_consent(pat, committee):
    Participant.objects.filter(user=pat).update(
        marital_status="single", spouse_name="", spouse_birth_date=None
    )
    claim = approve(file_loan(pat), committee)
    assert (
        claim.state == ClaimState.PAYMENT_SCHEDULED
        and not SpousalConsent.objects.filter(claim=claim).exists()
    )
    assert claim.notices.filter(kind="loan_note").exists()


def test_a_withdrawal_is_paid_once_the_consent_is_verified(pat, committee, admin):
    claim = claims.claim_file(
        filer=pat,
        membership=membership(pat, "carver-401k"),
        claim_type="withdrawal_59half",
        details={"amount": Decimal("5000"), "payment_date": AS_OF + timedelta(days=14)},
        on=AS_OF,
    )
    claim = approve(claim, committee)
    assert claim.state == ClaimState.ELECTION_REQUIRED
    consent = upload(SpousalConsent.objects.get(claim=claim), pat, AS_OF + timedelta(days=1))
    consents.consent_verify(consent=consent, actor=admin, on=AS_OF + timedelta(days=2))
    claim.refresh_from_db()
    assert claim.state == ClaimState.PAYMENT_SCHEDULED
    assert claim.next_step == "Scheduled for January 1, 2027: Age 59½ withdrawal (401(k)), $5,000.00."
