"""The plausible window of each date a claimant asks for, checked before any plan rule.

The plan's own rules (earliest retirement, notice days) come after, from the engine; these bound what
can be asked at all, so a start in the year 2200 is refused with a message, never filed and decided.
"""

from __future__ import annotations

from datetime import date, timedelta

from benefits import formatting
from benefits.engine.dates import add_years
from benefits.engine.input_ranges import MAX_COMMENCEMENT_AGE

# A payment (hardship, age 59½ withdrawal) is asked for the coming year: the need is present, and the
# ten days' notice is a floor, not a reason to file years ahead.
MAX_PAYMENT_DAYS_AHEAD = 366


def date_window_errors(*, birth_date: date, details: dict, filed_on: date) -> dict[str, str]:
    errors: dict[str, str] = {}
    last_start = add_years(birth_date, MAX_COMMENCEMENT_AGE)
    start = details.get("commencement_date")
    if isinstance(start, date) and start > last_start:
        errors["commencement_date"] = (
            f"Benefit start date: at the latest {formatting.date_words(last_start)}, your {MAX_COMMENCEMENT_AGE}th birthday."
        )
    pay = details.get("payment_date")
    latest_payment = filed_on + timedelta(days=MAX_PAYMENT_DAYS_AHEAD)
    if isinstance(pay, date) and pay > min(latest_payment, last_start):
        errors["payment_date"] = (
            f"Payment date: at the latest {formatting.date_words(min(latest_payment, last_start))} (a payment is asked for "
            "within the coming year)."
        )
    return errors
