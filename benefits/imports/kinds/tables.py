"""Regulatory tables as an administrator loads them as published (issue 24).

Two kinds, one CSV each, with the year(s) and the source (the notice or regulation) given as import
fields rather than columns (``ImportBatch.params``):

- ``mortality_417e``: ``age,qx``, the §417(e)(3) applicable mortality table for a stability-period
  year (IRC §417(e)(3)(B); the unisex table the IRS publishes each year, e.g. Notice 2026-27 for 2027).
  The engine's tables are unisex (one q per age), so the file is too.
- ``single_life``: ``age,life_expectancy``, the Single Life Table of Treas. Reg. §1.401(a)(9)-9 for
  distribution calendar years from a year (and through a year, if it was replaced).

A file is a whole table: it is checked whole (every age once, no gaps, the last q equal to 1) and is
never imported in part. Applying it stores a new ``RegulatoryTable`` version (nothing is overwritten);
the preview compares each age with the table the engine uses for that year today.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal
from types import SimpleNamespace

from benefits.imports import cells as c
from benefits.imports.kinds.base import Cells, Column, Kind, Target

FIRST_417E_YEAR = 2008  # stability periods from 2008 (Rev. Rul. 2007-67); earlier tables are not yearly
LAST_YEAR = 2100
MAX_FIRST_AGE_417E = 15  # the engine's shipped tables begin at 15: a loaded one must cover those ages
LAST_AGE_417E = 120  # the IRS tables end at 120, where q is 1
MIN_LAST_AGE_SLT = 111  # the 2002 Single Life Table ends at 111, the 2022 one at 120 ("and over")


class TableRow:
    """Stands for one age of a table in the check (``Target.model``); never written as a row itself."""

    class _meta:  # noqa: N801 - the preview reads ``model._meta.verbose_name``
        verbose_name = "table age"
        label_lower = "imports.tablerow"


@dataclass(frozen=True)
class TableParams:
    year: int
    last_year: int | None
    source: str

    @property
    def years(self) -> range:
        return range(self.year, (self.last_year or self.year) + 1)

    def words(self) -> str:
        if self.last_year and self.last_year != self.year:
            return f"{self.year}–{self.last_year}"
        return str(self.year)


class ParamsInvalid(ValueError):
    """The year(s) or source given with the file are unusable; the message names the field."""


def parse_params(kind: str, years: str, source: str) -> dict:
    """The import fields as stored on the batch: ``{"year", "last_year", "source"}``."""
    text = (years or "").strip().replace("–", "-")
    parts = [p.strip() for p in text.split("-")] if text else []
    if not parts or len(parts) > 2 or not all(p.isdigit() and len(p) == 4 for p in parts):
        raise ParamsInvalid("Years: write the year the table applies to (2027) or a range (2002-2021).")
    first, last = int(parts[0]), int(parts[-1])
    low = FIRST_417E_YEAR if kind == "mortality_417e" else 2002
    if not low <= first <= last <= LAST_YEAR:
        raise ParamsInvalid(f"Years: between {low} and {LAST_YEAR}, the first not after the last.")
    if kind == "mortality_417e" and last - first > 4:
        raise ParamsInvalid(
            "Years: the IRS publishes the §417(e)(3) table for each year; give at most five years."
        )
    src = " ".join((source or "").split())
    if not src:
        raise ParamsInvalid(
            "Source: name the notice or regulation the table comes from (for example Notice 2026-27)."
        )
    if len(src) > 300:
        raise ParamsInvalid("Source: at most 300 characters.")
    last_year: int | None = last if (kind == "mortality_417e" or len(parts) == 2) else None
    return {"year": first, "last_year": last_year, "source": src}


@dataclass
class TableKind(Kind):
    """A regulatory table: one file, one table; ``params`` come from the batch (``bind``)."""

    table_kind: str = ""
    value_column: str = ""
    params: TableParams | None = None
    whole_file: bool = True

    def bind(self, params: dict | None) -> TableKind:
        if not params or "year" not in params:
            return self
        return replace(
            self,
            params=TableParams(int(params["year"]), params.get("last_year"), str(params.get("source", ""))),
        )

    # ---------------------------------------------------------------- the current table, for the preview

    def current(self, year: int) -> tuple[str, dict[int, Decimal]]:
        """(what the engine uses for ``year`` today, in words; its value at each age)."""
        from benefits.imports.tables import current_table

        return current_table(self.table_kind, year)

    def context(self, table) -> dict:
        ages: list[tuple[int, int]] = []  # (file row, age) of the rows whose age reads
        for number, cells in table.rows:
            try:
                ages.append((number, c.integer(cells.get("age", ""), low=0, high=130)))
            except c.CellError:
                continue
        problems: dict[int, list[tuple[str, str]]] = {}
        ordered = sorted(ages, key=lambda a: a[1])
        for (_, prev), (number, age) in zip(ordered, ordered[1:], strict=False):
            if age > prev + 1:
                problems.setdefault(number, []).append(
                    ("age", f"age: the ages must run without a gap; {prev + 1} to {age - 1} are missing.")
                )
        if ordered:
            first_row, first = ordered[0]
            last_row, last = ordered[-1]
            if self.table_kind == "mortality_417e":
                if first > MAX_FIRST_AGE_417E:
                    problems.setdefault(first_row, []).append(
                        (
                            "age",
                            f"age: the table must begin at age {MAX_FIRST_AGE_417E} or younger (it begins at {first}).",
                        )
                    )
                if last != LAST_AGE_417E:
                    problems.setdefault(last_row, []).append(
                        ("age", f"age: the table must end at age {LAST_AGE_417E} (it ends at {last}).")
                    )
            else:
                if first != 0:
                    problems.setdefault(first_row, []).append(
                        ("age", f"age: the Single Life Table begins at age 0 (it begins at {first}).")
                    )
                if last < MIN_LAST_AGE_SLT:
                    problems.setdefault(last_row, []).append(
                        (
                            "age",
                            f"age: the Single Life Table runs to age {MIN_LAST_AGE_SLT} or later (it ends at {last}).",
                        )
                    )
        year = self.params.year if self.params else 0
        words, values = self.current(year) if year else ("", {})
        return {
            "problems": problems,
            "last_row": ordered[-1][0] if ordered else 0,
            "current": values,
            "words": words,
        }

    def targets(self, row: Cells, ctx: dict) -> list[Target]:
        age = row.get("age", c.integer, low=0, high=130)
        if self.table_kind == "mortality_417e":
            value = row.get("qx", c.decimal, places=8, low=Decimal(0), high=Decimal(1))
            if value is not None and row.row == ctx["last_row"] and value != 1:
                row.fail(
                    "qx", f"qx: the last age's q must be 1 (nobody survives past the table); it is {value:f}."
                )
        else:
            value = row.get("life_expectancy", c.decimal, places=1, low=Decimal("0.1"), high=Decimal(100))
        for column, message in ctx["problems"].get(row.row, []):
            row.fail(column, message)
        row.done()
        return [
            Target(TableRow, (age,), {"age": age}, {self.value_column: value}, label=f"age {age}")  # type: ignore[arg-type]
        ]

    def existing(self, model, keys, ctx):
        return {
            (age,): SimpleNamespace(**{self.value_column: value, "pk": age})
            for age, value in ctx["current"].items()
        }

    def memberships_affected(self, targets):
        return set()  # results are recalculated by the tables' own background job (``applied``)

    # ---------------------------------------------------------------- writing a version

    def write(self, checked, batch, actor) -> list:
        """Store the file as a new version for each year it applies to; nothing is overwritten."""
        from benefits.imports.tables import store_versions

        rows = sorted(
            ([t.key[0], t.values[self.value_column]] for r in checked.rows for t in r.targets),
            key=lambda r: r[0],
        )
        return store_versions(self, batch, actor, [[str(a), f"{v.normalize():f}"] for a, v in rows])

    def applied(self, checked, batch, actor) -> None:
        from benefits.imports.tables import enqueue_recalculation

        if self.params is not None:
            enqueue_recalculation(self.table_kind, list(self.params.years), actor)

    def rolled_back(self, batch, actor) -> None:
        from benefits.imports.tables import enqueue_recalculation

        params = self.params or self.bind(batch.params).params
        if params is not None:
            enqueue_recalculation(self.table_kind, list(params.years), actor)


COMMON_RULES = (
    "The year(s) and the source (the notice or regulation) are given with the file, not in it.",
    "The file is one whole table: every age once, without gaps; a file with any error imports nothing.",
    "Each load is a new version of the table for its year(s); earlier versions are kept, never overwritten.",
)

MORTALITY_417E = TableKind(
    name="mortality_417e",
    label="§417(e)(3) applicable mortality table",
    description=(
        "The IRS's unisex applicable mortality table for a stability-period year (IRC §417(e)(3)(B)), one q "
        "per age, with the notice that published it (for example Notice 2026-27 for 2027)."
    ),
    columns=(
        Column("age", True, "Age in whole years, from 15 or younger to 120."),
        Column(
            "qx",
            True,
            "The published probability of death within the year at that age, 0 to 1 (up to 8 places).",
        ),
    ),
    key_columns=("age",),
    rules=(
        *COMMON_RULES,
        "q is between 0 and 1; the ages begin at 15 or younger and end at 120, where q is 1.",
        "The year is a stability-period year from 2008 (earlier tables are not yearly).",
    ),
    table_kind="mortality_417e",
    value_column="qx",
)

SINGLE_LIFE = TableKind(
    name="single_life",
    label="Single Life Table",
    description=(
        "The life expectancy at each age of the Single Life Table of Treas. Reg. §1.401(a)(9)-9, for "
        "distribution calendar years from a year (and through a year, if a later table replaced it)."
    ),
    columns=(
        Column("age", True, "Age in whole years, from 0 to the table's last age (111 or later)."),
        Column("life_expectancy", True, "Life expectancy in years at that age, one decimal place."),
    ),
    key_columns=("age",),
    rules=(
        *COMMON_RULES,
        "Ages begin at 0 and run to 111 or later; each life expectancy is more than 0 with one decimal place.",
    ),
    table_kind="single_life",
    value_column="life_expectancy",
)
