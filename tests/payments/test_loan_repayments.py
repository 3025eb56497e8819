"""Loan repayments posted to the books (issue 22, item 5), worked from the Carver 401(k)'s Article VIII.

pat borrows $10,000 for 24 months (AS_OF November 21, 2026; the disbursement paid December 1, 2026).
While on the payroll the loan is repaid by payroll deduction, 26 a year (§8.5(a)), the first no later
than three weeks after the loan is processed: December 12, 2026, then every 14 days. Interest each
period is the unpaid balance times the yearly rate / 26, to the cent (§8.3: a reasonable rate fixed for
the loan's life). Each repayment is credited to the accounts "in the order of priority established
under Section 8.4(b)" (§8.5(c)); the limit on a new loan is the lesser of half the loan base and
$50,000 less the highest outstanding balance of the preceding 12 months (§8.2; Code §72(p)(2)(A)),
and only one loan may be outstanding (§8.4(f)).
"""

from __future__ import annotations

import json
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from io import StringIO

import pytest
from django.core.management import call_command

from benefits.engine.payment_order import PaymentOrder, restore_in_order
from benefits.engine.plans import get_plan
from benefits.engine_adapter import membership_calculate
from benefits.models import AccountTransaction
from payments import services
from payments.loans import loan_repayments_post
from payments.models import LoanRepayment, Payment
from tests.elections.conftest import membership
from tests.payments import test_payments as tp
from tests.payments.test_payments import confirm, loan

admin, single_pat = tp.admin, tp.single_pat  # the payment tests' fixtures

pytestmark = pytest.mark.django_db
CENT = Decimal("0.01")
PAY_DATE = date(2026, 12, 1)


def made_loan(pat, committee, admin, amount="10000"):
    claim = loan(pat, committee, amount)
    payment = Payment.objects.get(claim=claim)
    services.instruction_export(pay_date=PAY_DATE, actor=admin)
    batch, checked = confirm(admin, [(payment.pk, "2026-12-01", "paid", "2026-12-01", "AG-L", amount, "")])
    assert batch.status == "applied", checked.errors
    payment.refresh_from_db()
    return payment


# ------------------------------------------------------------------------------ §8.5(c), the engine


def test_a_repayment_restores_the_accounts_in_the_8_4b_order():
    # §8.4(b) lent $3,000 from the Before-Tax account (i) and $7,000 from the Rollover account (ii).
    order = get_plan("carver-401k").payment_orders["loan"]
    borrowed = {"before_tax": Decimal("3000.00"), "rollover": Decimal("7000.00")}
    # §8.5(c): nothing goes to Rollover until Before-Tax is restored by the $3,000 borrowed from it.
    first = restore_in_order(borrowed, {}, Decimal("2500.00"), order)
    assert first == {"before_tax": Decimal("2500.00")}
    second = restore_in_order(borrowed, first, Decimal("800.00"), order)
    assert second == {"before_tax": Decimal("500.00"), "rollover": Decimal("300.00")}
    # once restored, the rest goes to Rollover only
    third = restore_in_order(
        borrowed, {"before_tax": Decimal("3000.00"), "rollover": Decimal("300.00")}, Decimal("400.00"), order
    )
    assert third == {"rollover": Decimal("400.00")}


def test_inside_a_group_the_repayment_is_pro_rata_to_what_each_source_lacks():
    order = PaymentOrder((("a", "b"), ("c",)), "test")
    got = restore_in_order(
        {"a": Decimal("100"), "b": Decimal("300"), "c": Decimal("50")}, {}, Decimal("200"), order
    )
    assert got == {"a": Decimal("50.00"), "b": Decimal("150.00")}


# ------------------------------------------------------------------------------ posted by payroll


def schedule_by_hand(principal: Decimal, rate_percent: Decimal, n: int):
    """Level payment and the first rows, worked independently of the engine."""
    i = rate_percent / 100 / 26
    level = (principal * i / (1 - (1 + i) ** -n)).quantize(CENT, ROUND_HALF_UP)
    rows, bal = [], principal
    for _ in range(3):
        interest = (bal * i).quantize(CENT, ROUND_HALF_UP)
        prin = level - interest
        bal -= prin
        rows.append((level, interest, prin, bal))
    return level, rows


def test_payroll_repayments_post_reduce_the_balance_and_credit_the_sources(single_pat, committee, admin):
    payment = made_loan(single_pat, committee, admin)
    loan_ = payment.loan
    m = membership(single_pat, "carver-401k")
    n = 24 * 26 // 12  # §8.3 term, 26 payroll deductions a year (§8.5(a))
    assert len(loan_.schedule) == n
    first_due = date.fromisoformat(loan_.schedule[0]["due"])
    assert first_due <= date(2026, 11, 21) + timedelta(weeks=3)  # §8.5(a): within three weeks
    level, rows = schedule_by_hand(Decimal("10000.00"), loan_.rate_percent, n)
    assert loan_.level_payment == level

    third_due = first_due + timedelta(days=28)
    run = loan_repayments_post(on=third_due, actor=admin)
    assert run.posted == 3 and run.awaiting == []
    posted = list(LoanRepayment.objects.filter(loan=loan_).order_by("due"))
    assert [(r.amount, r.interest, r.principal, r.balance_after) for r in posted] == rows
    m.refresh_from_db()
    assert m.plan_data["loans"]["outstanding_balance"] == f"{rows[2][3]:.2f}"
    # the highest balance of the last 12 months is the $10,000 lent
    assert m.plan_data["loans"]["highest_balance_last_12_months"] == "10000.00"
    # the principal goes back to the sources the loan came from (§8.5(c)), the interest with it
    borrowed = {s: Decimal(v) for s, v in payment.posting["sources"].items()}
    repaid = AccountTransaction.objects.filter(membership=m, kind="loan_repayment")
    assert sum(t.amount for t in repaid) == sum(r[2] for r in rows)
    first_source = next(
        s for g in get_plan("carver-401k").payment_orders["loan"].groups for s in g if s in borrowed
    )
    if borrowed[first_source] >= sum(r[2] for r in rows):
        assert {t.source for t in repaid} == {first_source}
    interest = AccountTransaction.objects.filter(
        membership=m, kind="earnings", memo__contains="interest on your loan"
    )
    assert sum(t.amount for t in interest) == sum(r[1] for r in rows)

    # Run again: nothing is posted twice (one repayment per loan and due date).
    again = loan_repayments_post(on=third_due, actor=admin)
    assert again.posted == 0 and LoanRepayment.objects.filter(loan=loan_).count() == 3

    # §8.4(f): while the loan is outstanding no new loan can be made.
    result = membership_calculate(m, as_of=third_due)
    assert Decimal(result["loan"]["maximum_new_loan"]) == 0
    # The statement shows the outstanding balance and the largest new loan recomputed.
    from benefits.presenters.statements import statement_payload
    from benefits.statement_inputs import statement_figures

    shown = statement_payload(statement_figures(m, today=third_due))["loan"]
    assert shown["outstanding"] == f"{rows[2][3]:.2f}" and Decimal(shown["maximum_new_loan"]) == 0


def test_a_repaid_loan_leaves_50000_less_its_highest_balance_for_12_months(single_pat, committee, admin):
    payment = made_loan(single_pat, committee, admin)
    last_due = date.fromisoformat(payment.loan.schedule[-1]["due"])
    out = StringIO()
    call_command("loan_repayments_due", last_due.isoformat(), "--json", stdout=out)
    line = json.loads(out.getvalue().strip().splitlines()[-1])
    assert line["posted"] == len(payment.loan.schedule)
    assert Decimal(line["principal"]) == Decimal("10000.00")  # the last payment clears the balance
    m = membership(single_pat, "carver-401k")
    m.refresh_from_db()
    assert m.plan_data["loans"]["outstanding_balance"] == "0.00"
    # The 12 months before the last repayment (§8.2(b)) still hold balances: the highest of them is
    # what the principal stood at 12 months earlier.
    year_before = last_due.replace(year=last_due.year - 1)
    carried = max(
        Decimal(r["balance"]) + Decimal(r["principal"])
        for r in payment.loan.schedule
        if date.fromisoformat(r["due"]) >= year_before
    )
    assert Decimal(m.plan_data["loans"]["highest_balance_last_12_months"]) == carried
    result = membership_calculate(m, as_of=last_due)
    base = Decimal(result["loan"]["maximum_new_loan"])
    assert base <= Decimal("50000.00") - carried


def _fake_loans(k: int, offset: int) -> None:
    from benefits.models import PlanMembership
    from payments.models import Loan

    members = list(PlanMembership.objects.filter(plan__key="carver-401k"))
    # (one loan at a time per borrower in the plan, §8.4(f): these are records for counting queries; the
    # due dates differ so no two repayments share a membership, source and date)
    for j in range(offset, offset + k):
        m = members[j % len(members)]
        p = Payment.objects.create(
            membership=m,
            participant_id=m.participant_id,
            payee_name=f"Borrower {j}",
            kind="loan_disbursement",
            gross=Decimal("1000.00"),
            first_pay_date=date(2025, 1, 1),
            number_of_payments=1,
            method="check",
            state="paid",
            posting={"section": "Plan §8.4(b)", "sources": {"before_tax": "1000.00"}},
        )
        Loan.objects.create(
            payment=p,
            principal=Decimal("1000.00"),
            rate_percent=Decimal("8.000"),
            term_months=1,
            level_payment=Decimal("502.50"),
            first_due=date(2026, 1, 15),
            made_on=date(2025, 1, 1),
            schedule=[
                {
                    "due": (date(2025, 1, 1) + timedelta(days=j)).isoformat(),
                    "payment": "503.08",
                    "interest": "3.08",
                    "principal": "500.00",
                    "balance": "500.00",
                },
                {
                    "due": (date(2025, 1, 1) + timedelta(days=j + 200)).isoformat(),
                    "payment": "501.54",
                    "interest": "1.54",
                    "principal": "500.00",
                    "balance": "0.00",
                },
            ],
        )


def test_a_repayment_run_makes_the_same_queries_for_2_loans_as_for_12(demo, admin):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    _fake_loans(2, 0)
    with CaptureQueriesContext(connection) as small:
        assert loan_repayments_post(on=date(2026, 2, 1), actor=admin).posted == 4
    _fake_loans(12, 100)
    with CaptureQueriesContext(connection) as big:
        run = loan_repayments_post(on=date(2026, 2, 1), actor=admin)
    # borrowers who left the payroll repay in cash (§8.5(a)): listed, not posted
    assert run.posted + len(run.awaiting) == 24 and run.awaiting
    assert len(big) <= len(small) + 2  # a plan_data update when a balance changed: bulk, never per loan
