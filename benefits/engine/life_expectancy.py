"""The Single Life Table of Treas. Reg. §1.401(a)(9)-9(b): the life expectancy of one person at each age.

Two tables: the one of T.D. 8987 (67 FR 18988, April 17, 2002; kept by T.D. 9130), for distribution
calendar years 2002 through 2021, ages 0 to 111 and over; and the table as amended by T.D. 9930 (85 FR
72472, November 12, 2020), for distribution calendar years beginning on or after January 1, 2022, ages
0 to 120 and over. A date before 2002 raises ``TableNotInForce`` and the caller says the figure is
missing rather than guessing.

The age used is the person's age on the birthday in the calendar year (Treas. Reg. §1.401(a)(9)-5(c),
(d): "the age of the ... on the birthday in the distribution calendar year"; ``dates.age_on_birthday_in_year``).
"""

from __future__ import annotations

from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation

from .context_value import Within

SOURCE = "Treas. Reg. §1.401(a)(9)-9(b) (Single Life Table, T.D. 9930, for years from 2022)"
SOURCE_2002 = "Treas. Reg. §1.401(a)(9)-9, A-1 (Single Life Table, T.D. 8987, for years 2002 through 2021)"
IN_FORCE_FROM = date(2002, 1, 1)  # the earliest date any held table answers for
IN_FORCE_2022 = date(2022, 1, 1)

# T.D. 8987's Single Life Table (index = age 0..111; 111 also covers any older age). Copied from the
# regulation as published (three public copies agree); used for distribution calendar years 2002–2021.
_SINGLE_LIFE_2002 = (
    "82.4 81.6 80.6 79.7 78.7 77.7 76.7 75.8 74.8 73.8 72.8 71.8 70.8 69.9 68.9 67.9 66.9 66.0 65.0 64.0 "
    "63.0 62.1 61.1 60.1 59.1 58.2 57.2 56.2 55.3 54.3 53.3 52.4 51.4 50.4 49.4 48.5 47.5 46.5 45.6 44.6 "
    "43.6 42.7 41.7 40.7 39.8 38.8 37.9 37.0 36.0 35.1 34.2 33.3 32.3 31.4 30.5 29.6 28.7 27.9 27.0 26.1 "
    "25.2 24.4 23.5 22.7 21.8 21.0 20.2 19.4 18.6 17.8 17.0 16.3 15.5 14.8 14.1 13.4 12.7 12.1 11.4 10.8 "
    "10.2 9.7 9.1 8.6 8.1 7.6 7.1 6.7 6.3 5.9 5.5 5.2 4.9 4.6 4.3 4.1 3.8 3.6 3.4 3.1 "
    "2.9 2.7 2.5 2.3 2.1 1.9 1.7 1.5 1.4 1.2 1.1 1.0"
)
SINGLE_LIFE_2002 = tuple(Decimal(v) for v in _SINGLE_LIFE_2002.split(" "))
if len(SINGLE_LIFE_2002) != 112:  # ages 0..111
    raise RuntimeError("the 2002 Single Life Table must have 112 rows")

# Index = age (0..120; 120 also covers any older age).
_SINGLE_LIFE_2022 = (
    "84.6 83.7 82.8 81.8 80.8 79.8 78.8 77.9 76.9 75.9 74.9 73.9 72.9 71.9 70.9 69.9 69.0 68.0 67.0 66.0 "
    "65.0 64.1 63.1 62.1 61.1 60.2 59.2 58.2 57.3 56.3 55.3 54.4 53.4 52.5 51.5 50.5 49.6 48.6 47.7 46.7 "
    "45.7 44.8 43.8 42.9 41.9 41.0 40.0 39.0 38.1 37.1 36.2 35.3 34.3 33.4 32.5 31.6 30.6 29.8 28.9 28.0 "
    "27.1 26.2 25.4 24.5 23.7 22.9 22.0 21.2 20.4 19.6 18.8 18.0 17.2 16.4 15.6 14.8 14.1 13.3 12.6 11.9 "
    "11.2 10.5 9.9 9.3 8.7 8.1 7.6 7.1 6.6 6.1 5.7 5.3 4.9 4.6 4.3 4.0 3.7 3.4 3.2 3.0 "
    "2.8 2.6 2.5 2.3 2.2 2.1 2.1 2.1 2.0 2.0 2.0 2.0 2.0 1.9 1.9 1.8 1.8 1.6 1.4 1.1 1.0"
)
SINGLE_LIFE = tuple(Decimal(v) for v in _SINGLE_LIFE_2022.split(" "))
if len(SINGLE_LIFE) != 121:  # ages 0..120
    raise RuntimeError("the Single Life Table must have 121 rows")


class TableNotInForce(LookupError):
    """The Single Life Table in force on the date is not held by the engine."""


# Single Life Tables loaded as calculation inputs (request ``assumptions.single_life_tables``, issue
# 24): an administrator loads the table as published, for distribution calendar years from a year
# (through a year, if a later table replaced it); a loaded table answers for its years in place of the
# shipped one. Set for a calculation by ``loaded_single_life_tables``.
LOADED_SLT_KEY = "single_life_tables"


@dataclass(frozen=True)
class LoadedSingleLife:
    first_year: int
    last_year: int | None
    values: tuple[Decimal, ...]  # index = age; the last also covers any older age
    source: str  # "T.D. 9930, loaded 2026-11-27 (version 1)"

    def covers(self, year: int) -> bool:
        return self.first_year <= year and (self.last_year is None or year <= self.last_year)


_LOADED_SLT: ContextVar[tuple[LoadedSingleLife, ...]] = ContextVar("loaded_slt", default=())


class SingleLifeInputError(ValueError):
    """A loaded Single Life Table in a request is malformed; ``field`` is the JSON pointer."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def parse_loaded_single_life_tables(
    raw: object, pointer: str = f"/assumptions/{LOADED_SLT_KEY}"
) -> tuple[LoadedSingleLife, ...]:
    """``[{"from": 2022, "through": null, "source": "T.D. 9930", "version": "1", "loaded": "2026-11-27",
    "life_expectancy": {"0": "84.6", ...}}]`` → the tables, later entries winning for a year."""
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise SingleLifeInputError(pointer, "must be a list of tables")
    out = []
    for i, spec in enumerate(raw):
        where = f"{pointer}/{i}"
        if not isinstance(spec, Mapping):
            raise SingleLifeInputError(where, "must be an object")
        first, last, source = spec.get("from"), spec.get("through"), spec.get("source")
        if not isinstance(first, int) or first < IN_FORCE_FROM.year:
            raise SingleLifeInputError(f"{where}/from", "the first distribution year, 2002 or later")
        if last is not None and (not isinstance(last, int) or last < first):
            raise SingleLifeInputError(f"{where}/through", "the last distribution year, not before the first")
        if not isinstance(source, str) or not source.strip():
            raise SingleLifeInputError(f"{where}/source", "the regulation the table comes from is required")
        values = spec.get("life_expectancy")
        if not isinstance(values, Mapping) or not values:
            raise SingleLifeInputError(f"{where}/life_expectancy", "must be an object of age to years")
        try:
            rows = sorted((int(a), Decimal(str(v))) for a, v in values.items())
        except (ValueError, InvalidOperation):
            raise SingleLifeInputError(
                f"{where}/life_expectancy", "ages and values must be numbers"
            ) from None
        if [a for a, _ in rows] != list(range(len(rows))) or any(v <= 0 for _, v in rows):
            raise SingleLifeInputError(
                f"{where}/life_expectancy", "ages must run from 0 without gaps, each value more than 0"
            )
        words = source.strip()
        if spec.get("loaded"):
            words += f", loaded {spec['loaded']}"
        if spec.get("version"):
            words += f" (version {spec['version']})"
        out.append(LoadedSingleLife(first, last, tuple(v for _, v in rows), words))
    return tuple(out)


def loaded_single_life_tables(tables: tuple[LoadedSingleLife, ...]) -> Within[tuple[LoadedSingleLife, ...]]:
    """Within the block, the loaded tables answer for their years (``single_life_expectancy``)."""
    return Within(_LOADED_SLT, tuple(tables))


def no_loaded_single_life_tables(tables: tuple[LoadedSingleLife, ...]) -> bool:
    """Whether ``loaded_single_life_tables(tables)`` would change nothing because none is given and
    none is in force."""
    return not tables and not _LOADED_SLT.get()


def _loaded_for(on: date) -> LoadedSingleLife | None:
    found = [t for t in _LOADED_SLT.get() if t.covers(on.year)]
    # the table of the latest first year answers; among equals, the one given last (the latest load)
    return max(enumerate(found), key=lambda it: (it[1].first_year, it[0]))[1] if found else None


def single_life_expectancy(age: int, on: date) -> Decimal:
    """Life expectancy in years at ``age`` from the table in force on ``on``."""
    loaded = _loaded_for(on) if on >= IN_FORCE_FROM else None
    if loaded is not None:
        if age < 0:
            raise ValueError("age must not be negative")
        return loaded.values[min(age, len(loaded.values) - 1)]
    if on < IN_FORCE_FROM:
        raise TableNotInForce(
            f"the Single Life Table in force on {on.isoformat()} (before 2002) is not held by the engine"
        )
    if age < 0:
        raise ValueError("age must not be negative")
    if on < IN_FORCE_2022:
        return SINGLE_LIFE_2002[min(age, 111)]
    return SINGLE_LIFE[min(age, 120)]


def single_life_source(on: date) -> str:
    """The regulation of the table ``single_life_expectancy`` reads on ``on`` (for the trace)."""
    loaded = _loaded_for(on) if on >= IN_FORCE_FROM else None
    if loaded is not None:
        return f"Treas. Reg. §1.401(a)(9)-9 (Single Life Table, {loaded.source})"
    return SOURCE_2002 if on < IN_FORCE_2022 else SOURCE


__all__ = [
    "LOADED_SLT_KEY",
    "LoadedSingleLife",
    "SingleLifeInputError",
    "loaded_single_life_tables",
    "no_loaded_single_life_tables",
    "parse_loaded_single_life_tables",
    "IN_FORCE_FROM",
    "IN_FORCE_2022",
    "SINGLE_LIFE",
    "SINGLE_LIFE_2002",
    "SOURCE",
    "SOURCE_2002",
    "TableNotInForce",
    "single_life_expectancy",
    "single_life_source",
]
