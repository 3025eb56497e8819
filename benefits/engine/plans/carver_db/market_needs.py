"""The market rates the Carver DB plan reads for a calculation date (``Plan.market_needs``)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

from ...market_needs import Need, PlanNeeds, month_before


def market_needs(on: date, settings: Mapping[str, object]) -> PlanNeeds:
    lookback = month_before(on, 3)  # the small-benefit cash-out's look-back month (§13.7(G))
    return (Need("treasury_30y", lookback, f"small-benefit cash-outs in {on:%B %Y} (§13.7(G))"),), lookback
