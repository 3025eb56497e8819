"""Taking an amount from accounts in the plan's order of priority (§7.3(a), §7.4(e), §8.4(b)).

A group of sources is drawn together, pro rata to what each has available (the Matching sub-portions
for §7.3 and loans, A24); the groups are drawn one after another.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from benefits.engine.money import ZERO, to_money
from benefits.engine.trace import Trace, TraceBuilder, money

from .sources import LABELS


def draw_in_order(
    amount: object,
    groups: Sequence[Sequence[tuple[str, Decimal]]],
    *,
    section: str,
) -> tuple[dict[str, Decimal], Decimal, Trace]:
    """Draw `amount` from `groups` of (source, available). Returns (taken by source, shortfall, trace)."""
    need = to_money(amount)
    taken: dict[str, Decimal] = {}
    tb = TraceBuilder()
    for group in groups:
        avail = [(s, a) for s, a in group if a > ZERO]
        total = sum((a for _, a in avail), ZERO)
        if need <= ZERO or total <= ZERO:
            continue
        from_group = min(need, total)
        left = from_group
        for i, (src, a) in enumerate(avail):
            share = left if i == len(avail) - 1 else min(a, to_money(from_group * a / total))
            share = min(share, a)
            if share > ZERO:
                taken[src] = taken.get(src, ZERO) + share
                tb.step(
                    f"Taken from the {LABELS[src]}", section=section, result=money(share), available=money(a)
                )
            left -= share
        need -= from_group - left
    return taken, need, tb.build()
