"""What each form of payment means for a person: who is paid after death, for how long, and when a
level income payment changes. Words only; every amount and date comes from the engine's result."""

from __future__ import annotations

import re
from datetime import date

from .modeler import money_text
from .plain import people_date
from .traces import trace_steps

_JS = re.compile(r"^js(\d+)$")
_CC = re.compile(r"^cc(\d+)$")
_SURVIVOR_PERCENT = {"js66": "66⅔%"}


def after_death(key: str, f: dict) -> str:
    """Who is paid after the participant's death under form ``key``, and for how long."""
    if m := _JS.match(key):
        share = _SURVIVOR_PERCENT.get(key, f"{m.group(1)}%")
        amount = f" ({money_text(f['survivor_monthly'])} a month)" if f.get("survivor_monthly") else ""
        return (
            f"Your spouse receives {share} of your payment{amount} for the rest of their life. If your "
            "spouse dies first, payments stop at your death."
        )
    if m := _CC.match(key):
        years = m.group(1)
        return (
            f"If you die within {years} years of the start, your beneficiary receives the same payment "
            f"for the rest of those {years} years; after that, payments stop at your death."
        )
    if key == "life":
        return "Payments stop at your death; nothing is paid to anyone after."
    if key == "ss_level":
        return "Payments stop at your death; nothing is paid to anyone after."
    if key == "lump_sum":
        return "Paid once; nothing further is paid by the plan, whenever you die."
    return ""


def level_income_change(result: dict, index: int) -> date | None:
    """The date a level income payment drops to its reduced amount, as the engine's trace gives it."""
    for step in trace_steps(result, f"estimates[{index}].forms.ss_level"):
        when = (step.get("inputs") or {}).get("social_security_commencement")
        if when:
            try:
                return date.fromisoformat(str(when))
            except ValueError:
                return None
    return None


def level_income_words(f: dict, changes_on: date | None) -> str:
    """Both amounts of the level income option and the date the payment changes."""
    if not f.get("monthly_after_social_security"):
        return ""
    when = people_date(changes_on) if changes_on else "the date your Social Security is assumed to start"
    return (
        f"You receive {money_text(f['monthly'])} a month until Social Security is assumed to start, then "
        f"{money_text(f['monthly_after_social_security'])} a month from {when} for the rest of your life. "
        "The higher amount at first is meant to level your income once Social Security starts; the "
        "plan's own payment does drop on that date."
    )
