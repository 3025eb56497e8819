"""Without traces ``applicable_basis`` is made once for the market data, the date and the plan's
reading of Rev. Rul. 2001-62: every later call gives what the recorded (traced) call gives, the same
basis, rate, table and words, or the same error; a table loaded as an input is never taken from it.
"""

from __future__ import annotations

from datetime import date

from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine.mortality import REVRUL_2001_62_TABLES, revrul_2001_62_reading
from benefits.engine.parameters import recorded_reads
from benefits.engine.plans.quaker_cash_balance.annuity import applicable_basis
from benefits.engine.plans.quaker_cash_balance.market import MarketData
from benefits.engine.trace import traces_off


def _outcome(compute):
    try:
        b = compute()
    except Exception as exc:  # noqa: BLE001 - both must stop the same way
        return type(exc), str(exc)
    return b.basis, b.rate, b.table, b.describe()


@settings(max_examples=150, deadline=None)
@given(
    days=st.lists(st.dates(date(1990, 1, 1), date(2070, 12, 31)), min_size=1, max_size=6),
    months=st.dictionaries(
        st.tuples(st.integers(1995, 2030), st.integers(1, 12)).map(lambda ym: f"{ym[0]}-{ym[1]:02d}"),
        st.sampled_from(["4.5", "5.25", "6.00", "3"]),
        max_size=6,
    ),
    default=st.one_of(st.none(), st.sampled_from(["5.00", "4.75"])),
    table=st.one_of(st.none(), st.just("rev-rul-95-6")),
    reading=st.one_of(st.none(), st.sampled_from(sorted(REVRUL_2001_62_TABLES))),
)
def test_an_untraced_basis_is_the_recorded_one(days, months, default, table, reading):
    assumptions = {"applicable_interest_rate": months}
    if default is not None:
        assumptions["applicable_interest_rate_default"] = default
    if table is not None:
        assumptions["applicable_mortality_table"] = table
    market = MarketData._parse(assumptions)  # its own memo: nothing shared with other examples
    with revrul_2001_62_reading(reading):
        for day in days + days:  # each date twice: the second from the memo
            with traces_off():
                bare = _outcome(lambda d=day: applicable_basis(d, market))
            with recorded_reads():
                recorded = _outcome(lambda d=day: applicable_basis(d, market))
            assert bare == recorded
