"""Countable Compensation for a Plan Year's Contribution Credit (§1.12, §4.3(a), §5.8).

§4.3(a): only Compensation "paid on a Payday while such Participant is an Active Participant" counts.
The examples assume monthly Paydays on the last day of each month (A6), so the countable part of a
year's pay is the number of month-end Paydays in an Active span. §1.12 caps it at the 401(a)(17)
limit (and loan agents at the 414(q) amount). §5.8 deems pay during Disability Retirement.
"""

from __future__ import annotations

import calendar
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from benefits.engine.money import ZERO

from .settings import BenefitSettings

TWELVE = Decimal(12)


@dataclass(frozen=True)
class ActivePeriod:
    """A span as an Active Participant: entry (or re-entry) date to separation (None = still active)."""

    start: date
    end: date | None = None


@dataclass(frozen=True)
class CountableCompensation:
    year: int
    amount: Decimal  # after the exclusions and the caps: the base of the 5% credit
    basis: str  # plain words: how the amount was reached
    estimate: bool = False  # projected pay (GAP-4)


def month_end(year: int, month: int) -> date:
    return date(year, month, calendar.monthrange(year, month)[1])


def active_paydays(periods: Sequence[ActivePeriod], year: int) -> int:
    """Month-end Paydays in ``year`` on which the person was an Active Participant (A6).

    A month's last day is on or after ``start`` exactly when the month is ``start``'s or later, and
    on or before ``end`` when the month is before ``end``'s (or is ``end``'s and ``end`` is its last
    day); counted as month-index ranges, so no calendar lookups.
    """
    first, last = year * 12, year * 12 + 11
    if len(periods) == 1:  # the usual case: one span, no overlaps to merge
        p = periods[0]
        lo = p.start.year * 12 + p.start.month - 1
        if p.end is None:
            hi = last
        else:
            hi = p.end.year * 12 + p.end.month - 1
            if p.end != month_end(p.end.year, p.end.month):
                hi -= 1
        return max(0, min(hi, last) - max(lo, first) + 1)
    months: set[int] = set()
    for p in periods:
        lo = p.start.year * 12 + p.start.month - 1
        if p.end is None:
            hi = last
        else:
            hi = p.end.year * 12 + p.end.month - 1
            if p.end != month_end(p.end.year, p.end.month):
                hi -= 1
        months.update(range(max(lo, first), min(hi, last) + 1))
    return len(months)


def disability_deemed_rate(
    compensation: Mapping[int, Decimal],
    disability_date: date,
    settings: BenefitSettings,
) -> Decimal:
    """§5.8: the annual rate of pay deemed received during Disability Retirement.

    max(pay for the year disability began × 12 / months paid that year, the prior year's pay);
    AMBIG-7's other reading (§1.17(a)) is the rate of pay when disability began.
    """
    year = disability_date.year
    months_paid = disability_date.month - 1  # month-end Paydays before the disability began
    paid = compensation.get(year, ZERO)
    if settings.compensation_input == "annual_rate":
        annualised = paid  # the figure already is the annual rate
    else:
        annualised = paid * TWELVE / months_paid if months_paid else ZERO
    if settings.disability_compensation == "rate_at_disability":
        return annualised
    return max(annualised, compensation.get(year - 1, ZERO))


def countable_compensation(
    *,
    year: int,
    periods: Sequence[ActivePeriod],
    compensation: Mapping[int, Decimal],
    comp_limit: Decimal,
    settings: BenefitSettings,
    override: Mapping[int, Decimal] | None = None,
    disability_date: date | None = None,
    loan_agent_limit: Decimal | None = None,
    projected_rate: Decimal | None = None,
) -> CountableCompensation | None:
    """The capped Compensation counted for ``year``'s credit, or None if never Active that year."""
    paydays = active_paydays(periods, year)
    if paydays == 0:
        return None
    estimate = False
    if override is not None and year in override:
        amount = override[year]
        basis = f"countable Compensation given for {year} (plan_data.countable_compensation)"
    elif disability_date is not None and year >= disability_date.year:
        deemed = disability_deemed_rate(compensation, disability_date, settings)
        if year == disability_date.year:
            before = disability_date.month - 1
            paid = compensation.get(year, ZERO)
            if settings.compensation_input == "annual_rate":
                paid = paid * before / TWELVE
            amount = paid + deemed * (12 - before) / TWELVE
            basis = (
                f"{year}: pay before Disability Retirement {paid:.2f} + deemed rate {deemed:.2f} "
                f"× {12 - before}/12 (§5.8)"
            )
        else:
            amount = deemed
            basis = f"{year}: deemed Compensation during Disability Retirement {deemed:.2f} (§5.8)"
    else:
        if year in compensation:
            rate = compensation[year]
        elif projected_rate is not None:
            rate, estimate = projected_rate, True
        else:
            return CountableCompensation(year, ZERO, f"no Compensation given for {year}")
        if settings.compensation_input == "annual_rate":
            amount = rate * paydays / TWELVE
            basis = f"{year}: {paydays} monthly Paydays while Active × {rate:.2f}/12 (§4.3(a))"
        else:
            amount = rate
            basis = f"{year}: Compensation paid while Active {rate:.2f} (§4.3(a))"
        if estimate:
            basis += " [projected pay, estimate]"
    limit = comp_limit * paydays / TWELVE if settings.prorate_compensation_limit else comp_limit
    if amount > limit:
        basis += f"; capped at the 401(a)(17) limit {limit:.2f} (§1.12)"
        amount = limit
    if loan_agent_limit is not None and amount > loan_agent_limit:
        basis += f"; loan agent capped at the 414(q) amount {loan_agent_limit:.2f} (§1.12)"
        amount = loan_agent_limit
    return CountableCompensation(year, amount, basis, estimate)


def countable_amount(
    *,
    year: int,
    paydays: int,
    compensation: Mapping[int, Decimal],
    comp_limit: Decimal,
    settings: BenefitSettings,
    override: Mapping[int, Decimal] | None = None,
    disability_date: date | None = None,
    loan_agent_limit: Decimal | None = None,
    projected_rate: Decimal | None = None,
) -> tuple[Decimal, bool] | None:
    """``countable_compensation``'s amount and estimate flag without its words (the untraced census),
    ``paydays`` being ``active_paydays(periods, year)``: the same Decimal steps."""
    if paydays == 0:
        return None
    estimate = False
    if override is not None and year in override:
        amount = override[year]
    elif disability_date is not None and year >= disability_date.year:
        deemed = disability_deemed_rate(compensation, disability_date, settings)
        if year == disability_date.year:
            before = disability_date.month - 1
            paid = compensation.get(year, ZERO)
            if settings.compensation_input == "annual_rate":
                paid = paid * before / TWELVE
            amount = paid + deemed * (12 - before) / TWELVE
        else:
            amount = deemed
    else:
        if year in compensation:
            rate = compensation[year]
        elif projected_rate is not None:
            rate, estimate = projected_rate, True
        else:
            return ZERO, False
        amount = rate * paydays / TWELVE if settings.compensation_input == "annual_rate" else rate
    limit = comp_limit * paydays / TWELVE if settings.prorate_compensation_limit else comp_limit
    if amount > limit:
        amount = limit
    if loan_agent_limit is not None and amount > loan_agent_limit:
        amount = loan_agent_limit
    return amount, estimate


def paydays_by_year(periods: Sequence[ActivePeriod], first: int, last: int) -> list[int]:
    """``active_paydays(periods, year)`` for each year from ``first`` to ``last``: each span's month
    range computed once and laid over the years (its first and last year partial, twelve between);
    spans apart from each other (a rehire) added, overlapping ones merged the general way."""
    spans = []
    for p in periods:
        lo = p.start.year * 12 + p.start.month - 1
        if p.end is None:
            hi = last * 12 + 11
        else:
            hi = p.end.year * 12 + p.end.month - 1
            if p.end != month_end(p.end.year, p.end.month):
                hi -= 1
        if hi >= lo:
            spans.append((lo, hi))
    spans.sort()
    if any(spans[k][0] <= spans[k - 1][1] for k in range(1, len(spans))):  # overlapping: merged
        return [active_paydays(periods, year) for year in range(first, last + 1)]
    counts = [0] * (last - first + 1)
    for lo, hi in spans:
        (lo_y, lo_m), (hi_y, hi_m) = divmod(lo, 12), divmod(hi, 12)
        a, b = max(lo_y, first), min(hi_y, last)
        if a > b:
            continue
        for i in range(a - first, b - first + 1):
            counts[i] += 12
        if lo_y >= first:
            counts[lo_y - first] -= lo_m  # months before the span's first
        if hi_y <= last:
            counts[hi_y - first] -= 11 - hi_m  # months after the span's last
    return counts


CompLimit = Callable[[int], Decimal]
