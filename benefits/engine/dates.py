"""Date helpers the plans share.

Conventions (stated once, used everywhere):

* A person *attains* an age on the birthday itself (the SPECs' DEFAULT, e.g. Carver DB spec §2.8).
* A February 29 birthday is reached in a common year on **February 28** (the last day of February):
  ``add_years`` clamps to the end of the month, so the anniversary never slips into March.
* ``add_months`` clamps the same way (Jan 31 + 1 month = Feb 28/29).
* ``months_between`` counts complete months by the anniversary method: a month is complete when the
  same day-number is reached, or the month's last day when it is shorter (Carver DB spec §2.7,
  GAP-19); ``whole_years_between`` likewise.
* ``days_inclusive`` counts both end days (the 401(k)'s assumption A1 for Periods of Service).
"""

from __future__ import annotations

import calendar
import functools
from datetime import date, timedelta
from typing import NamedTuple

ONE_DAY = timedelta(days=1)


_MONTH_DAYS = (0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _month_days(year: int, month: int) -> int:
    """Days in the month (``calendar.monthrange(year, month)[1]`` without the weekday it also works out:
    the modeler's grid and a census call this millions of times)."""
    if month == 2 and calendar.isleap(year):
        return 29
    return _MONTH_DAYS[month]


def _clamped(year: int, month: int, day: int) -> date:
    if day <= 28:
        return date(year, month, day)
    return date(year, month, min(day, _month_days(year, month)))


def add_months(d: date, months: int) -> date:
    """``d`` plus a number of calendar months, clamped to the month's last day."""
    index = d.year * 12 + (d.month - 1) + months
    return _clamped(index // 12, index % 12 + 1, d.day)


def add_years(d: date, years: int) -> date:
    """``d`` plus whole years; Feb 29 becomes Feb 28 in a common year."""
    return _clamped(d.year + years, d.month, d.day)


@functools.lru_cache(maxsize=65536)
def date_attaining_age(birth_date: date, age: int) -> date:
    """The day a person born on ``birth_date`` attains ``age`` (the birthday; Feb 29 → Feb 28)."""
    return add_years(birth_date, age)


def age_on(birth_date: date, on: date) -> int:
    """Completed years of age on ``on`` (the birthday itself counts as attained; same as ``age``)."""
    years = on.year - birth_date.year
    return years if date_attaining_age(birth_date, years) <= on else years - 1


def months_between(start: date, end: date) -> int:
    """Complete months from ``start`` to ``end`` (anniversary method; 0 if ``end`` < ``start``)."""
    if end < start:
        return 0
    months = (end.year - start.year) * 12 + (end.month - start.month)
    return months if add_months(start, months) <= end else months - 1


def whole_years_between(start: date, end: date) -> int:
    """Complete years from ``start`` to ``end`` (anniversary method)."""
    return months_between(start, end) // 12


def first_of_month_on_or_after(d: date) -> date:
    """The first day of the month coinciding with or next following ``d``."""
    return d if d.day == 1 else first_of_next_month(d)


def first_of_next_month(d: date) -> date:
    """The first day of the month after ``d``'s month."""
    return date(d.year + 1, 1, 1) if d.month == 12 else date(d.year, d.month + 1, 1)


def days_inclusive(start: date, end: date) -> int:
    """Calendar days from ``start`` through ``end``, both counted (0 if ``end`` < ``start``)."""
    return max(0, (end - start).days + 1)


def year_end(year: int) -> date:
    return date(year, 12, 31)


def complete_months(start: date, end_exclusive: date) -> int:
    """Complete months from ``start`` up to (not including) ``end_exclusive``, by anniversary.

    A month is complete when the same day-number is reached (Carver DB spec §2.7, GAP-19).
    """
    if end_exclusive <= start:
        return 0
    n = (end_exclusive.year - start.year) * 12 + (end_exclusive.month - start.month)
    while n > 0 and add_months(start, n) > end_exclusive:
        n -= 1
    return n


def months_between_firsts(earlier: date, later: date) -> int:
    """Whole months between two first-of-month dates (negative when ``later`` is earlier)."""
    return (later.year - earlier.year) * 12 + (later.month - earlier.month)


@functools.lru_cache(maxsize=65536)  # a pure function; each form of a date asks for the same age
def completed_age(birth: date, on: date) -> int:
    """Age in completed years on a date: the engine's one calendar age (``age``), so a February 29
    birthday is reached on February 28 in a common year, as everywhere else."""
    return age(birth, on).years


def age_on_birthday_in_year(birth_date: date, year: int) -> int:
    """The age reached on the birthday that falls in ``year`` (Treas. Reg. §1.401(a)(9)-5, -6: "the age
    ... on the birthday in the calendar year"): the year less the year of birth."""
    return year - birth_date.year


def full_years_between(a: date, b: date) -> int:
    """Full years between two birth dates, regardless of order (``completed_age`` of the later)."""
    lo, hi = (a, b) if a <= b else (b, a)
    return completed_age(lo, hi)


def day_after(d: date) -> date:
    return d + ONE_DAY


def days_after(d: date, n: int) -> date:
    """``within N days after X`` ends on X + N."""
    return d + timedelta(days=n)


def quarter_end(d: date) -> date:
    """The last day of ``d``'s calendar quarter."""
    month = ((d.month - 1) // 3 + 1) * 3
    return date(d.year, month, calendar.monthrange(d.year, month)[1])


def quarter_of(d: date) -> tuple[int, int]:
    """(year, quarter 1–4) of a date."""
    return (d.year, (d.month - 1) // 3 + 1)


def previous_business_day(d: date) -> date:
    """``d``, or the Friday before when it falls on a weekend (holidays are not known)."""
    while d.weekday() >= 5:
        d -= ONE_DAY
    return d


# ------------------------------------------------------------------------------------------- ages


class Age(NamedTuple):
    """An age by the calendar: completed years, completed months after the last birthday, and days
    after the last monthly anniversary (the birthday rules above: Feb 29 → Feb 28 in a common year;
    a 31st → the month's last day). Never days ÷ 365.25. Compares as (years, months, days)."""

    years: int
    months: int
    days: int

    @property
    def total_months(self) -> int:
        return self.years * 12 + self.months

    def in_years(self) -> float:
        """Completed years and months as a fraction of years (49 years 3 months → 49.25): the age an
        actuarial factor is read at when a plan counts years and months."""
        return self.total_months / 12

    def words(self) -> str:
        return f"{self.years}y {self.months}m"


def age(birth_date: date, on: date) -> Age:
    """The ONE age function of the engine: completed years, months and days on ``on``."""
    _born_by(birth_date, on)
    months = months_between(birth_date, on)
    anniversary = add_months(birth_date, months)
    return Age(months // 12, months % 12, (on - anniversary).days)


def age_in_years_months(birth_date: date, on: date) -> float:
    """Completed years and months on ``on`` as years (see ``Age.in_years``): ``age``'s total months
    are ``months_between``'s (its days are not read here). Held equal by tests/engine/core/test_ages.py."""
    _born_by(birth_date, on)
    return months_between(birth_date, on) / 12


def _born_by(birth_date: date, on: date) -> None:
    """An age is counted only from the birth date on."""
    if on < birth_date:
        raise ValueError(f"the date {on.isoformat()} is before the birth date {birth_date.isoformat()}")
