"""Carver defined benefit: an annuity in pay once the first payment is confirmed. See conftest.py for the dates."""

from __future__ import annotations

from decimal import Decimal

import pytest

from elections.models import Claim, ClaimState
from payments.models import Payment
from tests.browser.conftest import assert_accessible, login, screenshot
from tests.browser.payments.conftest import (
    PAY_DATE,
    admin_verifies,
    choose,
    logout,
    my_payments,
    pay_date_confirmed,
    read_explanation_and_choose,
    sign,
    submit,
    upload_consent,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_carver_db_annuity_in_pay_after_the_first_payment_is_confirmed(page, demo, tmp_path):
    # The demo's own claim: pat's Carver DB benefit from January 1, 2027, approved by the committee
    # (load_demo files and decides it with the services) and waiting for his election.
    claim = Claim.objects.get(participant__user__email="pat@demo.test", membership__plan__key="carver-db")
    assert claim.state == ClaimState.ELECTION_REQUIRED and claim.details["commencement_date"] == "2027-01-01"

    login(page, "pat@demo.test")
    read_explanation_and_choose(page, claim, "Single life annuity")
    choose(page, "Direct deposit to my bank account")
    page.get_by_label("Bank routing number (9 digits)").fill("011000015")
    page.locator("input[name=account_number]").fill("12345678")
    page.locator("select[name=account_type]").select_option("checking")
    page.get_by_label("Federal income tax withholding on monthly payments (Form W-4P)").select_option(
        "married"
    )
    submit(page, "Continue")
    sign(page)
    # §417(a)(2): waiving the joint and survivor annuity needs the spouse's notarized consent.
    upload_consent(page, tmp_path)
    logout(page)
    admin_verifies(page, "Pat Morgan: Single life annuity")
    payment = Payment.objects.get(claim=claim)
    assert (payment.kind, payment.frequency, payment.first_pay_date) == ("annuity", "monthly", PAY_DATE)
    monthly = payment.gross

    login(page, "pat@demo.test")
    page.goto("/")
    assert "In pay since" not in page.locator("main").inner_text()  # not before the agent confirms
    logout(page)

    rows = pay_date_confirmed(page, demo, "db")
    (row,) = [r for r in rows if r["payment"] == str(payment.pk)]
    assert (row["kind"], Decimal(row["gross"])) == ("annuity", monthly)
    assert Decimal(row["net"]) == Decimal(row["gross"]) - Decimal(row["withholding"])

    mine = my_payments(page, "pat@demo.test")
    assert f"${monthly:,.2f}" in mine and "January 1, 2027" in mine
    page.goto("/")
    dashboard = page.locator("main").inner_text()
    assert f"In pay since January 1, 2027, ${monthly:,.2f} a month" in dashboard, dashboard[:1500]
    assert_accessible(page)
    screenshot(page, "db-in-pay-dashboard")
    payment.refresh_from_db()
    claim.refresh_from_db()
    assert payment.state == "in_pay" and claim.state == ClaimState.IN_PAY
