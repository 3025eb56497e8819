"""Payment records built directly for the tax tests (the payments app's own services make them in use)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from payments.models import InstructionFile, Payment, PaymentInstalment
from taxes.services import instalment_withholding


def make_payment(
    membership,
    *,
    kind="single_sum",
    gross="10000.00",
    first=date(2026, 3, 2),
    method="direct_deposit",
    withholding=None,
    claim=None,
    frequency="once",
    number=None,
    payee=None,
    relationship="participant",
    destination=None,
) -> Payment:
    p = membership.participant
    return Payment.objects.create(
        membership=membership,
        participant=p,
        claim=claim,
        payee_name=payee or p.full_name,
        payee_relationship=relationship,
        kind=kind,
        frequency=frequency,
        gross=Decimal(gross),
        first_pay_date=first,
        number_of_payments=number,
        method=method,
        destination=destination or {},
        withholding_election=withholding or {},
    )


def pay(payment, pay_date: date, *, gross=None, sequence=1, state="paid") -> PaymentInstalment:
    """One instalment, withholding from the tax rules, instructed in a file and confirmed paid."""
    gross = Decimal(gross) if gross is not None else payment.gross
    withheld, basis = instalment_withholding(payment, gross=gross, pay_date=pay_date)
    n = InstructionFile.objects.filter(pay_date=pay_date).count() + 1
    f = InstructionFile.objects.create(
        pay_date=pay_date, sequence=n, content="", sha256="0" * 64, rows=1, total_gross=gross
    )
    return PaymentInstalment.objects.create(
        payment=payment,
        sequence=sequence,
        pay_date=pay_date,
        gross=gross,
        withholding=withheld,
        withholding_basis=basis,
        net=gross - withheld,
        state=state,
        instruction_file=f,
        paid_on=pay_date if state == "paid" else None,
        agent_reference=f"AG-{payment.pk}-{sequence}" if state == "paid" else "",
    )


def make_loan_in_arrears(membership, *, source="before_tax"):
    """A $10,000 loan made January 2, 2026, repaid on February 1 and March 1, 2026 and then not: the
    repayment due April 1, 2026 is missed. Its schedule: ten monthly payments of $1,000 principal with
    interest at 0.5% a month on the balance ($50, $45, $40, …)."""
    from benefits.models import AccountTransaction
    from payments.models import Loan

    payment = Payment.objects.create(
        membership=membership,
        participant=membership.participant,
        payee_name=membership.participant.full_name,
        kind="loan_disbursement",
        gross=Decimal("10000.00"),
        first_pay_date=date(2026, 1, 2),
        method="direct_deposit",
        state="paid",
        posting={"sources": {source: "10000.00"}},
    )
    schedule = []
    balance = Decimal("10000.00")
    for k in range(10):
        interest = (balance * Decimal("0.005")).quantize(Decimal("0.01"))
        balance -= Decimal("1000.00")
        schedule.append(
            {
                "due": date(2026, 2 + k, 1).isoformat() if k < 11 else "",
                "payment": str(Decimal("1000.00") + interest),
                "interest": str(interest),
                "principal": "1000.00",
                "balance": str(balance),
            }
        )
    loan = Loan.objects.create(
        payment=payment,
        principal=Decimal("10000.00"),
        rate_percent=Decimal("6.000"),
        term_months=10,
        level_payment=Decimal("1050.00"),
        first_due=date(2026, 2, 1),
        schedule=schedule,
        made_on=date(2026, 1, 2),
    )
    AccountTransaction.objects.create(
        membership=membership,
        source=source,
        date=date(2026, 1, 2),
        kind="loan_issued",
        amount=Decimal("-10000.00"),
    )
    for on in (date(2026, 2, 1), date(2026, 3, 1)):
        AccountTransaction.objects.create(
            membership=membership, source=source, date=on, kind="loan_repayment", amount=Decimal("1000.00")
        )
    return loan
