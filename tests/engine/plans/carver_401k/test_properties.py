"""Invariants of the 401(k) rules, checked with hypothesis."""

from datetime import date, timedelta
from decimal import Decimal as D

from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine.plans.carver_401k.accounts import vest_accounts, vested_amount
from benefits.engine.plans.carver_401k.contributions import PayPeriod, match_for_periods
from benefits.engine.plans.carver_401k.loans import amortization_schedule, loan_rate, maximum_new_loan
from benefits.engine.plans.carver_401k.settings import BenefitSettings
from benefits.engine.plans.carver_401k.sources import CONTRACT_SOURCES

money = st.decimals(min_value=0, max_value=500_000, places=2, allow_nan=False, allow_infinity=False)
percent = st.sampled_from([D(p) for p in (0, 20, 40, 60, 80, 100)])
balances = st.dictionaries(st.sampled_from(CONTRACT_SOURCES), money, min_size=1)
flags = st.booleans()


@given(balances, percent, st.dictionaries(st.sampled_from(CONTRACT_SOURCES), money), flags)
def test_vested_never_exceeds_balance(bal, pct, d, ne_sched):
    v = vest_accounts(bal, pct, withdrawn=d, settings=BenefitSettings(nonelective_on_schedule=ne_sched))
    assert D(0) <= v.vested_balance <= v.balance
    for s in v.by_source.values():
        assert D(0) <= s.vested_balance <= s.balance


@given(money, percent, percent, money)
def test_x_is_monotone_in_percent(ab, p1, p2, d):
    lo, hi = sorted((p1, p2))
    assert vested_amount(ab, lo, d) <= vested_amount(ab, hi, d)


@given(balances, percent, money, money, flags)
def test_loan_maximum_within_50000_and_half_vested(bal, pct, highest, outstanding, ne_vested):
    s = BenefitSettings(loan_base_nonelective_vested=ne_vested)
    v = vest_accounts(bal, pct, settings=s)
    m = maximum_new_loan(
        v, highest_balance_last_12_months=highest, outstanding_balance=outstanding, settings=s
    )
    assert m.amount <= D("50000")
    assert m.amount <= m.base / 2
    if ne_vested:
        assert m.amount <= v.vested_balance / 2
    assert m.amount == 0 or m.amount >= D("1000")
    if outstanding > 0:
        assert m.amount == 0


@settings(max_examples=60)
@given(
    st.decimals(min_value=1000, max_value=50000, places=2),
    st.decimals(min_value=0, max_value=15, places=2),
    st.integers(min_value=1, max_value=390),
    st.sampled_from([12, 26, 52]),
)
def test_schedule_principal_sums_to_loan(principal, rate, n, ppy):
    s = amortization_schedule(principal, rate, n, first_due=date(2003, 1, 3), periods_per_year=ppy)
    assert sum(p.principal for p in s.payments) == principal
    assert s.payments[-1].balance == 0
    assert all(p.principal >= 0 and p.interest >= 0 for p in s.payments)
    assert all(p.payment == p.principal + p.interest for p in s.payments)


@given(st.decimals(min_value=0, max_value=20, places=3))
def test_rate_is_a_quarter_within_an_eighth(prime):
    r, _ = loan_rate(prime)
    assert (r * 4) == (r * 4).to_integral_value()
    assert abs(r - (prime + 1)) <= D("0.125")


@given(
    st.lists(
        st.tuples(
            st.decimals(min_value=0, max_value=20000, places=2), st.integers(min_value=0, max_value=15)
        ),
        min_size=1,
        max_size=26,
    ),
    flags,
)
def test_match_never_exceeds_4_percent_from_2002(rows, true_up):
    periods = [PayPeriod(date(2003, 1, 6) + timedelta(days=14 * k), c, D(p)) for k, (c, p) in enumerate(rows)]
    r = match_for_periods(periods, settings=BenefitSettings(match_annual_true_up=true_up))
    comp = sum((c for c, _ in rows), D(0))
    # 4% of Compensation, plus at most half a cent of per-period rounding (A5) each period
    assert r.match <= comp * D("0.04") + D("0.005") * len(rows)
    assert r.match <= r.deferrals
    # the per-payroll match never exceeds the annual true-up, but for the same per-period cents
    annual = match_for_periods(periods, settings=BenefitSettings(match_annual_true_up=True))
    assert match_for_periods(periods).match <= annual.match + D("0.005") * len(rows)
