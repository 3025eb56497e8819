"""Calendar helpers for the Carver DB rules: months counted by anniversary, first-of-month dates, ages."""

from __future__ import annotations

import calendar
from datetime import date, timedelta


def add_months(d: date, months: int) -> date:
    """The same day-number ``months`` later (clamped to the month's last day)."""
    total = d.year * 12 + (d.month - 1) + months
    year, month0 = divmod(total, 12)
    day = min(d.day, calendar.monthrange(year, month0 + 1)[1])
    return date(year, month0 + 1, day)


def complete_months(start: date, end_exclusive: date) -> int:
    """Complete months from ``start`` up to (not including) ``end_exclusive``, by anniversary.

    A month is complete when the same day-number is reached (SPEC §2.7, GAP-19).
    """
    if end_exclusive <= start:
        return 0
    n = (end_exclusive.year - start.year) * 12 + (end_exclusive.month - start.month)
    while n > 0 and add_months(start, n) > end_exclusive:
        n -= 1
    return n


def first_of_month_on_or_after(d: date) -> date:
    """'The first day of the month coincident with or next following' a date."""
    if d.day == 1:
        return d
    return add_months(date(d.year, d.month, 1), 1)


def months_between_firsts(earlier: date, later: date) -> int:
    """Whole months between two first-of-month dates (negative when ``later`` is earlier)."""
    return (later.year - earlier.year) * 12 + (later.month - earlier.month)


def birthday(birth: date, age: int) -> date:
    """The date a person attains ``age`` (Feb 29 births attain on Feb 28 in common years)."""
    return add_months(birth, 12 * age)


def completed_age(birth: date, on: date) -> int:
    """Age in completed years on a date (the engine's calendar age: Feb 29 → Feb 28)."""
    from benefits.engine.dates import age

    return age(birth, on).years


def full_years_between(a: date, b: date) -> int:
    """Full years between two birth dates, regardless of order."""
    lo, hi = (a, b) if a <= b else (b, a)
    return completed_age(lo, hi)


def day_after(d: date) -> date:
    return d + timedelta(days=1)
