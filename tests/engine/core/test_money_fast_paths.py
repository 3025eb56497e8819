"""``to_money`` and ``money_str`` take a shortcut for a plain Decimal; the figures are the general path's:
half up to the cent, and the contract's two-place string (``format(…, ".2f")``)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from hypothesis import given
from hypothesis import strategies as st

from benefits.engine.money import CENT, money_str, to_money

decimals = st.decimals(allow_nan=False, allow_infinity=False, min_value=-(10**15), max_value=10**15, places=6)


@given(decimals)
def test_to_money_is_half_up_to_the_cent(value):
    assert to_money(value) == value.quantize(CENT, rounding=ROUND_HALF_UP)
    assert str(to_money(value)) == str(value.quantize(CENT, rounding=ROUND_HALF_UP))


@given(st.one_of(decimals, st.integers(-(10**12), 10**12)))
def test_money_str_is_the_two_place_format(value):
    assert money_str(value) == f"{Decimal(value).quantize(CENT, rounding=ROUND_HALF_UP):.2f}"


def test_negative_zero_and_large_amounts_print_as_before():
    for text in ("-0", "-0.004", "0.005", "-0.005", "1E+3", "123456789012345.675"):
        value = Decimal(text)
        assert money_str(value) == f"{value.quantize(CENT, rounding=ROUND_HALF_UP):.2f}"
