"""Fairport ESOP: a distribution in shares and cash, paid and shown. See conftest.py for the dates."""

from __future__ import annotations

from decimal import Decimal

import pytest

from elections.models import ClaimState
from payments.models import Payment
from tests.browser.conftest import assert_accessible, login, screenshot
from tests.browser.payments.conftest import (
    PAY_DATE,
    choose,
    committee_approves,
    file_claim,
    logout,
    my_payments,
    pay_date_confirmed,
    person,
    sign,
    submit,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_fairport_esop_distribution_paid_and_shown(page, demo):
    # FSB-40002 (Paul Nguyen) left Fairport on July 14, 2023, 80% vested, unmarried: his vested account
    # is distributable after leaving, with no spouse's consent.
    user, m = person("FSB-40002", "fairport-esop")
    claim = file_claim(user, m, "esop_distribution", {"commencement_date": PAY_DATE})
    committee_approves(page, claim, "Plan §10.1")

    login(page, user.email)
    page.goto(f"/claims/{claim.pk}/")
    submit(page, "Read the explanation and make my election")
    choose(page, "I have read this explanation of my choices, my rights and the dates.")
    submit(page, "Continue to choose a form of payment")
    first = page.locator("input[name=form]").first
    page.locator(f"label[for='{first.get_attribute('id')}']").click()
    submit(page, "Continue")
    choose(page, "Direct deposit to my bank account")
    page.get_by_label("Bank routing number (9 digits)").fill("011000015")
    page.locator("input[name=account_number]").fill("12345678")
    page.locator("select[name=account_type]").select_option("checking")
    if page.locator("input[name=w4r_rate]").count():
        page.locator("input[name=w4r_rate]").fill("20")
    assert_accessible(page)
    submit(page, "Continue")
    sign(page)
    claim.refresh_from_db()
    assert claim.state == ClaimState.PAYMENT_SCHEDULED, claim.next_step
    payment = Payment.objects.get(claim=claim)
    assert payment.first_pay_date == PAY_DATE
    logout(page)

    rows = pay_date_confirmed(page, demo, "esop")
    (row,) = [r for r in rows if r["payment"] == str(payment.pk)]
    assert Decimal(row["net"]) == Decimal(row["gross"]) - Decimal(row["withholding"])
    # Plan §9.6, §10.6: his 334.7439 vested shares ($3,816.08) go as 334 shares ($3,807.60) and the fraction
    # in cash ($8.48); the 20% withholding is limited to that cash (Code §3405(e)(8)).
    assert (row["gross"], row["withholding"], row["shares"]) == ("3816.08", "8.48", "334")

    mine = my_payments(page, user.email)
    assert "January 1, 2027" in mine and f"${Decimal(row['gross']):,.2f}" in mine
    assert "ending 5678" in mine and "12345678" not in mine
    page.goto(
        f"/benefits/participants/{m.participant_id}/plans/fairport-esop/statement/?start=2026-01-01&end=2027-01-01"
    )
    statement = page.locator("main").inner_text()
    assert "Distributions" in statement and "-334.7439" in statement and "-$3,816.08" in statement
    assert_accessible(page)
    screenshot(page, "esop-statement-after")
    page.goto("/")
    assert (
        "Paid on January 1, 2027" in page.locator("main").inner_text()
        or "In pay since" in page.locator("main").inner_text()
    )
    assert_accessible(page)
    payment.refresh_from_db()
    assert payment.state in ("paid", "in_pay")
