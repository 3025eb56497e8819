"""The §417(e)(3) basis by date (issue 12 item 1), with expected values worked from the statute.

- Plan years 1995-2007: the 30-year Treasury rate of the look-back month (former
  §417(e)(3)(A)(ii)(II); PBGC Technical Update 07-3) and the table then in force.
- Plan years 2008-2011: PPA 2006 §302(b), former §417(e)(3)(D)(iii): each segment rate is
  p × segment + (1 − p) × 30-year Treasury, p = 20%, 40%, 60%, 80% (the §430(h)(2)(G) blend).
- From 2012: the segment rates, by payment time: < 5 years, 5-20, > 20 (§430(h)(2)(B)).
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal as D

import pytest

from benefits.engine.actuarial import FlatRate, SegmentRates, annuity_certain
from benefits.engine.minimum_present_value import (
    BasisNotAvailable,
    MissingMarketData,
    lookback,
    statutory_basis,
)

SEG = ["5", "6", "7"]
TREASURY = "4"


def _market(month: str) -> dict:
    return {"treasury_30y_monthly": {month: TREASURY}, "segment_rates": {month: SEG}}


@pytest.mark.parametrize(
    ("year", "expected"),
    [
        # p × (5, 6, 7) + (1 − p) × 4, by hand:
        (2008, ("4.2", "4.4", "4.6")),  # 20%: 1.0 + 3.2 = 4.2; 1.2 + 3.2 = 4.4; 1.4 + 3.2 = 4.6
        (2009, ("4.4", "4.8", "5.2")),  # 40%: 2.0 + 2.4; 2.4 + 2.4; 2.8 + 2.4
        (2010, ("4.6", "5.2", "5.8")),  # 60%: 3.0 + 1.6; 3.6 + 1.6; 4.2 + 1.6
        (2011, ("4.8", "5.6", "6.4")),  # 80%: 4.0 + 0.8; 4.8 + 0.8; 5.6 + 0.8
        (2012, ("5", "6", "7")),  # 100%: the segment rates themselves
        (2024, ("5", "6", "7")),
    ],
)
def test_each_phase_in_year_blends_the_rates(year, expected):
    month = f"{year - 1}-11"
    sb = statutory_basis(date(year, 2, 1), _market(month), lookback_month=month)
    assert sb.rates_percent == tuple(D(x) for x in expected)
    assert sb.regime == ("phase_in" if year < 2012 else "segment_rates")
    assert sb.basis.interest == SegmentRates(*(float(D(x) / 100) for x in expected))
    assert sb.table.key == f"irs_417e_{year}"
    assert "PPA 2006 §302(b)" in sb.trace.steps[0].section if year < 2012 else True


def test_before_2008_the_30_year_treasury_rate_and_the_rev_rul_95_6_table():
    sb = statutory_basis(date(2001, 6, 1), _market("2001-03"), lookback_month="2001-03")
    assert sb.regime == "treasury_30y" and sb.rates_percent == (D("4"),)
    assert sb.basis.interest == FlatRate(0.04)
    assert sb.table.key == "gatt1983_unisex"


def test_2007_2008_boundary():
    # A 2007 distribution (after 12/31/2002) is on the Rev. Rul. 2001-62 table (issue 24: the
    # unloaded reading until the plan's reading is confirmed) and the 30-year Treasury rate; the
    # next plan year is PPA's 20%.
    old = statutory_basis(date(2007, 12, 1), _market("2007-09"), lookback_month="2007-09")
    assert old.table.key == "revrul_2001_62_unloaded"
    sb = statutory_basis(date(2008, 1, 1), _market("2007-10"), lookback_month="2007-10")
    assert sb.regime == "phase_in" and sb.rates_percent[0] == D("4.2")


def test_the_plan_year_not_the_calendar_year_picks_the_regime():
    # A plan year beginning 1 July 2011 is a 2011 plan year (80%) even for a 2012 distribution.
    sb = statutory_basis(
        date(2012, 3, 1), _market("2011-12"), lookback_month="2011-12", period_start=date(2011, 7, 1)
    )
    assert sb.regime == "phase_in" and sb.rates_percent == (D("4.8"), D("5.6"), D("6.4"))
    assert sb.table.key == "irs_417e_2011"


def test_segment_rates_apply_by_payment_time():
    # An annual-due 25-year annuity certain on 5/6/7%: years 0-4 at 5%, 5-19 at 6%, 20-24 at 7%.
    sb = statutory_basis(date(2024, 2, 1), _market("2023-11"), lookback_month="2023-11", frequency=1)
    by_hand = (
        sum(1.05**-t for t in range(5))
        + sum(1.06**-t for t in range(5, 20))
        + sum(1.07**-t for t in range(20, 25))
    )
    assert annuity_certain(sb.basis, 25) == pytest.approx(by_hand, rel=1e-12)


@pytest.mark.parametrize(
    ("distribution", "market", "pointer"),
    [
        (date(2001, 6, 1), {}, "/assumptions/treasury_30y_monthly/2001-03"),
        (date(2010, 6, 1), {"segment_rates": {"2010-03": SEG}}, "/assumptions/treasury_30y_monthly/2010-03"),
        (date(2010, 6, 1), {"treasury_30y_monthly": {"2010-03": "4"}}, "/assumptions/segment_rates/2010-03"),
        (date(2024, 6, 1), {"treasury_30y_monthly": {"2024-03": "4"}}, "/assumptions/segment_rates/2024-03"),
    ],
)
def test_a_missing_rate_names_its_input(distribution, market, pointer):
    with pytest.raises(MissingMarketData) as err:
        statutory_basis(distribution, market, lookback_month=lookback(distribution, 3))
    assert err.value.field == pointer


def test_after_2012_no_treasury_rate_is_needed():
    sb = statutory_basis(date(2013, 1, 1), {"segment_rates": {"2012-10": SEG}}, lookback_month="2012-10")
    assert sb.rates_percent == (D(5), D(6), D(7))


def test_before_1995_is_the_pbgc_basis_not_in_the_engine():
    with pytest.raises(BasisNotAvailable, match="PBGC"):
        statutory_basis(date(1994, 6, 1), _market("1994-03"), lookback_month="1994-03")


def test_a_projection_past_the_last_table_says_so():
    sb = statutory_basis(date(2030, 2, 1), _market("2029-11"), lookback_month="2029-11", projection=True)
    assert sb.table.key == "irs_417e_2026"
    with pytest.raises(BasisNotAvailable, match="published yet"):
        statutory_basis(date(2030, 2, 1), _market("2029-11"), lookback_month="2029-11")


def test_malformed_segment_rates_name_the_field():
    with pytest.raises(MissingMarketData) as err:
        statutory_basis(
            date(2024, 2, 1), {"segment_rates": {"2023-11": ["5", "6"]}}, lookback_month="2023-11"
        )
    assert err.value.field == "/assumptions/segment_rates/2023-11"
