"""The retirement modeler's grid: the engine's estimates for each commencement date, shaped for the page.

The run itself (the engine call in chunks, for progress) is ``benefits.services.modeler``; the request
with the participant's what-ifs is built by ``benefits.engine_adapter.modeler_request``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation


@dataclass
class Cell:
    form: str
    monthly: str = ""
    survivor: str = ""
    lump_sum: str = ""
    after_ss: str = ""
    relative_value: str = ""
    note: str = ""


def _age(birth: date, on: date) -> tuple[int, int]:
    months = (on.year - birth.year) * 12 + on.month - birth.month - (on.day < birth.day)
    return months // 12, months % 12


def grid(result: dict, birth: date, *, chosen: str = "") -> dict:
    """The start dates × forms table. The normal form comes first and the form the person chose to
    compare second, so a phone shows both beside the sticky start-date column."""
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
        cells = []
        for k in forms_:
            f = (e.get("forms") or {}).get(k)
            if f is None:
                cells.append(None)
                continue
            rv = f.get("relative_value")
            cells.append(
                Cell(
                    k,
                    monthly=f.get("monthly", ""),
                    survivor=f.get("survivor_monthly", ""),
                    lump_sum=f.get("lump_sum", ""),
                    after_ss=f.get("monthly_after_social_security", ""),
                    relative_value=str(rv.get("percent", ""))
                    if isinstance(rv, dict)
                    else (str(rv) if rv else ""),
                    note=f.get("note", ""),
                )
            )
        rows.append(
            {
                "index": i,
                "date": d,
                "age": f"{years} y {months} m",
                "age_years": years + months / 12,
                "cells": cells,
                "normal_form": e.get("normal_form") or e.get("default_form") or "",
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
