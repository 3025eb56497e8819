"""Whole-cent arithmetic for the untraced census (issue 29): an Interest Credit as the product of a
balance in cents and a quarterly rate's digits, rounded half up (away from zero) to the cent, which is
``(base × rate).quantize(CENT, ROUND_HALF_UP)`` whenever that Decimal product is exact (fewer than 28
digits, checked: ``Unusual`` otherwise, and the caller takes the Decimal steps).
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_EVEN, Decimal, Inexact, Rounded, getcontext
from typing import NamedTuple

# Products and balances kept well inside the 28 digits a Decimal holds exactly.
BOUND = 10**26


class Unusual(Exception):
    """Input the whole-cent path does not take: the caller builds the ledger the general way."""


class CentsRate(NamedTuple):
    """A quarterly credit rate m / d (in lowest terms, h the floor of half of d), whether it is an
    estimate, ``limit``: a balance from 0 up to it earns a year of credits with every product exact
    and none negative (None for a negative rate or one over 100% a quarter: never a year at a time)."""

    m: int
    d: int
    h: int
    estimate: bool
    limit: int | None
    bound: int  # a product base × m under it is exact in Decimal too


def cents_rate(quarterly: Decimal, estimate: bool) -> CentsRate:
    sign, digits, exponent = quarterly.as_tuple()
    if not isinstance(exponent, int):
        raise Unusual("not a finite rate")
    m = int("".join(map(str, digits)) or "0") * (-1 if sign else 1)
    d = g = 1
    if exponent >= 0:
        m *= 10**exponent
    else:
        d = 10**-exponent
        # In lowest terms (smaller products): an odd denominator has no exact half cents, so
        # adding its floor half still rounds every other remainder the way half up does.
        g = math.gcd(m, d)
        m, d = m // g, d // g
    # The Decimal product has the rate's own digits (g times ours): the bounds are on those.
    bound = BOUND // g
    # Four quarters at no more than 100% each at most multiply the balance by 16.
    limit = bound // (16 * m + 1) if 0 <= m <= d else None
    return CentsRate(m, d, d // 2, estimate, limit, bound)


def interest_cents(base: int, r: CentsRate) -> int:
    """``(base × rate).quantize(CENT, ROUND_HALF_UP)`` in cents, ``base`` in cents."""
    t = base * r.m
    if not -r.bound < t < r.bound:
        raise Unusual("too large for an exact product")
    return (t + r.h) // r.d if t >= 0 else -((r.h - t) // r.d)


def default_context() -> bool:
    """Whether Decimal arithmetic is the default's (28 digits, half even): the exactness above."""
    ctx = getcontext()
    return (
        ctx.prec == 28
        and ctx.rounding == ROUND_HALF_EVEN
        and ctx.Emax >= 999999
        and not ctx.traps[Inexact]
        and not ctx.traps[Rounded]
    )


def cents_of(amount: Decimal) -> tuple[int, int]:
    """(cents, exponent) of an amount in whole cents or coarser; ``Unusual`` otherwise."""
    exponent = amount.as_tuple().exponent
    if not isinstance(exponent, int) or exponent < -2 or not -BOUND < amount < BOUND:
        raise Unusual("not whole cents")
    return int(amount.scaleb(2)), exponent
