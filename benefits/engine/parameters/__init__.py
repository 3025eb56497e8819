"""Dated regulatory parameters (IRS limits, the cash-out threshold, the Social Security wage base).

One JSON file per parameter in ``data/``, PolicyEngine/OpenFisca style: every value carries its
effective date and its source; the value in force on a date is the latest value effective on or before
that date, and a ``null`` value ends the parameter (nothing is in force from then on).

Which date to pass is the caller's (the plan's) choice and is stated in each file's ``applies_to``:
e.g. the first day of the plan year for §401(a)(17), the last day of the limitation year for §415.

    >>> from datetime import date
    >>> parameter("irs_415b_dollar_limit").at(date(2024, 12, 31))
    Decimal('275000')
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from functools import cache
from pathlib import Path

DATA_DIR = Path(__file__).parent / "data"


class ParameterNotInForce(LookupError):
    """No value of the parameter is in force on the date (before its first value, or after a null)."""

    def __init__(self, name: str, on: date) -> None:
        super().__init__(f"parameter {name!r} has no value in force on {on.isoformat()}")
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

    def entry_at(self, on: date) -> ParameterEntry:
        """The entry in force on ``on`` (value, effective date, source).

        Raises ``ParameterNotInForce`` (naming the parameter and the date) before the first entry
        or where the entry in force is a null (the parameter ended).
        """
        found = None
        for entry in self.entries:  # a few dozen entries: a linear scan is plenty
            if entry.effective <= on:
                found = entry
            else:
                break
        if found is None or found.value is None:
            raise ParameterNotInForce(self.name, on)
        return found

    def at(self, on: date) -> Decimal:
        """The value in force on ``on``; raises ``ParameterNotInForce`` if none."""
        value = self.entry_at(on).value
        assert value is not None  # entry_at never returns a null entry
        return value

    def at_or_none(self, on: date) -> Decimal | None:
        """The value in force on ``on``, or None (e.g. no §401(a)(17) cap before 1989)."""
        try:
            return self.at(on)
        except ParameterNotInForce:
            return None

    def for_year(self, year: int) -> Decimal:
        """The value in force on 1 January of ``year`` (the annual limits all change on 1 January)."""
        return self.at(date(year, 1, 1))

    @property
    def first_date(self) -> date:
        return self.entries[0].effective


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
    "Rounding",
    "UnknownParameter",
    "all_parameters",
    "parameter",
    "parameter_names",
]
