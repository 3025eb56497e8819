"""The trace-value wrappers (``money(x)``, ``factor(x, 6)``…) give the value itself inside
``traces_off()``: what a step or ``Trace.add`` makes of it is what it makes of the wrapped value."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from benefits.engine import trace as t

ONE_ARG = (t.money, t.rate, t.percent, t.age, t.years, t.year, t.count, t.number, t.text)
PLACES = (t.factor, t.shares, t.price)

values = st.one_of(
    st.decimals(allow_nan=False, allow_infinity=False),
    st.integers(),
    st.dates(),
    st.text(max_size=5),
    st.none(),
    st.lists(st.decimals(allow_nan=False, allow_infinity=False), max_size=3),
)


def _wrappers(places: int | None) -> list[object]:
    return [*(lambda v, w=w: w(v) for w in ONE_ARG), *(lambda v, w=w: w(v, places) for w in PLACES)]


def _use(wrap: object, value: object) -> tuple[object, object, list[object]]:
    """What a builder step returns, and what a trace and a builder record, for the wrapped value."""
    tb = t.TraceBuilder()
    got = tb.step("rule", section="§1", result=wrap(value), x=wrap(value))  # type: ignore[operator]
    added = t.Trace().add("rule", section="§1", result=wrap(value), x=wrap(value))  # type: ignore[operator]
    return got, added, [s.as_dict() for s in tb.build().steps]


@given(values, st.one_of(st.none(), st.integers(0, 8)))
def test_untraced_wrapper_is_the_value(value: object, places: int | None) -> None:
    for wrap in _wrappers(places):
        traced_result, traced_trace, traced_steps = _use(wrap, value)
        assert t.recording()
        with t.traces_off():
            plain = wrap(value)  # type: ignore[operator]
            assert plain is value
            result, trace, steps = _use(wrap, value)
        assert result is value and traced_result is value
        assert trace.steps == () and steps == []
        assert len(traced_trace.steps) == 1 and len(traced_steps) == 1


@given(st.decimals(allow_nan=False, allow_infinity=False))
def test_traced_wrapper_keeps_the_type(value: Decimal) -> None:
    wrapped = t.money(value)
    assert isinstance(wrapped, t.Typed) and wrapped.value is value and wrapped.type == t.MONEY
    with t.traces_off():
        assert t.money(value) is value and t.factor(value, 6) is value and t.typed(value, t.RATE) is value
