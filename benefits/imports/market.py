"""The market-rate series administrators load, and which of them a plan lacks for a date."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from benefits import formatting
from benefits.engine.market_needs import market_needs


@dataclass(frozen=True)
class Series:
    key: str
    label: str
    publisher: str
    november_only: bool = False


SERIES: dict[str, Series] = {
    s.key: s
    for s in (
        Series("treasury_30y", "30-year Treasury yield (monthly average)", "Federal Reserve H.15"),
        Series(
            "treasury_10y_november",
            "10-year Treasury yield (November average)",
            "Federal Reserve H.15",
            november_only=True,
        ),
        Series("417e_segment_1", "§417(e)(3) first segment rate", "IRS monthly segment-rate notice"),
        Series("417e_segment_2", "§417(e)(3) second segment rate", "IRS monthly segment-rate notice"),
        Series("417e_segment_3", "§417(e)(3) third segment rate", "IRS monthly segment-rate notice"),
        Series("prime_rate", "Prime rate", "The Wall Street Journal"),
    )
}


@dataclass(frozen=True)
class Missing:
    plan_name: str
    series: Series
    month: date
    purpose: str

    @property
    def sentence(self) -> str:
        """For a participant: what is not available yet and why, without a missing figure."""
        return (
            f"The {self.series.label.lower()} for {formatting.month_words(self.month)} has not been published to this site yet, "
            f"so {self.purpose} cannot be shown. The plan administrator will add it; please check again later."
        )


def missing_rates(plan, on: date, available: set[tuple[str, date]]) -> list[Missing]:
    """The rates ``plan`` needs on ``on`` that are not in ``available`` (series, month) pairs."""
    return [
        Missing(plan.name, SERIES[n.series], n.month, n.purpose)
        for n in market_needs(plan.key, on, plan.settings)
        if n.series in SERIES and (n.series, n.month) not in available
    ]
