"""Limits on allocations: the one-third Highly Paid test and §415 annual additions (F §5.1).

Dollar and compensation limits are per-year parameters; they are inputs here (the plan prints
$45,000 and $225,000 as 2007 figures). Values are dollars at cents.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal

from benefits.engine.money import CENT, ZERO, to_decimal, to_money
from benefits.engine.trace import Trace, TraceBuilder, money
from benefits.engine.trace import factor as factor_of

from .apportion import largest_remainder
from .settings import DEFAULT_SETTINGS, BenefitSettings

ONE_THIRD = Decimal(1) / Decimal(3)


def one_third_test(
    contributions: Mapping[str, Decimal], highly_paid: set[str]
) -> tuple[bool, Decimal, Trace]:
    """Share of the year's contributions allocated to Highly Paid Employees must not exceed one-third.

    The plan gives no method to adjust a failure (GAP D1.7): a failure stops for the Committee.
    Passing also opens the §5.1-4 exclusions.
    """
    total = sum((to_decimal(v) for v in contributions.values()), ZERO)
    hce = sum((to_decimal(v) for k, v in contributions.items() if k in highly_paid), ZERO)
    share = hce / total if total else ZERO
    ok = share <= ONE_THIRD
    t = Trace().add(
        "Contributions allocated to Highly Paid Employees are no more than one-third of the total"
        + ("" if ok else ": FAILS, hold the allocation for the Committee (no adjustment method given)"),
        section="Fairport ESOP §5.1-1, §5.1-4; SPEC GAP D1.7",
        result=ok,
        highly_paid_share=factor_of(share, 6),
    )
    return ok, share, t


@dataclass(frozen=True)
class AnnualAddition:
    amount: Decimal
    basis: str
    trace: Trace


def annual_addition(
    *,
    comp_ratio: Decimal,
    loan_principal: Decimal,
    loan_interest: Decimal,
    cash_contribution: Decimal = ZERO,
    released_shares: Decimal = ZERO,
    forfeited_shares: Decimal = ZERO,
    forfeited_cash: Decimal = ZERO,
    share_value: Decimal = ZERO,
    exclusions_apply: bool = False,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> AnnualAddition:
    """One Participant's annual addition (F §5.1-3) under the configured basis (GAP D1.8).

    ``comp_ratio`` is his share of the second-category pool; the share counts are his allocated shares.
    With the §5.1-4 exclusions (one-third test passed), interest and forfeited leveraged Stock drop out.
    """
    tb = TraceBuilder()
    r = to_decimal(comp_ratio)
    v = to_decimal(share_value)
    if settings.annual_additions_basis == "fmv":
        amount = (
            to_decimal(released_shares) * v + to_decimal(forfeited_cash) + r * to_decimal(cash_contribution)
        )
        if not exclusions_apply:
            amount += to_decimal(forfeited_shares) * v
        rule = "Annual addition measured at fair market value of the shares allocated, plus cash"
    elif settings.annual_additions_basis == "contributions":
        interest = ZERO if exclusions_apply else to_decimal(loan_interest)
        forf_sh = ZERO if exclusions_apply else to_decimal(forfeited_shares) * v
        amount = (
            r * (to_decimal(loan_principal) + interest + to_decimal(cash_contribution))
            + forf_sh
            + to_decimal(forfeited_cash)
        )
        rule = "Annual addition measured by his share of the Employer contributions used, plus forfeitures"
    else:
        raise ValueError(f"unknown annual_additions_basis {settings.annual_additions_basis!r}")
    amount = to_money(amount)
    tb.step(
        rule + (" (interest and forfeited leveraged shares excluded, §5.1-4)" if exclusions_apply else ""),
        section="Fairport ESOP §5.1-3, §5.1-4; SPEC GAP D1.8",
        result=money(amount),
        basis=settings.annual_additions_basis,
    )
    return AnnualAddition(amount, settings.annual_additions_basis, tb.build())


def limit_415(compensation: Decimal, dollar_limit: Decimal, comp_limit: Decimal) -> tuple[Decimal, Trace]:
    """Lesser of the §415(c) dollar limit and 100% of 415 Compensation (itself capped, F §2)."""
    comp = min(to_decimal(compensation), to_decimal(comp_limit))
    limit = to_money(min(to_decimal(dollar_limit), comp))
    return limit, Trace().add(
        "Annual additions may not exceed the lesser of the dollar limit and 100% of 415 Compensation",
        section="Fairport ESOP §5.1-2",
        result=money(limit),
        dollar_limit=money(dollar_limit),
        compensation=money(comp),
    )


@dataclass(frozen=True)
class LimitedAllocation:
    allocations: dict[str, Decimal]
    suspense: Decimal  # §5.1-2(ii): held unallocated, reduces future contributions, no earnings
    capped: frozenset[str]
    trace: Trace


def apply_415(
    pool: Decimal, compensation: Mapping[str, Decimal], limits: Mapping[str, Decimal]
) -> LimitedAllocation:
    """Allocate a dollar pool by compensation, then move any excess over a person's limit to the others
    "as if [he] were not eligible" (F §5.1-2(i)); what no one can take goes to suspense (ii)."""
    pool = to_money(pool)
    tb = TraceBuilder()
    capped: dict[str, Decimal] = {}
    remaining = pool
    open_ = {k: to_decimal(v) for k, v in compensation.items()}
    while True:
        split = largest_remainder(remaining, open_, CENT) if open_ else {}
        over = {k for k, v in split.items() if v > to_money(limits[k])}
        if not over:
            break
        for k in over:
            capped[k] = to_money(limits[k])
            remaining -= capped[k]
            del open_[k]
        tb.step(
            "Participants over their §415 limit keep the limit; the excess is reallocated to the others",
            section="Fairport ESOP §5.1-2(i)",
            result=sorted(over),
        )
    allocations = {**split, **capped}
    suspense = pool - sum(allocations.values(), ZERO)
    if suspense:
        tb.step(
            "Everyone is at the limit: the excess is held in a §415 suspense account",
            section="Fairport ESOP §5.1-2(ii)-(iii)",
            result=money(suspense),
        )
    return LimitedAllocation(allocations, suspense, frozenset(capped), tb.build())


def comp_limit_for(plan_year: int) -> Decimal:
    """§401(a)(17) limit for the Plan Year (F §2 "415 Compensation": the Plan Year beginning in the
    calendar year; the plan prints $225,000, the 2007 figure)."""
    from datetime import date

    from benefits.engine.parameters import parameter

    return parameter("irs_401a17_compensation_limit").at(date(plan_year, 1, 1))


def dollar_limit_415c_for(plan_year: int) -> Decimal:
    """§415(c) dollar limit for the limitation year ending December 31 (F §5.1-2, §5.1-6)."""
    from datetime import date

    from benefits.engine.parameters import parameter

    return parameter("irs_415c_annual_additions_limit").at(date(plan_year, 12, 31))
