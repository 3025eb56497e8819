"""Plain sentences for what a calculation could not show yet (the engine's ``missing`` list).

The engine computes every figure whose inputs exist and lists each blocked figure with the input it
needs (docs/engine-cli.md). People see one sentence per missing input: what cannot be shown and why,
never a JSON pointer or an internal key. A modeler run of every month to age 70 misses one month's
interest rates for each start date past the last published month: those inputs, when three or more
block the same figures of one start date each, are one sentence for all their start dates, not a
sentence a date (hundreds of near-identical lines before the table).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from benefits import formatting

from .labels import field_words

FIGURE_WORDS = {
    "cash_out": "the small-benefit cash-out test",
    "lump_sum": "the lump sum",
    "forms": "the payment amounts",
    "relative_value_basis": "the comparison of payment forms",
    "relative_value": "the comparison of payment forms",
    "estimates": "the benefit estimates",
    "accrued_benefit": "the accrued benefit",
    "account": "the account balance",
    "limits": "the IRS limits",
}


# The monthly market inputs a run of start dates can miss one a date: what each is, in plain words.
MONTHLY_INPUTS = {
    "segment_rates": "the interest rates the IRS publishes for lump sums",
    "treasury_30y_monthly": "the 30-year Treasury rate",
    "applicable_interest_rate": "the 30-year Treasury rate",
}
RUN_AT_LEAST = 3  # fewer missing months read better one sentence each


def _month_words(key: str) -> str:
    try:
        return formatting.month_words(date.fromisoformat(f"{key}-01"))
    except ValueError:
        return key


def input_words(pointer: str) -> str:
    """What the missing input is, in plain words."""
    parts = [p for p in (pointer or "").split("/") if p]
    if parts[:2] == ["engine", "parameters"]:
        return "an IRS limit for that date, which the calculator does not have"
    if parts[:2] == ["engine", "mortality"]:
        return "the IRS mortality table for that date, which the calculator does not have"
    if len(parts) >= 3 and parts[0] == "assumptions":
        month = _month_words(parts[2])
        if parts[1] == "segment_rates":
            return f"the interest rates the IRS publishes for lump sums for {month}"
        if parts[1] in ("treasury_30y_monthly", "applicable_interest_rate"):
            return f"the 30-year Treasury rate for {month}"
    return field_words(pointer)


def figure_words(pointer: str, result: dict) -> str:
    """Which figure is blocked: "the lump sum for payments starting April 1, 2027"."""
    parts = [p for p in (pointer or "").split("/") if p]
    words = _figure_kind(pointer or "") or "some figures"
    if len(parts) >= 2 and parts[0] == "estimates" and parts[1].isdigit():
        estimates = result.get("estimates") or []
        index = int(parts[1])
        if index < len(estimates) and estimates[index].get("commencement_date"):
            when = date.fromisoformat(estimates[index]["commencement_date"])
            words += f" for payments starting {formatting.date_words(when)}"
    return words


def missing_sentences(result: dict | None) -> list[str]:
    """One sentence per missing input of a contract result (empty when nothing is missing); a run of
    monthly inputs that each block one start date's same figures is one sentence (``_DateRun``)."""
    result = result or {}
    items = [(item, _date_run_key(item, result)) for item in result.get("missing") or []]
    runs: dict[tuple[object, ...], _DateRun] = {}
    for _, run in items:
        if run is not None:
            runs.setdefault(run[0], _DateRun(run[0])).add(run[1], run[2])
    sentences: list[str] = []
    said: set[tuple[object, ...]] = set()
    for item, run in items:
        if run is not None and len(runs[run[0]].dates) >= RUN_AT_LEAST:
            if run[0] not in said:
                said.add(run[0])
                sentences += runs[run[0]].sentences()
            continue
        sentences += _item_sentences(item, result)
    return sentences


def _item_sentences(item: dict, result: dict) -> list[str]:
    needs = input_words(item.get("field", ""))
    blocked = _joined(figure_words(b, result) for b in item.get("blocks") or [])
    instead = _joined(figure_words(b, result) for b in item.get("fallback") or [])
    return _sentences(blocked, instead, needs)


def _sentences(blocked: str, instead: str, needs: str, *, which: str = "", many: bool = False) -> list[str]:
    """What cannot be shown, and what is shown on the plan's rate instead, and what they need."""
    which = f" {which}" if which else ""
    out = []
    if blocked or not instead:
        need = "they need" if many else "it needs"
        out.append(f"We cannot show {blocked or 'some figures'}{which} yet: {need} {needs}.")
    if instead:
        out.append(
            f"We show {instead}{which} on the plan's own interest rate for now: the basis the law "
            f"prescribes needs {needs}."
        )
    return out


def _figure_kind(pointer: str) -> str | None:
    """The figure a pointer names, in words ("the lump sum"), or None."""
    return next((FIGURE_WORDS[p] for p in reversed(pointer.split("/")) if p in FIGURE_WORDS), None)


def _date_run_key(item: dict, result: dict) -> tuple[tuple[object, ...], date, str] | None:
    """(the run's key, the start date, the month) of a monthly input that blocks (or puts on the
    plan's rate) figures of one start date only; None for any other missing input."""
    parts = [p for p in (item.get("field") or "").split("/") if p]
    if len(parts) != 3 or parts[0] != "assumptions" or parts[1] not in MONTHLY_INPUTS:
        return None
    pointers = [*(item.get("blocks") or []), *(item.get("fallback") or [])]
    indexes = {p.split("/")[2] if p.startswith("/estimates/") and p.count("/") >= 3 else "" for p in pointers}
    if len(indexes) != 1 or not next(iter(indexes)).isdigit():
        return None
    index = int(next(iter(indexes)))
    estimates = result.get("estimates") or []
    when = estimates[index].get("commencement_date") if index < len(estimates) else None
    try:
        start = date.fromisoformat(when)
        date.fromisoformat(f"{parts[2]}-01")  # a month, "2027-01": runs sort their months as text
    except (TypeError, ValueError):
        return None
    blocked = tuple(dict.fromkeys(_figure_kind(b) for b in item.get("blocks") or []))
    instead = tuple(dict.fromkeys(_figure_kind(b) for b in item.get("fallback") or []))
    if None in blocked or None in instead:
        return None
    return (parts[1], blocked, instead), start, parts[2]


@dataclass
class _DateRun:
    """Missing monthly inputs of one kind, each blocking the same figures of its own start date."""

    key: tuple[Any, ...]
    dates: list[date] = field(default_factory=list)
    months: list[str] = field(default_factory=list)

    def add(self, start: date, month: str) -> None:
        self.dates.append(start)
        self.months.append(month)

    def sentences(self) -> list[str]:
        kind, blocked, instead = self.key
        which = (
            f"for the {len(set(self.dates))} start dates from {formatting.date_words(min(self.dates))} "
            f"to {formatting.date_words(max(self.dates))}"
        )
        needs = (
            f"{MONTHLY_INPUTS[kind]} for months from {_month_words(min(self.months))} "
            f"to {_month_words(max(self.months))}"
        )
        return _sentences(_joined(blocked), _joined(instead), needs, which=which, many=True)


def _joined(words_: Iterable[str]) -> str:
    figures = list(dict.fromkeys(words_))
    if not figures:
        return ""
    return ", ".join(figures[:-1]) + (" and " if len(figures) > 1 else "") + figures[-1]
