"""The age-59½ withdrawal claim asks how to pay it and how much to withhold (Form W-4R); its payment
record carries those choices, the rollover notice is issued when it is scheduled, and the withholding
follows Code §3405(c)."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest

from accounts.models import User
from elections.benefit_elections.models import Notice
from elections.claims import services as claims
from elections.claims.forms import ClaimForm
from elections.consents import services as consents
from elections.consents.models import SpousalConsent
from payments.models import Payment
from taxes.services import instalment_withholding
from tests.elections.conftest import AS_OF, membership
from tests.elections.test_beneficiary_designations import approve, upload


@pytest.fixture
def people(demo):
    return (
        User.objects.get(email="pat@demo.test"),
        User.objects.get(email="committee@demo.test"),
        User.objects.get(email="admin@demo.test"),
    )


def form(**data):
    base = {
        "amount": "5000",
        "payment_date": (AS_OF + timedelta(days=14)).isoformat(),
        "submission_token": "x" * 32,
    }
    return ClaimForm({**base, **data}, claim_type="withdrawal_59half")


def test_the_form_asks_and_checks_the_choices(db):
    f = form(payment_method="split", w4r_rate="15")
    assert not f.is_valid()
    assert "at least 20" in str(f.errors["w4r_rate"]).lower() or "greater than or equal to 20" in str(
        f.errors["w4r_rate"]
    )
    assert "Rollover" in str(f.errors["rollover_type"]) and "Rollover amount" in str(
        f.errors["rollover_amount"]
    )
    assert "payment_method" in form().errors  # the choice is required
    hardship = ClaimForm({}, claim_type="hardship")
    assert "payment_method" not in hardship.fields and hardship.fields["w4r_rate"].initial == 10
    assert "w4r_rate" not in ClaimForm({}, claim_type="loan").fields  # a loan is not a distribution


def test_a_split_withdrawal_is_scheduled_with_its_choices_and_notice(people):
    pat, committee, admin = people
    claim = claims.claim_file(
        filer=pat,
        membership=membership(pat, "carver-401k"),
        claim_type="withdrawal_59half",
        details={
            "amount": Decimal("5000"),
            "payment_date": AS_OF + timedelta(days=14),
            "payment_method": "split",
            "rollover_type": "traditional_ira",
            "rollover_institution": "Example Trust",
            "rollover_account": "12345678",
            "rollover_amount": Decimal("3000"),
            "w4r_rate": 25,
        },
        on=AS_OF,
    )
    claim = approve(claim, committee)
    consent = upload(SpousalConsent.objects.get(claim=claim), pat, AS_OF + timedelta(days=1))
    consents.consent_verify(consent=consent, actor=admin, on=AS_OF + timedelta(days=2))
    payment = Payment.objects.get(claim=claim)
    assert payment.method == "split" and payment.destination["rollover_amount"] == "3000"
    assert payment.withholding_election == {"form": "W-4R", "w4r_rate": "25"}
    # $3,000 rolled over, nothing withheld; 25% of the $2,000 paid = $500 (at least 20%, §3405(c)).
    amount, basis = instalment_withholding(payment, gross=payment.gross, pay_date=payment.first_pay_date)
    assert (amount, basis["rolled_over"], basis["paid_to_payee"]) == (Decimal("500.00"), "3000.00", "2000.00")
    assert (
        Notice.objects.filter(
            participant=payment.participant, kind="rollover_402f", asd=payment.first_pay_date
        ).count()
        == 1
    )


def test_the_claim_page_shows_the_rollover_notice_before_the_choice(people, client):
    from django.urls import reverse

    pat, _, _ = people
    client.force_login(pat)
    m = membership(pat, "carver-401k")
    page = client.get(reverse("elections:claim_new", args=[m.pk, "withdrawal_59half"])).content.decode()
    assert (
        "Your rollover options (§402(f) notice)" in page
        and "The 10% additional tax on early distributions" in page
    )
    assert "If a plan loan is offset against your account" in page  # the 401(k) has loans
    assert 'name="waive_30_days"' in page and 'name="w4r_rate"' in page
    loan = client.get(reverse("elections:claim_new", args=[m.pk, "loan"])).content.decode()
    assert "§402(f) notice" not in loan and 'name="w4r_rate"' not in loan
