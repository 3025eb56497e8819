"""Publication 15-T's percentage method for periodic pension payments (a Form W-4P from 2022 or later).

Worksheet 1B of Publication 15-T (2026), "Federal Income Tax Withholding Methods", for periodic payments
of pensions and annuities, read line by line (``worksheet_1b``):

* Step 1, the adjusted annual payment: the payment × payments a year (1a–1c), plus Form W-4P Step 4(a)
  other income, less Step 4(b) deductions and the line amount of $12,900 (married filing jointly) or
  $8,600 (any other status).
* Step 2, the tentative withholding: the STANDARD withholding rate schedule applied to the adjusted
  annual payment plus Form W-4P Step 2(b)(iii) (the payee's job pay and lower-paying pensions), less the
  same schedule applied to Step 2(b)(iii) alone, so this pension is taxed at the rates the other income
  leaves for it; divided by the payments a year.
* Step 3: less the Step 3 credits divided by the payments a year (not below zero).
* Step 4: plus the Step 4(c) extra withholding a payment.

No Form W-4P: withhold as for a single filer with no adjustments (Code §3405(a)(4), as amended by
P.L. 115-97; Publication 15-T (2026), "Periodic payments of pensions and annuities": a payee who has not
given a Form W-4P is treated as single with no adjustments — not "married with three allowances", the
rule for payments before 2023).

The schedule for a year is built the way Pub. 15-T builds it: its first row ends at the year's standard
deduction less the line amount above, and its rows then follow the year's income tax brackets. SOURCE
NOTE: the published 2026 Publication 15-T table could not be read here (the reference corpora searched
for "Publication 15-T 2026" hold only secondary summaries, no table rows), so the 2026 figures are
derived from Rev. Proc. 2025-32 (§4.01 brackets, §4.03 standard deduction, as amended by P.L. 119-21)
and the $12,900 / $8,600 line amounts of Pub. 15-T (2022–2025), which the 2026 edition is taken to keep.
They are listed with their source in tests/engine/taxes/test_w4p_and_under_200.py and must be
checked against the published table before production (docs/payments/form-1099r.md). The Form W-4P
steps were checked against the Form W-4P (2022) text (Step 2(b)(i) jobs, (ii) lower-paying pensions,
(iii) their total); the Worksheet 1B line order above follows the Pub. 15-T editions since 2022 and
should be re-read against the 2026 edition with the table.

"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from benefits.engine.money import ZERO, to_money

# Worksheet 1B, the line subtracted with Step 4(b) (Pub. 15-T 2022–2025; taken as kept in 2026).
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
    """The schedule's tentative annual withholding on ``adjusted_annual`` (Worksheet 1B lines 2c–2h)."""
    adjusted_annual = max(ZERO, adjusted_annual)
    row = next(r for r in reversed(schedule(year, status)) if adjusted_annual >= r.at_least)
    return row.tentative + (adjusted_annual - row.at_least) * row.rate


@dataclass(frozen=True)
class W4P:
    """What a Form W-4P (2022 or later) asks, in its own steps. ``status`` None: no Form W-4P given."""

    status: str | None = (
        None  # Step 1(c): "single" (or married filing separately), "married", "head_of_household"
    )
    step2_jobs: Decimal = ZERO  # Step 2(b)(i): taxable annual pay from all jobs (payee and spouse)
    step2_pensions: Decimal = ZERO  # Step 2(b)(ii): annual taxable payments from lower-paying pensions
    step3_credits: Decimal = ZERO  # Step 3: the year's credits (children, other dependents, others)
    step4a_other_income: Decimal = ZERO  # Step 4(a): other income not from jobs or pensions
    step4b_deductions: Decimal = ZERO  # Step 4(b): deductions beyond the standard deduction
    step4c_extra: Decimal = ZERO  # Step 4(c): extra withholding from each payment

    @property
    def step2_total(self) -> Decimal:  # Step 2(b)(iii)
        return self.step2_jobs + self.step2_pensions


@dataclass(frozen=True)
class Worksheet1B:
    """Every line of Worksheet 1B for one payment, so the basis stored with the payment can be read back."""

    year_used: int
    status: str
    annual: Decimal  # 1c
    adjusted_annual: Decimal  # 1i
    other: Decimal  # 2a: Step 2(b)(iii)
    tentative_with_other: Decimal  # 2h
    tentative_other: Decimal  # 2n
    tentative_annual: Decimal  # 2o
    tentative_payment: Decimal  # 2p
    credits_payment: Decimal  # 3b
    after_credits: Decimal  # 3c
    withholding: Decimal  # 4b, rounded to the cent


def worksheet_1b(*, year: int, payment: Decimal, payments_per_year: int, w4p: W4P) -> Worksheet1B:
    """Federal income tax to withhold from one periodic payment under ``w4p`` (no W-4P: single, nothing
    else), line by line as Pub. 15-T (2026) Worksheet 1B."""
    status = w4p.status or "single"
    if status not in STATUSES:
        raise ValueError(f"unknown filing status {status!r}")
    for name in (
        "step2_jobs",
        "step2_pensions",
        "step3_credits",
        "step4a_other_income",
        "step4b_deductions",
        "step4c_extra",
    ):
        if getattr(w4p, name) < ZERO:
            raise ValueError(f"{name} cannot be negative")
    n = Decimal(payments_per_year)
    annual = payment * n  # 1c
    line_1f = annual + w4p.step4a_other_income  # 1d, 1e, 1f
    line_1h = w4p.step4b_deductions + LINE_1G[status]  # 1g, 1h
    adjusted = max(ZERO, line_1f - line_1h)  # 1i
    other = w4p.step2_total  # 2a
    with_other = annual_tentative(year, status, adjusted + other)  # 2b–2h
    other_only = annual_tentative(year, status, other)  # 2i–2n
    tentative_annual = max(ZERO, with_other - other_only)  # 2o
    tentative_payment = tentative_annual / n  # 2p
    credits = w4p.step3_credits / n  # 3a, 3b
    after = max(ZERO, tentative_payment - credits)  # 3c
    return Worksheet1B(
        year_used(year),
        status,
        annual,
        adjusted,
        other,
        with_other,
        other_only,
        tentative_annual,
        tentative_payment,
        credits,
        after,
        to_money(after + w4p.step4c_extra),  # 4a, 4b
    )


def periodic_withholding(
    *, year: int, status: str, payment: Decimal, payments_per_year: int, extra: Decimal = ZERO
) -> Decimal:
    """Federal income tax to withhold from one periodic payment with only a filing status and Step 4(c)."""
    return worksheet_1b(
        year=year,
        payment=payment,
        payments_per_year=payments_per_year,
        w4p=W4P(status=status, step4c_extra=extra),
    ).withholding
