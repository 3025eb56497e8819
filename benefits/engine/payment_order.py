"""How a payment out of an account plan is taken from its sources (pure Python).

A plan names, for each kind of claim that pays money, the groups of sources in the order its text
draws them; a group is drawn pro rata to what each source has available, the groups one after the
other (Carver 401(k) §7.3(a), §7.4(e), §8.4(b); a plan that names no order draws every source pro
rata, as the Carver 401(k) does for distributions, §5.3). Federal income tax withheld is its own line,
taken from the sources in proportion to what each gave.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from benefits.engine.money import ZERO, to_money


@dataclass(frozen=True)
class PaymentOrder:
    groups: tuple[tuple[str, ...], ...]  # empty: every source, pro rata
    section: str


PRO_RATA = PaymentOrder((), "pro rata across the accounts")


class SourcesShort(ValueError):
    """The sources do not hold the amount."""


def split_in_order(
    amount: object, available: Mapping[str, Decimal], order: PaymentOrder
) -> dict[str, Decimal]:
    """Take ``amount`` from ``available`` (source -> amount it may give) in ``order``; cents exact."""
    need = to_money(amount)
    groups: Sequence[Sequence[str]] = order.groups or (tuple(available),)
    taken: dict[str, Decimal] = {}
    for group in groups:
        avail = [(s, to_money(available[s])) for s in group if to_money(available.get(s, ZERO)) > ZERO]
        total = sum((a for _, a in avail), ZERO)
        if need <= ZERO or total <= ZERO:
            continue
        from_group = min(need, total)
        left = from_group
        for i, (src, a) in enumerate(avail):
            share = left if i == len(avail) - 1 else min(a, to_money(from_group * a / total))
            if share > ZERO:
                taken[src] = taken.get(src, ZERO) + share
            left -= share
        need -= from_group
    if need > ZERO:
        raise SourcesShort(f"the accounts hold {need} less than the payment")
    return taken


def split_withholding(parts: Mapping[str, Decimal], withholding: object) -> dict[str, Decimal]:
    """Withholding by source, in proportion to each source's part; the last source takes the cents."""
    w = to_money(withholding)
    total = sum(parts.values(), ZERO)
    out: dict[str, Decimal] = {}
    if w <= ZERO or total <= ZERO:
        return out
    items = list(parts.items())
    left = w
    for i, (src, part) in enumerate(items):
        share = left if i == len(items) - 1 else to_money(w * part / total)
        if share > ZERO:
            out[src] = share
        left -= share
    return out


def restore_in_order(
    borrowed: Mapping[str, Decimal],
    restored: Mapping[str, Decimal],
    principal: object,
    order: PaymentOrder,
) -> dict[str, Decimal]:
    """The accounts a loan repayment's ``principal`` is credited to (pure Python).

    A repayment restores the accounts the loan was taken from in the order the plan lent from them: no
    account of a lower priority is credited until the one before it has been restored by what was
    borrowed from it (Carver 401(k) §8.5(c), which names the §8.4(b) order). ``borrowed`` is what the
    loan took from each source, ``restored`` what earlier repayments gave back; inside a group (sources
    lent from pro rata) the principal is credited pro rata to what each source still lacks. Any cents
    past what was borrowed (rounding of the schedule) go to the last source restored.
    """
    need = to_money(principal)
    groups: Sequence[Sequence[str]] = order.groups or (tuple(borrowed),)
    named = {s for g in groups for s in g}
    groups = [*groups, tuple(s for s in borrowed if s not in named)]
    credit: dict[str, Decimal] = {}
    last = None
    for group in groups:
        short = [
            (s, to_money(borrowed.get(s, ZERO)) - to_money(restored.get(s, ZERO)))
            for s in group
            if s in borrowed
        ]
        short = [(s, a) for s, a in short if a > ZERO]
        total = sum((a for _, a in short), ZERO)
        if need <= ZERO:
            break
        if total <= ZERO:
            continue
        into_group = min(need, total)
        left = into_group
        for i, (src, a) in enumerate(short):
            share = left if i == len(short) - 1 else min(a, to_money(into_group * a / total))
            if share > ZERO:
                credit[src] = credit.get(src, ZERO) + share
                last = src
            left -= share
        need -= into_group
    if need > ZERO:
        tail = last or next((s for g in reversed(groups) for s in reversed(g) if s in borrowed), None)
        if tail is None:
            raise SourcesShort("the loan was taken from no source")
        credit[tail] = credit.get(tail, ZERO) + need
    return credit


def in_proportion(parts: Mapping[str, Decimal], amount: object) -> dict[str, Decimal]:
    """``amount`` split in proportion to ``parts`` (the last source takes the cents)."""
    return split_withholding(parts, amount)
