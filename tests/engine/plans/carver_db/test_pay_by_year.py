"""``inputs.pay_by_year`` is the comprehension it replaces: a parsed participant's pay (whole years to
Decimals) copied as it is, any other map converted key by key, value by value (or the same error)."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine.plans.carver_db.inputs import pay_by_year

keys = st.one_of(st.integers(1900, 2100), st.integers(1900, 2100).map(str), st.booleans(), st.just("x"))
values = st.one_of(
    st.decimals(allow_nan=False, allow_infinity=False, places=2),
    st.decimals(),
    st.integers(-10, 10**6),
    st.sampled_from(["12.50", "x", "1e3"]),
)


def outcome(fn, m):
    try:
        out = fn(m)
    except Exception as exc:  # noqa: BLE001 - the same error either way
        return ("error", type(exc))
    return ("ok", [(type(k), k, type(v), str(v)) for k, v in out.items()])


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(keys, values, max_size=6))
def test_pay_by_year_is_the_comprehension(m):
    assert outcome(pay_by_year, m) == outcome(lambda c: {int(k): Decimal(v) for k, v in c.items()}, m)
