"""Check a file against its kind and the stored data: every error, and what each valid row would change.

Nothing here writes. ``check_file`` is what the preview shows and what ``services.import_apply``
writes, so an import writes exactly what its preview said (the file is checked again when applied).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from django.db import models

from benefits.imports.kinds.base import Cells, Kind, RowInvalid, Target
from benefits.imports.parsing import FileRefused, Problem, read_table

Progress = Callable[[int, int], None]
NEW, CHANGED, UNCHANGED = "new", "changed", "unchanged"


@dataclass
class RowPlan:
    row: int
    status: str
    targets: list[Target]


@dataclass
class Checked:
    kind: Kind
    rows_total: int = 0
    rows: list[RowPlan] = field(default_factory=list)  # the valid rows
    derived: list[Target] = field(default_factory=list)
    errors: list[Problem] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(1 for r in self.rows if r.status == status)

    @property
    def created(self) -> int:
        return self.count(NEW)

    @property
    def updated(self) -> int:
        return self.count(CHANGED)

    @property
    def unchanged(self) -> int:
        return self.count(UNCHANGED)

    def diffs(self) -> list[dict]:
        out = []
        for r in self.rows:
            if r.status != CHANGED:
                continue
            changes: dict[str, list[str]] = {}
            for t in r.targets:
                if t.instance is None:
                    changes[f"{t.model._meta.verbose_name} {t.label}"] = ["", "added"]
                else:
                    changes.update({name: list(pair) for name, pair in t.changes.items()})
            out.append({"row": r.row, "key": r.targets[0].label, "changes": changes})
        for t in self.derived:
            if t.changes:
                out.append(
                    {
                        "row": 0,
                        "key": f"{t.label} (follows from the file)",
                        "changes": {k: list(v) for k, v in t.changes.items()},
                    }
                )
        return out

    def summary(self) -> dict:
        return {
            "created": self.created,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "errors": [p.as_dict() for p in self.errors],
        }


def shown(value: object) -> str:
    """A stored or file value as the preview shows it."""
    if value is None:
        return ""
    if isinstance(value, models.Model):
        return str(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return f"{value:f}"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {shown(v)}" for k, v in sorted(value.items()))
    return str(value)


def same(old: object, new: object) -> bool:
    if isinstance(old, models.Model) or isinstance(new, models.Model):
        return getattr(old, "pk", old) == getattr(new, "pk", new)
    if old in (None, "") and new in (None, ""):
        return True
    if isinstance(old, Decimal) or isinstance(new, Decimal):
        try:
            return Decimal(str(old)) == Decimal(str(new))
        except ArithmeticError:
            return False
    return old == new


def classify(target: Target) -> str:
    if target.instance is None:
        return NEW
    target.changes = {
        name: (shown(getattr(target.instance, name)), shown(value))
        for name, value in target.values.items()
        if not same(getattr(target.instance, name), value)
    }
    return CHANGED if target.changes else UNCHANGED


def check_file(kind: Kind, file_name: str, content: bytes, progress: Progress | None = None) -> Checked:
    checked = Checked(kind)
    try:
        table = read_table(file_name, content, columns=kind.column_names, required=kind.required_columns)
    except FileRefused as exc:
        checked.errors = list(exc.problems)
        return checked
    checked.rows_total = len(table.rows)
    if not table.rows:
        checked.errors.append(Problem(0, "", "The file has a header but no rows."))
        return checked
    ctx = kind.context(table)
    seen: dict[tuple, int] = {}
    valid: list[tuple[int, list[Target]]] = []
    for index, (number, cells) in enumerate(table.rows, start=1):
        row = Cells(number, cells)
        try:
            targets = kind.targets(row, ctx)
        except RowInvalid as exc:
            checked.errors.extend(exc.problems)
            continue
        key = targets[0].key
        if key in seen:
            checked.errors.append(
                Problem(
                    number,
                    kind.key_columns[-1],
                    f"Row {number} repeats row {seen[key]} ({', '.join(kind.key_columns)}).",
                )
            )
            continue
        seen[key] = number
        for t in targets:
            t.row = number
        valid.append((number, targets))
        if progress and index % 2000 == 0:
            progress(index, len(table.rows) * 2)
    by_model: dict[type, list[Target]] = defaultdict(list)
    for _, targets in valid:
        for t in targets:
            by_model[t.model].append(t)
    for model, targets in by_model.items():
        found = kind.existing(model, [t.key for t in targets], ctx)
        for t in targets:
            t.instance = found.get(t.key)
    for number, targets in valid:
        statuses = [classify(t) for t in targets]
        if statuses[0] == NEW:
            status = NEW
        elif any(s != UNCHANGED for s in statuses):
            status = CHANGED
        else:
            status = UNCHANGED
        checked.rows.append(RowPlan(number, status, targets))
    changed_targets = [t for r in checked.rows for t in r.targets if t.instance is None or t.changes]
    checked.derived = kind.derived([r.targets[0] for r in checked.rows], ctx) if changed_targets else []
    for t in checked.derived:
        classify(t)
    checked.errors.sort(
        key=lambda p: (p.row, kind.column_names.index(p.column) if p.column in kind.column_names else -1)
    )
    if progress:
        progress(len(table.rows), len(table.rows) * 2)
    return checked
