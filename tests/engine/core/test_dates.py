"""Date helpers: the conventions stated in benefits/engine/dates.py."""

from datetime import date

from benefits.engine.dates import (
    add_months,
    add_years,
    age_on,
    date_attaining_age,
    days_inclusive,
    first_of_month_on_or_after,
    first_of_next_month,
    months_between,
    whole_years_between,
)


def test_age_attained_on_the_birthday():
    assert age_on(date(1960, 7, 20), date(2025, 7, 19)) == 64
    assert age_on(date(1960, 7, 20), date(2025, 7, 20)) == 65


def test_feb_29_birthday_attains_age_on_feb_28_in_common_years():
    assert date_attaining_age(date(1960, 2, 29), 65) == date(2025, 2, 28)
    assert date_attaining_age(date(1960, 2, 29), 64) == date(2024, 2, 29)
    assert age_on(date(1960, 2, 29), date(2025, 2, 28)) == 65
    assert age_on(date(1960, 2, 29), date(2025, 2, 27)) == 64


def test_add_months_clamps_to_month_end():
    assert add_months(date(2003, 1, 31), 1) == date(2003, 2, 28)
    assert add_months(date(2004, 1, 31), 1) == date(2004, 2, 29)
    assert add_months(date(2003, 1, 31), -2) == date(2002, 11, 30)
    assert add_years(date(2004, 2, 29), 1) == date(2005, 2, 28)


def test_first_of_month_coinciding_or_next_following():
    # Carver DB spec §2.8: NRD = first of the month coincident with or next following age 65.
    assert first_of_month_on_or_after(date(2023, 4, 10)) == date(2023, 5, 1)
    assert first_of_month_on_or_after(date(2006, 2, 1)) == date(2006, 2, 1)
    assert first_of_month_on_or_after(date(2030, 12, 31)) == date(2031, 1, 1)
    assert first_of_next_month(date(2006, 2, 1)) == date(2006, 3, 1)


def test_months_between_anniversary_method():
    # Carver DB spec §2.7 example: 2/15/1982 → 1/1/2001 (12/31/2000 inclusive) = 226 months.
    assert months_between(date(1982, 2, 15), date(2001, 1, 1)) == 226
    assert months_between(date(1990, 4, 2), date(1993, 1, 1)) == 32  # Example 7, period 1
    # A month from the 31st is complete at the end of a shorter month (clamped anniversary).
    assert months_between(date(2001, 1, 31), date(2001, 2, 28)) == 1
    assert months_between(date(2001, 1, 31), date(2001, 2, 27)) == 0
    assert months_between(date(2001, 1, 31), date(2001, 3, 31)) == 2
    assert months_between(date(2005, 1, 1), date(2004, 1, 1)) == 0
    assert whole_years_between(date(2003, 3, 3), date(2013, 10, 31)) == 10


def test_days_inclusive_counts_both_ends():
    # 401(k) spec §2.3, A1: 1998-03-02 → 2003-01-31 is 1,797 days (Example 3).
    assert days_inclusive(date(1998, 3, 2), date(2003, 1, 31)) == 1797
    assert days_inclusive(date(2001, 2, 5), date(2001, 8, 31)) == 208
    assert days_inclusive(date(2001, 2, 5), date(2001, 2, 4)) == 0
