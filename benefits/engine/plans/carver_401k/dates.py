"""Calendar helpers for the 401(k) rules: month arithmetic with a month-end clamp, business days."""

from __future__ import annotations

import calendar
from datetime import date, timedelta


def add_months(d: date, months: int) -> date:
    """Same day `months` later; a day the target month lacks becomes its last day (Feb 29 → Feb 28)."""
    total = d.year * 12 + (d.month - 1) + months
    year, month = divmod(total, 12)
    month += 1
    return date(year, month, min(d.day, calendar.monthrange(year, month)[1]))


def add_years(d: date, years: int) -> date:
    return add_months(d, 12 * years)


def age_59_half(birth_date: date) -> date:
    """A3 (§7.3): the date six calendar months after the 59th birthday."""
    return add_months(add_years(birth_date, 59), 6)


def previous_business_day(d: date) -> date:
    """The Valuation Date is "each business day" (§1.71); weekends roll back (holidays are not known)."""
    while d.weekday() >= 5:
        d -= timedelta(days=1)
    return d


def quarter_end(d: date) -> date:
    month = ((d.month - 1) // 3 + 1) * 3
    return date(d.year, month, calendar.monthrange(d.year, month)[1])


def quarter_of(d: date) -> tuple[int, int]:
    return (d.year, (d.month - 1) // 3 + 1)


def first_of_month_on_or_after(d: date) -> date:
    return d if d.day == 1 else add_months(d.replace(day=1), 1)
