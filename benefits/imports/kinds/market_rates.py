"""Market rates with their source: Treasury yields, the §417(e)(3) segment rates and the prime rate."""

from __future__ import annotations

from decimal import Decimal

from benefits.imports import cells as c
from benefits.imports.kinds.base import Cells, Column, Kind, Target
from benefits.imports.market import SERIES
from benefits.models import MarketRate

MAX_PERCENT = Decimal(25)


class MarketRatesKind(Kind):
    def targets(self, row: Cells, ctx: dict) -> list[Target]:
        series = row.get("series", c.choice, {k: k for k in SERIES})
        month = row.get("month", c.a_month)
        percent = row.get("percent", c.decimal, places=4, low=Decimal(0), high=MAX_PERCENT)
        src = row.get("source", c.text, max_length=300)
        if series is not None and month is not None and SERIES[series].november_only and month.month != 11:
            row.fail("month", f"month: {SERIES[series].label} is published for November only.")
        row.done()
        return [
            Target(
                MarketRate,
                (series, month),
                {"series": series, "period": month},
                {"percent": percent, "source": src},
                label=f"{series} {month:%Y-%m}",
            )
        ]

    def existing(self, model, keys, ctx):
        series = {k[0] for k in keys}
        return {(r.series, r.period): r for r in MarketRate.objects.filter(series__in=series)}

    def memberships_affected(self, targets):
        return None  # market data feeds every plan's calculations

    def applied(self, checked, batch, actor) -> None:
        """Rates written: those waiting for them hear of it in this transaction (issue 25)."""
        from benefits.imports.signals import market_rates_loaded

        written = batch.changes.filter(model="benefits.marketrate").values("object_id")
        months = set(MarketRate.objects.filter(pk__in=written).values_list("period", flat=True))
        if months:
            market_rates_loaded.send(sender=type(self), months=months, actor=actor, batch=batch)


KIND = MarketRatesKind(
    name="market_rates",
    label="Market rates",
    description="Monthly market rates the plans refer to, each with where it was published.",
    columns=(
        Column("series", True, "One of: " + ", ".join(SERIES) + "."),
        Column("month", True, "The month the rate is for (YYYY-MM)."),
        Column("percent", True, "The rate in percent (4.25 means 4.25%), between 0 and 25."),
        Column(
            "source", True, "Where the rate was published (for example Federal Reserve H.15, release date)."
        ),
    ),
    key_columns=("series", "month"),
    rules=(
        "The series is one the plans use; the November 10-year yield is for November only.",
        "The rate is between 0% and 25% with at most four decimal places.",
        "Every rate names its source.",
        "One row per series and month.",
    ),
)
