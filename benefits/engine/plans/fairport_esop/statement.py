"""Account statement as data for any period (F §8.6: at least each December 31).

Built from ledger entries (shares and cash per event) and share values at the start and end of the
period. Share value changes on Stock held are shown as "stock value change"; Investment Fund
earnings are entries of kind "earnings".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from benefits.engine.money import ZERO, to_decimal, to_money
from benefits.engine.trace import Trace, TraceBuilder, money, price, shares

from .forfeiture import vested_balance

KINDS = (
    "allocation",
    "contribution",
    "dividend",
    "earnings",
    "forfeiture",
    "restoration",
    "distribution",
    "diversification",
)


@dataclass(frozen=True)
class LedgerEntry:
    on: date
    kind: str  # one of KINDS; forfeitures and distributions carry negative amounts
    shares: Decimal = ZERO
    cash: Decimal = ZERO

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}")


@dataclass(frozen=True)
class Line:
    shares: Decimal
    cash: Decimal
    value: Decimal


@dataclass(frozen=True)
class Statement:
    period_start: date
    period_end: date
    opening: Line
    movements: dict[str, Line]  # per kind, valued at the closing share value
    stock_value_change: Decimal
    closing: Line
    vested_percent: Decimal
    vested_balance: Decimal
    trace: Trace


def statement(
    *,
    period_start: date,
    period_end: date,
    opening_shares: Decimal,
    opening_cash: Decimal,
    opening_share_value: Decimal,
    closing_share_value: Decimal,
    entries: Iterable[LedgerEntry],
    vested_percent: Decimal,
    elected_dividends: Decimal = ZERO,
) -> Statement:
    tb = TraceBuilder()
    v0, v1 = to_decimal(opening_share_value), to_decimal(closing_share_value)
    sh, cash = to_decimal(opening_shares), to_decimal(opening_cash)
    opening = Line(sh, to_money(cash), to_money(sh * v0 + cash))
    tb.step(
        "Opening balance",
        section="Fairport ESOP §8.6",
        result=money(opening.value),
        shares=shares(sh),
        cash=money(cash),
    )
    moves: dict[str, list[Decimal]] = {}
    for e in entries:
        if not period_start <= e.on <= period_end:
            continue
        m = moves.setdefault(e.kind, [ZERO, ZERO])
        m[0] += to_decimal(e.shares)
        m[1] += to_decimal(e.cash)
    movements = {k: Line(s, to_money(c), to_money(s * v1 + c)) for k, (s, c) in moves.items()}
    for k, line in movements.items():
        tb.step(
            f"{k.capitalize()} in the period",
            section="Fairport ESOP §8.2-§8.5, §9.6, §10.5",
            result=money(line.value),
            shares=shares(line.shares),
            cash=money(line.cash),
        )
    sh1 = sh + sum((m.shares for m in movements.values()), ZERO)
    cash1 = cash + sum((to_decimal(m[1]) for m in moves.values()), ZERO)
    closing = Line(sh1, to_money(cash1), to_money(sh1 * v1 + cash1))
    # Value change on the opening shares (the movements are valued at the closing price).
    change = closing.value - opening.value - sum((m.value for m in movements.values()), ZERO)
    tb.step(
        "Change in the value of Stock held",
        section='Fairport ESOP §2 "Valuation Date"',
        result=money(change),
        opening_share_value=price(v0),
        closing_share_value=price(v1),
    )
    vb = vested_balance(sh1, cash1, v1, vested_percent, elected_dividends)
    tb.include(vb.trace)
    tb.step("Closing balance", section="Fairport ESOP §8.6", result=money(closing.value))
    return Statement(
        period_start,
        period_end,
        opening,
        movements,
        change,
        closing,
        to_decimal(vested_percent),
        vb.vested_balance,
        tb.build(),
    )
