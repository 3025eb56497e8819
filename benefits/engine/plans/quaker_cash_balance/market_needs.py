"""The market rates the Quaker City plan reads for a calculation date (``Plan.market_needs``)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

from ...market_needs import Need, PlanNeeds, month_before


def market_needs(on: date, settings: Mapping[str, object]) -> PlanNeeds:
    lookback = month_before(on, 2)  # the second month before the Plan Year's first (§1.2(e))
    return (
        Need(
            "treasury_10y_november",
            date(on.year - 1, 11, 1),
            f"the interest credited for the {on.year} Plan Year (§4.4(c))",
        ),
        Need("treasury_30y", lookback, f"lump sums paid in {on:%B %Y} (§1.2(e))"),
    ), lookback
