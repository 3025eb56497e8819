"""Carver ESOP plan data read from ``plan_data`` with JSON-pointer errors."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from benefits.engine import statement_input as si
from benefits.engine.core import ParticipantError
from benefits.engine.money import ZERO, to_decimal, to_money

from .cash_out import ELECTIONS


def _error(field: str, message: str) -> ParticipantError:
    """A bad ``plan_data`` value: the JSON pointer and the rule."""
    return ParticipantError(field, message)


def _dec(pd: Mapping[str, Any], key: str) -> Decimal:
    try:
        v = pd[key]
        return to_decimal(str(v) if isinstance(v, float) else v)
    except (InvalidOperation, TypeError) as exc:
        raise _error(f"/plan_data/{key}", f"plan_data.{key} is not a number") from exc


@dataclass(frozen=True)
class CarverEsopInputs:
    """The participant's ``plan_data``, parsed once per calculation (in the order the contract has
    always read it, so the first bad value is the one reported)."""

    # shares × share_value + cash, when ``plan_data`` gives shares and share_value (SPEC GAP D2.1)
    account_balance: Decimal | None
    vested_account_value: Decimal | None  # None: not given (its figures are ``missing``)
    normal_retirement_age: int
    distribution_election: str | None
    distribution_date: date
    elects_shares: bool
    termination_reason: Any
    prior_valuation_value: Decimal | None
    # ``plan_data.statement`` (None: no statement asked for) and the dividends elected in cash
    statement: Mapping[str, Any] | None
    elected_dividends: Decimal

    @classmethod
    def parse(cls, participant: Any, as_of: date, default_nra: int | None = None) -> CarverEsopInputs:
        """``default_nra``: the Normal Retirement Age the service core used (its setting) when
        ``plan_data`` gives none."""
        pd = participant.plan_data or {}
        balance = None
        if all(k in pd for k in ("shares", "share_value")):
            balance = to_money(
                _dec(pd, "shares") * _dec(pd, "share_value") + (_dec(pd, "cash") if "cash" in pd else 0)
            )
        if pd.get("normal_retirement_age") is None and default_nra is None:
            raise _error(
                "/plan_data/normal_retirement_age",
                "plan_data.normal_retirement_age is required: the base plan is missing (SPEC GAP D2.1)",
            )
        vested = to_money(_dec(pd, "vested_account_value")) if "vested_account_value" in pd else None
        election = pd.get("distribution_election")
        if election not in ELECTIONS:
            raise _error(
                "/plan_data/distribution_election",
                "distribution_election is 'pay_directly' or 'direct_rollover'",
            )
        when = pd.get("distribution_date")
        if when is not None:
            when = date.fromisoformat(when) if isinstance(when, str) else when
        elif participant.commencement_dates:
            when = participant.commencement_dates[0]
        else:
            when = as_of
        raw_nra = pd.get("normal_retirement_age")
        nra = int(raw_nra) if raw_nra is not None else int(default_nra or 0)
        elects_shares = bool(pd.get("elects_shares", False))
        reason = pd.get("termination_reason", "other")
        prior = None if pd.get("prior_valuation_value") is None else _dec(pd, "prior_valuation_value")
        raw_statement = si.section(pd)
        elected = ZERO
        if raw_statement is not None and pd.get("elected_dividends") is not None:
            elected = _dec(pd, "elected_dividends")
        return cls(
            account_balance=balance,
            vested_account_value=vested,
            normal_retirement_age=nra,
            distribution_election=election,
            distribution_date=when,
            elects_shares=elects_shares,
            termination_reason=reason,
            prior_valuation_value=prior,
            statement=raw_statement,
            elected_dividends=elected,
        )
