"""Balances carried to NRD with Interest Credits alone are the ledger's.

``accrued_benefit`` no longer builds a second ledger entry by entry to Normal Retirement Date: it
posts the frozen account to the last December 31 and carries the balance with
``interest_only_balance``. For any account, rates and dates, that balance equals the full ledger's
balance at the start of NRD (§5.3(b): Interest Credits only after the as-of date).
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine.plans.quaker_cash_balance.compensation import ActivePeriod
from benefits.engine.plans.quaker_cash_balance.interest import interest_only_balance, projected_balance_before
from benefits.engine.plans.quaker_cash_balance.ledger import account_ledger, build_ledger
from benefits.engine.plans.quaker_cash_balance.market import MarketData, MarketDataError
from benefits.engine.plans.quaker_cash_balance.settings import BenefitSettings

money = st.decimals(min_value=0, max_value=400000, places=2, allow_nan=False, allow_infinity=False)


@settings(max_examples=80, deadline=None)
@given(
    opening=money,
    hire=st.dates(date(2000, 1, 1), date(2020, 12, 31)),
    last_year=st.integers(2021, 2026),
    nrd_months=st.integers(1, 45 * 12),
    pay=money,
    rates=st.lists(st.integers(0, 1500), min_size=30, max_size=30),
    rounding=st.booleans(),
    floor=st.one_of(st.none(), st.sampled_from([Decimal("0.02"), Decimal("0.04")])),
)
def test_interest_only_balance_is_the_ledgers_balance_at_nrd(
    opening, hire, last_year, nrd_months, pay, rates, rounding, floor
):
    year_end = date(last_year, 12, 31)
    nrd = date(last_year + 1 + nrd_months // 12, nrd_months % 12 + 1, 1)
    market = MarketData.from_assumptions(
        {"treasury_10y_november": {str(1999 + i): f"{r / 100:.2f}" for i, r in enumerate(rates)}}
    )
    plan = BenefitSettings(round_each_posting=rounding, interest_floor=floor)
    common = dict(
        account_open=date(hire.year, hire.month, 1),
        opening_balance=opening,
        periods=[ActivePeriod(hire, year_end)],  # frozen: no pay after the last December 31
        compensation={y: pay for y in range(hire.year, last_year + 1)},
        comp_limit=lambda y: Decimal("345000"),
        market=market,
        as_of=date(last_year + 1, 3, 15),
        settings=plan,
    )
    full = account_ledger(through=nrd, **common).balance_before(nrd)
    to_year_end = account_ledger(through=year_end, **common)
    carried = interest_only_balance(
        to_year_end.balance_at(year_end),
        year_end=year_end,
        before=nrd,
        treasury_rate=lambda y: market.treasury_rate(y, allow_estimate=y > last_year + 1),
        settings=plan,
    )
    assert carried == full


@settings(max_examples=150, deadline=None)
@given(
    opening=money,
    start=st.dates(date(1999, 1, 1), date(2040, 12, 31)),
    months=st.integers(1, 45 * 12),
    rates=st.lists(st.integers(0, 1500), min_size=20, max_size=80),
    rounding=st.booleans(),
    floor=st.one_of(st.none(), st.sampled_from([Decimal("0.02"), Decimal("0.04")])),
)
def test_the_whipsaw_projection_is_the_ledgers_balance_at_nrd(opening, start, months, rates, rounding, floor):
    # GAP-3's projection (estimates.projection_value): the balance before the ASD, opened on the
    # first day of the ASD's quarter, earning Interest Credits alone until NRD, no credit for NRD's
    # quarter. The fast carry must be the ledger's balance, and miss the same market data.
    start = date(start.year, 3 * ((start.month - 1) // 3) + 1, 1)
    k = start.month - 1 + months
    nrd = date(start.year + k // 12, k % 12 + 1, 1)
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

    def ledger():
        return build_ledger(
            account_open=start,
            opening_balance=opening,
            pay_credits={},
            treasury_rate=rate(0),
            through=nrd,
            settings=plan,
            asd=nrd,
            opening_earns_first_quarter=True,
        ).balance_before(nrd)

    def fast():
        return projected_balance_before(
            opening, start=start, before=nrd, treasury_rate=rate(1), settings=plan
        )

    try:
        want = ledger()
    except MarketDataError as exc:
        with pytest.raises(MarketDataError) as got:
            fast()
        assert str(got.value) == str(exc)
    else:
        assert fast() == want
    assert asked[0] == asked[1]  # the same years looked up, in the same order
