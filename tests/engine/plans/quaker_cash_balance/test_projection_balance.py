"""The one pass's whipsaw carry (``projection.balance_before``) is ``interest.projected_balance_before``:
the same balance (digits and exponent), the same years looked up in the same order, the same error
for missing market data, with a shared memo of quarterly rates or without."""

from __future__ import annotations

import contextlib
from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine.plans.quaker_cash_balance.interest import projected_balance_before, quarterly_rate
from benefits.engine.plans.quaker_cash_balance.market import MarketData, MarketDataError
from benefits.engine.plans.quaker_cash_balance.projection import balance_before
from benefits.engine.plans.quaker_cash_balance.settings import BenefitSettings


@settings(max_examples=300, deadline=None)
@given(
    opening=st.one_of(
        st.decimals(min_value=0, max_value=400000, places=2, allow_nan=False, allow_infinity=False),
        st.decimals(min_value=0, max_value=400000, places=5, allow_nan=False, allow_infinity=False),
        st.integers(0, 10**6).map(Decimal),
    ),
    start=st.dates(date(1999, 1, 1), date(2040, 12, 31)),
    before=st.dates(date(1999, 1, 1), date(2090, 12, 31)),
    rates=st.lists(st.integers(0, 1500), min_size=0, max_size=80),
    rounding=st.booleans(),
    floor=st.one_of(st.none(), st.sampled_from([Decimal("0.02"), Decimal("0.04")])),
    filled=st.sets(st.integers(1999, 2090), max_size=30),
)
def test_balance_before_is_projected_balance_before(opening, start, before, rates, rounding, floor, filled):
    start = date(start.year, 3 * ((start.month - 1) // 3) + 1, 1)  # a quarter's first day
    market = MarketData.from_assumptions(
        {"treasury_10y_november": {str(1998 + i): f"{r / 100:.2f}" for i, r in enumerate(rates)}}
    )
    plan = BenefitSettings(round_each_posting=rounding, interest_floor=floor)
    asked: list[list[int]] = [[], []]

    def rate(which):
        def lookup(y):
            asked[which].append(y)
            return market.treasury_rate(y, allow_estimate=y > 2026)

        return lookup

    memo: dict[int, Decimal] = {}
    for y in filled:  # years another date of the grid looked up first
        with contextlib.suppress(MarketDataError):
            memo[y] = quarterly_rate(market.treasury_rate(y, allow_estimate=y > 2026), plan)
    general_memo = dict(memo)
    try:
        want = projected_balance_before(
            opening, start=start, before=before, treasury_rate=rate(0), settings=plan, quarterly=general_memo
        )
    except MarketDataError as exc:
        with pytest.raises(MarketDataError) as got:
            balance_before(opening, start, before, rate(1), plan, memo)
        assert str(got.value) == str(exc)
    else:
        got_ = balance_before(opening, start, before, rate(1), plan, memo)
        assert got_ == want and str(got_) == str(want)
    assert asked[0] == asked[1]
    assert memo == general_memo
