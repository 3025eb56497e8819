"""What every kind of import file declares: its columns, how a row becomes target rows, and lookups."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db import models

from benefits.imports.cells import CellError
from benefits.imports.parsing import Problem, Table


@dataclass(frozen=True)
class Column:
    name: str
    required: bool  # the column must be present (a blank cell may still be allowed)
    help: str


class RowInvalid(Exception):
    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(p.message for p in problems))
        self.problems = problems


@dataclass(eq=False)
class Target:
    """One database row a file row creates or updates.

    ``lookup`` holds the fields that identify it and are set only when it is created (a value may be
    another ``Target`` created earlier in the same import); ``values`` are compared and updated.
    """

    model: type[models.Model]
    key: tuple
    lookup: dict[str, Any]
    values: dict[str, Any]
    instance: models.Model | None = None
    row: int = 0
    label: str = ""  # how the preview names it, e.g. "CFS-10001 carver-db 2025"
    changes: dict[str, tuple[str, str]] = field(default_factory=dict)  # field -> (old, new), for display


class Cells:
    """One file row's cells: ``get`` validates a cell and collects every error instead of stopping."""

    def __init__(self, row: int, cells: dict[str, str]) -> None:
        self.row = row
        self.cells = cells
        self.problems: list[Problem] = []

    def raw(self, column: str) -> str:
        return self.cells.get(column, "")

    def get(self, column: str, parse: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        try:
            return parse(self.cells.get(column, ""), *args, **kwargs)
        except CellError as exc:
            self.fail(column, f"{column} {exc}.")
            return None

    def fail(self, column: str, message: str) -> None:
        self.problems.append(Problem(self.row, column, message))

    def done(self) -> None:
        if self.problems:
            raise RowInvalid(self.problems)


@dataclass
class Kind(ABC):
    """A kind of import file. Subclasses implement ``targets`` and ``existing``."""

    name: str = ""
    label: str = ""
    description: str = ""
    columns: tuple[Column, ...] = ()
    key_columns: tuple[str, ...] = ()
    rules: tuple[str, ...] = field(default=())  # the plan rules checked, in plain words (docs and page)

    @property
    def column_names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.columns)

    @property
    def required_columns(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.columns if c.required)

    def context(self, table: Table) -> dict:
        """Bulk lookups for every row at once (memberships, plans, existing rows)."""
        return {}

    @abstractmethod
    def targets(self, cells: Cells, ctx: dict) -> list[Target]:
        """The rows this file row writes; the first is the one the preview counts."""

    @abstractmethod
    def existing(self, model: type[models.Model], keys: list[tuple], ctx: dict) -> dict[tuple, models.Model]:
        """The stored rows with these keys."""

    def derived(self, planned: list[Target], ctx: dict) -> list[Target]:
        """Rows that follow from the file as a whole (e.g. a membership's plan data); not counted as rows."""
        return []

    def applied(self, checked, batch, actor) -> None:  # noqa: B027 - most kinds do nothing more
        """What follows once the file's rows are written, in the same transaction."""

    def rolled_back(self, batch, actor) -> None:  # noqa: B027
        """What follows once the import's rows are restored, in the same transaction."""

    def memberships_affected(self, targets: list[Target]) -> set[int] | None:
        """Memberships whose stored results the import makes stale; None means every membership."""
        ids: set[int] = set()
        for t in targets:
            inst = t.instance
            if inst is None:
                continue
            if hasattr(inst, "membership_id"):
                ids.add(inst.membership_id)
            elif inst._meta.model_name == "planmembership":
                ids.add(inst.pk)
        return ids
