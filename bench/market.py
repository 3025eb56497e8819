"""The market data a participant's modeler request carries on the demo, for the benchmarks that stand
for a user's wait (issue 29: a benchmark that sends no market data reports every relative value, the
§417(a)(3) part, missing instead of computing it).

The §417(e)(3) segment rates and the 30-year Treasury rate for the 25 months to the as-of date, at the
demo's values (benefits/demo/loader.py, DEMO ONLY figures), as benefits/engine_adapter.py sends them.
"""

from __future__ import annotations

from datetime import date


def market_data(as_of: date) -> dict[str, object]:
    """The demo's market months as the web modeler's request carries them (benefits/engine_adapter.py)."""
    months = []
    year, month = as_of.year, as_of.month
    for _ in range(25):
        months.append(f"{year:04d}-{month:02d}")
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    thirty = {m: "4.60" for m in months}
    return {
        "segment_rates": {m: ["4.45", "5.20", "5.85"] for m in months},
        "treasury_30y_monthly": thirty,
        "applicable_interest_rate": thirty,
        "applicable_interest_rate_default": "4.60",
    }
