"""Forms of the benefits app: what a participant may ask, checked field by field before any service runs."""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal

from django import forms

from accounts.submissions import OneTimeTokenMixin
from benefits.engine.dates import age_on
from benefits.engine.input_ranges import MAX_AGE_AT_PLAN_DATES, MAX_YEARLY_PAY
from benefits.engine_adapter import membership_calculate

MAX_LISTED_DATES = 12
LAST_AGE = 70


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


class ModelerForm(OneTimeTokenMixin, forms.Form):
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
        max_value=MAX_YEARLY_PAY,
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

    def clean_spouse_birth_date(self) -> date | None:
        born = self.cleaned_data.get("spouse_birth_date")
        if born is not None and (born >= self.as_of or age_on(born, self.as_of) > MAX_AGE_AT_PLAN_DATES):
            raise forms.ValidationError(
                f"Spouse's birth date: before today, and at most {MAX_AGE_AT_PLAN_DATES} years ago."
            )
        return born

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
