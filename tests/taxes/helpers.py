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
