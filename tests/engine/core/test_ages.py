"""One calendar age function (issue 12 item 3): completed years, months and days, never days ÷ 365.25.

Convention (engine/dates.py, the SPECs' DEFAULT): an age is attained on the birthday; a 29 February
birthday is reached on 28 February in a common year; a monthly anniversary on a missing day (the
31st, the 29th-31st in February) falls on the month's last day.
"""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benefits.engine.actuarial import AgeMethod, attained_age
from benefits.engine.dates import Age, age, age_in_years_months, age_on


@pytest.mark.parametrize(
    ("birth", "on", "expected"),
    [
        (date(1977, 3, 15), date(2026, 3, 15), (49, 0, 0)),  # the birthday itself
        (date(1977, 3, 15), date(2026, 3, 14), (48, 11, 27)),  # the day before: 27 days after Feb 15
        (date(1977, 3, 15), date(2026, 3, 16), (49, 0, 1)),
        (date(1977, 3, 15), date(2026, 4, 15), (49, 1, 0)),
        (date(1977, 3, 15), date(2026, 4, 14), (49, 0, 30)),
        # 29 February: 28 February is the birthday in a common year, 29 February in a leap year
        (date(1980, 2, 29), date(2025, 2, 28), (45, 0, 0)),
        (date(1980, 2, 29), date(2025, 2, 27), (44, 11, 29)),  # 29 days after Jan 29
        (date(1980, 2, 29), date(2024, 2, 28), (43, 11, 30)),
        (date(1980, 2, 29), date(2024, 2, 29), (44, 0, 0)),
        (date(1980, 2, 29), date(2025, 3, 1), (45, 0, 1)),
        # a 31st: the monthly anniversary falls on the month's last day
        (date(1970, 1, 31), date(2026, 2, 28), (56, 1, 0)),
        (date(1970, 1, 31), date(2026, 2, 27), (56, 0, 27)),
    ],
)
def test_age_in_years_months_days(birth, on, expected):
    assert age(birth, on) == Age(*expected)


def test_the_day_before_the_birthday_counts_days_from_the_last_monthly_anniversary():
    # 14 March 2026 is 27 days after 15 February 2026.
    assert (date(2026, 3, 14) - date(2026, 2, 15)).days == 27


def test_exactly_49_is_49_not_49_002():
    # Issue 12: days/365.25 put an exact 49th birthday at 49.002; by the calendar it is 49.0.
    birth, on = date(1977, 3, 1), date(2026, 3, 1)
    assert (on - birth).days / 365.25 != 49.0
    assert age_in_years_months(birth, on) == 49.0
    assert age_in_years_months(birth, date(2026, 6, 1)) == 49.25


def test_every_age_measure_agrees_on_29_february():
    birth = date(1980, 2, 29)
    for on in (date(2025, 2, 27), date(2025, 2, 28), date(2024, 2, 28), date(2024, 2, 29)):
        years = age(birth, on).years
        assert age_on(birth, on) == years
        assert attained_age(birth, on, AgeMethod.LAST_BIRTHDAY) == years


def test_before_birth_is_an_error():
    with pytest.raises(ValueError, match="before the birth date"):
        age(date(2000, 1, 1), date(1999, 12, 31))


@given(st.dates(date(1920, 1, 1), date(2010, 12, 31)), st.integers(0, 40_000))
def test_age_is_monotone_and_consistent(birth, offset):
    on = date.fromordinal(birth.toordinal() + offset)
    a = age(birth, on)
    assert 0 <= a.months < 12 and a.days >= 0
    assert a.days < 31
    nxt = age(birth, date.fromordinal(on.toordinal() + 1))
    assert nxt >= a  # tuples compare years, then months, then days
    assert age_on(birth, on) == a.years


@given(st.dates(date(1900, 1, 1), date(2100, 12, 31)), st.dates(date(1900, 1, 1), date(2100, 12, 31)))
def test_age_in_years_months_is_the_ages_total_months_over_twelve(birth, on):
    """``age_in_years_months`` counts the months alone: the float ``age(...).in_years()`` gives, and
    the same error before the birth date."""
    try:
        expected = age(birth, on).in_years()
    except ValueError as exc:
        with pytest.raises(ValueError, match="^" + str(exc) + "$"):
            age_in_years_months(birth, on)
        return
    got = age_in_years_months(birth, on)
    assert got == expected and type(got) is float
