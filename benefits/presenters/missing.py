"""Plain sentences for what a calculation could not show yet (the engine's ``missing`` list).

The engine computes every figure whose inputs exist and lists each blocked figure with the input it
needs (docs/engine-cli.md). People see one sentence per missing input: what cannot be shown and why,
never a JSON pointer or an internal key.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

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
    words = next((FIGURE_WORDS[p] for p in reversed(parts) if p in FIGURE_WORDS), "some figures")
    if len(parts) >= 2 and parts[0] == "estimates" and parts[1].isdigit():
        estimates = result.get("estimates") or []
        index = int(parts[1])
        if index < len(estimates) and estimates[index].get("commencement_date"):
            when = date.fromisoformat(estimates[index]["commencement_date"])
            words += f" for payments starting {formatting.date_words(when)}"
    return words


def missing_sentences(result: dict | None) -> list[str]:
    """One sentence per missing input of a contract result (empty when nothing is missing)."""
    sentences = []
    for item in (result or {}).get("missing") or []:
        needs = input_words(item.get("field", ""))
        blocked = _joined(figure_words(b, result or {}) for b in item.get("blocks") or [])
        instead = _joined(figure_words(b, result or {}) for b in item.get("fallback") or [])
        if blocked or not instead:
            sentences.append(f"We cannot show {blocked or 'some figures'} yet: it needs {needs}.")
        if instead:
            sentences.append(
                f"We show {instead} on the plan's own interest rate for now: the basis the law "
                f"prescribes needs {needs}."
            )
    return sentences


def _joined(words_: Iterable[str]) -> str:
    figures = list(dict.fromkeys(words_))
    if not figures:
        return ""
    return ", ".join(figures[:-1]) + (" and " if len(figures) > 1 else "") + figures[-1]
