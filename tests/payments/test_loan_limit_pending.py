"""The largest new loan while a loan is approved and not yet paid out (issue 22, Carver 401(k) §8.2, §8.4(f)).

pat's vested loan base (§8.2(a), all sources 100% vested after 40 years): Before-Tax $148,250.00 +
Matching before 2002 $21,400.00 + Matching 2002 on $61,875.00 + Rollover $12,000.00 = $243,525.00.
The law's limit (Code §72(p)(2)(A), §8.2): the lesser of half the vested base ($121,762.50) and $50,000
less the highest outstanding balance in the 12 months before.

* No loan: min($121,762.50, $50,000 − $0) = $50,000.00.
* A $20,000.00 loan approved and scheduled, not yet paid out: counted as outstanding, so §8.4(f) (one
  loan at a time) gives $0.00 — the same figure as once it is paid out — and the §8.2(b) cap in the
  trace is $50,000 − $20,000 = $30,000.00.
* Paid out (confirmed): outstanding $20,000.00, $0.00.
* Repaid in full (§8.5(d)) inside the 12 months: min($121,762.50, $50,000 − $20,000) = $30,000.00.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from django.urls import reverse

from benefits.engine_adapter import membership_calculate
from benefits.models import AccountTransaction, AuditEvent
from elections.claims.limits import PENDING_LOAN_KEY
from elections.claims.views import _figures
from elections.models import ClaimState, ClaimType
from payments import services
from payments.loans import loan_limits_refresh
from payments.models import Payment
from tests.elections.conftest import membership
from tests.payments import test_payments as tp
from tests.payments.test_payments import PAY_DATE, confirm, loan

admin, single_pat = tp.admin, tp.single_pat  # the payment tests' fixtures

BASE = Decimal("243525.00")


def largest(m, on=PAY_DATE) -> tuple[Decimal, dict]:
    m.refresh_from_db()
    loan_out = membership_calculate(m, as_of=on)["loan"]
    return Decimal(loan_out["maximum_new_loan"]), loan_out


def statement(client, user, m) -> str:
    client.force_login(user)
    url = f"/benefits/participants/{m.participant_id}/plans/carver-401k/statement/"
    return " ".join(client.get(url).content.decode().split())


def claim_page_most(m) -> str:
    return dict(_figures(m, ClaimType.LOAN))["Most you can borrow (§8.2)"]


def test_an_approved_loan_counts_before_and_after_it_is_paid_out(single_pat, committee, admin, client):
    m = membership(single_pat, "carver-401k")
    most, out = largest(m)
    assert Decimal(out["base"]) == BASE
    assert most == min((BASE / 2), Decimal("50000") - 0) == Decimal("50000")

    claim = loan(single_pat, committee, amount="20000")
    assert claim.state == ClaimState.PAYMENT_SCHEDULED
    m.refresh_from_db()
    assert m.plan_data[PENDING_LOAN_KEY] == "20000.00"
    # Approved and scheduled, not yet paid out: §8.4(f) allows no second loan beside it.
    most, out = largest(m)
    assert most == Decimal("0.00") and not out["eligible"]
    assert out["approved_not_disbursed"] == "20000.00"
    cap = next(
        s
        for s in membership_calculate(m, as_of=PAY_DATE)["traces"]["loan"]
        if s["rule"].startswith("$50,000")
    )
    assert Decimal(cap["result"]) == Decimal("50000") - Decimal("20000")
    # The statement and the claim page read the same figure.
    page = statement(client, single_pat, m)
    assert "Loan approved and not yet paid out: $20,000.00" in page
    assert "Largest new loan available: $0.00" in page
    assert claim_page_most(m) == "$0.00"
    html = client.get(reverse("elections:claim_new", args=[m.pk, "loan"])).content.decode()
    assert "$50,000.00" not in html.split("Most you can borrow")[1][:200]
    event = AuditEvent.objects.filter(event_type="loan.pending_changed").latest("pk")
    assert event.extra_data["old"] == "0.00" and event.extra_data["new"] == "20000.00"

    # Paid out: the pending amount becomes the outstanding balance; the figure stays $0.00.
    payment = Payment.objects.get(claim=claim)
    services.instruction_export(pay_date=PAY_DATE, actor=admin)
    batch, checked = confirm(
        admin, [(payment.pk, "2026-12-01", "paid", "2026-12-01", "AG-L", "20000.00", "")]
    )
    assert batch.status == "applied", checked.errors
    claim.refresh_from_db()
    assert claim.state == ClaimState.LOAN_IN_EFFECT
    most, out = largest(m)
    assert PENDING_LOAN_KEY not in m.plan_data
    assert out["outstanding_balance"] == "20000.00" and out["approved_not_disbursed"] == "0.00"
    assert most == Decimal("0.00")
    page = statement(client, single_pat, m)
    assert "Loan outstanding: $20,000.00" in page and "not yet paid out" not in page
    assert "Largest new loan available: $0.00" in page
    assert claim_page_most(m) == "$0.00"

    # Repaid in full (§8.5(d)) on January 15, 2027: the $20,000 stays the highest balance of 12 months.
    AccountTransaction.objects.create(
        membership=m,
        source="before_tax",
        date=date(2027, 1, 15),
        kind="loan_repayment",
        amount=Decimal("20000.00"),
    )
    loan_limits_refresh([m], on=date(2027, 2, 1))
    most, out = largest(m, on=date(2027, 2, 1))
    assert out["outstanding_balance"] == "0.00" and out["highest_balance_last_12_months"] == "20000.00"
    assert most == min(BASE / 2, Decimal("50000") - Decimal("20000")) == Decimal("30000.00")
