"""The Cash Balance Account's postings and the ledger that holds them (Article 4): each entry's date,
kind, amount, the balance after it and its basis in plain words; statements of a period from them."""

from __future__ import annotations

import bisect
from collections.abc import Callable
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

    @property
    def has_residual(self) -> bool:
        """Whether a credit was posted after the ASD or a forfeiture (GAP-2 work item)."""
        return any(e.residual for e in self.entries)


class BalanceLedger(Ledger):
    """A ledger known by its postings' dates and balances alone (``ledger_quick``, the untraced
    census): every balance the entries would show, in whole cents, without an entry per posting.
    The entries themselves, asked for, are built on the general path (``full``), once.

    ``cents[i]`` is the balance after posting ``i`` in cents; from ``first_cents`` on it carries the
    cent exponent (a rounded credit is in it), before that the opening balance's exponent ``unit``.
    """

    _cents: list[int]
    _first_cents: int
    _unit: int
    _flags: tuple[bool, date | None, bool]  # forfeited at the end, first estimate, any residual
    _full: Callable[[], Ledger]

    def __init__(
        self,
        dates: tuple[date, ...],
        cents: list[int],
        first_cents: int,
        unit: int,
        flags: tuple[bool, date | None, bool],
        full: Callable[[], Ledger],
    ) -> None:
        self.__dict__.update(
            _dates=dates, _cents=cents, _first_cents=first_cents, _unit=unit, _flags=flags, _full=full
        )

    def __getattr__(self, name: str) -> Any:
        if name == "entries":  # built once, on the general path, the first time they are read
            entries = self._full().entries
            object.__setattr__(self, "entries", entries)
            return entries
        raise AttributeError(name)

    def _balance(self, i: int) -> Decimal:
        """The balance after posting ``i`` as the entries hold it: the same digits and exponent."""
        if i < 0:
            return ZERO
        cents = self._cents[i]
        if i >= self._first_cents:
            return Decimal(cents).scaleb(-2)
        return Decimal(cents // 10 ** (self._unit + 2)).scaleb(self._unit)

    def balance_at(self, on: date) -> Decimal:
        return self._balance(bisect.bisect_right(self._dates, on) - 1)

    def balance_before(self, on: date) -> Decimal:
        return self._balance(bisect.bisect_left(self._dates, on) - 1)

    @property
    def forfeited_at_end(self) -> bool:
        return self._flags[0]

    @property
    def estimated_from(self) -> date | None:
        return self._flags[1]

    @property
    def has_residual(self) -> bool:
        return self._flags[2]


@dataclass(frozen=True)
class Forfeiture:
    """§2.3(a) debit at a non-vested separation; ``restored_on`` when §5.14(a)(i) restores it."""

    on: date
    restored_on: date | None = None
