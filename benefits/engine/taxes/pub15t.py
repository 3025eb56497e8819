"""Publication 15-T's annual percentage method for periodic pension payments (Form W-4P, 2022 or later).

Worksheet 1A of Publication 15-T (Federal Income Tax Withholding Methods) for a Form W-4P from 2022 or
later, Step 2 box not checked, no Step 3 credits or Step 4(a)/(b) amounts: annualize the payment,
subtract $12,900 (married filing jointly) or $8,600 (any other status) (line 1g), look the result up in
the year's STANDARD withholding rate schedule, divide by the payments a year, add the Step 4(c) extra.

The schedule for a year is built the way Pub. 15-T builds it: its first row ends at the year's
standard deduction less the line 1g amount, and its rows then follow the year's income tax brackets.
The 2026 figures are from Rev. Proc. 2025-32 (§4.01 brackets, §4.03 standard deduction, as amended
by P.L. 119-21): they must equal Publication 15-T (2026)'s Annual Percentage Method table; the tests
check the rows worked by hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from benefits.engine.money import ZERO, to_money

# Worksheet 1A line 1g (Form W-4P Step 2 box not checked).
LINE_1G = {"married": Decimal("12900"), "single": Decimal("8600"), "head_of_household": Decimal("8600")}

# Rev. Proc. 2025-32 §4.03 (standard deduction) and §4.01 (brackets: the top of each taxable-income band
# taxed at 10%, 12%, 22%, 24%, 32%, 35%; above the last, 37%), for 2026.
_YEARS: dict[int, dict[str, tuple[Decimal, tuple[Decimal, ...]]]] = {
    2026: {
        "single": (
            Decimal("16100"),
            tuple(Decimal(x) for x in ("12400", "50400", "105700", "201775", "256225", "640600")),
        ),
        "married": (
            Decimal("32200"),
            tuple(Decimal(x) for x in ("24800", "100800", "211400", "403550", "512450", "768700")),
        ),
        "head_of_household": (
            Decimal("24150"),
            tuple(Decimal(x) for x in ("17700", "67450", "105700", "201750", "256200", "640600")),
        ),
    },
}
RATES = tuple(Decimal(r) for r in ("0.10", "0.12", "0.22", "0.24", "0.32", "0.35", "0.37"))
STATUSES = ("single", "married", "head_of_household")


class TableNotPublished(ValueError):
    """No withholding schedule is held for the year."""


@dataclass(frozen=True)
class Row:
    at_least: Decimal  # column A
    tentative: Decimal  # column C: the tentative amount to withhold at column A
    rate: Decimal  # column D: the rate on the excess over column A


def year_used(year: int) -> int:
    """The schedule used for a payment in ``year``: its own, or for a later year not held yet the latest
    held (the payer keeps withholding on the last table until the new one is loaded; ``projected``)."""
    if year in _YEARS:
        return year
    earlier = [y for y in _YEARS if y < year]
    if not earlier:
        raise TableNotPublished(f"No Publication 15-T withholding schedule is held for {year}.")
    return max(earlier)


@lru_cache(
    maxsize=64
)  # pure: the same year and status give the same rows (a pay date asks thousands of times)
def schedule(year: int, status: str) -> tuple[Row, ...]:
    """The year's STANDARD withholding rate schedule for one filing status (rows from $0)."""
    deduction, tops = _YEARS[year_used(year)][status]
    floor = deduction - LINE_1G[status]
    rows = [Row(ZERO, ZERO, ZERO)]
    start, tentative, previous_top = floor, ZERO, ZERO
    for rate, top in zip(RATES, (*tops, None), strict=True):
        rows.append(Row(start, tentative, rate))
        if top is not None:
            tentative += (top - previous_top) * rate
            start, previous_top = floor + top, top
    return tuple(rows)


def annual_tentative(year: int, status: str, adjusted_annual: Decimal) -> Decimal:
    """Worksheet 1A line 2h: the tentative annual withholding on the adjusted annual payment."""
    row = next(r for r in reversed(schedule(year, status)) if adjusted_annual >= r.at_least)
    return row.tentative + (adjusted_annual - row.at_least) * row.rate


def periodic_withholding(
    *, year: int, status: str, payment: Decimal, payments_per_year: int, extra: Decimal = ZERO
) -> Decimal:
    """Federal income tax to withhold from one periodic payment (Worksheet 1A, lines 1a–4b)."""
    if status not in STATUSES:
        raise ValueError(f"unknown filing status {status!r}")
    annual = payment * payments_per_year  # line 1c
    adjusted = max(ZERO, annual - LINE_1G[status])  # lines 1g–1i
    per_payment = annual_tentative(year, status, adjusted) / payments_per_year  # line 2h / 1b
    return to_money(max(ZERO, per_payment) + extra)  # line 4a: plus Step 4(c)
