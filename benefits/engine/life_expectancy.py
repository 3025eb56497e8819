"""The Single Life Table of Treas. Reg. §1.401(a)(9)-9(b): the life expectancy of one person at each age.

Values: the table as amended by T.D. 9930 (85 FR 72472, November 12, 2020), for distribution calendar
years beginning on or after January 1, 2022; ages 0 to 120 and over. The earlier table (T.D. 8987 /
T.D. 9130) is not held, so a date before 2022 raises ``TableNotInForce`` and the caller says the figure
is missing rather than guessing.

The age used is the person's age on the birthday in the calendar year (Treas. Reg. §1.401(a)(9)-5(c),
(d): "the age of the ... on the birthday in the distribution calendar year"; ``dates.age_on_birthday_in_year``).
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

SOURCE = "Treas. Reg. §1.401(a)(9)-9(b) (Single Life Table, T.D. 9930, for years from 2022)"
IN_FORCE_FROM = date(2022, 1, 1)

# Index = age (0..120; 120 also covers any older age).
_SINGLE_LIFE_2022 = (
    "84.6 83.7 82.8 81.8 80.8 79.8 78.8 77.9 76.9 75.9 74.9 73.9 72.9 71.9 70.9 69.9 69.0 68.0 67.0 66.0 "
    "65.0 64.1 63.1 62.1 61.1 60.2 59.2 58.2 57.3 56.3 55.3 54.4 53.4 52.5 51.5 50.5 49.6 48.6 47.7 46.7 "
    "45.7 44.8 43.8 42.9 41.9 41.0 40.0 39.0 38.1 37.1 36.2 35.3 34.3 33.4 32.5 31.6 30.6 29.8 28.9 28.0 "
    "27.1 26.2 25.4 24.5 23.7 22.9 22.0 21.2 20.4 19.6 18.8 18.0 17.2 16.4 15.6 14.8 14.1 13.3 12.6 11.9 "
    "11.2 10.5 9.9 9.3 8.7 8.1 7.6 7.1 6.6 6.1 5.7 5.3 4.9 4.6 4.3 4.0 3.7 3.4 3.2 3.0 "
    "2.8 2.6 2.5 2.3 2.2 2.1 2.1 2.1 2.0 2.0 2.0 2.0 2.0 1.9 1.9 1.8 1.8 1.6 1.4 1.1 1.0"
)
SINGLE_LIFE = tuple(Decimal(v) for v in _SINGLE_LIFE_2022.split(" "))
if len(SINGLE_LIFE) != 121:  # ages 0..120
    raise RuntimeError("the Single Life Table must have 121 rows")


class TableNotInForce(LookupError):
    """The Single Life Table in force on the date is not held by the engine."""


def single_life_expectancy(age: int, on: date) -> Decimal:
    """Life expectancy in years at ``age`` from the table in force on ``on``."""
    if on < IN_FORCE_FROM:
        raise TableNotInForce(
            f"the Single Life Table in force on {on.isoformat()} (before 2022) is not held by the engine"
        )
    if age < 0:
        raise ValueError("age must not be negative")
    return SINGLE_LIFE[min(age, 120)]


__all__ = [
    "IN_FORCE_FROM",
    "SINGLE_LIFE",
    "SOURCE",
    "TableNotInForce",
    "single_life_expectancy",
]
