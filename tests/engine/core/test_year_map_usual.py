"""A census's hours and pay by year take a shortcut when every item is the usual kind
(``request._usual_year_map``); the map, or the error and its pointer, is the general path's."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine.core import ParticipantError
from benefits.engine.request import _hours, _money, _year_map

keys = st.one_of(
    st.integers(1890, 2110).map(str),
    st.sampled_from(["02025", "0025", "²⁰²⁵", "２０２５", " 2025", "abcd", "", "-999", "2025.0"]),
    st.text(max_size=5),
)
hours = st.one_of(st.integers(-5, 9000), st.floats(-1, 9000), st.booleans(), st.just("2080"), st.none())
pay = st.one_of(
    st.decimals(min_value=-10, max_value=10**9, places=2).map(str),
    st.sampled_from(["1e3", "NaN", "Infinity", " 12.00 ", "1_000.00", "x", "1" * 45, "-0.00"]),
    st.sampled_from(
        [
            "12.",
            ".5",
            "0012.50",
            "99999999.99",
            "100000000",
            "100000000.00",
            "100000000.01",
            "1,2",
            "",
            "\u0661\u0662",
            "1." + "0" * 31,
            "1." + "0" * 32,
            "12345678." + "9" * 31,
            "0",
            "00000000",
        ]
    ),
    st.integers(-5, 10**9),
    st.floats(0, 10),
    st.booleans(),
)


def outcome(raw, convert):
    try:
        return ("ok", list(_year_map(raw, "/m", convert).items()))  # in the given order
    except ParticipantError as exc:
        return ("error", type(exc), exc.field, str(exc))


@settings(max_examples=400, deadline=None)
@given(raw=st.dictionaries(keys, hours, max_size=6))
def test_hours_shortcut_is_the_general_path(raw):
    assert outcome(raw, _hours) == outcome(raw, lambda v, p: _hours(v, p))


@settings(max_examples=400, deadline=None)
@given(raw=st.dictionaries(keys, pay, max_size=6))
def test_pay_shortcut_is_the_general_path(raw):
    assert outcome(raw, _money) == outcome(raw, lambda v, p: _money(v, p))
