"""Contributions by source and pay date: deferrals, matching and employer contributions, rollovers."""

from __future__ import annotations

from decimal import Decimal

from benefits import formatting
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
from benefits.models import AccountTransaction

TYPES = {"deferral": "deferral", "match": "match", "employer": "employer", "rollover": "rollover"}


class ContributionsKind(Kind):
    def context(self, table):
        return membership_context(table)

    def targets(self, row: Cells, ctx: dict) -> list[Target]:
        m = membership(row, ctx)
        src = source(row, m, ctx)
        on = row.get("pay_date", c.a_date)
        kind = row.get("type", c.choice, TYPES)
        amount = row.get("amount", c.decimal, places=2, low=Decimal("0.01"), high=MONEY_MAX)
        memo = row.get("memo", c.text, max_length=200, required=False)
        if m is not None and on is not None and on < m.participant.hire_date:
            row.fail(
                "pay_date", f"pay_date {formatting.date_words(on)} is before the participant's hire date."
            )
        row.done()
        values = {"amount": amount}
        if "memo" in row.cells:
            values["memo"] = memo
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


KIND = ContributionsKind(
    name="contributions",
    label="Contributions",
    description="Contributions to an account plan by source and pay date.",
    columns=(
        PARTICIPANT,
        PLAN,
        Column("source", True, "The account source (for example before_tax, matching_2002)."),
        Column("pay_date", True, "The pay date the contribution was made for (YYYY-MM-DD)."),
        Column("type", True, "deferral, match, employer or rollover."),
        Column("amount", True, "The contribution in dollars and cents, more than zero."),
        Column("memo", False, "A note shown on the statement (optional)."),
    ),
    key_columns=("participant_number", "plan", "source", "pay_date", "type"),
    rules=(
        "The participant is a member of an account plan and the source is one of that plan's sources.",
        "The amount is more than zero; the pay date is not before the participant's hire date.",
        "One row per participant, plan, source, pay date and type.",
    ),
)
