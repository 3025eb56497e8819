"""The census fast paths (issue 17) give what the paths they replace gave, value for value.

* ``build_ledger`` posts a usual quarter (an Interest Credit, and on December 31 the year's
  Contribution Credit) without listing and sorting its events: over random histories (forfeitures,
  restorations, separation-date credits, an Annuity Starting Date, rounding and floor settings) its
  entries are those of the previous quarter-by-quarter ledger (``ledger_reference``), to the digit.
* ``accrued_benefit`` reads the balance at a Normal Retirement Date already passed from the
  participant's own ledger instead of building the frozen account again: the figure and its trace
  (including the §401(a)(17) reads the frozen ledger made) are the ones building it gives.
* ``MarketData.from_assumptions`` shares one parse between equal assumptions, never between inputs
  that parse differently (``"4"``, ``"4.00"``, ``4``, ``4.0``).
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from types import MappingProxyType

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from benefits.engine.parameters import recorded_reads
from benefits.engine.plans import get_plan
from benefits.engine.plans.quaker_cash_balance.account import participant_ledger
from benefits.engine.plans.quaker_cash_balance.compensation import CountableCompensation
from benefits.engine.plans.quaker_cash_balance.inputs import account_inputs
from benefits.engine.plans.quaker_cash_balance.ledger import build_ledger
from benefits.engine.plans.quaker_cash_balance.ledger_entries import Forfeiture
from benefits.engine.plans.quaker_cash_balance.market import MarketData, Rate
from benefits.engine.plans.quaker_cash_balance.results import accrued_benefit
from benefits.engine.plans.quaker_cash_balance.settings import BenefitSettings
from benefits.engine.types import EmploymentPeriod, Participant

from .ledger_reference import build_ledger_reference

D = Decimal
money = st.decimals(min_value=0, max_value=300000, places=2, allow_nan=False, allow_infinity=False)
days = st.dates(date(1998, 1, 1), date(2030, 12, 31))


def _rows(ledger):
    # str() of each amount: equal Decimals with other exponents would print apart in a trace.
    return [
        (e.date, e.kind, str(e.amount), str(e.balance), e.basis, e.section, e.estimate, e.residual)
        for e in ledger.entries
    ]


@st.composite
def histories(draw):
    account_open = draw(st.dates(date(1998, 1, 1), date(2012, 12, 31)))
    first, last = account_open.year, draw(st.integers(account_open.year, 2030))
    pay = {
        y: CountableCompensation(y, draw(money), f"pay {y}", draw(st.booleans()))
        for y in range(first, last + 1)
        if draw(st.integers(0, 5))  # a year without a credit now and then
    }
    forfeitures = []
    for on in sorted(draw(st.lists(st.dates(account_open, date(2030, 12, 31)), max_size=2))):
        back = draw(st.one_of(st.none(), st.integers(1, 2000)))
        forfeitures.append(Forfeiture(on, None if back is None else on + timedelta(days=back)))
    credit_dates = {
        y: draw(st.dates(date(y, 1, 1), date(y, 12, 31))) for y in pay if draw(st.integers(0, 6)) == 0
    }
    rates = draw(st.lists(st.sampled_from(["0", "0.02", "0.0400", "0.045", "0.131", "0.07"]), min_size=40))
    estimate_from = draw(st.integers(2000, 2035))

    def treasury_rate(year: int) -> Rate:
        return Rate(D(rates[(year - 1995) % len(rates)]), f"rate {year}", year > estimate_from)

    return dict(
        account_open=account_open,
        opening_balance=draw(money),
        pay_credits=pay,
        treasury_rate=treasury_rate,
        through=draw(st.dates(account_open, date(2040, 12, 31))),
        settings=BenefitSettings(
            round_each_posting=draw(st.booleans()),
            interest_floor=draw(st.sampled_from([None, D("0.02"), D("0.035")])),
            q1_2000_interest_on_beginning_balance=draw(st.booleans()),
        ),
        asd=draw(st.one_of(st.none(), st.dates(account_open, date(2040, 12, 31)))),
        forfeitures=tuple(forfeitures),
        credit_dates=credit_dates,
        opening_earns_first_quarter=draw(st.booleans()),
    )


@settings(max_examples=300, deadline=None)
@given(histories())
def test_the_usual_quarter_fast_path_posts_what_the_event_list_posted(history):
    assert _rows(build_ledger(**history)) == _rows(build_ledger_reference(**history))


ASSUMPTIONS = MappingProxyType(
    {
        "treasury_10y_november": {str(y): f"{3 + (y % 7) * 0.55:.2f}" for y in range(1985, 2026)},
        "applicable_interest_rate_default": "5.00",
    }
)
PLAN = get_plan("quaker-cash-balance")


@st.composite
def retirees(draw):
    """Participants most of whose Normal Retirement Date has passed, some separated or rehired, some
    loan agents (the §414(q) amount is a second read a year), some before 2000."""
    birth = draw(st.dates(date(1925, 1, 1), date(1958, 12, 31)))
    hire = draw(st.dates(max(date(birth.year + 20, 1, 1), date(1980, 1, 1)), date(2015, 12, 31)))
    as_of = draw(st.dates(max(hire + timedelta(days=400), date(2003, 1, 1)), date(2026, 11, 30)))
    periods = [EmploymentPeriod(hire, None)]
    if draw(st.booleans()):
        end = draw(st.dates(hire + timedelta(days=30), as_of))
        periods = [EmploymentPeriod(hire, end)]
        if draw(st.booleans()) and (as_of - end).days > 60:
            periods.append(EmploymentPeriod(draw(st.dates(end + timedelta(days=31), as_of)), None))
    years = range(hire.year, as_of.year + 1)
    plan_data = {"loan_agent": draw(st.booleans())}
    if hire.year < 2000:
        plan_data["opening_balance"] = str(draw(money))
    return Participant(
        id="P",
        birth_date=birth,
        hire_date=hire,
        employment_periods=tuple(periods),
        hours=MappingProxyType({y: draw(st.integers(0, 2300)) for y in years}),
        compensation=MappingProxyType({y: D(draw(st.integers(1000, 400000))) for y in years}),
        marital_status="single",
        plan_data=MappingProxyType(plan_data),
    ), as_of


@settings(max_examples=120, deadline=None)
@given(retirees())
def test_a_passed_nrd_reads_the_balance_the_frozen_ledger_gives(case):
    p, as_of = case
    market = MarketData.from_assumptions(ASSUMPTIONS)
    core = PLAN.core_result(p, as_of)
    last_dec31 = as_of if (as_of.month, as_of.day) == (12, 31) else date(as_of.year - 1, 12, 31)
    assume(core.normal_retirement_date <= last_dec31)  # the case the shortcut takes
    inputs = account_inputs(p, core, market)
    with recorded_reads():
        ledger = participant_ledger(p, as_of, market, core, inputs=inputs)
        from_ledger = _outcome(lambda: accrued_benefit(p, as_of, market, core, inputs, ledger))
    with recorded_reads():  # no ledger given: the frozen account is built to NRD
        built = _outcome(lambda: accrued_benefit(p, as_of, market, core, inputs))
    assert from_ledger == built


def _outcome(accrued):
    """The figure, its balance's digits and its trace, or the error that stopped it."""
    try:
        a = accrued()
    except Exception as exc:  # noqa: BLE001 - e.g. no §417(e)(3) table before 1995: both must stop
        return type(exc), str(exc)
    return None if a is None else (str(a.balance_at_nrd), a.monthly_at_nrd, a.trace.as_list())


@given(
    st.lists(
        st.one_of(
            st.sampled_from(["4", "4.0", "4.00", "04.5", "x"]),
            st.integers(0, 9),
            st.floats(0, 9, allow_nan=False),
            st.booleans(),
            st.decimals(0, 9, places=2, allow_nan=False),
        ),
        min_size=1,
        max_size=4,
    )
)
def test_equal_assumptions_share_a_parse_and_different_inputs_never_do(values):
    for v in values:
        raw = {"treasury_10y_november": {"2020": v}, "applicable_interest_rate_default": v}
        try:
            fresh = MarketData._parse(raw)
        except Exception as exc:  # noqa: BLE001 - the memoized path must raise the same
            try:
                MarketData.from_assumptions(raw)
            except type(exc):
                continue
            raise AssertionError("the memoized parse accepted what the parse refuses") from None
        shared = MarketData.from_assumptions(raw)
        assert shared is MarketData.from_assumptions(dict(raw))
        assert str(shared.treasury_10y_november[2020]) == str(fresh.treasury_10y_november[2020])
        assert str(shared.applicable_interest_rate_default) == str(fresh.applicable_interest_rate_default)


_rate_texts = st.sampled_from(["4", "4.0", "4.50", "5.25", "x"])
_scalars = st.one_of(_rate_texts, st.integers(0, 9), st.floats(0, 9, allow_nan=False), st.booleans())


@settings(max_examples=200, deadline=None)
@given(
    first=st.dictionaries(st.sampled_from(["2019", "2020", "2021"]), _rate_texts, max_size=3),
    default=st.one_of(st.none(), _scalars),
    changes=st.lists(
        st.tuples(
            st.sampled_from(["set year", "drop year", "set default", "drop default", "none"]),
            st.sampled_from(["2019", "2020", "2021"]),
            _scalars,
        ),
        max_size=5,
    ),
    proxy=st.booleans(),
)
def test_the_same_assumptions_object_changed_in_place_is_parsed_again(first, default, changes, proxy):
    """The very object of the last call gives its data only while it holds the same values: changed
    in place (a rate set, dropped or made another type), it gives what a fresh parse gives."""
    nov = dict(first)
    top: dict[str, object] = {"treasury_10y_november": nov}
    if default is not None:
        top["applicable_interest_rate_default"] = default
    raw = MappingProxyType(top) if proxy else top

    def same_as_fresh():
        try:
            fresh = MarketData._parse(raw)
        except Exception as exc:  # noqa: BLE001 - the shared path must raise the same
            try:
                MarketData.from_assumptions(raw)
            except type(exc) as again:
                assert str(again) == str(exc)
                return
            raise AssertionError("the shared parse accepted what the parse refuses") from None
        shared = MarketData.from_assumptions(raw)
        assert shared is MarketData.from_assumptions(raw)  # again: the same object
        assert shared == fresh
        assert {y: str(r) for y, r in shared.treasury_10y_november.items()} == {
            y: str(r) for y, r in fresh.treasury_10y_november.items()
        }
        assert str(shared.applicable_interest_rate_default) == str(fresh.applicable_interest_rate_default)

    same_as_fresh()
    for what, year, value in changes:
        if what == "set year":
            nov[year] = value
        elif what == "drop year":
            nov.pop(year, None)
        elif what == "set default":
            top["applicable_interest_rate_default"] = value
        elif what == "drop default":
            top.pop("applicable_interest_rate_default", None)
        same_as_fresh()
