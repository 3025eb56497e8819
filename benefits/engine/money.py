"""Money is Decimal with explicit rounding, never float.

The plans round at defined points only; everywhere else values keep full precision. Rounding is
half up (the usual convention for benefit statements and the engine contract's output rule).
"""

from __future__ import annotations

from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
ZERO = Decimal("0")
HUNDRED = Decimal("100")


def to_decimal(value: object) -> Decimal:
    """Exact conversion of ints, Decimals and decimal strings; floats go through repr (factors only)."""
    if isinstance(value, Decimal):
        return value
    if isinstance(value, bool):
        raise TypeError("a boolean is not a number")
    if isinstance(value, int | str):
        return Decimal(value)
    if isinstance(value, float):
        # Actuarial factors are float64; repr gives the shortest exact round-trip string.
        return Decimal(repr(value))
    raise TypeError(f"cannot convert {type(value).__name__} to Decimal")


def to_money(value: object) -> Decimal:
    """Round to cents, half up: the one step where a computed value becomes money."""
    if type(value) is Decimal:  # the usual case, without the conversion's checks (a census rounds millions)
        return value.quantize(CENT, ROUND_HALF_UP)
    return to_decimal(value).quantize(CENT, rounding=ROUND_HALF_UP)


def to_money_down(value: object) -> Decimal:
    """Round to cents, toward zero (used where a plan or rule truncates)."""
    return to_decimal(value).quantize(CENT, rounding=ROUND_DOWN)


def money_str(value: Decimal) -> str:
    """The contract's money string: two places, half up at the output."""
    # A Decimal quantized to the cent prints in plain notation with two places whatever its size
    # (str gives what format(…, ".2f") gives, "-0.00" included, a third faster).
    return str(value.quantize(CENT, ROUND_HALF_UP) if type(value) is Decimal else to_money(value))


def percent_str(value: Decimal) -> str:
    """A percentage as a decimal string without needless trailing zeros ("40", "62.5")."""
    d = to_decimal(value)
    if d == d.to_integral_value():
        return str(d.quantize(Decimal(1)))
    return format(d.normalize(), "f")
