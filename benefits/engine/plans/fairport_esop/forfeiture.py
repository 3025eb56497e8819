"""Forfeiture of the nonvested part, its timing, the vested balance, and restoration (F §9.5-§9.7).

The vested percent itself comes from the plan's vesting rules (rules.py, §9.1-§9.4); here it is an
input, so these functions test alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from benefits.engine.dates import add_years
from benefits.engine.money import HUNDRED, ZERO, to_decimal, to_money
from benefits.engine.trace import Trace, TraceBuilder, money, percent, price
from benefits.engine.trace import shares as shares_of

from .apportion import round_shares
from .settings import DEFAULT_SETTINGS, BenefitSettings


@dataclass(frozen=True)
class VestedBalance:
    balance: Decimal
    vested_balance: Decimal
    trace: Trace


def vested_balance(
    shares: Decimal,
    cash: Decimal,
    share_value: Decimal,
    vested_percent: Decimal,
    elected_dividends: Decimal = ZERO,
) -> VestedBalance:
    """Value of the Account and its vested part. The percent applies to the whole Account (Stock Fund
    plus Investment Fund); elected dividends are always fully vested (F §9.1, §7.2-2(i)(B))."""
    tb = TraceBuilder()
    pct = to_decimal(vested_percent)
    if not ZERO <= pct <= HUNDRED:
        raise ValueError("vested percent must be between 0 and 100")
    value = to_decimal(shares) * to_decimal(share_value) + to_decimal(cash)
    balance = to_money(value)
    tb.step(
        "Account value = Stock Fund shares × share value + Investment Fund",
        section="Fairport ESOP §8.3, §8.4",
        result=money(balance),
        shares=shares_of(shares),
        share_value=price(share_value),
        cash=money(cash),
    )
    elected = min(to_money(elected_dividends), balance)
    vested = to_money((balance - elected) * pct / HUNDRED) + elected
    tb.step(
        "Vested balance = vested percent × Account, with elected dividends fully vested",
        section="Fairport ESOP §9.1, §7.2-2(i)(B)",
        result=money(vested),
        vested_percent=percent(pct),
        elected_dividends=money(elected),
    )
    return VestedBalance(balance, vested, tb.build())


@dataclass(frozen=True)
class ForfeitureSplit:
    nonvested_value: Decimal
    cash_forfeited: Decimal
    shares_forfeited: Decimal
    shares_kept: Decimal
    cash_kept: Decimal
    trace: Trace


def forfeiture_split(
    shares: Decimal, cash: Decimal, share_value: Decimal, vested_percent: Decimal
) -> ForfeitureSplit:
    """The nonvested value is taken from other assets first, Stock last (F §9.6).

    Shares forfeited are rounded down at the 4th place so the kept, nonforfeitable part is never
    short of the vested value (F §9.7).
    """
    tb = TraceBuilder()
    shares, cash, value = to_decimal(shares), to_decimal(cash), to_decimal(share_value)
    vb = vested_balance(shares, cash, value, vested_percent)
    nonvested = vb.balance - vb.vested_balance
    tb.include(vb.trace)
    # Forfeit against the exact (unrounded) account value, so the exact value kept never falls below the
    # vested balance, even where the balance itself was rounded up to the cent.
    forfeitable = max(ZERO, shares * value + cash - vb.vested_balance)
    cash_f = min(cash, forfeitable)
    shares_f = round_shares((forfeitable - cash_f) / value, down=True) if forfeitable > cash_f else ZERO
    tb.step(
        "Forfeit the Investment Fund first, then shares at current value for the rest",
        section="Fairport ESOP §9.6",
        result=money({"cash": cash_f, "shares": shares_f}),
        nonvested_value=money(nonvested),
    )
    return ForfeitureSplit(nonvested, cash_f, shares_f, shares - shares_f, cash - cash_f, tb.build())


@dataclass(frozen=True)
class ForfeitureTiming:
    certain_on: date | None  # None: not (yet) forfeited
    reallocated_on: date | None  # December 31 of that Plan Year (§9.6, §4.1)
    reason: str
    trace: Trace


def forfeiture_timing(
    termination_date: date,
    vested_percent: Decimal,
    *,
    hours: Mapping[int, int],
    full_distribution_date: date | None = None,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> ForfeitureTiming:
    """When the nonvested part is forfeited (F §9.5): at once if 0% vested (deemed distribution), on
    a distribution of the whole vested interest, or on the first one-year Break (≤ 500 hours) after
    Service ends, whichever comes first. A Break forfeiture is certain on its 12/31 (GAP D1.5)."""
    tb = TraceBuilder()
    pct = to_decimal(vested_percent)
    sec = "Fairport ESOP §9.5, §9.6"
    if pct >= HUNDRED:
        tb.step("Fully vested: nothing is forfeited", section="Fairport ESOP §9.7", result=None)
        return ForfeitureTiming(None, None, "fully_vested", tb.build())
    if pct == 0:
        tb.step(
            "No part vested: deemed to receive a distribution on termination, so the forfeiture is certain then",
            section=sec,
            result=termination_date,
        )
        return ForfeitureTiming(
            termination_date, date(termination_date.year, 12, 31), "deemed_distribution", tb.build()
        )
    candidates: list[tuple[date, str]] = []
    if full_distribution_date is not None:
        candidates.append((full_distribution_date, "distribution"))
    # First Plan Year after Service ended with 500 or fewer hours; the year of termination counts too.
    last_known = max([termination_date.year, *hours.keys()])
    for year in range(termination_date.year, last_known + 1):
        if hours.get(year, 0) <= 500:
            if not settings.break_forfeiture_on_year_end:
                raise ValueError("only the year-end reading of GAP D1.5 is implemented")
            candidates.append((date(year, 12, 31), "break_in_service"))
            break
    if not candidates:
        tb.step(
            "No distribution of the whole vested interest and no Break yet: nothing forfeited yet",
            section=sec,
            applied=False,
            result=None,
        )
        return ForfeitureTiming(None, None, "not_yet", tb.build())
    when, why = min(candidates)
    tb.step(
        "Forfeiture becomes certain on the earlier of a distribution of the entire vested interest and the "
        "end of the first one-year Break in Service (500 or fewer hours)",
        section=sec + "; SPEC GAP D1.5",
        result=when,
        reason=why,
    )
    realloc = date(when.year, 12, 31)
    tb.step(
        "Reallocated with the contributions as of the last day of that Plan Year",
        section="Fairport ESOP §9.6",
        result=realloc,
    )
    return ForfeitureTiming(when, realloc, why, tb.build())


@dataclass(frozen=True)
class Restoration:
    eligible: bool
    repayment_required: Decimal  # 0 when nothing was paid out (or the distribution was deemed)
    repay_by: date | None
    restored_value: Decimal
    restored_as_of: date | None  # deemed distributions: the first Hour of Service after return
    source_order: tuple[str, ...]
    trace: Trace


RESTORATION_SOURCES = ("forfeitures", "dividend_released_shares_8.1-1(ii)", "special_employer_contribution")


def restoration(
    *,
    return_date: date,
    consecutive_breaks: int,
    distributed: Decimal,
    deemed: bool,
    forfeited_cash: Decimal,
    forfeited_shares: Decimal,
    forfeited_value: Decimal,
    share_value_now: Decimal,
    earnings_since: Decimal = ZERO,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> Restoration:
    """Restoration of a forfeited nonvested part on return to Service (F §9.5, second paragraph)."""
    tb = TraceBuilder()
    sec = "Fairport ESOP §9.5"
    eligible = consecutive_breaks < 5
    tb.step(
        "Returned to Service before five consecutive one-year Breaks",
        section=sec,
        result=eligible,
        consecutive_breaks=consecutive_breaks,
    )
    if not eligible:
        return Restoration(False, ZERO, None, ZERO, None, (), tb.build())
    if settings.restoration_measure == "dollars":
        restored = to_money(forfeited_value)
        rule = "Restored amount = the dollar value forfeited"
    elif settings.restoration_measure == "shares":
        restored = to_money(
            to_decimal(forfeited_shares) * to_decimal(share_value_now) + to_decimal(forfeited_cash)
        )
        rule = "Restored amount = the same shares and cash forfeited, at today's share value"
    else:
        raise ValueError(f"unknown restoration_measure {settings.restoration_measure!r}")
    tb.step(rule, section=sec + "; SPEC GAP D1.6", result=money(restored))
    if deemed:
        tb.step(
            "Deemed distribution: restored as of the first day he performs an Hour of Service after return",
            section=sec,
            result=return_date,
        )
        return Restoration(True, ZERO, None, restored, return_date, RESTORATION_SOURCES, tb.build())
    if to_decimal(distributed) > 0:
        repay_by = add_years(return_date, settings.repayment_window_years)
        tb.step(
            "The amount distributed must be repaid first, within five years after the return to Service",
            section=sec,
            result=repay_by,
            repayment=money(to_money(distributed)),
        )
        tb.step(
            "Restored from other Employees' forfeitures, then §8.1-1(ii) shares, then a special Employer "
            "contribution",
            section=sec,
            result=RESTORATION_SOURCES,
        )
        return Restoration(
            True, to_money(distributed), repay_by, restored, None, RESTORATION_SOURCES, tb.build()
        )
    restored = to_money(restored + to_decimal(earnings_since))
    tb.step(
        "No distribution was received: the restoration includes the earnings lost to the forfeiture",
        section=sec,
        result=money(restored),
        earnings=money(earnings_since),
    )
    return Restoration(True, ZERO, None, restored, return_date, RESTORATION_SOURCES, tb.build())
