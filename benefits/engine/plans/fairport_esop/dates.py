"""Date arithmetic the Fairport rules need ("within N days after X" is X + N, SPEC Part C).

Years and months come from the shared ``benefits.engine.dates`` (Feb 29 clamps to Feb 28).
"""

from __future__ import annotations

from datetime import date, timedelta

from benefits.engine.dates import add_months, add_years

__all__ = ["add_months", "add_years", "days_after", "first_of_month_on_or_after", "year_end"]


def days_after(d: date, n: int) -> date:
    return d + timedelta(days=n)


def year_end(year: int) -> date:
    return date(year, 12, 31)


def first_of_month_on_or_after(d: date) -> date:
    if d.day == 1:
        return d
    return add_months(d.replace(day=1), 1)
