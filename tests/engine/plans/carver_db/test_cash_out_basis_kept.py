"""Issue 29: carver-db's cash-out test of many dates with each date's §417(e)(3) basis kept between
requests (``basis_memo.memo_of``) gives, date for date, the scalar ``cash_out``'s outcome: dates
before the Pension Protection Act, in its transition and after, with and without the month's rates,
the market data written several ways ("4.60", "4.6", 4.6, Decimal), each grid priced twice (the
second time from the kept bases)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine.dates import add_months
from benefits.engine.minimum_present_value import lookback
from benefits.engine.plans.carver_db.cash_out import cash_out, cash_out_event, cash_outs_of_dates
from tests.engine.relative_value.test_basis_memo import WRITINGS, written_as

BIRTH = date(1962, 7, 15)
NRD = date(2027, 8, 1)


@st.composite
def grids(draw):
    start = draw(st.dates(date(2001, 1, 1), date(2030, 1, 1))).replace(day=1)
    dates = [add_months(start, k * draw(st.integers(1, 9))) for k in range(draw(st.integers(1, 12)))]
    term = draw(st.one_of(st.none(), st.dates(date(2000, 1, 1), dates[0])))
    months = {lookback(add_months(d, k), 0) for d in dates for k in range(-3, 1)}
    given_months = sorted(m for m in months if draw(st.integers(0, 4)))
    assumptions = {
        "segment_rates": {m: ["4.45", f"{5 + len(m) % 4 * 0.25:.2f}", "5.80"] for m in given_months},
        "treasury_30y_monthly": {m: "4.60" for m in given_months if draw(st.booleans())},
    }
    vested = Decimal(draw(st.integers(0, 2_000_000))) / 100
    return dates, term, assumptions, vested


def outcome(co):
    if isinstance(co, Exception):
        return type(co), str(co)
    return co.required, co.value, co.threshold, co.missing


@settings(max_examples=60, deadline=None)
@given(grids(), st.lists(st.sampled_from(WRITINGS), min_size=1, max_size=3))
def test_each_date_with_its_kept_basis_is_the_scalar_cash_out(grid, writings):
    dates, term, assumptions, vested = grid
    for how in writings:
        a = written_as(assumptions, how)
        pairs = [(d, cash_out_event(term, d)) for d in dates]
        for _ in range(2):  # the second pass reads the bases the first kept
            together = cash_outs_of_dates(
                vested_annual_at_nrd=vested, birth_date=BIRTH, dates=pairs, nrd=NRD, assumptions=a
            )
            for (d, event), co in zip(pairs, together, strict=True):
                try:
                    alone = cash_out(
                        vested_annual_at_nrd=vested, birth_date=BIRTH, distribution_date=d,
                        event_date=event, nrd=NRD, assumptions=a,
                    )  # fmt: skip
                except Exception as exc:  # noqa: BLE001 - both sides must meet the same error
                    alone = exc
                assert outcome(co) == outcome(alone)
