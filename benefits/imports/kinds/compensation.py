"""The plan's Compensation (Earnings) by calendar year."""

from __future__ import annotations

from decimal import Decimal

from benefits.imports import cells as c
from benefits.imports.kinds.base import Cells, Column, Kind, Target
from benefits.imports.kinds.common import MONEY_MAX, PARTICIPANT, PLAN, label, membership, membership_context
from benefits.models import Compensation


class CompensationKind(Kind):
    def context(self, table):
        return membership_context(table)

    def targets(self, row: Cells, ctx: dict) -> list[Target]:
        m = membership(row, ctx)
        year = row.get("year", c.year)
        amount = row.get("amount", c.decimal, places=2, low=Decimal(0), high=MONEY_MAX)
        row.done()
        return [
            Target(
                Compensation,
                (m.pk, year),
                {"membership": m, "year": year},
                {"amount": amount},
                label=label(m, year),
            )
        ]

    def existing(self, model, keys, ctx):
        ids = {k[0] for k in keys}
        return {(x.membership_id, x.year): x for x in Compensation.objects.filter(membership_id__in=ids)}


KIND = CompensationKind(
    name="compensation",
    label="Compensation",
    description="Each participant's Compensation (the plan's Earnings) for a calendar year.",
    columns=(
        PARTICIPANT,
        PLAN,
        Column("year", True, "The calendar year."),
        Column("amount", True, "Compensation for the year in dollars and cents, not negative."),
    ),
    key_columns=("participant_number", "plan", "year"),
    rules=(
        "The participant is a member of the plan.",
        "Pay is not negative and has at most two decimal places.",
        "One row per participant, plan and year.",
    ),
)
