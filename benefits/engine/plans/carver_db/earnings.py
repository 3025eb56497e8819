"""Final Earnings (§1.1(P)): the highest 3-consecutive-year average in the last 10 full calendar years."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from benefits.engine.dates import day_after
from benefits.engine.trace import Trace, TraceBuilder, money, recording, year

from .settings import DEFAULT_SETTINGS, PLAN_FREEZE_DATE, BenefitSettings

ZERO = Decimal(0)

# Code §401(a)(17) cap on a year's Earnings. 1997–2000 are the plan's own numbers (§1.1(J));
# 1989–1996 are the statutory limits the SPEC lists (§2.1, OUTSIDE, to verify against IRS
# publications). No limit applied before 1989. Final Earnings never use a year after 2000.
EARNINGS_CAP: Mapping[int, Decimal] = {
    1989: Decimal(200000),
    1990: Decimal(209200),
    1991: Decimal(222220),
    1992: Decimal(228860),
    1993: Decimal(235840),
    1994: Decimal(150000),
    1995: Decimal(150000),
    1996: Decimal(150000),
    1997: Decimal(160000),
    1998: Decimal(160000),
    1999: Decimal(160000),
    2000: Decimal(170000),
    2001: Decimal(170000),
}


@dataclass(frozen=True)
class FinalEarnings:
    amount: Decimal  # annual, full precision
    window: tuple[int, int]  # first and last calendar year of the 10-year window
    best_years: tuple[int, ...]
    trace: Trace


def capped(year: int, amount: Decimal) -> Decimal:
    cap = EARNINGS_CAP.get(year)
    return amount if cap is None else min(amount, cap)


def window_end_exclusive(event_date: date | None, settings: BenefitSettings = DEFAULT_SETTINGS) -> date:
    """The day after the earliest of termination, retirement or death, no later than the freeze.

    GAP-2 default: for anyone employed on 12/31/2000 the window ends with 2000 (treated as a full
    calendar year), since Earnings from the freeze on are excluded.
    """
    freeze_end = day_after(PLAN_FREEZE_DATE)
    if event_date is None:
        return freeze_end
    end = day_after(event_date)
    return min(end, freeze_end) if settings.final_earnings_window_ends_at_freeze else end


def final_earnings(
    compensation: Mapping[int, Decimal],
    end_exclusive: date,
    *,
    years_of_service: int | None = None,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> FinalEarnings:
    """Highest average of 3 consecutive calendar years among the 10 full years before ``end_exclusive``.

    Years without Earnings still count as years of the window (it is made of calendar years).
    With fewer than 3 years of Service the Earnings are averaged over the total period of Service
    (GAP-22: total ÷ years of Service).
    """
    tb = TraceBuilder()
    last = end_exclusive.year - 1  # the last calendar year that ended before the event
    first = last - 9
    # Earnings received after the Plan Freeze Date never count (Foreword (B), §1.1(P)).
    yearly = _window_earnings(compensation, first, last)
    if recording():  # the window's earnings by year are made for the trace alone
        tb.step(
            "Earnings of each calendar year in the 10-year window, each capped at that year's "
            "Code §401(a)(17) limit",
            section="§1.1(P), §1.1(J)",
            result=money({str(y): v for y, v in yearly.items()}),
        )
    if years_of_service is not None and years_of_service < 3:
        worked = [y for y, v in yearly.items() if v > 0]
        divisor = Decimal(years_of_service) if settings.short_service_divide_by_years else Decimal(3)
        total = sum(yearly.values(), ZERO)
        amount = total / divisor if divisor else ZERO
        tb.step(
            "Fewer than 3 years of Service: Earnings averaged over the total period of Service "
            "(total Earnings ÷ years of Service, GAP-22)",
            section="§1.1(P)",
            result=money(amount),
            total=money(total),
            years_of_service=years_of_service,
        )
        return FinalEarnings(amount, (first, last), tuple(worked), tb.build())
    best_start, amount = _best_three(yearly, first, last)
    best = (best_start, best_start + 1, best_start + 2)
    tb.step(
        "Final Earnings: the highest average of 3 consecutive calendar years in the window",
        section="§1.1(P)",
        result=money(amount),
        years=year(list(best)),
    )
    return FinalEarnings(amount, (first, last), best, tb.build())


def _window_earnings(compensation: Mapping[int, Decimal], first: int, last: int) -> dict[int, Decimal]:
    """Each year's capped Earnings, first to last; none after the Plan Freeze Date."""
    get, caps, freeze_year = compensation.get, EARNINGS_CAP.get, PLAN_FREEZE_DATE.year
    yearly: dict[int, Decimal] = {}
    for y in range(first, last + 1):
        if y > freeze_year:
            yearly[y] = ZERO
            continue
        amount, cap = Decimal(get(y, ZERO)), caps(y)
        yearly[y] = amount if cap is None else min(amount, cap)
    return yearly


def _best_three(yearly: Mapping[int, Decimal], first: int, last: int) -> tuple[int, Decimal]:
    """The first year and the average of the best 3 consecutive years (the earliest of equals).

    A window without Earnings (everyone hired after the freeze) averages ZERO from its first year:
    what the comparison of every window gives, without the arithmetic."""
    if all(v is ZERO for v in yearly.values()):
        return first, ZERO
    best_start, best_avg = first, None
    for start in range(first, last - 1):
        avg = (yearly[start] + yearly[start + 1] + yearly[start + 2]) / 3
        if best_avg is None or avg > best_avg:
            best_start, best_avg = start, avg
    return best_start, best_avg if best_avg is not None else ZERO
