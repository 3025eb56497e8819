"""The retirement modeler: what-if inputs, the engine run (in chunks, for progress), the grid.

The engine prices every date: the run sends the membership's contract request with the chosen
commencement dates (and the participant's what-ifs) through ``calculate_request``, the same entry
point as the command line, and keeps the full request so any figure can be reproduced.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation

from django import forms

from benefits.calculations import membership_calculate, membership_request

MAX_LISTED_DATES = 12
CHUNK = 12  # commencement dates per engine call: progress is reported between chunks
LAST_AGE = 70
_TRACE_KEY = re.compile(r"^estimates\[(\d+)\]")


def first_of_next_month(d: date) -> date:
    return date(d.year + (d.month == 12), d.month % 12 + 1, 1)


def first_on_or_after(d: date) -> date:
    return d if d.day == 1 else first_of_next_month(d)


def add_months(d: date, n: int) -> date:
    m = d.month - 1 + n
    return date(d.year + m // 12, m % 12 + 1, 1)


def last_date(birth: date) -> date:
    """The first of the month on or after the 70th birthday (Feb 29 counts as Mar 1)."""
    try:
        seventieth = birth.replace(year=birth.year + LAST_AGE)
    except ValueError:
        seventieth = date(birth.year + LAST_AGE, 3, 1)
    return first_on_or_after(seventieth)


def earliest_date(membership, as_of: date) -> date:
    """The earliest commencement date the engine gives, never before next month."""
    result = membership_calculate(membership, as_of=as_of)
    floor = first_of_next_month(as_of)
    earliest = result.get("earliest_commencement_date") or result.get("earliest_retirement_date")
    return max(floor, date.fromisoformat(earliest)) if earliest else floor


def every_month(membership, as_of: date) -> list[date]:
    d, end, out = earliest_date(membership, as_of), last_date(membership.participant.birth_date), []
    while d <= end:
        out.append(d)
        d = add_months(d, 1)
    return out


class ModelerForm(forms.Form):
    MODES = (
        ("dates", "The dates I list"),
        ("every_month", "Every month from the earliest date to age 70"),
    )
    mode = forms.ChoiceField(
        label="Which start dates?", choices=MODES, widget=forms.RadioSelect, initial="dates"
    )
    dates = forms.CharField(
        label="Start dates",
        required=False,
        help_text="One or more dates, each the first of a month (for example 2027-04-01), separated by commas.",
    )
    spouse_birth_date = forms.DateField(
        label="Spouse's birth date",
        required=False,
        help_text="Used to price the joint and survivor forms. Format: YYYY-MM-DD.",
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    future_pay = forms.DecimalField(
        label="Assumed yearly pay from now on",
        required=False,
        min_value=Decimal(0),
        max_digits=12,
        decimal_places=2,
        help_text="In dollars a year, for each future year without recorded pay.",
    )
    future_hours = forms.IntegerField(
        label="Assumed hours of service a year from now on",
        required=False,
        min_value=0,
        max_value=4000,
        help_text="For each future year without recorded hours; 2,080 is full time.",
    )

    def __init__(self, *args, membership, as_of: date, **kwargs):
        super().__init__(*args, **kwargs)
        self.membership = membership
        self.as_of = as_of
        participant = membership.participant
        if participant.marital_status != participant.MaritalStatus.MARRIED:
            del self.fields["spouse_birth_date"]
        elif participant.spouse_birth_date and not self.is_bound:
            self.initial["spouse_birth_date"] = participant.spouse_birth_date
        plan = membership.plan
        if plan.kind != plan.Kind.CASH_BALANCE:  # pay after the freeze does not change a frozen DB benefit
            del self.fields["future_pay"]
        if participant.termination_date is not None:
            self.fields.pop("future_pay", None)
            del self.fields["future_hours"]

    def clean_dates(self) -> list[date]:
        raw = self.cleaned_data.get("dates", "")
        out = []
        for token in [t for t in re.split(r"[,\s]+", raw) if t]:
            try:
                d = date.fromisoformat(token)
            except ValueError:
                raise forms.ValidationError(f"“{token}” is not a date: write it as YYYY-MM-DD.") from None
            if d.day != 1:
                raise forms.ValidationError(
                    f"{d.isoformat()}: a start date must be the first day of a month."
                )
            if d <= self.as_of:
                raise forms.ValidationError(f"{d.isoformat()}: a start date must be after today.")
            if d > last_date(self.membership.participant.birth_date):
                raise forms.ValidationError(f"{d.isoformat()}: the modeler goes up to age {LAST_AGE}.")
            if d not in out:
                out.append(d)
        if len(out) > MAX_LISTED_DATES:
            raise forms.ValidationError(
                f"List at most {MAX_LISTED_DATES} dates, or choose every month to age {LAST_AGE}."
            )
        return sorted(out)

    def clean(self):
        data = super().clean()
        if data.get("mode") == "dates" and "dates" in data and not data["dates"]:
            self.add_error("dates", "Give at least one start date, or choose every month to age 70.")
        return data

    def inputs(self) -> dict:
        """The run's inputs as JSON (dates resolved)."""
        d = self.cleaned_data
        dates = every_month(self.membership, self.as_of) if d["mode"] == "every_month" else d["dates"]
        out = {"mode": d["mode"], "commencement_dates": [x.isoformat() for x in dates]}
        if d.get("spouse_birth_date"):
            out["spouse_birth_date"] = d["spouse_birth_date"].isoformat()
        if d.get("future_pay") is not None:
            out["future_pay"] = f"{d['future_pay']:.2f}"
        if d.get("future_hours") is not None:
            out["future_hours"] = d["future_hours"]
        return out


def modeler_request(membership, *, as_of: date, inputs: dict, dates: list[date]) -> dict:
    """The contract request for these dates with the participant's what-ifs applied."""
    request = membership_request(membership, as_of=as_of, commencement_dates=dates)
    person = request["participants"][0]
    if inputs.get("spouse_birth_date"):
        person["spouse_birth_date"] = inputs["spouse_birth_date"]
    last_year = max((d.year for d in dates), default=as_of.year)
    for key, field, fmt in (("future_pay", "compensation", str), ("future_hours", "hours", int)):
        if inputs.get(key) in (None, ""):
            continue
        values = person.setdefault(field, {})
        for year in range(as_of.year, last_year + 1):
            values.setdefault(str(year), fmt(inputs[key]))
    return request


def merge_chunk(merged: dict | None, chunk: dict, offset: int) -> dict:
    """Append one chunk's estimates (and their ``traces`` entries, renumbered) to the merged result."""
    if merged is None:
        return copy.deepcopy(chunk)
    merged.setdefault("estimates", []).extend(chunk.get("estimates") or [])
    traces = merged.setdefault("traces", {})
    for key, steps in (chunk.get("traces") or {}).items():
        m = _TRACE_KEY.match(key)
        if m:
            traces[f"estimates[{int(m.group(1)) + offset}]{key[m.end() :]}"] = steps
    return merged


# ------------------------------------------------------------------ presenting a result


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
