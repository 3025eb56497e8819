"""Demo transaction histories for the account plans (demo data only).

The balances each demo person has on the as-of date are kept; the two or three years before it are
filled with the activity that leads to them: monthly deferrals and the match from the engine's §3.4
formula applied to the person's pay, quarterly investment gains and losses at fixed demo returns,
401(k) loans and their principal repayments, ESOP share allocations, dividends and a forfeiture.
The history is built backwards from the closing balance, so opening + activity = closing to the cent,
and a balance is stored on every December 31 in the window and on the as-of date.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from benefits.engine.money import ZERO, to_money
from benefits.engine.plans import get_plan

# Demo quarterly returns of the 401(k) investment funds (not any real fund's results).
QUARTER_RETURNS = {
    (2023, 1): "0.041", (2023, 2): "0.033", (2023, 3): "-0.027", (2023, 4): "0.071",
    (2024, 1): "0.052", (2024, 2): "0.021", (2024, 3): "0.044", (2024, 4): "-0.012",
    (2025, 1): "-0.031", (2025, 2): "0.058", (2025, 3): "0.039", (2025, 4): "0.018",
    (2026, 1): "0.027", (2026, 2): "-0.016", (2026, 3): "0.035", (2026, 4): "0.022",
}  # fmt: skip
DEFAULT_QUARTER_RETURN = "0.015"

# ESOP share values on each December 31 (the plans' valuation dates); the as-of value is plan_data's.
SHARE_VALUES = {
    "fairport-esop": {0: "10.85", 1: "10.15", 2: "9.60"},  # years before the as-of year
    "carver-esop": {0: "7.55", 1: "7.20", 2: "6.90"},
}
DIVIDEND_PER_SHARE = Decimal("0.05")  # paid each December 15 into the Investment Fund
FUND_RETURN = Decimal("0.025")  # Investment Fund earnings credited each December 31


@dataclass(frozen=True)
class Tx:
    source: str
    on: date
    kind: str
    amount: Decimal
    shares: Decimal | None = None
    memo: str = ""


def _month_ends(start: date, end: date) -> list[date]:
    out, y, m = [], start.year, start.month
    while True:
        d = date(y, m, calendar.monthrange(y, m)[1])
        if d > end:
            return out
        out.append(d)
        y, m = (y, m + 1) if m < 12 else (y + 1, 1)


def _employed(periods, on: date) -> bool:
    return any(s <= on and (e is None or on <= e) for s, e in periods)


def _window_start(as_of: date) -> date:
    return date(as_of.year - 2, 1, 1)


def _year_ends(as_of: date) -> list[date]:
    """Balance dates: the opening day, each December 31 in the window, and the as-of date."""
    start = _window_start(as_of)
    ends = [date(y, 12, 31) for y in range(start.year - 1, as_of.year) if date(y, 12, 31) < as_of]
    return sorted(set(ends + [as_of]))


# ------------------------------------------------------------------ 401(k)


def _contributions(person, spec, pay: dict[int, Decimal], as_of: date) -> tuple[list[Tx], dict[str, str]]:
    """Monthly deferrals (plan_data's yearly totals spread over the months paid; the latest rate for a
    year without one) and the match, each year's match summing to the engine's figure for the year
    (§3.4, ``year_contributions``). Also returns the deferral totals of years plan_data lacks."""
    rules = get_plan(spec.plan).contributions  # the plan's §3.4 formulas, through the plan protocol
    deferrals = {int(y): Decimal(v) for y, v in (spec.plan_data.get("deferrals") or {}).items()}
    if not deferrals:
        return [], {}
    entry = spec.entry_date or person.periods[0][0]
    term = person.periods[-1][1]
    paydays = [
        d for d in _month_ends(_window_start(as_of), as_of) if d >= entry and _employed(person.periods, d)
    ]
    out: list[Tx] = []
    added: dict[str, str] = {}
    for year in sorted({d.year for d in paydays}):
        days = [d for d in paydays if d.year == year]
        if year in deferrals:
            monthly = [to_money(deferrals[year] / len(days))] * len(days)
            monthly[-1] = deferrals[year] - sum(monthly[:-1])  # the year's total to the cent
        else:
            known = [y for y in deferrals if y < year] or [min(deferrals)]
            monthly = [to_money(deferrals[max(known)] / 12)] * len(days)
            added[str(year)] = str(sum(monthly, ZERO))
        comp = [to_money(pay.get(year, ZERO) / len(days))] * len(days)
        comp[-1] = pay.get(year, ZERO) - sum(comp[:-1])
        matches = [rules.period_match(a, c, d) for d, a, c in zip(days, monthly, comp, strict=True)]
        annual = rules.year_contributions(
            year,
            pay.get(year, ZERO),
            sum(monthly, ZERO),
            employed_last_day=term is None or term >= date(year, 12, 31),
        ).amounts.get("matching", ZERO)
        # The plan's match for the year is the annual figure: the last payroll's match carries the
        # cents by which the payroll periods' matches differ from it (the year's true-up).
        if matches and annual > sum(matches[:-1], ZERO):
            matches[-1] = annual - sum(matches[:-1], ZERO)
        for d, amount, match in zip(days, monthly, matches, strict=True):
            out.append(Tx("before_tax", d, "deferral", amount, memo="payroll deferral"))
            if match > 0:
                out.append(Tx(rules.match_source(d), d, "match", match, memo="matching contribution (§3.4)"))
    return out, added


def _loan(spec, as_of: date) -> list[Tx]:
    """A loan taken from the Before-Tax Account with monthly principal repayments to today's balance."""
    loans = spec.plan_data.get("loans") or {}
    outstanding = Decimal(loans.get("outstanding_balance") or "0")
    issued = Decimal(loans.get("highest_balance_last_12_months") or "0")
    if outstanding <= 0 or issued <= outstanding:
        return []
    months_back = 11 if issued - outstanding > 1500 else 6
    y, m = as_of.year, as_of.month - months_back
    while m < 1:
        y, m = y - 1, m + 12
    on = date(y, m, 1)
    paydays = _month_ends(on, as_of)
    repaid = issued - outstanding
    each = to_money(repaid / len(paydays))
    amounts = [each] * len(paydays)
    amounts[-1] = repaid - sum(amounts[:-1])
    out = [Tx("before_tax", on, "loan_issued", -issued, memo="loan issued (§8.4)")]
    out += [
        Tx("before_tax", d, "loan_repayment", a, memo="loan repayment, principal")
        for d, a in zip(paydays, amounts, strict=True)
    ]
    return out


def _quarter_ends(as_of: date) -> list[date]:
    start = _window_start(as_of)
    ends = [
        date(y, m, calendar.monthrange(y, m)[1])
        for y in range(start.year, as_of.year + 1)
        for m in (3, 6, 9, 12)
        if date(y, m, calendar.monthrange(y, m)[1]) < as_of
    ]
    return ends + [as_of]


def k401_history(
    person, spec, pay: dict[int, Decimal], as_of: date
) -> tuple[list[Tx], dict[date, dict[str, Decimal]]]:
    """The transactions of the window and the balance of every source on each balance date."""
    contributions, added = _contributions(person, spec, pay, as_of)
    flows = contributions + _loan(spec, as_of)
    closing = {s: Decimal(v) for s, v in spec.balances.items()}
    for t in flows:
        closing.setdefault(t.source, ZERO)
    quarters = _quarter_ends(as_of)
    balance_dates = set(_year_ends(as_of))
    out = list(flows)
    balances: dict[date, dict[str, Decimal]] = {as_of: dict(closing)}
    for source, end_balance in closing.items():
        b_end = end_balance
        for i in range(len(quarters) - 1, -1, -1):
            q_end = quarters[i]
            q_start = quarters[i - 1] if i else _window_start(as_of) - timedelta(days=1)
            f = sum((t.amount for t in flows if t.source == source and q_start < t.on <= q_end), ZERO)
            r = Decimal(QUARTER_RETURNS.get((q_end.year, (q_end.month - 1) // 3 + 1), DEFAULT_QUARTER_RETURN))
            if q_end == as_of and as_of.month % 3:
                r = r * Decimal((as_of.month - 1) % 3 + 1) / 3  # a part quarter earns part of its return
            b_start = (b_end - f - r * f / 2) / (1 + r)
            earnings = to_money(b_end - f - b_start)
            if b_end - f - earnings < 0:  # a young account: no gain bigger than what was there
                earnings = b_end - f if b_end - f < 0 else ZERO
            b_start = b_end - f - earnings
            if earnings:
                out.append(Tx(source, q_end, "earnings", earnings, memo="investment gain or loss"))
            if q_start in balance_dates:
                balances.setdefault(q_start, {})[source] = b_start
            b_end = b_start
    return out, balances, added


# ------------------------------------------------------------------ ESOP


def esop_history(
    person, spec, as_of: date
) -> tuple[list[Tx], dict[date, dict[str, tuple[Decimal, Decimal | None]]]]:
    """Allocations each December 31 while employed, dividends and Investment Fund earnings, built back
    from today's shares and cash; a 0%-vested terminated participant's account is forfeited (F §9.5)."""
    pd = spec.plan_data
    history = spec.history
    prices = {date(as_of.year - 1 - k, 12, 31): Decimal(v) for k, v in SHARE_VALUES[spec.plan].items()}
    prices[as_of] = Decimal(pd["share_value"])
    txs: list[Tx] = []
    balances: dict[date, dict[str, tuple[Decimal, Decimal | None]]] = {}
    shares, cash = Decimal(pd["shares"]), Decimal(pd.get("cash") or "0")
    forfeiture = history.get("forfeiture")
    if forfeiture:
        # Today's account is empty; the forfeited shares and cash are what the account held.
        on = date.fromisoformat(forfeiture["date"])
        f_shares, f_cash = Decimal(forfeiture["shares"]), Decimal(forfeiture["cash"])
        price = prices[max(d for d in prices if d <= on)]
        txs.append(
            Tx(
                "stock_fund",
                on,
                "forfeiture",
                -to_money(f_shares * price),
                -f_shares,
                forfeiture.get("memo", "nonvested shares forfeited (F §9.5, §9.6)"),
            )
        )
        if f_cash:
            txs.append(
                Tx(
                    "investment_fund",
                    on,
                    "forfeiture",
                    -f_cash,
                    None,
                    forfeiture.get("memo", "nonvested cash forfeited (F §9.5, §9.6)"),
                )
            )
    allocations = {int(y): Decimal(v) for y, v in (history.get("allocations") or {}).items()}
    dates = sorted(prices)
    balances[as_of] = {
        "stock_fund": (to_money(shares * prices[as_of]), shares),
        "investment_fund": (cash, None),
    }
    # Walk back one year at a time from the as-of date to the opening date.
    for i in range(len(dates) - 1, 0, -1):
        end, start = dates[i], dates[i - 1]
        inside = [t for t in txs if start < t.on <= end]
        shares -= sum((t.shares or ZERO for t in inside if t.source == "stock_fund"), ZERO)
        cash -= sum((t.amount for t in inside if t.source == "investment_fund"), ZERO)
        year_end = date(end.year, 12, 31)
        alloc = allocations.get(end.year, ZERO) if year_end == end else ZERO
        if alloc:
            txs.append(
                Tx(
                    "stock_fund",
                    end,
                    "employer",
                    to_money(alloc * prices[end]),
                    alloc,
                    "shares allocated (F §8.2)",
                )
            )
            shares -= alloc
        held = shares
        dividend = to_money(held * DIVIDEND_PER_SHARE) if held and end.month == 12 else ZERO
        if dividend and cash - dividend >= 0:
            txs.append(
                Tx(
                    "investment_fund",
                    date(end.year, 12, 15),
                    "dividend",
                    dividend,
                    None,
                    "dividend on allocated shares",
                )
            )
            cash -= dividend
        if cash > 0 and end.month == 12:
            earnings = to_money(cash - cash / (1 + FUND_RETURN))
            if earnings:
                txs.append(Tx("investment_fund", end, "earnings", earnings, None, "Investment Fund earnings"))
                cash -= earnings
        if shares < 0 or cash < 0:
            raise ValueError(f"demo ESOP history for {person.number} runs below zero")
        balances[start] = {
            "stock_fund": (to_money(shares * prices[start]), shares),
            "investment_fund": (cash, None),
        }
    return txs, balances
