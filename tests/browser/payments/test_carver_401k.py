"""Carver 401(k): an age 59½ withdrawal, claim to posted payment and statement. See conftest.py for the dates."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from accounts.models import User
from benefits.models import PlanMembership
from elections.claims import services as claims
from elections.models import Claim, ClaimState
from tests.browser.conftest import assert_accessible, login, screenshot
from tests.browser.payments.conftest import (
    AS_OF,
    PAY_DATE,
    admin_verifies,
    committee_approves,
    logout,
    my_payments,
    pay_date_confirmed,
    submit,
    upload_consent,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_carver_401k_age_59_half_withdrawal_paid_and_posted_to_the_statement(page, demo, tmp_path):
    pat = User.objects.get(email="pat@demo.test")
    m = PlanMembership.objects.get(participant__user=pat, plan__key="carver-401k")
    from benefits.engine_adapter import membership_calculate

    before = Decimal(membership_calculate(m, as_of=AS_OF)["account"]["vested_balance"])

    # Pat files the withdrawal on the claim page: how to pay it and Form W-4R (issue 27).
    login(page, "pat@demo.test")
    page.goto(f"/claims/new/{m.pk}/withdrawal_59half/")
    page.get_by_label("Amount (dollars)").fill("10000")
    page.get_by_label("Requested payment date").fill(PAY_DATE.isoformat())
    page.get_by_label("How to pay the withdrawal").select_option("direct_payment")
    page.locator("input[name=w4r_rate]").fill("25")
    assert_accessible(page)
    submit(page, "Submit the claim")
    claim = Claim.objects.get(membership=m, claim_type="withdrawal_59half")
    logout(page)

    # §9.5: any one member of the Committee decides a 401(k) claim.
    claims.claim_start_review(claim=claim, actor=User.objects.get(email="committee@demo.test"), on=AS_OF)
    committee_approves(page, claim, "Plan §7.3")

    # §7.2(a): a married participant's withdrawal waits for the spouse's consent, then is scheduled.
    login(page, "pat@demo.test")
    page.goto(f"/claims/{claim.pk}/")
    upload_consent(page, tmp_path)
    logout(page)
    admin_verifies(page, "Pat Morgan")
    claim.refresh_from_db()
    assert claim.state == ClaimState.PAYMENT_SCHEDULED
    assert claim.next_step == "Scheduled for January 1, 2027: Age 59½ withdrawal (401(k)), $10,000.00."

    rows = pay_date_confirmed(page, demo, "k401")
    (row,) = [r for r in rows if r["participant_number"] == "CFS-10001"]
    # Code §3405(c)(1) and Form W-4R: Pat chose 25% (at least 20%) of $10,000 = $2,500; net $7,500.
    assert (row["kind"], row["gross"], row["withholding"], row["net"]) == (
        "single_sum",
        "10000.00",
        "2500.00",
        "7500.00",
    )

    mine = my_payments(page, "pat@demo.test")
    assert "Paid on January 1, 2027" in mine and "$2,500.00" in mine and "$7,500.00" in mine
    # The statement for the period with the pay date shows the withdrawal; the balance falls by it.
    page.goto(f"/benefits/participants/{m.participant_id}/plans/carver-401k/statement/")
    statement = page.locator("main").inner_text()
    assert "$10,000.00" in statement
    assert_accessible(page)
    screenshot(page, "k401-statement-after")
    after = Decimal(membership_calculate(m, as_of=date(2027, 1, 4))["account"]["vested_balance"])
    assert before - after == Decimal("10000.00")
    page.goto("/")
    assert "Paid on January 1, 2027" in page.locator("main").inner_text()
