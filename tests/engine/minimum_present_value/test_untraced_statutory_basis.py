"""Issue 29: ``statutory_basis(..., traced=False)`` (carver-db's cash-out test of every date of a grid)
is the traced call's basis without its label, and the same regime, rates, table, words and period,
or the same error, for any distribution date and look-back month (before the Pension Protection
Act, in its 2008-2011 transition, from 2012, past the last published table; rates given or not)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine.dates import add_months
from benefits.engine.minimum_present_value import lookback, statutory_basis


@st.composite
def cases(draw):
    on = draw(st.dates(date(1994, 6, 1), date(2045, 12, 31)))
    month = lookback(on, draw(st.integers(0, 14)))
    given_months = [lookback(add_months(on, k), 0) for k in range(-16, 2) if draw(st.booleans())]
    assumptions = {
        "segment_rates": {m: ["4.45", f"{5 + len(m) % 3 * 0.1:.2f}", "5.85"] for m in given_months},
        "treasury_30y_monthly": {m: "4.60" for m in given_months if draw(st.booleans())},
    }
    start = date(on.year, 1, 1) if draw(st.booleans()) else None
    return on, assumptions, month, start, draw(st.booleans())


def outcome(on, assumptions, month, start, projection, traced):
    try:
        sb = statutory_basis(
            on, assumptions, lookback_month=month, period_start=start, projection=projection, traced=traced
        )
    except Exception as exc:  # noqa: BLE001 - the outcome compared is the error itself
        return type(exc), str(exc), getattr(exc, "field", None)
    return (
        replace(sb.basis, label=""),
        sb.regime,
        sb.lookback_month,
        sb.period_start,
        sb.rates_percent,
        sb.table,
        sb.words,
    )


@settings(max_examples=300, deadline=None)
@given(cases())
def test_the_untraced_basis_is_the_traced_one_without_its_label(case):
    traced = outcome(*case, traced=True)
    untraced = outcome(*case, traced=False)
    assert untraced == traced
    if not isinstance(untraced[0], type):  # a basis: made unlabelled, with an empty trace
        sb = statutory_basis(case[0], case[1], lookback_month=case[2], period_start=case[3],
                             projection=case[4], traced=False)  # fmt: skip
        assert sb.basis.label == "" and not sb.trace.steps
