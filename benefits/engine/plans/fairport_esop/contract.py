"""Fairport ESOP results for the engine contract (docs/engine-cli.md). ``plan_outputs(participant, as_of,
assumptions, core)`` returns the contract keys as nested objects (``{"account": {"balance": ...}}``)
plus ``traces``: for each top-level key, the list of trace steps behind it (plan sections in plain
words). Keys and shape: docs/plan-notes/fairport-esop/benefits.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from decimal import Decimal
from typing import Any

from benefits.engine import statement_input as si
from benefits.engine.money import ZERO, money_str, percent_str, to_money
from benefits.engine.trace import Trace, TraceBuilder

from .distribution import small_balance_route
from .diversification import diversification_status
from .forfeiture import vested_balance
from .inputs import _num, _vested_percent, statement_inputs
from .rules import core as core_fn
from .settings import DEFAULT_SETTINGS, NO_CONSENT_LIMIT, BenefitSettings
from .statement import KINDS, Statement, statement


def plan_outputs(
    participant: Any,
    as_of: date,
    assumptions: Mapping[str, Any] | None,
    core: Any,
    settings: BenefitSettings | None = None,
) -> dict[str, Any]:
    if settings is None:
        # The plan's calculate() puts the resolved settings groups on the core result.
        given = (getattr(core, "settings", None) or {}).get("benefits")
        settings = given if isinstance(given, BenefitSettings) else DEFAULT_SETTINGS
    pd = participant.plan_data or {}
    shares = _num(pd, "shares")
    cash = _num(pd, "cash", ZERO)
    share_value = _num(pd, "share_value")
    elected = _num(pd, "elected_dividends", ZERO)
    pct = _vested_percent(core)
    traces: dict[str, list[Any]] = {}

    # Account (F §8.3, §8.4, §9.1). Sources: the Stock Fund and Investment Fund Accounts.
    vb = vested_balance(shares, cash, share_value, pct, elected)
    stock_value = to_money(shares * share_value)
    by_source = {
        "stock_fund": _source(stock_value, pct),
        "investment_fund": _source(to_money(cash), pct),
    }
    if elected > 0:
        # Elected dividends sit inside the accounts above; shown separately as fully vested (§7.2-2(i)(B)).
        by_source["elected_dividends"] = {
            "balance": money_str(elected),
            "vested_percent": "100",
            "vested_balance": money_str(elected),
        }
    out: dict[str, Any] = {
        "account": {
            "balance": money_str(vb.balance),
            "vested_balance": money_str(vb.vested_balance),
            "by_source": by_source,
        }
    }
    traces["account"] = vb.trace.as_list()

    # Diversification (F §6.4).
    if "years_of_participation" in pd:
        ds = diversification_status(
            birth_date=participant.birth_date,
            as_of=as_of,
            years_of_participation=int(_num(pd, "years_of_participation")),
            shares_allocated_since_inception=_num(pd, "shares_allocated_since_inception", shares),
            shares_diversified=_num(pd, "shares_diversified", ZERO),
            account_shares=shares,
            account_cash=cash,
            share_value=share_value,
            settings=settings,
        )
        out["diversification"] = {"eligible": ds.eligible, "max_shares": f"{ds.max_shares:.4f}"}
        if ds.window is not None:
            out["diversification"]["qep_year"] = ds.window.qep_year
            out["diversification"]["window_closes"] = ds.window.closes.isoformat()
        traces["diversification"] = ds.trace.as_list()

    # Small-balance distribution (F §10.1).
    out["cash_out"], traces["cash_out"] = _cash_out(participant, as_of, vb.vested_balance, settings)

    # Account statement for a period (F §8.6; project-added ``plan_data.statement``).
    raw_statement = si.section(pd)
    if raw_statement is not None:
        inputs = statement_inputs(raw_statement, as_of, default_elected=elected)
        at_end = si.core_at(core, participant, as_of, inputs["period_end"], core_fn)
        end_pct = _vested_percent(at_end)
        st = statement(**inputs, vested_percent=end_pct)
        tb = TraceBuilder()
        tb.step(
            "The vested percent on the last day of the period, from the service rules",
            section="Fairport ESOP §9.1",
            result=end_pct,
            on=inputs["period_end"],
        )
        tb.include(st.trace)
        out["statement"], traces["statement"] = statement_output(st, inputs), tb.build().as_list()
    out["traces"] = traces
    return out


def _line(line: Any) -> dict[str, Any]:
    return {
        "shares": si.shares_str(line.shares),
        "cash": money_str(line.cash),
        "value": money_str(line.value),
    }


def statement_output(st: Statement, inputs: Mapping[str, Any]) -> dict[str, Any]:
    """The statement as contract data: opening + movements' values + stock value change = closing.
    ``inputs`` are ``statement_inputs``'s (for the share values)."""
    return {
        "start": st.period_start.isoformat(),
        "end": st.period_end.isoformat(),
        "opening_share_value": si.shares_str(inputs["opening_share_value"]),
        "closing_share_value": si.shares_str(inputs["closing_share_value"]),
        "opening": _line(st.opening),
        "movements": {k: _line(st.movements[k]) for k in KINDS if k in st.movements},
        "stock_value_change": money_str(st.stock_value_change),
        "closing": _line(st.closing),
        "vested_percent": percent_str(st.vested_percent),
        "vested_balance": money_str(st.vested_balance),
    }


def _source(balance: Decimal, pct: Decimal) -> dict[str, Any]:
    return {
        "balance": money_str(balance),
        "vested_percent": percent_str(pct),
        "vested_balance": money_str(to_money(balance * pct / 100)),
    }


def _cash_out(
    participant: Any, as_of: date, vested: Decimal, settings: BenefitSettings
) -> tuple[dict[str, Any], list[Any]]:
    term = participant.termination_date
    if term is None or term > as_of:
        t = Trace().add(
            "Still employed: benefits are paid only after Service ends, so no cash-out applies now",
            section="Fairport ESOP §10.1",
            result=False,
        )
        return (
            {
                "required": False,
                "threshold": money_str(NO_CONSENT_LIMIT),
                "mandatory_distribution": False,
                "automatic_rollover": False,
            },
            t.as_list(),
        )
    route = small_balance_route(vested, term.year, settings)
    tb = TraceBuilder()
    tb.include(route.trace)
    result = {
        "required": not route.consent_needed,
        "threshold": money_str(NO_CONSENT_LIMIT),
        "mandatory_distribution": route.route == "automatic_rollover",
        "automatic_rollover": route.route == "automatic_rollover",
        "route": route.route,
    }
    if route.pay_by is not None:
        result["pay_by"] = route.pay_by.isoformat()
    return result, tb.build().as_list()
