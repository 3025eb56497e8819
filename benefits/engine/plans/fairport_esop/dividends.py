"""Dividends on allocated and unallocated Stock (F §7.2)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from benefits.engine.money import ZERO, to_decimal, to_money
from benefits.engine.trace import Trace, TraceBuilder, money, price, shares

from .apportion import largest_remainder, quantum_for, round_shares
from .settings import DEFAULT_SETTINGS, BenefitSettings

# The Employer's four directions for cash dividends on allocated Stock (F §7.2-2(i)(A)).
DIRECTIONS = ("investment_fund", "pay_now", "pay_after_year", "loan")


@dataclass(frozen=True)
class CashDividends:
    direction: str
    by_participant: dict[str, Decimal]  # dollars on each Stock Fund Account
    total: Decimal
    pay_by: date | None  # latest payment date when paid out after the year
    trace: Trace


def cash_dividends_on_allocated(
    holdings: Mapping[str, Decimal], per_share: Decimal, direction: str, plan_year: int
) -> CashDividends:
    """Dividends per account, and what happens to them under the Employer's direction."""
    if direction not in DIRECTIONS:
        raise ValueError(f"direction must be one of {DIRECTIONS}")
    tb = TraceBuilder()
    per_share = to_decimal(per_share)
    by = {pid: to_money(to_decimal(sh) * per_share) for pid, sh in holdings.items()}
    total = sum(by.values(), ZERO)
    words = {
        "investment_fund": "credited to the Investment Fund Account (§8.4(c))",
        "pay_now": "paid to Participants at once, in proportion to Stock Fund Accounts",
        "pay_after_year": "paid to Participants within 90 days after the Plan Year closes",
        "loan": "used to pay the Stock Obligation; shares worth the dividends replace them (§8.1-1(i))",
    }
    pay_by = date(plan_year, 12, 31) + timedelta(days=90) if direction == "pay_after_year" else None
    tb.step(
        f"Cash dividends on allocated Stock = shares × dividend per share, {words[direction]}",
        section="Fairport ESOP §7.2-2(i)(A)",
        result=money(by),
        dividend_per_share=price(per_share),
        pay_by=pay_by,
    )
    return CashDividends(direction, by, total, pay_by, tb.build())


@dataclass(frozen=True)
class UnallocatedDividends:
    total: Decimal
    applied_to_loan: Decimal
    excess: Decimal
    excess_treatment: str  # "allocate" (§7.2-2(ii)(A)) or "expenses" (§7.2-2(ii)(B))
    trace: Trace


def dividends_on_unallocated(
    unallocated_shares: Decimal, per_share: Decimal, payment_due: Decimal, excess_treatment: str = "allocate"
) -> UnallocatedDividends:
    """Dividends on suspense shares pay the loan that bought them; the Committee decides any excess."""
    if excess_treatment not in {"allocate", "expenses"}:
        raise ValueError("excess_treatment is 'allocate' or 'expenses'")
    total = to_money(to_decimal(unallocated_shares) * to_decimal(per_share))
    applied = min(total, to_money(payment_due))
    excess = total - applied
    t = Trace().add(
        "Dividends on unallocated shares pay principal and interest on the loan that bought them; "
        "any excess is allocated to Active Participants or used for Plan expenses, as the Committee decides",
        section="Fairport ESOP §7.2-2(ii)",
        result=money({"applied_to_loan": applied, "excess": excess}),
        dividends=money(total),
        payment_due=money(payment_due),
        excess_treatment=excess_treatment,
    )
    return UnallocatedDividends(total, applied, excess, excess_treatment, t)


def stock_dividend(
    holdings: Mapping[str, Decimal],
    unallocated_shares: Decimal,
    dividend_shares: Decimal,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> tuple[dict[str, Decimal], Decimal, Trace]:
    """Stock dividends go to the accounts and the suspense fund by holdings (F §7.2-1).

    Returns (shares per account, shares to the Unallocated Stock Fund, trace); they add up exactly.
    """
    weights = {pid: to_decimal(v) for pid, v in holdings.items()}
    key = "__unallocated__"
    weights[key] = to_decimal(unallocated_shares)
    split = largest_remainder(
        round_shares(to_decimal(dividend_shares), settings.share_places),
        weights,
        quantum_for(settings.share_places),
    )
    suspense = split.pop(key)
    t = Trace().add(
        "Stock dividends are kept in the Stock Fund and shared among Accounts and the Unallocated Stock Fund "
        "by their holdings of the Stock on which they are paid",
        section="Fairport ESOP §7.2-1",
        result=shares({"accounts": split, "unallocated": suspense}),
    )
    return split, suspense, t


def elected_dividends_vested(amount: Decimal) -> tuple[Decimal, Trace]:
    """Dividends subject to a Participant election are fully vested (F §7.2-2(i)(B))."""
    amount = to_money(amount)
    return amount, Trace().add(
        "Dividends on which the Participant could elect are fully vested",
        section="Fairport ESOP §7.2-2(i)(B)",
        result=amount,
    )
