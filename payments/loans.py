"""Loan repayments collected and posted to the plan's books.

The mechanism: a loan's repayments are deducted from pay while the borrower is on the employer's
payroll (the plan's ``LoanTerms.repayment_words`` and ``repayment_section`` say how). The administrator
runs ``python manage.py loan_repayments_due DATE`` after each payroll (or ``loan_repayments_post``): every
scheduled repayment of a loan that was made (its disbursement confirmed paid) and that falls due on or
before DATE is posted, once, for borrowers on the payroll on its due date. A borrower who has left the
payroll repays in cash (the plan's loan section): those repayments are listed as awaiting payment and
are not posted by the run (they come back through the "Loans and repayments" data import).

Each posted repayment:
- credits its principal to the sources the loan was taken from, in the order the plan's text names
  (the engine's ``restore_in_order`` with the plan's ``payment_orders["loan"]``: the accounts it
  lent from, in the order its loan section sets), as ``loan_repayment`` transactions;
- credits its interest to the same sources in proportion, as ``earnings`` ("interest on your loan");
- records a ``LoanRepayment`` (one per loan and due date: a unique index, so a second run adds nothing);
- recomputes the membership's ``plan_data.loans`` (outstanding principal and the highest outstanding
  balance of the 12 months before the run) from every loan movement in its books, which is what the
  engine's loan limit reads (Code §72(p)(2)(A); the plan's loan section).

Everything is read and written in bulk: a run's queries do not grow with the number of loans.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from django.db import connection, transaction

from benefits.audit import AuditEventType, audit_record_many
from benefits.engine.payment_order import PRO_RATA, in_proportion, restore_in_order
from benefits.engine.plans import get_plan
from benefits.imports.kinds.loans import loan_balances
from benefits.models import LOAN_MOVEMENT_KINDS, AccountTransaction, PlanMembership
from payments.models import Loan, LoanRepayment
from payments.services import _require_admin

LOAN_KINDS = LOAN_MOVEMENT_KINDS  # an offset (issue 27) ends what is owed too


@dataclass
class RepaymentRun:
    on: date
    posted: int = 0
    principal: Decimal = Decimal("0.00")
    interest: Decimal = Decimal("0.00")
    awaiting: list[dict] = field(default_factory=list)  # due, not on the payroll: repaid in cash
    memberships: int = 0

    def as_dict(self) -> dict:
        return {
            "date": self.on.isoformat(),
            "posted": self.posted,
            "principal": f"{self.principal:.2f}",
            "interest": f"{self.interest:.2f}",
            "memberships_updated": self.memberships,
            "awaiting_cash": self.awaiting,
        }


def memo(loan_id: int, number: int, due: date, line: str) -> str:
    return f"Loan {loan_id}, repayment {number} due {due.isoformat()}: {line}"


def on_payroll(participant, on: date) -> bool:
    """On the employer's payroll on ``on``: hired and not yet terminated (repaid by payroll deduction:
    the plan's ``LoanTerms.repayment_section``)."""
    t = participant.termination_date
    return participant.hire_date <= on and (t is None or t >= on)


def _loan_order(plan_key: str):
    orders = getattr(get_plan(plan_key), "payment_orders", None) or {}
    return orders.get("loan") or PRO_RATA


def loan_repayments_post(*, on: date, actor=None, request=None) -> RepaymentRun:
    """Post every repayment due on or before ``on`` that payroll collected (idempotent, bulk)."""
    _require_admin(actor)
    run = RepaymentRun(on)
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [22, 0])
        loans = list(
            Loan.objects.filter(made_on__isnull=False, made_on__lte=on)
            .select_related("payment__participant", "payment__membership__plan")
            .order_by("pk")
        )
        posted = defaultdict(dict)  # loan -> {due: credited}
        for r in LoanRepayment.objects.filter(loan__in=loans).values("loan_id", "due", "credited"):
            posted[r["loan_id"]][r["due"]] = r["credited"]
        txs: list[AccountTransaction] = []
        rows: list[LoanRepayment] = []
        audit: list[dict] = []
        touched: dict[int, PlanMembership] = {}
        for loan in loans:
            p = loan.payment
            borrowed = {s: Decimal(v) for s, v in ((p.posting or {}).get("sources") or {}).items()}
            if not borrowed:
                continue
            order = _loan_order(p.membership.plan.key)
            restored: dict[str, Decimal] = defaultdict(Decimal)
            for credited in posted[loan.pk].values():
                for s, v in (credited or {}).items():
                    restored[s] += Decimal(v)
            for n, entry in enumerate(loan.schedule, start=1):
                due = date.fromisoformat(entry["due"])
                if due > on or due in posted[loan.pk]:
                    continue
                if not on_payroll(p.participant, due):
                    run.awaiting.append(
                        {"loan": loan.pk, "payment": p.pk, "due": due.isoformat(), "amount": entry["payment"]}
                    )
                    continue
                principal, interest = Decimal(entry["principal"]), Decimal(entry["interest"])
                credit = restore_in_order(borrowed, restored, principal, order)
                for s, v in credit.items():
                    restored[s] += v
                interest_by = in_proportion(credit, interest)
                for s, v in credit.items():
                    txs.append(
                        AccountTransaction(
                            membership_id=p.membership_id,
                            source=s,
                            date=due,
                            kind="loan_repayment",
                            amount=v,
                            memo=memo(loan.pk, n, due, "principal repaid"),
                        )
                    )
                for s, v in interest_by.items():
                    txs.append(
                        AccountTransaction(
                            membership_id=p.membership_id,
                            source=s,
                            date=due,
                            kind="earnings",
                            amount=v,
                            memo=memo(loan.pk, n, due, "interest on your loan"),
                        )
                    )
                rows.append(
                    LoanRepayment(
                        loan=loan,
                        sequence=n,
                        due=due,
                        amount=principal + interest,
                        interest=interest,
                        principal=principal,
                        balance_after=Decimal(entry["balance"]),
                        credited={s: f"{v:.2f}" for s, v in credit.items()},
                        via=LoanRepayment.Via.PAYROLL,
                        posted_on=on,
                    )
                )
                audit.append(
                    {
                        "summary": f"Loan {loan.pk}: repayment {n} due {due} posted "
                        f"({principal} principal, {interest} interest)",
                        "participant_id": p.participant_id,
                        "payment_id": p.pk,
                        "loan_id": loan.pk,
                        "record": "loanrepayment",
                        "old_state": "due",
                        "new_state": "posted",
                        "old_balance": f"{Decimal(entry['balance']) + principal:.2f}",
                        "new_balance": entry["balance"],
                    }
                )
                run.posted += 1
                run.principal += principal
                run.interest += interest
            touched[p.membership_id] = p.membership
        LoanRepayment.objects.bulk_create(rows, batch_size=5000)
        AccountTransaction.objects.bulk_create(txs, batch_size=5000)
        run.memberships = loan_limits_refresh(list(touched.values()), on=on)
        audit_record_many(
            event_type=AuditEventType.PAYMENT_STATE_CHANGED, rows=audit, actor=actor, request=request
        )
    return run


def loan_limits_refresh(memberships: list[PlanMembership], *, on: date) -> int:
    """``plan_data.loans`` of each membership from its loan movements up to ``on`` (two queries)."""
    if not memberships:
        return 0
    movements = defaultdict(list)
    for mid, d, amount in AccountTransaction.objects.filter(
        membership__in=memberships, kind__in=LOAN_KINDS
    ).values_list("membership_id", "date", "amount"):
        movements[mid].append((d, -amount))  # lent out: positive; repaid: negative
    changed = []
    for m in memberships:
        outstanding, highest = loan_balances(movements[m.pk], on)
        loans = {
            "outstanding_balance": f"{outstanding:.2f}",
            "highest_balance_last_12_months": f"{highest:.2f}",
        }
        if (m.plan_data or {}).get("loans") != loans:
            m.plan_data = {**(m.plan_data or {}), "loans": loans}
            changed.append(m)
    PlanMembership.objects.bulk_update(changed, ["plan_data"], batch_size=2000)
    return len(changed)
