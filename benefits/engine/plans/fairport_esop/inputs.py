"""Fairport ESOP plan data read from ``plan_data`` with JSON-pointer errors, and the statement inputs
(period, opening shares and cash, share values, ledger entries).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from benefits.engine import statement_input as si
from benefits.engine.core import ParticipantError
from benefits.engine.missing import MissingInput
from benefits.engine.money import ZERO, to_decimal

from .statement import KINDS, LedgerEntry


def _error(field: str, message: str) -> ParticipantError:
    """A bad ``plan_data`` value: the JSON pointer and the rule."""
    return ParticipantError(field, message)


def _num(plan_data: Mapping[str, Any], key: str, default: Decimal | None = None) -> Decimal:
    if key not in plan_data or plan_data[key] is None:
        if default is not None:
            return default
        # Absent, not malformed: the account figures wait for it; vesting and dates stay (``missing``).
        raise MissingInput(f"/plan_data/{key}", f"plan_data.{key} is needed for the Fairport ESOP account")
    try:
        return to_decimal(plan_data[key] if not isinstance(plan_data[key], float) else str(plan_data[key]))
    except (InvalidOperation, TypeError) as exc:
        raise _error(f"/plan_data/{key}", f"plan_data.{key} is not a number") from exc


def _vested_percent(core: Any) -> Decimal:
    vesting = getattr(core, "vesting", None)
    if vesting is not None and getattr(vesting, "percent", None) is not None:
        return to_decimal(vesting.percent)
    pct = getattr(core, "vested_percent", None)
    if pct is None:
        raise _error("/plan_data", "the vested percent (core vesting result) is missing")
    return to_decimal(pct)


@dataclass(frozen=True)
class FairportInputs:
    """The participant's ``plan_data`` and vested percent, parsed once per calculation (in the order
    the contract has always read them, so the first bad value is the one reported)."""

    shares: Decimal
    cash: Decimal
    share_value: Decimal
    elected_dividends: Decimal
    vested_percent: Decimal
    # §6.4 diversification: None when ``plan_data.years_of_participation`` is not given.
    years_of_participation: int | None
    shares_allocated_since_inception: Decimal
    shares_diversified: Decimal
    # ``plan_data.statement`` as ``statement_inputs`` gives it, or None when no statement is asked for.
    statement: Mapping[str, Any] | None

    @classmethod
    def parse(cls, participant: Any, as_of: date, core: Any) -> FairportInputs:
        pd = participant.plan_data or {}
        shares = _num(pd, "shares")
        cash = _num(pd, "cash", ZERO)
        share_value = _num(pd, "share_value")
        elected = _num(pd, "elected_dividends", ZERO)
        pct = _vested_percent(core)
        years: int | None = None
        allocated, diversified = shares, ZERO
        if "years_of_participation" in pd:
            years = int(_num(pd, "years_of_participation"))
            allocated = _num(pd, "shares_allocated_since_inception", shares)
            diversified = _num(pd, "shares_diversified", ZERO)
        raw_statement = si.section(pd)
        return cls(
            shares=shares,
            cash=cash,
            share_value=share_value,
            elected_dividends=elected,
            vested_percent=pct,
            years_of_participation=years,
            shares_allocated_since_inception=allocated,
            shares_diversified=diversified,
            statement=(
                None
                if raw_statement is None
                else statement_inputs(raw_statement, as_of, default_elected=elected)
            ),
        )


def statement_inputs(raw: Mapping[str, Any], as_of: date, default_elected: Decimal = ZERO) -> dict[str, Any]:
    """``plan_data.statement`` as the keyword arguments of ``statement.statement`` (all but the vested
    percent). Entries keep their signs: forfeitures and distributions are negative. Shared with the
    Carver ESOP, whose statements use this ledger too."""
    b = si.BASE
    start, end = si.get_period(raw, as_of)
    entries = []
    for ptr, item in si.get_items(raw, "entries", b):
        on = si.get_date(item, "date", ptr)
        kind = si.get_choice(item, "kind", ptr, KINDS)
        if item.get("shares") is None and item.get("cash") is None:
            raise _error(ptr, "an entry gives shares or cash (or both)")
        entries.append(
            LedgerEntry(
                on,
                kind,
                shares=si.get_decimal(item, "shares", ptr, ZERO),
                cash=si.get_money(item, "cash", ptr, ZERO),
            )
        )
    values = {}
    for key in ("opening_share_value", "closing_share_value"):
        values[key] = si.get_decimal(raw, key, b)
        if values[key] < ZERO:
            raise _error(f"{b}/{key}", f"{key} cannot be negative")
    return {
        "period_start": start,
        "period_end": end,
        "opening_shares": si.get_decimal(raw, "opening_shares", b),
        "opening_cash": si.get_money(raw, "opening_cash", b),
        **values,
        "entries": entries,
        "elected_dividends": si.get_money(raw, "elected_dividends", b, default_elected),
    }
