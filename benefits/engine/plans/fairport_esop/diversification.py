"""Diversification at age 55 with 10 years of participation (F §6.4; Code §401(a)(28)(B)).

The qualified election period (QEP) is six Plan Years from the first in which the Participant has
both reached 55 and completed 10 years of participation. Years 1-5: up to 25% of the shares
allocated since inception, less shares already elected; year 6: 50% (share reading by default,
GAP D1.11). Each year's window runs from January 1 to the 90th day after December 31, so windows
overlap January-March (GAP D1.12).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from benefits.engine.dates import add_years, days_after, year_end
from benefits.engine.money import ZERO, to_decimal
from benefits.engine.trace import Trace, TraceBuilder, shares

from .apportion import round_shares
from .settings import DEFAULT_SETTINGS, BenefitSettings

SECTION = "Fairport ESOP §6.4"
QEP_YEARS = 6


def qep_first_year(birth_date: date, tenth_participation_year: int) -> tuple[int, Trace]:
    """First Plan Year in which the Participant has both reached 55 and completed 10 years of participation.

    ``tenth_participation_year`` is the Plan Year that completes the 10th year of participation
    (Plan Years as a Participant, counting the entry year: GAP D1.10).
    """
    age55 = add_years(birth_date, 55)
    first = max(age55.year, tenth_participation_year)
    t = Trace().add(
        "Qualified election period starts in the first Plan Year with both age 55 and 10 years of participation",
        section=SECTION + "; SPEC GAP D1.10",
        result=first,
        age_55_on=age55,
        tenth_year_of_participation=tenth_participation_year,
    )
    return first, t


def tenth_participation_year(entry_date: date, settings: BenefitSettings = DEFAULT_SETTINGS) -> int:
    """Plan Year that completes 10 years of participation, for continuous participation from entry.

    GAP D1.10: by default the entry year counts even when entry was July 1; otherwise a partial
    entry year does not count.
    """
    first = entry_date.year
    if not settings.count_entry_year_as_participation and (entry_date.month, entry_date.day) != (1, 1):
        first += 1
    return first + 9


@dataclass(frozen=True)
class ElectionWindow:
    qep_year: int  # 1..6
    plan_year: int
    opens: date
    closes: date  # 90 days after December 31
    complete_by: date  # 90 days after the window closes

    def contains(self, d: date) -> bool:
        return self.opens <= d <= self.closes


@functools.lru_cache(maxsize=1024)
def election_windows(first_year: int) -> tuple[ElectionWindow, ...]:
    """The six windows of a QEP (frozen, so one tuple serves every participant with that first year:
    a census asks twice a participant)."""
    out = []
    for k in range(QEP_YEARS):
        y = first_year + k
        closes = days_after(year_end(y), 90)
        out.append(ElectionWindow(k + 1, y, date(y, 1, 1), closes, days_after(closes, 90)))
    return tuple(out)


def open_windows(first_year: int, on: date) -> tuple[ElectionWindow, ...]:
    return tuple(w for w in election_windows(first_year) if w.contains(on))


@dataclass(frozen=True)
class DiversificationLimit:
    qep_year: int
    max_shares: Decimal
    percent: Decimal
    trace: Trace


def max_diversifiable(
    qep_year: int,
    shares_allocated_since_inception: Decimal,
    shares_already_elected: Decimal,
    *,
    account_shares: Decimal = ZERO,
    account_cash: Decimal = ZERO,
    share_value: Decimal = ZERO,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> DiversificationLimit:
    """Most shares the Participant may elect to diversify in QEP year ``qep_year`` (never below 0)."""
    if not 1 <= qep_year <= QEP_YEARS:
        raise ValueError("qep_year is 1 to 6")
    cum = to_decimal(shares_allocated_since_inception)
    done = to_decimal(shares_already_elected)
    tb = TraceBuilder()
    if qep_year < QEP_YEARS:
        pct = Decimal("0.25")
        raw = pct * cum - done
        rule = "Years 1-5: 25% of the shares allocated since the Plan began, less shares already elected"
    elif settings.diversification_year6_basis == "shares":
        pct = Decimal("0.50")
        raw = pct * cum - done
        rule = "Last year: 50% of the shares allocated since the Plan began, less shares already elected"
    elif settings.diversification_year6_basis == "value":
        pct = Decimal("0.50")
        v = to_decimal(share_value)
        if v <= 0:
            raise ValueError("the value reading of year 6 needs a share value")
        account = to_decimal(account_shares) * v + to_decimal(account_cash)
        raw = (pct * account - done * v) / v
        rule = "Last year: 50% of the Account's value, less the value of shares already elected, in shares"
    else:
        raise ValueError(f"unknown diversification_year6_basis {settings.diversification_year6_basis!r}")
    # Round down: the limit "does not exceed" the percentage.
    limit = max(ZERO, round_shares(raw, settings.share_places, down=True))
    tb.step(
        rule,
        section=SECTION + ("; SPEC GAP D1.11" if qep_year == QEP_YEARS else ""),
        result=shares(limit),
        qep_year=qep_year,
        shares_allocated_since_inception=shares(cum),
        shares_already_elected=shares(done),
    )
    return DiversificationLimit(qep_year, limit, pct, tb.build())


@dataclass(frozen=True)
class DiversificationStatus:
    eligible: bool
    qep_first_year: int | None
    window: ElectionWindow | None  # the window an election made today counts toward
    windows_open: tuple[ElectionWindow, ...]
    max_shares: Decimal
    trace: Trace
    percent: Decimal = ZERO  # 25% in QEP years 1-5, 50% in the last (0 when no window is open)
    windows: tuple[ElectionWindow, ...] = ()  # all six windows of the QEP
    age_55_on: date | None = None
    tenth_participation_year: int | None = None


def diversification_status(
    *,
    birth_date: date,
    as_of: date,
    years_of_participation: int,
    shares_allocated_since_inception: Decimal,
    shares_diversified: Decimal,
    account_shares: Decimal = ZERO,
    account_cash: Decimal = ZERO,
    share_value: Decimal = ZERO,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> DiversificationStatus:
    """Whether an election is possible on ``as_of`` and for how many shares.

    ``years_of_participation`` counts Plan Years as a Participant up to and including the Plan Year of
    ``as_of`` (plan_data contract key; GAP D1.10), so the 10th year is ``as_of.year - (n - 10)``.
    Continuous participation since then is assumed.
    """
    tb = TraceBuilder()
    n = int(years_of_participation)
    tenth = as_of.year - (n - 10)
    first, t = qep_first_year(birth_date, tenth)
    tb.include(t)
    every = election_windows(first)
    age55 = add_years(birth_date, 55)
    windows = open_windows(first, as_of)
    if not windows:
        tb.step("No diversification window is open on this date", section=SECTION, result=False, as_of=as_of)
        return DiversificationStatus(
            False,
            first,
            None,
            (),
            ZERO,
            tb.build(),
            windows=every,
            age_55_on=age55,
            tenth_participation_year=tenth,
        )
    # GAP D1.12: an election in the overlap counts toward the earlier year's quota by default.
    window = windows[0] if settings.overlap_election_year == "earlier" else windows[-1]
    tb.step(
        "Election window open: January 1 of the QEP year through the 90th day after its December 31",
        section=SECTION + "; SPEC GAP D1.12",
        result={"qep_year": window.qep_year, "opens": window.opens, "closes": window.closes},
    )
    lim = max_diversifiable(
        window.qep_year,
        shares_allocated_since_inception,
        shares_diversified,
        account_shares=account_shares,
        account_cash=account_cash,
        share_value=share_value,
        settings=settings,
    )
    tb.include(lim.trace)
    return DiversificationStatus(
        True,
        first,
        window,
        windows,
        lim.max_shares,
        tb.build(),
        lim.percent,
        windows=every,
        age_55_on=age55,
        tenth_participation_year=tenth,
    )
