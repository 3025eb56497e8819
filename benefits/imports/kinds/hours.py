"""Hours of Service by plan computation period (the year the period begins)."""

from __future__ import annotations

from benefits.imports import cells as c
from benefits.imports.kinds.base import Cells, Column, Kind, Target
from benefits.imports.kinds.common import PARTICIPANT, PLAN, label, membership, membership_context
from benefits.models import HoursOfService

# A computation period is twelve months: at most 366 days × 24 hours = 8,784 Hours of Service.
MAX_HOURS = 8_784


class HoursKind(Kind):
    def context(self, table):
        ctx = membership_context(table)
        return ctx

    def targets(self, row: Cells, ctx: dict) -> list[Target]:
        m = membership(row, ctx)
        period = row.get("period_year", c.year)
        hours = row.get("hours", c.integer, low=0, high=MAX_HOURS)
        row.done()
        return [
            Target(
                HoursOfService,
                (m.pk, period),
                {"membership": m, "period_year": period},
                {"hours": hours},
                label=label(m, period),
            )
        ]

    def existing(self, model, keys, ctx):
        ids = {k[0] for k in keys}
        return {
            (h.membership_id, h.period_year): h for h in HoursOfService.objects.filter(membership_id__in=ids)
        }


KIND = HoursKind(
    name="hours",
    label="Hours of Service",
    description="Hours of Service credited in each plan computation period, by participant and plan.",
    columns=(
        PARTICIPANT,
        PLAN,
        Column(
            "period_year",
            True,
            "The year the computation period begins (for a calendar-year plan, the year).",
        ),
        Column("hours", True, "Whole Hours of Service credited in that period, 0 to 8,784."),
    ),
    key_columns=("participant_number", "plan", "period_year"),
    rules=(
        "The participant is a member of the plan.",
        "Hours are a whole number between 0 and 8,784 (366 days × 24 hours).",
        "One row per participant, plan and period.",
    ),
)
