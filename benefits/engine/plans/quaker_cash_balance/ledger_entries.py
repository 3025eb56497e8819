"""The Cash Balance Account's postings and the ledger that holds them (Article 4): each entry's date,
kind, amount, the balance after it and its basis in plain words; statements of a period from them."""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any, NamedTuple

from benefits.engine.money import ZERO

OPENING = "opening"
PAY_CREDIT = "pay_credit"
INTEREST_CREDIT = "interest_credit"
FORFEITURE = "forfeiture"
RESTORATION = "restoration"
DISTRIBUTION = "distribution"


class LedgerEntry(NamedTuple):
    """One posting. Immutable; a named tuple rather than a frozen dataclass because a census posts
    about a hundred a participant and a tuple is made four times faster."""

    date: date
    kind: str  # one of the constants above
    amount: Decimal  # signed: credits positive, debits negative
    balance: Decimal  # after this entry
    why: str | tuple[Any, ...]  # plain words, or (format string, *values) formatted on demand (see ``basis``)
    section: str
    estimate: bool = False  # uses projected pay or rates (GAP-4)
    residual: bool = False  # posted after the ASD (GAP-2 work item)

    @property
    def basis(self) -> str:
        """Plain words with the inputs used (formatted lazily: a grid posts thousands of entries)."""
        if isinstance(self.why, str):
            return self.why
        return str(self.why[0]).format(*self.why[1:])


@dataclass(frozen=True)
class Statement:
    """One statement period: opening, credits by kind, other movements, closing."""

    start: date
    end: date
    opening: Decimal
    pay_credits: Decimal
    interest_credits: Decimal
    other: Decimal  # forfeitures, restorations, distributions
    closing: Decimal
    entries: tuple[LedgerEntry, ...]


@dataclass(frozen=True)
class Ledger:
    entries: tuple[LedgerEntry, ...]
    _dates: tuple[date, ...] = field(default=(), repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_dates", tuple([e.date for e in self.entries]))

    def balance_at(self, on: date) -> Decimal:
        """The balance at the end of ``on`` (every entry dated on or before it)."""
        i = bisect.bisect_right(self._dates, on)
        return self.entries[i - 1].balance if i else ZERO

    def balance_before(self, on: date) -> Decimal:
        """The balance at the start of ``on`` (entries dated strictly before it)."""
        i = bisect.bisect_left(self._dates, on)
        return self.entries[i - 1].balance if i else ZERO

    def statement(self, start: date, end: date) -> Statement:
        picked = tuple(e for e in self.entries if start <= e.date <= end)
        pay = sum((e.amount for e in picked if e.kind == PAY_CREDIT), ZERO)
        interest = sum((e.amount for e in picked if e.kind == INTEREST_CREDIT), ZERO)
        other = sum((e.amount for e in picked if e.kind not in (PAY_CREDIT, INTEREST_CREDIT)), ZERO)
        opening = self.balance_before(start)
        return Statement(start, end, opening, pay, interest, other, self.balance_at(end), picked)

    @property
    def forfeited_at_end(self) -> bool:
        """Whether the account stands forfeited after its last entry (§2.3(a)), not restored
        (§5.14(a)(i)): forfeitures post only on an account not forfeited and restorations only on
        one forfeited, so it is so exactly when the last of them is a forfeiture."""
        for e in reversed(self.entries):
            if e.kind == FORFEITURE:
                return True
            if e.kind == RESTORATION:
                return False
        return False

    @property
    def estimated_from(self) -> date | None:
        """The first entry that rests on projected pay or rates, if any."""
        return next((e.date for e in self.entries if e.estimate), None)


@dataclass(frozen=True)
class Forfeiture:
    """§2.3(a) debit at a non-vested separation; ``restored_on`` when §5.14(a)(i) restores it."""

    on: date
    restored_on: date | None = None
