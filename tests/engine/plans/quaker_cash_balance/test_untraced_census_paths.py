"""The untraced census paths (issue 29, item 5) give what the general paths give, value for value.

* An Interest Credit is rounded inline with ``quantize`` half up to the cent: the ``to_money`` of the
  product (the rounding the ledger used, and the reference ledger uses), every digit and exponent.
* ``build_ledger`` given each year's quarterly credit rate by its caller (``account_ledger`` keeps
  them on the market data) posts the entries the quarter-by-quarter reference ledger posts.
* One Active span counts its month-end Paydays without a set of months: the count the general
  path gives for the same span (given twice, so that path merges them).
* Without traces, the accrued benefit of an account quiet after the last December 31 (its
  forfeitures and restorations by then, §2.3(a), §5.14(a)(i)) is posted to that day and carried with
  Interest Credits alone (§4.4) or left forfeited: the balance at NRD and the monthly annuity are
  those of the frozen ledger built to NRD (the traced path).
"""

from __future__ import annotations

import functools
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from types import MappingProxyType

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from benefits.engine.money import CENT, to_money
from benefits.engine.parameters import recorded_reads
from benefits.engine.plans import get_plan
from benefits.engine.plans.quaker_cash_balance.account import participant_ledger
from benefits.engine.plans.quaker_cash_balance.compensation import ActivePeriod, active_paydays
from benefits.engine.plans.quaker_cash_balance.inputs import account_inputs
from benefits.engine.plans.quaker_cash_balance.interest import credit_rate_in_percent
from benefits.engine.plans.quaker_cash_balance.ledger import build_ledger
from benefits.engine.plans.quaker_cash_balance.market import MarketData
from benefits.engine.plans.quaker_cash_balance.results import _frozen_account, _quiet_after, accrued_benefit
from benefits.engine.trace import traces_off
from benefits.engine.types import EmploymentPeriod, Participant

from .ledger_reference import build_ledger_reference
from .test_census_fast_paths import _rows, histories

D = Decimal
balances = st.decimals(min_value=-(10**9), max_value=10**9, places=2, allow_nan=False, allow_infinity=False)
quarterly = st.decimals(min_value=0, max_value=D("0.03"), places=6, allow_nan=False, allow_infinity=False)


@given(balances, quarterly)
def test_the_inline_cent_rounding_is_to_money(base, rate):
    product = base * rate
    inline = product.quantize(CENT, ROUND_HALF_UP)
    assert inline == to_money(product)
    assert inline.as_tuple() == to_money(product).as_tuple()  # the same digits and exponent


@settings(max_examples=300, deadline=None)
@given(histories())
def test_credit_rates_given_by_the_caller_post_what_the_reference_ledger_posts(history):
    floor = history["settings"].interest_floor

    def credit_rate(year):
        rate = history["treasury_rate"](year)
        return (rate, *credit_rate_in_percent(rate, floor))

    assert _rows(build_ledger(**history, credit_rate=credit_rate)) == _rows(build_ledger_reference(**history))


spans = st.builds(
    lambda start, length: ActivePeriod(start, None if length is None else start + timedelta(days=length)),
    st.dates(date(1995, 1, 1), date(2030, 12, 31)),
    st.one_of(st.none(), st.integers(0, 4000)),
)


@given(spans, st.integers(1994, 2032))
def test_one_span_counts_the_paydays_the_general_path_counts(span, year):
    assert active_paydays((span,), year) == active_paydays((span, span), year)


ASSUMPTIONS = MappingProxyType(
    {
        "treasury_10y_november": {str(y): f"{3 + (y % 7) * 0.55:.2f}" for y in range(1985, 2026)},
        "treasury_10y_projection": "4.10",
        "applicable_interest_rate_default": "5.00",
    }
)
PLAN = get_plan("quaker-cash-balance")


@st.composite
def separated(draw):
    """Participants separated before vesting (a forfeiture), some rehired (a restoration, or a new
    forfeiture), their Normal Retirement Date still ahead."""
    birth = draw(st.dates(date(1960, 1, 1), date(1995, 12, 31)))
    hire = draw(st.dates(max(date(birth.year + 19, 1, 1), date(2000, 1, 1)), date(2022, 12, 31)))
    end = hire + timedelta(days=draw(st.integers(400, 1100)))
    periods = [EmploymentPeriod(hire, end)]
    if draw(st.booleans()):
        back = end + timedelta(days=draw(st.integers(30, 3000)))
        periods.append(
            EmploymentPeriod(back, draw(st.one_of(st.none(), st.just(back + timedelta(days=500)))))
        )
    last_end = periods[-1].end or periods[-1].start
    earliest = max(last_end + timedelta(days=400), date(2010, 1, 1))
    assume(earliest <= date(2026, 11, 30))
    as_of = draw(st.dates(earliest, date(2026, 11, 30)))
    years = range(hire.year, as_of.year + 1)
    return Participant(
        id="P",
        birth_date=birth,
        hire_date=hire,
        employment_periods=tuple(periods),
        hours=MappingProxyType({y: draw(st.integers(0, 2300)) for y in years}),
        compensation=MappingProxyType({y: D(draw(st.integers(1000, 400000))) for y in years}),
        marital_status="single",
        plan_data=MappingProxyType({}),
    ), as_of


@settings(max_examples=150, deadline=None)
@given(separated())
def test_an_untraced_quiet_account_carried_from_december_31_is_the_frozen_ledger(case):
    p, as_of = case
    market = MarketData.from_assumptions(ASSUMPTIONS)
    core = PLAN.core_result(p, as_of)
    inputs = account_inputs(p, core, market)
    last_dec31 = as_of if (as_of.month, as_of.day) == (12, 31) else date(as_of.year - 1, 12, 31)
    assume(inputs.account_open is not None)
    assume(_quiet_after(_frozen_account(inputs, last_dec31), last_dec31, core.normal_retirement_date))
    with traces_off():
        bare = _outcome(lambda: accrued_benefit(p, as_of, market, core, inputs))
        # The participant's own ledger (to the as-of date or later, in cents) read to December 31.
        own = participant_ledger(p, as_of, market, core, through=as_of + timedelta(days=400), inputs=inputs)
        from_own = _outcome(lambda: accrued_benefit(p, as_of, market, core, inputs, own))
    with recorded_reads():  # traced: the frozen account built to NRD, entry by entry
        built = _outcome(lambda: accrued_benefit(p, as_of, market, core, inputs))
        entries = participant_ledger(p, as_of, market, core, inputs=inputs)  # the general ledger
    with traces_off():
        from_entries = _outcome(lambda: accrued_benefit(p, as_of, market, core, inputs, entries))
    assert bare == built == from_own == from_entries


def _outcome(compute):
    try:
        a = compute()
    except Exception as exc:  # noqa: BLE001 - both paths must stop the same way
        return type(exc), str(exc)
    if a is None or isinstance(a, Decimal):
        return None if a is None else str(a)
    return str(a.balance_at_nrd), str(a.monthly_at_nrd), a.estimate


@given(
    st.sampled_from(["irs_401a17_compensation_limit", "irs_414q_hce_compensation_threshold"]),
    st.lists(st.integers(1960, 2060), min_size=1, max_size=6),
)
def test_a_limit_looked_up_once_without_a_trace_is_the_recorded_lookup(name, years):
    from benefits.engine.plans.quaker_cash_balance.inputs import _limit

    for year in years:
        with recorded_reads():
            recorded = _outcome(functools.partial(_limit, name, year))
        with traces_off():
            assert _outcome(functools.partial(_limit, name, year)) == recorded
            assert _outcome(functools.partial(_limit, name, year)) == recorded  # the memoized answer
