"""Exact splitting of a pool: largest-remainder rounding, so the parts add up to the pool.

The plan allows fractional shares (F §2 "Stock") but says nothing about rounding; the SPEC's
convention (A4.3, Part C) is 4 places for shares, cents for cash, largest remainder so nothing is
lost or created. Ties go to the larger weight, then to the earlier key, so results are repeatable.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import ROUND_DOWN, ROUND_UP, Decimal

from benefits.engine.money import CENT, ZERO

SHARE = Decimal("0.0001")


def quantum_for(places: int) -> Decimal:
    return Decimal(1).scaleb(-places)


def round_shares(value: Decimal, places: int = 4, *, up: bool = False, down: bool = False) -> Decimal:
    """Shares to ``places`` decimals; half up unless told to round up or down."""
    from decimal import ROUND_HALF_UP

    mode = ROUND_UP if up else ROUND_DOWN if down else ROUND_HALF_UP
    return value.quantize(quantum_for(places), rounding=mode)


def largest_remainder(
    total: Decimal, weights: Mapping[str, Decimal], quantum: Decimal = CENT
) -> dict[str, Decimal]:
    """Split ``total`` in proportion to ``weights`` in units of ``quantum``; the parts sum to ``total``.

    ``total`` must be a whole number of quanta. Zero total weight gives everyone zero (the caller
    decides what happens to an unallocable pool).
    """
    if total != total.quantize(quantum):
        raise ValueError(f"pool {total} is not a whole number of {quantum}")
    weight_sum = sum(weights.values(), ZERO)
    if weight_sum <= 0 or total == 0:
        return {k: ZERO.quantize(quantum) for k in weights}
    units = int(total / quantum)
    floors: dict[str, int] = {}
    remainders: list[tuple[Decimal, Decimal, int, str]] = []
    for order, (key, w) in enumerate(weights.items()):
        exact = Decimal(units) * w / weight_sum
        floor = int(exact.to_integral_value(rounding=ROUND_DOWN))
        floors[key] = floor
        remainders.append((exact - floor, w, -order, key))
    leftover = units - sum(floors.values())
    for _rem, _w, _o, key in sorted(remainders, reverse=True)[:leftover]:
        floors[key] += 1
    return {k: (Decimal(n) * quantum).quantize(quantum) for k, n in floors.items()}
