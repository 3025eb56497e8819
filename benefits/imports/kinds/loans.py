"""Participant loans: each loan issued and each repayment of principal, by date."""

from __future__ import annotations

from collections import defaultdict
from datetime import date
from decimal import Decimal

from django.utils import timezone

from benefits.imports import cells as c
from benefits.imports.kinds.base import Cells, Column, Kind, Target
from benefits.imports.kinds.common import (
    MONEY_MAX,
    PARTICIPANT,
    PLAN,
    label,
    membership,
    membership_context,
    source,
)
from benefits.imports.kinds.transactions import existing_transactions
from benefits.models import LOAN_MOVEMENT_KINDS, AccountTransaction, PlanMembership

TYPES = {"issued": "loan_issued", "repayment": "loan_repayment"}
ZERO = Decimal("0.00")


def twelve_months_before(day: date) -> date:
    try:
        return day.replace(year=day.year - 1)
    except ValueError:  # February 29
        return day.replace(year=day.year - 1, day=28)


def loan_balances(movements: list[tuple[date, Decimal]], today: date) -> tuple[Decimal, Decimal]:
    """Outstanding principal today and the highest outstanding principal in the 12 months before today.

    ``movements`` are (date, principal lent out as positive / repaid as negative)."""
    balance = ZERO
    window_start = twelve_months_before(today)
    highest: Decimal | None = None
    for on, change in sorted(movements):
        if on > today:
            break
        if on >= window_start and highest is None:
            highest = balance  # the balance carried into the window
        balance += change
        if highest is not None:
            highest = max(highest, balance)
    if highest is None:
        highest = balance
    return max(balance, ZERO), max(highest, balance, ZERO)


class LoansKind(Kind):
    def context(self, table):
        ctx = membership_context(table)
        ctx["today"] = timezone.localdate()
        return ctx

    def targets(self, row: Cells, ctx: dict) -> list[Target]:
        m = membership(row, ctx)
        src = source(row, m, ctx)
        on = row.get("date", c.a_date)
        kind = row.get("type", c.choice, TYPES)
        amount = row.get("amount", c.decimal, places=2, low=Decimal("0.01"), high=MONEY_MAX)
        memo = row.get("memo", c.text, max_length=200, required=False)
        row.done()
        # A loan issued takes money out of the source; a repayment puts it back (AccountTransaction signs).
        signed = -amount if kind == "loan_issued" else amount
        values = {"amount": signed, **({"memo": memo} if "memo" in row.cells else {})}
        return [
            Target(
                AccountTransaction,
                (m.pk, src, on, kind),
                {"membership": m, "source": src, "date": on, "kind": kind},
                values,
                label=label(m, src, on, kind),
            )
        ]

    def existing(self, model, keys, ctx):
        return existing_transactions(keys, tuple(TYPES.values()))

    def derived(self, planned: list[Target], ctx: dict) -> list[Target]:
        """plan_data.loans (engine contract) from every loan movement of the membership, stored and in the file."""
        by_membership: dict[PlanMembership, dict[tuple, Decimal]] = defaultdict(dict)
        members = {t.lookup["membership"] for t in planned}
        stored = AccountTransaction.objects.filter(membership__in=members, kind__in=LOAN_MOVEMENT_KINDS)
        index = {m.pk: m for m in members}
        for t in stored:
            by_membership[index[t.membership_id]][(t.membership_id, t.source, t.date, t.kind)] = t.amount
        for t in planned:
            by_membership[t.lookup["membership"]][t.key] = t.values["amount"]
        out = []
        for m, amounts in by_membership.items():
            movements = [(key[2], -amount) for key, amount in amounts.items()]
            outstanding, highest = loan_balances(movements, ctx["today"])
            data = dict(m.plan_data)
            data["loans"] = {
                "outstanding_balance": f"{outstanding:.2f}",
                "highest_balance_last_12_months": f"{highest:.2f}",
            }
            out.append(
                Target(
                    PlanMembership, ("membership", m.pk), {}, {"plan_data": data}, instance=m, label=label(m)
                )
            )
        return out


KIND = LoansKind(
    name="loans",
    label="Loans and repayments",
    description="Participant loans issued and principal repaid, by date; the outstanding balance and the "
    "highest balance in the last 12 months (which limit a new loan) follow from them.",
    columns=(
        PARTICIPANT,
        PLAN,
        Column(
            "source",
            True,
            "The account source the loan was taken from or repaid to (for example before_tax).",
        ),
        Column("date", True, "The date the loan was issued or the repayment was made (YYYY-MM-DD)."),
        Column("type", True, "issued or repayment."),
        Column("amount", True, "The principal lent or repaid, in dollars and cents, more than zero."),
        Column("memo", False, "A note shown on the statement (optional)."),
    ),
    key_columns=("participant_number", "plan", "source", "date", "type"),
    rules=(
        "The participant is a member of an account plan and the source is one of that plan's sources.",
        "Amounts are more than zero.",
        "The outstanding loan balance is recomputed from all of the participant's loan rows.",
        "One row per participant, plan, source, date and type.",
    ),
)
