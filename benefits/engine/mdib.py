"""The minimum distribution incidental benefit (MDIB) limit on a survivor annuity for a non-spouse
(pure: no Django).

Treas. Reg. §1.401(a)(9)-6, Q&A-2(c) (T.D. 9130, 2004): when the beneficiary of a joint and survivor
annuity is not the employee's spouse, the periodic payment to the survivor may not exceed the
*applicable percentage* of the payment to the employee, read from the table in Q&A-2(c)(2) by the
*adjusted employee/beneficiary age difference*:

* the employee/beneficiary age difference is the employee's age minus the beneficiary's age, each the
  age attained on the birthday in the calendar year of the annuity starting date;
* for an annuity starting before the calendar year in which the employee reaches 70, it is reduced by
  the number of years by which the employee is younger than 70 on that birthday (Q&A-2(c)(1)).

A difference of 10 years or less allows 100%; the table then falls to 52% at 44 years or more.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from .dates import age_on_birthday_in_year

ADJUSTMENT_AGE = 70  # Q&A-2(c)(1)
SOURCE = "Treas. Reg. §1.401(a)(9)-6, Q&A-2(c)"

# Adjusted employee/beneficiary age difference (years) → applicable percentage (Q&A-2(c)(2) table).
_TABLE: dict[int, int] = {
    11: 96, 12: 93, 13: 90, 14: 87, 15: 84, 16: 82, 17: 79, 18: 77, 19: 75, 20: 73,
    21: 72, 22: 70, 23: 68, 24: 67, 25: 66, 26: 64, 27: 63, 28: 62, 29: 61, 30: 60,
    31: 59, 32: 59, 33: 58, 34: 57, 35: 56, 36: 56, 37: 55, 38: 55, 39: 54, 40: 54,
    41: 53, 42: 53, 43: 53,
}  # fmt: skip
_FLOOR = 52  # 44 years and over


@dataclass(frozen=True)
class IncidentalLimit:
    employee_age: int
    beneficiary_age: int
    age_difference: int
    adjusted_difference: int
    max_percent: int  # the most the survivor may receive, as a percent of the employee's payment
    source: str = SOURCE


def applicable_percentage(adjusted_difference: int) -> int:
    if adjusted_difference <= 10:
        return 100
    return _TABLE.get(adjusted_difference, _FLOOR)


def incidental_limit(employee_birth: date, beneficiary_birth: date, asd: date) -> IncidentalLimit:
    """The MDIB limit for a non-spouse survivor of an annuity starting on ``asd``."""
    employee_age = age_on_birthday_in_year(employee_birth, asd.year)
    beneficiary_age = age_on_birthday_in_year(beneficiary_birth, asd.year)
    difference = max(employee_age - beneficiary_age, 0)
    adjusted = max(difference - max(ADJUSTMENT_AGE - employee_age, 0), 0)
    return IncidentalLimit(
        employee_age, beneficiary_age, difference, adjusted, applicable_percentage(adjusted)
    )
