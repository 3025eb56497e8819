"""Loans not repaid: the staff action that declares a default after the plan's cure period, and what it
posts (``benefits.engine.taxes.loans`` has the law).

``loan_default_declare`` (an administrator, one transaction, audited):
* the missed payment must be one of the loan's scheduled repayments not covered by the repayments posted
  since the loan was made; the default date is the end of the plan's cure period (the plan's
  ``LoanProgram.default``, which caps it at the last day of the calendar quarter after the quarter of the
  missed payment, Treas. Reg. §1.72(p)-1 Q&A-10); nothing is declared before that day;
* the amount is the outstanding balance on the default date, accrued interest included (Q&A-10);
* still employed on that day: a deemed distribution is posted (the loan stays in the Loan Account);
  otherwise a loan offset: the Loan Account's principal is applied back to the sources it was drawn
  from (``loan_offset``) and leaves them as a distribution of the same amount, and the membership's
  outstanding loan balance is recomputed (the accrued interest, never held in the books, is reported
  but not posted);
* either way the year's Form 1099-R gets a line (``taxes.services.year_lines``: code L, or M for a
  qualified plan loan offset).
Not built: the offset at Termination of Service of a loan already deemed distributed (the later offset
of a deemed loan is refused with that reason; see docs/payments/form-1099r.md).
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date
from decimal import Decimal

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone

from benefits import formatting
from benefits.audit import AuditEventType, audit_record
from benefits.engine.money import ZERO
from benefits.engine.plans import get_plan
from benefits.engine.taxes import loans as rules
from benefits.imports.kinds.loans import loan_balances
from benefits.models import LOAN_MOVEMENT_KINDS, AccountTransaction
from taxes.models import LoanDistribution


class LoanRefused(Exception):
    """The default cannot be declared; the message says why in plain words."""


def _movements(loan):
    membership = loan.payment.membership
    since = loan.made_on or loan.payment.first_pay_date
    return list(
        AccountTransaction.objects.filter(
            membership=membership, kind__in=LOAN_MOVEMENT_KINDS, date__gte=since
        )
    )


def principal_repaid(loan, on: date) -> Decimal:
    """Principal repaid on the loan by ``on``: the repayments posted since the loan was made (reading:
    the books do not say which loan a repayment is for, so a membership with two loans at once credits
    every repayment since this loan was made to it)."""
    return sum(
        (t.amount for t in _movements(loan) if t.kind == "loan_repayment" and t.date <= on), Decimal("0.00")
    )


def first_missed(loan, on: date) -> date | None:
    """The first scheduled repayment due on or before ``on`` that the repayments posted do not cover."""
    repaid = principal_repaid(loan, on)
    owed = Decimal("0")
    for r in loan.schedule:
        due = date.fromisoformat(str(r["due"]))
        if due > on:
            return None
        owed += Decimal(str(r["principal"]))
        if repaid < owed:
            return due
    return None


def loans_in_arrears(user, on: date) -> list[dict]:
    """Every loan made with a scheduled repayment missed (administrators only): the loan, the missed
    date, the end of the plan's cure period and whether it has been declared."""
    from payments.models import Loan
    from payments.selectors import require_admin

    require_admin(user)
    out = []
    loans = Loan.objects.filter(made_on__isnull=False).select_related(
        "payment__participant", "payment__membership__plan"
    )
    declared = {d.loan_id: d for d in LoanDistribution.objects.all()}
    for loan in loans.order_by("pk"):
        missed = first_missed(loan, on)
        if missed is None and loan.pk not in declared:
            continue
        program = get_plan(loan.payment.membership.plan.key).loans
        cure_ends = program.default(missed, employed=True).default_date if missed and program else None
        out.append(
            {"loan": loan, "missed": missed, "cure_ends": cure_ends, "declared": declared.get(loan.pk)}
        )
    return out


def loan_default_declare(
    *, loan, missed_due: date, actor, on: date | None = None, request=None
) -> LoanDistribution:
    """Declare the loan in default for the scheduled repayment missed on ``missed_due`` and post the
    deemed distribution or offset. ``LoanRefused`` says why it cannot be declared."""
    if not getattr(actor, "is_administrator", False):
        raise PermissionDenied("Only an administrator may declare a loan in default.")
    on = on or timezone.localdate()
    payment = loan.payment
    participant = payment.participant
    program = get_plan(payment.membership.plan.key).loans
    if program is None or not hasattr(program, "default"):
        raise LoanRefused("This plan has no loan default rule.")
    if loan.made_on is None:
        raise LoanRefused("The loan was never made (its disbursement is not confirmed paid).")
    dues = [date.fromisoformat(str(r["due"])) for r in loan.schedule]
    if missed_due not in dues:
        raise LoanRefused(
            f"{formatting.date_words(missed_due)} is not one of the loan's scheduled repayment dates."
        )
    repaid = principal_repaid(loan, on)
    owed_through = sum(
        (
            Decimal(str(r["principal"]))
            for r in loan.schedule
            if date.fromisoformat(str(r["due"])) <= missed_due
        ),
        Decimal("0"),
    )
    if repaid >= owed_through:
        raise LoanRefused(
            f"The repayment due {formatting.date_words(missed_due)} has been made (the repayments posted cover it)."
        )
    first = program.default(missed_due, employed=True)
    default_date = first.default_date
    if on < default_date:
        raise LoanRefused(
            f"The cure period runs to {formatting.date_words(default_date)}: the loan can be declared in default from then."
        )
    separation = participant.termination_date
    employed = separation is None or separation > default_date
    plan_rule = program.default(missed_due, employed=employed)
    owed = rules.outstanding(
        principal=loan.principal,
        schedule=loan.schedule,
        principal_repaid=principal_repaid(loan, default_date),
        on=default_date,
    )
    if owed.total <= ZERO:
        raise LoanRefused("Nothing is outstanding on the loan.")
    how = rules.treatment(default_date=default_date, separation_date=separation)
    if LoanDistribution.objects.filter(loan=loan).exists():
        raise LoanRefused(
            "This loan has already been declared in default. The offset at Termination of Service of a loan "
            "already deemed distributed is not handled here: report it by hand."
        )
    sections = "; ".join(dict.fromkeys(st.section for st in plan_rule.trace.steps if st.section))
    reason = f"{how.reason} In default on {formatting.date_words(default_date)} (the plan's {sections})."
    try:
        with transaction.atomic():
            row = LoanDistribution.objects.create(
                loan=loan,
                kind=how.kind,
                missed_due=missed_due,
                on=default_date,
                principal=owed.principal,
                interest=owed.interest,
                amount=owed.total,
                qualified_offset=how.qualified_offset,
                reason=reason[:400],
                declared_by=actor,
            )
            if how.kind == LoanDistribution.Kind.OFFSET:
                _post_offset(loan, row)
            audit_record(
                event_type=(
                    AuditEventType.LOAN_OFFSET
                    if how.kind == LoanDistribution.Kind.OFFSET
                    else AuditEventType.LOAN_DEEMED_DISTRIBUTED
                ),
                summary=f"Loan {loan.pk} of {participant.full_name} ({participant.participant_number}): "
                f"{row.get_kind_display().lower()} of {formatting.money(row.amount)} on {formatting.date_words(default_date)}",
                actor=actor,
                participant=participant,
                request=request,
                loan_id=loan.pk,
                kind=row.kind,
                missed_due=missed_due.isoformat(),
                default_date=default_date.isoformat(),
                principal=str(row.principal),
                interest=str(row.interest),
                amount=str(row.amount),
                qualified_offset=row.qualified_offset,
            )
    except IntegrityError:
        raise LoanRefused("This loan has already been declared in default.") from None
    return row


def _post_offset(loan, row: LoanDistribution) -> None:
    """The Loan Account applied back to the sources the loan came from (the principal each still lends),
    then distributed; the outstanding loan balance recomputed. The accrued interest is cancelled with the
    note and is part of the amount reported (Form 1099-R box 1), but the books never held it (interest is
    credited to the sources only when repaid), so only the principal moves through the accounts."""
    membership = loan.payment.membership
    out: dict[str, Decimal] = defaultdict(lambda: Decimal("0.00"))
    for t in _movements(loan):
        if t.date <= row.on:
            out[t.source] -= t.amount  # issued (negative) adds, repaid (positive) takes away
    sources = [(s, a) for s, a in out.items() if a > ZERO]
    if not sources:
        sources = [(s, Decimal(v)) for s, v in ((loan.payment.posting or {}).get("sources") or {}).items()]
    if not sources:
        raise LoanRefused(
            "The loan's sources are not known: its disbursement was not posted to the accounts."
        )
    total = sum((a for _, a in sources), Decimal("0"))
    # Post the principal in the sources' shares.
    parts: list[tuple[str, Decimal]] = []
    left = row.principal
    for i, (src, a) in enumerate(sources):
        part = left if i == len(sources) - 1 else (row.principal * a / total).quantize(Decimal("0.01"))
        left -= part
        parts.append((src, part))
    memo = f"Loan {loan.pk} offset on default"
    for src, amount in parts:
        if amount <= ZERO:
            continue
        AccountTransaction.objects.create(
            membership=membership, source=src, date=row.on, kind="loan_offset", amount=amount, memo=memo
        )
        AccountTransaction.objects.create(
            membership=membership,
            source=src,
            date=row.on,
            kind="distribution",
            amount=-amount,
            memo=f"{memo}: distributed (Form 1099-R)",
        )
    movements = [
        (t.date, -t.amount)
        for t in AccountTransaction.objects.filter(membership=membership, kind__in=LOAN_MOVEMENT_KINDS)
    ]
    outstanding, highest = loan_balances(movements, max(row.on, timezone.localdate()))
    data = dict(membership.plan_data or {})
    data["loans"] = {
        "outstanding_balance": f"{outstanding:.2f}",
        "highest_balance_last_12_months": f"{highest:.2f}",
    }
    membership.plan_data = data
    membership.save(update_fields=["plan_data"])
