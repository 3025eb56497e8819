"""The market rates the Carver 401(k) plan reads for a calculation date (``Plan.market_needs``)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

from ...market_needs import SEGMENTS, Need, PlanNeeds, readings
from .annuities import illustration_lookback_month
from .settings import DEFAULT_SETTINGS


def market_needs(on: date, settings: Mapping[str, object]) -> PlanNeeds:
    needs = [
        Need("prime_rate", date(on.year, on.month, 1), f"the rate of loans requested in {on:%B %Y} (§8.3)")
    ]
    plan_readings = readings(DEFAULT_SETTINGS, settings)
    if plan_readings.annuity_illustration_basis == "417e":
        # Annuities without an insurer quote are illustrated on the §417(e)(3) basis of the look-back
        # month before the stability period (the plan's own rule, docs/plan-notes/carver-401k/benefits.md).
        month = date.fromisoformat(illustration_lookback_month(on, plan_readings) + "-01")
        needs.extend(
            Need(
                s,
                month,
                f"annuity amounts and relative values for starts in {on:%B %Y} (§7.1(d), §417(e)(3))",
            )
            for s in SEGMENTS
        )
    return tuple(needs), None  # no lump sum on a market rate: relative values are the annuities' own
