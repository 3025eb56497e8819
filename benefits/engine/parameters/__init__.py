"""Dated regulatory parameters (IRS limits, the cash-out threshold, the Social Security wage base).

One JSON file per parameter in ``data/``, PolicyEngine/OpenFisca style: every value carries its
effective date and its source; the value in force on a date is the latest value effective on or before
that date, and a ``null`` value ends the parameter (nothing is in force from then on).

Lookups never guess. A date before the first value, or after the last year published (an annual
limit's last entry covers its own calendar year only), raises ``ParameterNotInForce`` naming the
parameter and the date. A projection for a future year must ask for it by name:
``latest_published(on)`` returns the last published value flagged ``projected=True``.

Every read is recorded (``recorded_reads``): the trace of a figure lists each regulatory value it used,
with its date and source, without plan code adding it by hand (``trace.TraceBuilder`` collects them).

Which date to pass is the caller's (the plan's) choice and is stated in each file's ``applies_to``:
e.g. the first day of the plan year for §401(a)(17), the last day of the limitation year for §415.

    >>> from datetime import date
    >>> parameter("irs_415b_dollar_limit").at(date(2024, 12, 31))
    Decimal('275000')
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from functools import cache, wraps
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).parent / "data"


class ParameterNotInForce(LookupError):
    """No value of the parameter is known for the date: before its first value, after a null, or
    after the last year published (the message says which)."""

    def __init__(self, name: str, on: date, why: str = "") -> None:
        why = why or "no value in force"
        super().__init__(f"parameter {name!r} has {why} on {on.isoformat()}")
        self.name = name
        self.on = on


class UnknownParameter(KeyError):
    """There is no data file for this parameter name."""


@dataclass(frozen=True)
class ParameterEntry:
    """One dated value: in force from ``effective`` until the next entry. ``value`` None = ended."""

    effective: date
    value: Decimal | None
    source: str


@dataclass(frozen=True)
class Rounding:
    """How the parameter is indexed/rounded by the authority that sets it (metadata, not applied here)."""

    type: str  # "downwards" | "nearest" | "none"
    interval: Decimal
    note: str = ""


@dataclass(frozen=True)
class Parameter:
    """A dated regulatory value. Entries are sorted by effective date (checked on load)."""

    name: str
    description: str
    unit: str
    period: str
    applies_to: str
    rounding: Rounding
    references: tuple[str, ...]
    entries: tuple[ParameterEntry, ...]
    # Each successful read by (date, projected): entries never change, so the read of a date is the
    # same every time; a census reads the same few limits for every participant.
    _reads: dict[tuple[date, bool], ParameterRead] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

    @property
    def section(self) -> str:
        """The statute or regulation the value comes from (the first reference)."""
        return self.references[0] if self.references else ""

    @property
    def published_through(self) -> date | None:
        """The last day the published values cover: for an annual parameter, 31 December of the
        last entry's year; None for a statutory amount that stays until the law changes it."""
        if self.period != "year" or self.entries[-1].value is None:
            return None
        return date(self.entries[-1].effective.year, 12, 31)

    def _find(self, on: date) -> ParameterEntry:
        found = None
        for entry in self.entries:  # a few dozen entries: a linear scan is plenty
            if entry.effective <= on:
                found = entry
            else:
                break
        if found is None:
            raise ParameterNotInForce(
                self.name, on, f"no value before its first one ({self.first_date.isoformat()})"
            )
        if found.value is None:
            why = "no confirmed value" if found.source.startswith("NOT CONFIRMED") else "no value in force"
            raise ParameterNotInForce(self.name, on, why)
        return found

    def entry_at(self, on: date) -> ParameterEntry:
        """The entry in force on ``on`` (value, effective date, source), recorded as read.

        Raises ``ParameterNotInForce`` (naming the parameter and the date) before the first entry,
        where the entry in force is a null (the parameter ended), or after ``published_through``.
        """
        read = self._reads.get((on, False))
        if read is None:
            through = self.published_through
            if through is not None and on > through:
                raise ParameterNotInForce(
                    self.name, on, f"no published value yet (published through {through.isoformat()})"
                )
            read = ParameterRead(
                self.name, self.description, on, self._find(on), False, self.section, self.unit
            )
            self._reads[(on, False)] = read
        _record(read)
        return read.entry

    def latest_published(self, on: date) -> ParameterEntry:
        """For a projection: the value in force on ``on``, or the last published one for a later
        date. The read is recorded with ``projected=True`` so the trace says it is an estimate."""
        read = self._reads.get((on, True))
        if read is None:
            through = self.published_through
            if through is None or on <= through:
                return self.entry_at(on)
            found = self._find(through)
            read = ParameterRead(self.name, self.description, on, found, True, self.section, self.unit)
            self._reads[(on, True)] = read
        _record(read)
        return read.entry

    def at(self, on: date) -> Decimal:
        """The value in force on ``on``; raises ``ParameterNotInForce`` if none."""
        value = self.entry_at(on).value
        assert value is not None  # entry_at never returns a null entry
        return value

    def at_or_none(self, on: date) -> Decimal | None:
        """The value in force on ``on``, or None where the law had none: before the parameter's
        first value (e.g. no §401(a)(17) cap before 1989) or after it ended. A date after the last
        published year still raises: an unpublished limit is not "no limit"."""
        if on < self.first_date:
            return None
        ended = self.entries[-1]
        if ended.value is None and on >= ended.effective:
            return None
        return self.at(on)

    def for_year(self, year: int) -> Decimal:
        """The value in force on 1 January of ``year`` (the annual limits all change on 1 January)."""
        return self.at(date(year, 1, 1))

    @property
    def first_date(self) -> date:
        return self.entries[0].effective


@dataclass(frozen=True)
class ParameterRead:
    """One lookup: which value of which parameter was used for which date, and where it comes from."""

    name: str
    description: str
    on: date
    entry: ParameterEntry
    projected: bool = False
    section: str = ""
    unit: str = ""  # the parameter file's unit ("currency-USD"), so a trace shows the value as money

    @property
    def value_free(self) -> bool:
        """A choice without a number (a mortality table): the description names it in full."""
        return self.entry.value is None

    def words(self) -> str:
        what = (
            self.description if self.value_free else self.description.split(":")[0].split(" (")[0].rstrip(".")
        )
        if self.projected:
            return (
                f"{what}: no value is published yet for {self.on.isoformat()}; the latest published "
                f"value (in force from {self.entry.effective.isoformat()}) is used as an estimate"
            )
        return f"{what} in force on {self.on.isoformat()} (from {self.entry.effective.isoformat()})"


_READS: ContextVar[list[ParameterRead] | None] = ContextVar("parameter_reads", default=None)


def _record(read: ParameterRead) -> None:
    reads = _READS.get()
    if reads is not None:
        reads.append(read)


@contextmanager
def recorded_reads() -> Iterator[list[ParameterRead]]:
    """Record every parameter read (and mortality-table choice) made inside the block.

    The engine opens one per participant calculation; ``trace.TraceBuilder`` adds the reads made
    while it was building to the figure's trace. Nested blocks share the outer list.
    """
    outer = _READS.get()
    if outer is not None:
        yield outer
        return
    token = _READS.set([])
    try:
        yield _READS.get()  # type: ignore[misc]
    finally:
        _READS.reset(token)


@contextmanager
def unrecorded_reads() -> Iterator[None]:
    """No parameter read is recorded inside the block, even inside an outer ``recorded_reads``
    (``trace.traces_off``: a calculation whose traces are not wanted). Reset when the block ends."""
    token = _READS.set(None)
    try:
        yield
    finally:
        _READS.reset(token)


def current_reads() -> list[ParameterRead] | None:
    """The list reads are being recorded into, or None outside ``recorded_reads``."""
    return _READS.get()


def record_read(read: ParameterRead) -> None:
    """Record a regulatory value read outside a parameter file (e.g. a mortality table choice)."""
    _record(read)


def replaying_reads[**P, R](fn: Callable[P, R]) -> Callable[P, R]:
    """Memoize ``fn``, a pure function of its (hashable) arguments but for the regulatory values it
    reads: a repeated call records the first call's reads again, in order, so every trace lists what
    it would have listed had ``fn`` run again. An exception is not memoized (the call runs again)."""
    memo: dict[Any, tuple[R, tuple[ParameterRead, ...]]] = {}

    @wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        key = (args, tuple(kwargs.items()))
        hit = memo.get(key)
        if hit is None:
            with recorded_reads() as reads:  # the caller's list, or a new one to learn the reads
                mark = len(reads)
                result = fn(*args, **kwargs)
                made = tuple(reads[mark:])
            if len(memo) >= 4096:  # the dates a process asks for; bounded all the same
                memo.clear()
            memo[key] = (result, made)
            return result
        for read in hit[1]:
            _record(read)
        return hit[0]

    return wrapper


# The $5,000 limit applies from the first plan year beginning after 5 August 1997 (TRA '97 §1071);
# the $7,000 limit to distributions after 31 December 2023 (SECURE 2.0 §304).
CASH_OUT_DISTRIBUTION_KEYED_FROM = date(2024, 1, 1)


def cash_out_limit(distribution_date: date, plan_year_start: date) -> ParameterEntry:
    """The §411(a)(11)(A) / §417(e)(1) cash-out limit for a distribution, recorded as read.

    Before 2024 the limit in force is keyed by the first day of the plan year containing the
    distribution (TD 8794: plan years beginning on or after 6 August 1997 get $5,000); from
    1 January 2024 by the distribution date. A plan that has not adopted $7,000 keeps $5,000 (a plan
    setting, applied by the caller).
    """
    if plan_year_start > distribution_date:
        raise ValueError("the plan year containing the distribution cannot start after it")
    key = distribution_date if distribution_date >= CASH_OUT_DISTRIBUTION_KEYED_FROM else plan_year_start
    return parameter("irs_411a11_cash_out_limit").entry_at(key)


def _load(path: Path) -> Parameter:
    raw = json.loads(path.read_text(encoding="utf-8"))
    entries = tuple(
        ParameterEntry(
            effective=date.fromisoformat(v["date"]),
            value=None if v["value"] is None else Decimal(v["value"]),
            source=v["source"],
        )
        for v in raw["values"]
    )
    dates = [e.effective for e in entries]
    if dates != sorted(dates) or len(set(dates)) != len(dates):
        raise ValueError(f"{path.name}: effective dates must be strictly increasing")
    rounding = raw["rounding"]
    return Parameter(
        name=raw["name"],
        description=raw["description"],
        unit=raw["unit"],
        period=raw["period"],
        applies_to=raw["applies_to"],
        rounding=Rounding(rounding["type"], Decimal(str(rounding["interval"])), rounding.get("note", "")),
        references=tuple(r["title"] for r in raw["references"]),
        entries=entries,
    )


@cache
def parameter(name: str) -> Parameter:
    """The parameter called ``name`` (file ``data/<name>.json``); loaded once and cached."""
    path = DATA_DIR / f"{name}.json"
    if not path.is_file():
        raise UnknownParameter(f"unknown parameter {name!r}; known: {', '.join(parameter_names())}")
    return _load(path)


def parameter_names() -> tuple[str, ...]:
    """Names of every parameter with a data file, sorted."""
    return tuple(sorted(p.stem for p in DATA_DIR.glob("*.json")))


def all_parameters() -> dict[str, Parameter]:
    """Every parameter, by name."""
    return {name: parameter(name) for name in parameter_names()}


__all__ = [
    "Parameter",
    "ParameterEntry",
    "ParameterNotInForce",
    "ParameterRead",
    "cash_out_limit",
    "current_reads",
    "record_read",
    "recorded_reads",
    "replaying_reads",
    "unrecorded_reads",
    "Rounding",
    "UnknownParameter",
    "all_parameters",
    "parameter",
    "parameter_names",
]
