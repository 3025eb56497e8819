"""Account valuations: each source's balance (and shares or units) on a valuation date."""

from __future__ import annotations

from decimal import Decimal

from benefits.imports import cells as c
from benefits.imports.kinds.base import Cells, Column, Kind, Target
from benefits.imports.kinds.common import (
    MONEY_MAX,
    PARTICIPANT,
    PLAN,
    SHARES_MAX,
    label,
    membership,
    membership_context,
    source,
)
from benefits.models import AccountBalance


class ValuationsKind(Kind):
    def context(self, table):
        return membership_context(table)

    def targets(self, row: Cells, ctx: dict) -> list[Target]:
        m = membership(row, ctx)
        src = source(row, m, ctx)
        on = row.get("valuation_date", c.a_date)
        balance = row.get("balance", c.decimal, places=2, low=Decimal(0), high=MONEY_MAX)
        shares = None
        if row.raw("shares"):
            shares = row.get("shares", c.decimal, places=4, low=Decimal(0), high=SHARES_MAX)
        row.done()
        values = {"balance": balance}
        if "shares" in row.cells:
            values["shares"] = shares
        return [
            Target(
                AccountBalance,
                (m.pk, src, on),
                {"membership": m, "source": src, "as_of": on},
                values,
                label=label(m, src, on),
            )
        ]

    def existing(self, model, keys, ctx):
        ids = {k[0] for k in keys}
        return {
            (b.membership_id, b.source, b.as_of): b
            for b in AccountBalance.objects.filter(membership_id__in=ids)
        }


KIND = ValuationsKind(
    name="valuations",
    label="Account valuations",
    description="The trustee's valuation of each account source on a valuation date, with shares or units held.",
    columns=(
        PARTICIPANT,
        PLAN,
        Column("source", True, "The account source (for example before_tax, stock_fund)."),
        Column("valuation_date", True, "The valuation date (YYYY-MM-DD)."),
        Column("balance", True, "The source's value on that date in dollars and cents, not negative."),
        Column(
            "shares",
            False,
            "Shares or fund units held in the source on that date (optional, up to 4 places).",
        ),
    ),
    key_columns=("participant_number", "plan", "source", "valuation_date"),
    rules=(
        "The participant is a member of an account plan and the source is one of that plan's sources.",
        "Balances and shares are not negative.",
        "One row per participant, plan, source and valuation date.",
    ),
)
