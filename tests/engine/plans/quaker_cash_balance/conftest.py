"""Shared inputs of the Quaker SPEC §15 worked examples (all HYPOTHETICAL assumptions A1–A8)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from benefits.engine.plans.quaker_cash_balance.market import MarketData

# A1: Treasury Rate by Plan Year (percent); Plan Year Y uses the November of Y-1.
SPEC_TREASURY_BY_PLAN_YEAR = {
    2000: "6.00", 2001: "5.75", 2002: "5.00", 2003: "4.25", 2004: "4.25", 2005: "4.50",
    2006: "4.50", 2007: "4.75", 2008: "4.50", 2009: "3.50", 2010: "4.00",
}  # fmt: skip
SPEC_LATER_RATE = "4.50"  # 2011+


def spec_assumptions() -> dict:
    nov = {str(y - 1): r for y, r in SPEC_TREASURY_BY_PLAN_YEAR.items()}
    return {
        "treasury_10y_november": nov,
        "treasury_10y_projection": SPEC_LATER_RATE,
        "applicable_interest_rate_default": "6.00",  # A2
        "applicable_mortality_table": "rev-rul-95-6",  # A3
    }


@pytest.fixture
def spec_market() -> MarketData:
    return MarketData.from_assumptions(spec_assumptions())


LIMIT_170K = Decimal("170000")  # A6: the §1.12 base limit held flat
