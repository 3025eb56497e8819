"""A survivor or beneficiary whose payments continue after a death gives the bank account they go to
(issue 22, item 6): linked and verified as a Beneficiary, on a page of their own; the account is masked
on every page, the change audited with its old and new values, bad input refused naming the field."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from benefits.models import AuditEvent
from elections.models import BeneficiaryLink
from payments import services
from payments.models import Payment, PaymentInstalment
from tests.factories import UserFactory
from tests.payments.test_deaths import annuity, pay, record
from tests.payments.test_payments import admin, confirm  # noqa: F401 - the demo's administrator

GOOD = {"routing_number": "011000015", "account_number": "123456789", "account_type": "checking"}


@pytest.fixture
def survivor(pat, admin):  # noqa: F811
    """Alex, pat's survivor under a 50% joint and survivor annuity, linked and verified."""
    p = annuity(pat, form="js50", survivor_percent=Decimal("50"), survivor_name="Alex Morgan")
    pay(admin, p, date(2027, 1, 1))
    out = record(p, admin, on=date(2027, 2, 20))  # before March 1: nothing owed back
    alex = UserFactory(email="alex@example.test")
    BeneficiaryLink.objects.create(
        user=alex,
        participant=pat.participant,
        beneficiary_name="Alex Morgan",
        relationship="spouse",
        verified_by=admin,
        verified_at=timezone.now(),
    )
    return alex, out.continuations[0]


def test_the_continuing_payee_gives_a_bank_account(survivor, client):
    alex, s = survivor
    assert s.method == "check"
    client.force_login(alex)
    mine = client.get(reverse("payments:mine")).content.decode()
    url = reverse("payments:payee_bank_account", args=[s.pk])
    assert url in mine and "Give a bank account for direct deposit" in mine
    page = client.get(url).content.decode()
    assert f"Now paid to: {s.destination_masked}" in page
    done = client.post(url, GOOD)
    assert done.status_code == 302
    s.refresh_from_db()
    assert s.method == "direct_deposit" and s.destination["account_number"] == "123456789"
    assert s.destination_masked == "Checking account ending 6789"
    event = AuditEvent.objects.get(event_type="payment.destination_given", extra_data__payment_id=s.pk)
    assert event.extra_data["old"] == {"method": "check", "destination": "Check to the address on record"}
    assert event.extra_data["new"] == {
        "method": "direct_deposit",
        "destination": "Checking account ending 6789",
    }
    # Masked on every page: the full number is never shown.
    for html in (client.get(reverse("payments:mine")).content.decode(), client.get(url).content.decode()):
        assert "Checking account ending 6789" in html and "123456789" not in html
    # The paying agent's file sends the March 1 payment to the account.
    files = services.instruction_export(pay_date=date(2027, 3, 1), actor=admin_user())
    row = next(
        line for line in services.instruction_content(files).splitlines() if line.startswith(f"{s.pk},")
    )
    assert ",direct_deposit,011000015,123456789,checking," in row


def admin_user():
    from accounts.models import User

    return User.objects.get(email="admin@demo.test")


def test_bad_input_names_the_field_and_keeps_what_was_typed(survivor, client):
    alex, s = survivor
    client.force_login(alex)
    url = reverse("payments:payee_bank_account", args=[s.pk])
    bad = client.post(url, {**GOOD, "routing_number": "011000016"})
    html = bad.content.decode()
    assert bad.status_code == 400 and "Bank routing number: 9 digits" in html and "123456789" in html
    s.refresh_from_db()
    assert (
        s.method == "check" and not AuditEvent.objects.filter(event_type="payment.destination_given").exists()
    )


def test_only_the_continuing_payee_may_give_it(survivor, client, pat):
    _alex, s = survivor
    url = reverse("payments:payee_bank_account", args=[s.pk])
    client.force_login(pat)  # the participant's own login: not the survivor's payment
    assert client.get(url).status_code == 404
    client.force_login(UserFactory(email="someone@example.test"))
    assert client.post(url, GOOD).status_code == 404
    unverified = UserFactory(email="alex2@example.test")
    BeneficiaryLink.objects.create(
        user=unverified, participant=pat.participant, beneficiary_name="Alex Morgan", relationship="spouse"
    )
    client.force_login(unverified)
    assert client.get(url).status_code == 404


def test_a_returned_continuing_payment_is_paid_again_on_the_next_pay_date(survivor, admin):  # noqa: F811
    alex, s = survivor
    services.instruction_export(pay_date=date(2027, 3, 1), actor=admin)
    batch, checked = confirm(
        admin,
        [(s.pk, "2027-03-01", "returned", "2027-03-05", "AG-R1", "647.75", "account closed")],
        name="ret.csv",
    )
    assert batch.status == "applied", checked.errors
    i = PaymentInstalment.objects.get(payment=s, pay_date=date(2027, 3, 1))
    s.refresh_from_db()
    assert s.state == Payment.State.RETURNED and i.state == "returned"
    services.payee_destination_give(
        payment=s,
        user=alex,
        destination=dict(GOOD),
        masked="Checking account ending 6789",
        on=date(2027, 3, 10),
    )
    s.refresh_from_db()
    again = PaymentInstalment.objects.get(payment=s, pay_date=date(2027, 4, 1), sequence=2)
    assert again.gross == i.gross == Decimal("647.75") and again.withholding_basis == {"reissue_of": [i.pk]}
    assert s.state == "scheduled" and s.method == "direct_deposit"
