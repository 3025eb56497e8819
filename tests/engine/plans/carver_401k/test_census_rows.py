"""Without traces the usual Plan Year (no employer contributions made, no payroll detail) is computed
straight to the contract's row (issue 29, item 5): every key, in order, every digit, is the general
path's (``year_contributions`` and the contract's money strings), over random years, pay, deferrals
(zero, signed zero, above the §402(g) limit and the 15% cap) and settings; anything else falls back."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from hypothesis import example, given, settings
from hypothesis import strategies as st

from benefits.engine.core import ParticipantError
from benefits.engine.money import ZERO, money_str, percent_str, to_money
from benefits.engine.plans.carver_401k import contract
from benefits.engine.plans.carver_401k.accounts import _vested_decimal, vest_accounts, vested_amount
from benefits.engine.plans.carver_401k.contributions import untraced_year_row, year_contributions
from benefits.engine.plans.carver_401k.inputs import _money, _money_map
from benefits.engine.plans.carver_401k.settings import BenefitSettings
from benefits.engine.plans.carver_401k.sources import ALL_SOURCES, CONTRACT_SOURCES
from benefits.engine.trace import traces_off

amounts = st.one_of(
    st.decimals(min_value=0, max_value=600000, places=3, allow_nan=False, allow_infinity=False),
    st.decimals(min_value=0, max_value=60000, places=2, allow_nan=False, allow_infinity=False),
    st.sampled_from([ZERO, Decimal("-0"), Decimal("0.00"), Decimal("-0.00"), Decimal("0E+3")]),
    st.integers(0, 60000).map(Decimal),
)
unusual = st.one_of(
    st.decimals(allow_nan=True, allow_infinity=True),
    st.decimals(min_value=Decimal("-1E20"), max_value=Decimal("1E30")),
    st.integers(-5, 60000),
    st.just("1000.00"),
)
settings_ = st.builds(BenefitSettings, safe_harbor_2002_adopted=st.booleans())


def _row(year, comp, defs, s):
    try:
        return untraced_year_row(year, comp, defs, s)
    except Exception as exc:  # noqa: BLE001
        return type(exc), str(exc)


def _general(year, comp, defs, s):
    """What the contract's general path writes for the year (or the error it raises)."""
    try:
        yc = year_contributions(year, comp, defs, settings=s)
    except Exception as exc:  # noqa: BLE001 - a limit not in force: both must raise the same
        return type(exc), str(exc)
    row = {k: money_str(v) for k, v in yc.amounts.items()}
    if yc.excess_deferrals > ZERO:
        row["excess_deferrals"] = money_str(yc.excess_deferrals)
    return row


def _items(outcome):
    return list(outcome.items()) if isinstance(outcome, dict) else outcome


@settings(max_examples=600, deadline=None)
@given(st.integers(1990, 2030), amounts, amounts, settings_)
@example(2025, Decimal("345000"), Decimal("30000"), BenefitSettings())
@example(2001, Decimal("-0"), Decimal("-0"), BenefitSettings())
@example(2010, Decimal("100.005"), Decimal("0.005"), BenefitSettings())
def test_the_usual_row_is_the_general_path(year, comp, defs, s):
    with traces_off():
        row = _row(year, comp, defs, s)
        assert row is not None
        assert _items(row) == _items(_general(year, comp, defs, s))


@settings(max_examples=300, deadline=None)
@given(st.integers(1990, 2030), st.one_of(amounts, unusual), st.one_of(amounts, unusual), settings_)
def test_unusual_amounts_fall_back_or_agree(year, comp, defs, s):
    with traces_off():
        row = _row(year, comp, defs, s)
        if row is not None:
            assert _items(row) == _items(_general(year, comp, defs, s))
        else:
            assert not (type(comp) is Decimal and type(defs) is Decimal and comp.is_finite()
                        and defs.is_finite() and 0 <= comp < Decimal("1e15") and 0 <= defs < Decimal("1e15"))  # fmt: skip


@given(
    st.one_of(
        st.decimals(min_value=-200, max_value=200, places=3, allow_nan=False, allow_infinity=False),
        st.sampled_from(
            [
                Decimal("100"),
                Decimal("100.00"),
                Decimal("1E+2"),
                Decimal("0"),
                Decimal("-0"),
                Decimal("62.50"),
                Decimal("62.5"),
                Decimal("0.000"),
            ]
        ),  # fmt: skip
    ),
)
def test_a_percentage_kept_by_value_prints_as_percent_str(value):
    first = contract._percent_str(value)  # the first asking may keep it
    assert first == percent_str(value)
    assert contract._percent_str(value) == percent_str(value)  # the kept one


@given(st.sampled_from(["NaN", "-NaN", "sNaN", "Infinity", "-Infinity"]).map(Decimal))
def test_a_percentage_that_is_not_finite_is_left_to_percent_str(value):
    def outcome(fn):
        try:
            return fn(value)
        except Exception as exc:  # noqa: BLE001 - the same error either way
            return type(exc)

    assert outcome(contract._percent_str) == outcome(percent_str)


@given(st.dictionaries(st.sampled_from(CONTRACT_SOURCES), st.decimals(0, 10**6, places=2), min_size=1),
       st.sampled_from([Decimal(p) for p in (0, 20, 40, 60, 80, 100)]),
       st.dictionaries(st.sampled_from(CONTRACT_SOURCES), st.decimals(0, 10**5, places=2)),
       st.dictionaries(st.sampled_from(CONTRACT_SOURCES), st.decimals(0, 10**5, places=2)))  # fmt: skip
def test_vesting_without_a_trace_is_the_traced_vesting(balances, pct, withdrawn, loaned_out):
    def figures():
        v = vest_accounts(balances, pct, withdrawn=withdrawn, loaned_out=loaned_out)
        return [(s.source, str(s.balance), str(s.vested_percent), str(s.d), str(s.vested_balance))
                for s in v.by_source.values()]  # fmt: skip

    traced = figures()
    with traces_off():
        assert figures() == traced


@given(
    st.one_of(
        st.decimals(allow_nan=True, allow_infinity=True).map(str),
        st.text(alphabet="0123456789.-+eE_ nN", max_size=12),
        st.sampled_from(["1e3", "-0", "12.345", "1_000.5", " 7 ", "NaN", "sNaN", "Infinity", "9" * 40]),
        st.integers(-(10**6), 10**6),
        st.sampled_from([None, True, False, 1.5, [], {}]),
    )
)
def test_plan_data_money_is_read_as_to_money_reads_it(raw):
    def general():  # the reading before the string fast path
        if isinstance(raw, bool) or raw is None:
            return "error"
        try:
            return str(to_money(raw))
        except (TypeError, InvalidOperation, ValueError):
            return "error"

    def read(fn):
        try:
            return str(fn())
        except ParticipantError as exc:
            assert exc.field == "/plan_data/balances/before_tax"
            return "error"

    assert read(lambda: _money(raw, "/plan_data/balances/before_tax")) == general()
    assert (
        read(lambda: _money_map({"before_tax": raw}, "/plan_data/balances", ALL_SOURCES)["before_tax"])
        == general()
    )


def _year_by_year(years, comp, defs, s):
    """``_usual_rows`` as the year-by-year rows (``untraced_year_row``) make it, or the first error."""
    out, keys = {}, []
    for year in years:
        row = _row(year, comp.get(year, ZERO), defs.get(year, ZERO), s)
        if not isinstance(row, dict):
            return None
        out[str(year)] = row
        keys.append(f"contributions.{year}")
    return out, keys


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(st.integers(1985, 2032), st.one_of(amounts, unusual), max_size=8),
    st.dictionaries(st.integers(1985, 2032), amounts, max_size=3),
    settings_,
)
def test_years_without_deferrals_take_the_kept_row(comp, defs, s):
    """A year without deferrals takes the row kept for its year and settings: the same keys, strings
    and order as asking ``untraced_year_row`` for it (unusual pay falls back; a limit not in force
    is no row)."""
    years = sorted(set(comp) | set(defs))
    with traces_off():
        for _ in range(2):  # the first asking keeps the rows, the second reads them
            got = contract._usual_rows(years, comp, defs, s)
            want = _year_by_year(years, comp, defs, s)
            if got is None or want is None:
                assert got is None and want is None
            else:
                assert [list(r.items()) for r in got[0].values()] == [
                    list(r.items()) for r in want[0].values()
                ]
                assert list(got[0]) == list(want[0]) and got[1] == want[1]


@given(
    st.one_of(
        st.decimals(-(10**6), 10**6, places=2), st.sampled_from([Decimal("-0.00"), ZERO, Decimal("0E+2")])
    ),
    st.one_of(
        st.sampled_from([Decimal(p) for p in (0, 20, 40, 60, 80, 100)]),
        st.decimals(0, 100, allow_nan=False, allow_infinity=False),
    ),
    st.one_of(st.just(Decimal("0.00")), st.decimals(0, 10**5, places=2)),
)
def test_the_vested_part_of_decimals_is_vested_amount(balance, pct, d):
    """``vest_accounts``' arithmetic on Decimals is ``vested_amount``'s: the same value and digits."""
    fast, general = _vested_decimal(balance, pct, d), vested_amount(balance, pct, d)
    assert str(fast) == str(general) and fast.as_tuple() == general.as_tuple()


@given(st.dictionaries(st.sampled_from(CONTRACT_SOURCES), st.decimals(-(10**5), 10**6, places=2)),
       st.sampled_from([Decimal(p) for p in (0, 20, 60, 100)]))  # fmt: skip
def test_the_account_totals_are_the_sums_of_the_sources(balances, pct):
    """The totals, summed once and kept, are the sources' sums each time they are asked."""
    v = vest_accounts(balances, pct)
    for _ in range(2):
        assert str(v.balance) == str(sum((s.balance for s in v.by_source.values()), ZERO))
        assert str(v.vested_balance) == str(sum((s.vested_balance for s in v.by_source.values()), ZERO))
