"""The untraced census's whole-cent ledger (issue 29, item 5) gives what the general ledger gives.

* ``quick_ledger`` posts ``build_ledger``'s postings in cents: over random histories (forfeitures,
  restorations, separation-date credits, an Annuity Starting Date, floors, openings in whole dollars
  or none) every balance it reads (at and before any day) is the entries' balance, digit and exponent,
  and so are the forfeited state at the end, the first estimated entry and any residual credit.
* ``account_ledger`` without traces (the whole-cent path, with ``countable_amount`` for each year's
  pay) gives the general path's balances and flags for random participants (rehires, loan agents,
  disability, overrides, settings), and its entries, read, are the general path's.
* Interest Credits alone (the accrued benefit, the whipsaw projection) carried in cents are the
  Decimal steps, digit and exponent.
* A plain year's Contribution Credit on exact fractions (``_plain_credit``) is the Decimal steps'
  cents: the amount rounded to 28 digits, capped, 5% of it rounded half up.
* ``countable_amount`` is ``countable_compensation``'s amount and estimate flag; ``paydays_by_year``
  is ``active_paydays`` year by year.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine.plans.quaker_cash_balance.cents import cents_rate
from benefits.engine.plans.quaker_cash_balance.compensation import (
    TWELVE,
    ActivePeriod,
    active_paydays,
    countable_amount,
    countable_compensation,
    paydays_by_year,
)
from benefits.engine.plans.quaker_cash_balance.interest import (
    _in_decimal,
    _interest_only,
    credit_rate_in_percent,
    quarter_of,
    to_cents,
)
from benefits.engine.plans.quaker_cash_balance.ledger import (
    PAY_CREDIT_RATE,
    _account_ledger,
    _plain_credit,
    _quick_account_ledger,
    account_ledger,
    build_ledger,
)
from benefits.engine.plans.quaker_cash_balance.ledger_entries import BalanceLedger, Forfeiture, Ledger
from benefits.engine.plans.quaker_cash_balance.ledger_quick import quick_ledger
from benefits.engine.plans.quaker_cash_balance.market import MarketData, MarketDataError, Rate
from benefits.engine.plans.quaker_cash_balance.settings import BenefitSettings
from benefits.engine.trace import traces_off

from .test_census_fast_paths import _rows, histories

D = Decimal
openings = st.one_of(
    st.just(D("0")),
    st.integers(0, 90000).map(D),
    st.decimals(min_value=-500, max_value=300000, places=2, allow_nan=False, allow_infinity=False),
    st.decimals(min_value=0, max_value=9000, places=1, allow_nan=False, allow_infinity=False),
)


def _probe_days(ledger: Ledger, extra: list[date]) -> list[date]:
    days = {e.date for e in ledger.entries} | set(extra)
    return sorted(days | {d + timedelta(days=1) for d in days} | {d - timedelta(days=1) for d in days})


def _reads(ledger: Ledger, days: list[date]) -> list[object]:
    """Every balance read, with its exact digits and exponent, and the flags."""
    out: list[object] = [ledger.forfeited_at_end, ledger.estimated_from, ledger.has_residual]
    for d in days:
        out.append((d, ledger.balance_at(d).as_tuple(), ledger.balance_before(d).as_tuple()))
    return out


@settings(max_examples=400, deadline=None)
@given(histories(), openings, st.lists(st.dates(date(1995, 1, 1), date(2045, 12, 31)), max_size=4))
def test_the_whole_cent_ledger_reads_the_balances_of_the_entries(history, opening, extra):
    history = history | {"opening_balance": opening}
    history["settings"] = BenefitSettings(
        round_each_posting=True,
        interest_floor=history["settings"].interest_floor,
        q1_2000_interest_on_beginning_balance=history["settings"].q1_2000_interest_on_beginning_balance,
    )
    history["opening_earns_first_quarter"] = False  # the account's ledger never asks for it
    floor = history["settings"].interest_floor

    def credit_rate(year):
        rate = history["treasury_rate"](year)
        return (rate, *credit_rate_in_percent(rate, floor))

    general = build_ledger(**history)
    pay = {
        y: (int(to_cents(c.amount * PAY_CREDIT_RATE).scaleb(2)), c.estimate) if c.amount > 0 else None
        for y, c in history["pay_credits"].items()
    }
    known: dict[int, object] = {}  # the rates given so far, read first (as ``account_ledger``'s are)

    def rate_of(year):
        if year not in known:
            known[year] = cents_rate(credit_rate(year)[1], credit_rate(year)[0].estimate)
        return known[year]

    quick = quick_ledger(
        account_open=history["account_open"],
        opening_balance=opening,
        pay_cents=pay,
        rates=(rate_of, known),
        through=history["through"],
        q1_2000_interest=history["settings"].q1_2000_interest_on_beginning_balance,
        asd=history["asd"],
        forfeitures=history["forfeitures"],
        credit_dates=history["credit_dates"],
        full=lambda: general,
    )
    days = _probe_days(general, extra)
    assert _reads(quick, days) == _reads(general, days)
    assert quick._dates == general._dates
    assert _rows(quick) == _rows(general)  # the entries, read, are the general path's


money = st.decimals(min_value=0, max_value=400000, places=2, allow_nan=False, allow_infinity=False)
spans = st.builds(
    lambda start, length: ActivePeriod(start, None if length is None else start + timedelta(days=length)),
    st.dates(date(1996, 1, 1), date(2028, 12, 31)),
    st.one_of(st.none(), st.integers(0, 5000)),
)
bench_settings = st.builds(
    BenefitSettings,
    interest_floor=st.sampled_from([None, D("0.02"), D("0.035")]),
    q1_2000_interest_on_beginning_balance=st.booleans(),
    final_year_credit=st.sampled_from(["dec31", "separation"]),
    prorate_compensation_limit=st.booleans(),
    compensation_input=st.sampled_from(["annual_rate", "paid_while_active"]),
    disability_compensation=st.sampled_from(["section_5_8", "rate_at_disability"]),
    project_future_pay=st.booleans(),
)
ASSUMPTIONS = {
    "treasury_10y_november": {str(y): f"{2 + (y % 9) * 0.61:.2f}" for y in range(1990, 2026)},
    "applicable_interest_rate_default": "5.00",
}


def _limit(year: int) -> Decimal:
    return D(200000 + 5000 * (year - 2000))


def _loan(year: int) -> Decimal:
    return D("80000") + year


@st.composite
def accounts(draw):
    periods = tuple(sorted(draw(st.lists(spans, min_size=1, max_size=3)), key=lambda p: p.start))
    open_ = draw(st.sampled_from([date(2000, 1, 1), periods[0].start]))
    as_of = draw(st.dates(max(open_, date(2001, 1, 1)), date(2030, 12, 31)))
    years = range(1995, 2028)
    forfeitures = tuple(
        Forfeiture(on, draw(st.one_of(st.none(), st.just(on + timedelta(days=draw(st.integers(1, 2500)))))))
        for on in sorted(draw(st.lists(st.dates(open_, date(2030, 12, 31)), max_size=2)))
    )
    return dict(
        account_open=open_,
        opening_balance=draw(openings),
        periods=periods,
        compensation={y: draw(money) for y in years if draw(st.integers(0, 4))},
        comp_limit=_limit,
        market=MarketData.from_assumptions(ASSUMPTIONS),
        as_of=as_of,
        through=draw(st.dates(open_, date(2045, 12, 31))),
        settings=draw(bench_settings),
        asd=draw(st.one_of(st.none(), st.dates(open_, date(2045, 12, 31)))),
        forfeitures=forfeitures,
        disability_date=draw(st.one_of(st.none(), st.dates(date(1998, 1, 1), date(2030, 12, 31)))),
        countable_override=draw(st.one_of(st.none(), st.dictionaries(st.integers(1998, 2030), money))),
        loan_agent_limit=draw(st.sampled_from([None, _loan])),
    )


@settings(max_examples=300, deadline=None)
@given(accounts(), st.lists(st.dates(date(1995, 1, 1), date(2046, 12, 31)), max_size=4))
def test_the_untraced_account_ledger_is_the_general_one(args, extra):
    try:
        general = _account_ledger(**args)
    except MarketDataError as exc:  # the whole-cent path stops too, and the general path says why
        with pytest.raises(MarketDataError):
            _quick_account_ledger(**args)
        with traces_off(), pytest.raises(MarketDataError, match=str(exc)):
            account_ledger(**args)
        return
    quick = _quick_account_ledger(**args)
    with traces_off():
        assert isinstance(account_ledger(**args), BalanceLedger)
    assert isinstance(quick, BalanceLedger)
    days = _probe_days(general, extra)
    assert _reads(quick, days) == _reads(general, days)
    assert _rows(quick) == _rows(general)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(spans, min_size=1, max_size=3),
    st.integers(1996, 2032),
    st.dictionaries(st.integers(1994, 2032), money),
    bench_settings,
    st.one_of(st.none(), st.dictionaries(st.integers(1994, 2032), money)),
    st.one_of(st.none(), st.dates(date(1996, 1, 1), date(2032, 12, 31))),
    st.one_of(st.none(), money),
    st.one_of(st.none(), money),
)
def test_the_countable_amount_is_the_countable_compensation(
    periods, year, pay, benefit_settings, override, disability, loan, projected
):
    args = dict(
        year=year,
        compensation=pay,
        comp_limit=_limit(year),
        settings=benefit_settings,
        override=override,
        disability_date=disability,
        loan_agent_limit=loan,
        projected_rate=projected,
    )
    general = countable_compensation(periods=periods, **args)
    amount = countable_amount(paydays=active_paydays(periods, year), **args)
    if general is None:
        assert amount is None
    else:
        assert amount is not None
        assert (amount[0].as_tuple(), amount[1]) == (general.amount.as_tuple(), general.estimate)


@settings(max_examples=1000, deadline=None)
@given(st.lists(spans, min_size=0, max_size=3), st.integers(1994, 2030), st.integers(0, 12))
def test_the_paydays_of_a_range_of_years_are_each_years(periods, first, length):
    last = first + length
    assert paydays_by_year(periods, first, last) == [
        active_paydays(periods, y) for y in range(first, last + 1)
    ]


@settings(max_examples=400, deadline=None)
@given(
    st.one_of(openings, st.decimals(min_value=-(10**9), max_value=10**9, places=2)),
    st.one_of(openings, st.decimals(min_value=0, max_value=10**9, places=2)),
    st.dates(date(1998, 1, 1), date(2030, 12, 31)),
    st.dates(date(1998, 1, 1), date(2075, 12, 31)),
    st.lists(st.sampled_from(["0", "0.02", "0.0400", "0.045", "0.131", "0.07", "-0.01", "3.5"]), min_size=9),
    st.sampled_from([None, D("0.02"), D("0.035")]),
)
def test_interest_alone_in_cents_is_the_decimal_steps(balance, base, start, before, rates, floor):
    benefit_settings = BenefitSettings(interest_floor=floor)

    def treasury_rate(year: int) -> Rate:
        return Rate(D(rates[year % len(rates)]), "rate")

    first = quarter_of(start)
    args = (balance, base, first, before, treasury_rate, benefit_settings)
    assert _interest_only(*args).as_tuple() == _in_decimal(*args, {}).as_tuple()


rates_of_pay = st.one_of(
    st.decimals(min_value=-1000, max_value=10**7, places=2, allow_nan=False, allow_infinity=False),
    st.decimals(min_value=0, max_value=10**6, places=6, allow_nan=False, allow_infinity=False),
    st.integers(0, 10**6).map(D),
    st.sampled_from([D("1E+5"), D("345000"), D("0.005"), D("2.5"), D("0.01")]),
)


@settings(max_examples=1000, deadline=None)
@given(rates_of_pay, st.integers(0, 12), st.one_of(rates_of_pay, st.integers(150000, 350000).map(D)))
def test_the_plain_credit_on_fractions_is_the_decimal_steps(rate, paydays, limit):
    amount = rate * paydays / TWELVE if paydays else rate
    if amount > limit:
        amount = limit
    decimal = int(to_cents(amount * PAY_CREDIT_RATE).scaleb(2)) if amount > 0 else None
    plain = _plain_credit(rate, paydays, limit.as_integer_ratio(), True)
    assert (None if plain is None else plain[0]) == decimal


@settings(max_examples=60, deadline=None)
@given(
    accounts(),
    st.sampled_from([D("123.456"), D("1E+24"), D("-9.99E+23"), D("0.001"), D("5E+3")]),
    st.booleans(),
)
def test_unusual_input_takes_the_general_path(args, opening, rounded):
    """Sub-cent openings, amounts beyond exact products, unrounded postings: what the general path
    gives (an opening in whole thousands stays on the whole-cent path, its exponent kept)."""
    args = args | {"opening_balance": opening}
    args["settings"] = BenefitSettings(round_each_posting=rounded)
    try:
        general = _account_ledger(**args)
    except MarketDataError:
        return
    with traces_off():
        untraced = account_ledger(**args)
    if opening.as_tuple().exponent < -2 or not rounded:
        assert not isinstance(untraced, BalanceLedger)
    days = _probe_days(general, [])
    assert _reads(untraced, days) == _reads(general, days)
