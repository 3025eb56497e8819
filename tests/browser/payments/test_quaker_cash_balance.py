"""Quaker City cash balance: a lump sum by direct rollover, claim to posted payment (issue 27). See conftest.py for the dates."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from playwright.sync_api import expect

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
    read_explanation_and_choose,
    sign,
    submit,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_quaker_lump_sum_by_direct_rollover_with_its_402f_notice_and_w4r(page, demo):
    # QCB-20001 (Ana Silva) left Quaker City in 2014, unmarried: no spouse's consent (§417(a)(2)).
    user, m = person("QCB-20001", "quaker-cash-balance")
    claim = file_claim(user, m, "lump_sum", {"commencement_date": PAY_DATE})
    committee_approves(page, claim, "Plan §5.4, §6.2")

    login(page, user.email)
    read_explanation_and_choose(page, claim, "Lump sum")
    # Payment and taxes: a single sum is an eligible rollover distribution (Code §402(c)(4)); the
    # page asks direct payment or direct rollover and, for what is paid to her, Form W-4R.
    body = page.locator("main").inner_text()
    assert "eligible rollover distribution" in body and "Form W-4R" in body
    choose(page, "Direct rollover to an IRA or another plan")
    page.get_by_label("Where should the rollover go?").select_option("ira")
    page.get_by_label("Name of the IRA trustee or plan").fill("Example Trust Company")
    page.get_by_label("Account number at that trustee or plan").fill("IRA-00987654")
    assert_accessible(page)
    submit(page, "Continue")
    sign(page)
    claim.refresh_from_db()
    assert claim.state == ClaimState.PAYMENT_SCHEDULED
    payment = Payment.objects.get(claim=claim)
    assert (payment.method, payment.first_pay_date, payment.state) == (
        "direct_rollover",
        PAY_DATE,
        "scheduled",
    )
    # The §402(f) notice is on her documents page, issued at least 30 days before the payment.
    page.goto("/")
    page.get_by_role("link", name=re.compile("documents")).first.click()
    expect(page.get_by_text(re.compile("rollover", re.I)).first).to_be_visible()
    assert_accessible(page)
    page.goto("/payments/")
    mine = page.locator("main").inner_text()
    assert "scheduled for January 1, 2027" in mine.replace("Scheduled", "scheduled")
    assert "Paid on" not in mine
    logout(page)

    rows = pay_date_confirmed(page, demo, "quaker")
    (row,) = [r for r in rows if r["payment"] == str(payment.pk)]
    # Code §3405(c)(2): no withholding on a direct rollover; the whole sum goes to the IRA.
    gross = Decimal(row["gross"])
    assert (row["method"], Decimal(row["withholding"]), Decimal(row["net"])) == (
        "direct_rollover",
        Decimal("0.00"),
        gross,
    )
    assert gross == payment.gross and "Example Trust Company" in row["rollover_to"]

    mine = my_payments(page, user.email)
    assert "Paid on January 1, 2027" in mine
    assert f"${gross:,.2f}" in mine and "$0.00" in mine  # gross, nothing withheld, net
    assert "ending 7654" in mine and "IRA-00987654" not in mine  # the account masked
    screenshot(page, "quaker-paid")
    page.goto("/")
    assert "Paid on January 1, 2027" in page.locator("main").inner_text()
    assert_accessible(page)
    payment.refresh_from_db()
    claim.refresh_from_db()
    assert payment.state == "paid" and claim.state == ClaimState.PAID
