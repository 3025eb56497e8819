"""Hypothesis properties: allocations add up exactly to what was released (to the cent and the
share), a vested balance never exceeds the balance, diversification never exceeds 25%/50% of
shares allocated since inception less earlier elections (F §8.1, §9.1, §6.4)."""

from decimal import Decimal as D

from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine.plans.fairport_esop.allocation import YearStatus, allocate_category1, allocate_category2
from benefits.engine.plans.fairport_esop.apportion import largest_remainder
from benefits.engine.plans.fairport_esop.diversification import max_diversifiable
from benefits.engine.plans.fairport_esop.forfeiture import forfeiture_split, vested_balance
from benefits.engine.plans.fairport_esop.release import LoanYear, release_shares

shares4 = st.decimals(min_value=0, max_value=10**7, places=4, allow_nan=False, allow_infinity=False)
cents = st.decimals(min_value=0, max_value=10**7, places=2, allow_nan=False, allow_infinity=False)
price = st.decimals(min_value=D("0.01"), max_value=1000, places=2, allow_nan=False, allow_infinity=False)

person = st.builds(
    YearStatus,
    id=st.uuids().map(str),
    satisfied_eligibility=st.booleans(),
    hours=st.integers(0, 3000),
    status_on_dec31=st.sampled_from(["employed", "recognized_absence", "quit", "death", "early_retirement"]),
    compensation=cents,
    shares_held=shares4,
)


@given(st.lists(person, min_size=1, max_size=30), shares4, cents, cents)
@settings(max_examples=200)
def test_category2_adds_up_exactly(people, pool_shares, pool_cash, comp_limit):
    a = allocate_category2(people, shares_pool=pool_shares, cash_pool=pool_cash, comp_limit=comp_limit)
    total_shares = sum(p.shares for p in a.by_participant.values())
    total_cash = sum(p.cash for p in a.by_participant.values())
    if a.total_compensation > 0:
        assert total_shares == pool_shares
        assert total_cash == pool_cash
    else:
        assert total_shares == 0 and total_cash == 0  # nothing allocable: the caller keeps the pool
    assert all(p.shares >= 0 and p.cash >= 0 for p in a.by_participant.values())
    assert all(p.shares == 0 for p in a.by_participant.values() if not p.active)


@given(st.dictionaries(st.text(min_size=1, max_size=5), shares4, min_size=1, max_size=20), shares4)
def test_largest_remainder_exact_and_close(weights, total):
    split = largest_remainder(total, weights, D("0.0001"))
    wsum = sum(weights.values())
    if wsum > 0:
        assert sum(split.values()) == total
        for k, w in weights.items():
            assert abs(split[k] - total * w / wsum) < D("0.0001")


@given(
    st.integers(1, 10**6),
    cents.filter(lambda x: x > 0),
    cents,
    cents,
    st.lists(person, min_size=1, max_size=10),
    price,
)
@settings(max_examples=200)
def test_release_then_category1_adds_up(unallocated, paid, remaining, dividend_part, people, fmv):
    dividends = min(dividend_part, paid)
    loan = LoanYear(D(unallocated), paid, D(0), remaining, D(0), dividends_allocated=dividends)
    r = release_shares(loan)
    assert r.category1_dividend_shares + r.category2_contribution_shares == r.shares_released
    assert r.shares_released + r.shares_remaining == unallocated
    assert 0 <= r.shares_released <= unallocated
    # Category 1 with no dividend replacement owed: everything goes to Active holders or stays unallocated.
    c1 = allocate_category1(r.category1_dividend_shares, dividends_used={}, fmv_at_payment=fmv, people=people)
    assert sum(c1.totals.values()) + c1.unallocated_left == r.category1_dividend_shares


@given(shares4, cents, price, st.decimals(min_value=0, max_value=100, places=2), cents)
def test_vested_never_exceeds_balance(shares, cash, value, pct, elected):
    vb = vested_balance(shares, cash, value, pct, elected)
    assert 0 <= vb.vested_balance <= vb.balance


@given(shares4, cents, price, st.decimals(min_value=0, max_value=100, places=2))
def test_forfeiture_keeps_at_least_the_vested_value(shares, cash, value, pct):
    f = forfeiture_split(shares, cash, value, pct)
    vb = vested_balance(shares, cash, value, pct)
    kept = (f.shares_kept * value + f.cash_kept).quantize(D("0.01"))
    assert kept >= vb.vested_balance
    assert f.shares_forfeited >= 0 and f.cash_forfeited >= 0
    assert f.shares_forfeited == 0 or f.cash_kept == 0  # stock only after other assets


@given(st.integers(1, 6), shares4, shares4)
def test_diversification_within_percent(year, cumulative, elected):
    lim = max_diversifiable(year, cumulative, elected)
    pct = D("0.25") if year < 6 else D("0.50")
    assert 0 <= lim.max_shares <= max(D(0), pct * cumulative - elected)


@given(st.lists(st.decimals(min_value=0, max_value=1000, places=4), min_size=6, max_size=6), shares4)
def test_diversification_total_never_exceeds_50_percent(wishes, cumulative):
    elected = D(0)
    for year, wish in enumerate(wishes, start=1):
        lim = max_diversifiable(year, cumulative, elected).max_shares
        elected += min(wish, lim)
        assert elected <= (D("0.25") if year < 6 else D("0.50")) * cumulative


def test_forfeiture_keeps_the_vested_cent_when_the_balance_rounds_up():
    """F §9.7: 185.5650 shares at $3.00 is $556.695 exactly ($556.70 rounded); 0.02% vested is $0.11.
    Forfeiting against the rounded balance kept only $0.10; against the exact value it keeps $0.11."""
    f = forfeiture_split(D("185.5650"), D("0"), D("3.00"), D("0.02"))
    assert (f.shares_kept * D("3.00") + f.cash_kept).quantize(D("0.01")) >= D("0.11")
