"""The retirement modeler's grid: the engine's estimates for each commencement date, shaped for the page.

The run itself (the engine call in chunks, for progress) is ``benefits.services.modeler``; the request
with the participant's what-ifs is built by ``benefits.engine_adapter.modeler_request``.

The grid is pre-formatted here, once: every amount as the page shows it ("$1,234.56") and every link
built from one ``reverse()`` per page (``estimate_href``), so the template only places strings. A
181-date grid has over a thousand cells; formatting them with template filters and ``{% url %}`` in
each cell was nine tenths of the page's time (issue 17; ``bench/bench_pages.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation

from benefits import formatting


@dataclass
class Cell:
    form: str
    monthly: str = ""
    survivor: str = ""
    lump_sum: str = ""
    after_ss: str = ""
    relative_value: str = ""
    note: str = ""
    # pre-formatted for the page
    href: str = ""
    amount: str = ""  # the monthly amount, else the lump sum
    once: bool = False  # the amount is a single payment
    normal: bool = False  # the plan's normal form for this participant
    survivor_text: str = ""
    lump_sum_text: str = ""  # a lump sum shown beside a monthly amount


def money_text(value: str) -> str:
    """An engine amount ("1234.5") as the page shows money ("$1,234.50"); "" if there is none."""
    return formatting.money(value)


def estimate_href(base: str):
    """Links to one estimate's page from the URL of estimate 0 (one ``reverse()`` for the grid)."""
    if not base.endswith("/0/"):
        raise ValueError(f"expected an estimate URL ending in /0/, got {base}")
    prefix = base[:-2]
    return lambda index: f"{prefix}{index}/"


def _age(birth: date, on: date) -> tuple[int, int]:
    months = (on.year - birth.year) * 12 + on.month - birth.month - (on.day < birth.day)
    return months // 12, months % 12


def grid(result: dict, birth: date, href=None, *, chosen: str = "") -> dict:
    """The grid's rows and cells; ``href(index)`` gives an estimate's link (``estimate_href``). The
    normal form comes first and the form the person chose to compare second, so a phone shows both
    beside the sticky start-date column."""
    from .labels import FORM_ORDER, form_label

    estimates = result.get("estimates") or []
    seen = {k for e in estimates for k in (e.get("forms") or {})}
    forms_ = [k for k in FORM_ORDER if k in seen] + sorted(seen - set(FORM_ORDER))
    normal = next(
        (
            e.get("normal_form") or e.get("default_form")
            for e in estimates
            if e.get("normal_form") or e.get("default_form")
        ),
        "",
    )
    chosen = chosen if chosen in seen and chosen != normal else ""
    first = [k for k in (normal, chosen) if k in seen]
    forms_ = first + [k for k in forms_ if k not in first]
    rows = []
    for i, e in enumerate(estimates):
        d = date.fromisoformat(e["commencement_date"])
        years, months = _age(birth, d)
        row_href = href(i) if href else ""
        normal_form = e.get("normal_form") or e.get("default_form") or ""
        cells = []
        for k in forms_:
            f = (e.get("forms") or {}).get(k)
            if f is None:
                cells.append(None)
                continue
            rv = f.get("relative_value")
            monthly, lump_sum = f.get("monthly", ""), f.get("lump_sum", "")
            cells.append(
                Cell(
                    k,
                    monthly=monthly,
                    survivor=f.get("survivor_monthly", ""),
                    lump_sum=lump_sum,
                    after_ss=f.get("monthly_after_social_security", ""),
                    relative_value=str(rv.get("percent", ""))
                    if isinstance(rv, dict)
                    else (str(rv) if rv else ""),
                    note=f.get("note", ""),
                    href=f"{row_href}#form-{k}",
                    amount=money_text(monthly or lump_sum),
                    once=not monthly and bool(lump_sum),
                    normal=k == normal_form,
                    survivor_text=money_text(f.get("survivor_monthly", "")),
                    lump_sum_text=money_text(lump_sum) if monthly else "",
                )
            )
        rows.append(
            {
                "index": i,
                "href": row_href,
                "date_text": f"{formatting.date_words(d)}",
                "date": d,
                "age": f"{years} y {months} m",
                "age_years": years + months / 12,
                "cells": cells,
                "normal_form": normal_form,
                "error": e.get("error", ""),
                "notes": list(e.get("notes") or []),
                "kind": e.get("kind") or e.get("route") or "",
                "empty": not e.get("forms"),
            }
        )
    has_rv = any(c and c.relative_value for r in rows for c in r["cells"])
    return {
        "forms": [(k, form_label(k)) for k in forms_],
        "normal": normal,
        "chosen": chosen,
        "choices": [(k, form_label(k)) for k in forms_ if k != normal],
        "rows": rows,
        "has_relative_value": has_rv,
        "has_survivor": any(c and c.survivor for r in rows for c in r["cells"]),
    }


def monthly_decimal(value: str) -> Decimal | None:
    try:
        return Decimal(value) if value else None
    except InvalidOperation:
        return None
