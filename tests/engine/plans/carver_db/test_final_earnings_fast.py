"""Final Earnings (``earnings.final_earnings``) held equal to the general form it replaced: every
window's average compared, each year capped through ``capped`` (the all-ZERO window of a hire after
the freeze is taken without the arithmetic)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from benefits.engine.plans.carver_db.earnings import ZERO, capped, final_earnings
from benefits.engine.plans.carver_db.settings import PLAN_FREEZE_DATE
from benefits.engine.trace import traces_off


def _general(compensation: Mapping[int, Decimal], end_exclusive: date) -> tuple[Decimal, int]:
    last = end_exclusive.year - 1
    first = last - 9
    yearly = {
        y: capped(y, Decimal(compensation.get(y, ZERO))) if y <= PLAN_FREEZE_DATE.year else ZERO
        for y in range(first, last + 1)
    }
    best_start, best_avg = first, None
    for start in range(first, last - 1):
        avg = (yearly[start] + yearly[start + 1] + yearly[start + 2]) / 3
        if best_avg is None or avg > best_avg:
            best_start, best_avg = start, avg
    return (best_avg if best_avg is not None else ZERO), best_start


amounts = st.one_of(
    st.just(ZERO),
    st.just(Decimal("0.00")),
    st.decimals(min_value=0, max_value=400_000, places=2),
    st.sampled_from([Decimal(150000), Decimal("170000.00"), Decimal("160000.01")]),
)
pay = st.dictionaries(st.integers(1980, 2010), amounts, max_size=15)
ends = st.dates(min_value=date(1985, 1, 1), max_value=date(2030, 12, 31))


@given(pay, ends, st.booleans())
def test_final_earnings_equal_the_general_form(
    compensation: dict[int, Decimal], end_exclusive: date, traced: bool
) -> None:
    amount, start = _general(compensation, end_exclusive)
    if traced:
        got = final_earnings(compensation, end_exclusive)
    else:
        with traces_off():
            got = final_earnings(compensation, end_exclusive)
    assert str(got.amount) == str(amount)
    assert got.best_years == (start, start + 1, start + 2)
    assert got.window == (end_exclusive.year - 10, end_exclusive.year - 1)
