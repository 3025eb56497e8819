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
from benefits.engine.money import money_str, percent_str, to_money
from benefits.engine.share_distributions import offer_output
from benefits.engine.trace import Trace, TraceBuilder, percent

from .distribution import small_balance_route
from .distribution_forms import offer as distribution_offer
from .diversification import DiversificationStatus, diversification_status
from .forfeiture import vested_balance
from .inputs import FairportInputs, _vested_percent
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
        chosen = (getattr(core, "settings", None) or {}).get("benefits")
        settings = chosen if isinstance(chosen, BenefitSettings) else DEFAULT_SETTINGS
    given = FairportInputs.parse(participant, as_of, core)
    shares, cash, share_value = given.shares, given.cash, given.share_value
    elected, pct = given.elected_dividends, given.vested_percent
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
    if given.years_of_participation is not None:
        ds = diversification_status(
            birth_date=participant.birth_date,
            as_of=as_of,
            years_of_participation=given.years_of_participation,
            shares_allocated_since_inception=given.shares_allocated_since_inception,
            shares_diversified=given.shares_diversified,
            account_shares=shares,
            account_cash=cash,
            share_value=share_value,
            settings=settings,
        )
        out["diversification"] = _diversification(ds, given, as_of)
        traces["diversification"] = ds.trace.as_list()

    # Small-balance distribution (F §10.1).
    out["cash_out"], traces["cash_out"] = _cash_out(participant, as_of, vb.vested_balance, settings)

    # The Participant's own distribution after Service ends: the forms §10.1 and §10.6 offer.
    dist = distribution_offer(
        shares=shares,
        cash=cash,
        share_value=share_value,
        vested_percent=pct,
        termination_date=participant.termination_date,
        as_of=as_of,
        elected_dividends=elected,
        settings=settings,
    )
    out["distribution"], traces["distribution"] = offer_output(dist), dist.trace.as_list()

    # Account statement for a period (F §8.6; project-added ``plan_data.statement``).
    inputs = given.statement
    if inputs is not None:
        at_end = si.core_at(core, participant, as_of, inputs["period_end"], core_fn)
        end_pct = _vested_percent(at_end)
        st = statement(**inputs, vested_percent=end_pct)
        tb = TraceBuilder()
        tb.step(
            "The vested percent on the last day of the period, from the service rules",
            section="Fairport ESOP §9.1",
            result=percent(end_pct),
            on=inputs["period_end"],
        )
        tb.include(st.trace)
        out["statement"], traces["statement"] = statement_output(st, inputs), tb.build().as_list()
    out["traces"] = traces
    return out


def _diversification(ds: DiversificationStatus, given: FairportInputs, as_of: date) -> dict[str, Any]:
    """The §6.4 election on ``as_of``: the open window and its maximum, or when the period opens or closed.

    Added keys beside the contract's ``eligible`` and ``max_shares``: the window (``qep_year``,
    ``plan_year``, ``window_opens``, ``window_closes``, ``complete_by``, ``percent``, ``last_year``)
    when one is open, the qualified election period (its Plan Years, the day the Participant reaches
    55 and the Plan Year completing 10 years of participation), ``next_window_opens`` before it and
    ``last_window_closed`` after it, and the share counts the maximum is measured from."""
    out: dict[str, Any] = {"eligible": ds.eligible, "max_shares": f"{ds.max_shares:.4f}"}
    if ds.window is not None:
        w = ds.window
        out |= {
            "qep_year": w.qep_year,
            "window_closes": w.closes.isoformat(),
            "plan_year": w.plan_year,
            "window_opens": w.opens.isoformat(),
            "complete_by": w.complete_by.isoformat(),
            "percent": percent_str(ds.percent * 100),
            "last_year": w.qep_year == len(ds.windows),
        }
    if ds.windows:
        out["qualified_election_period"] = {
            "first_plan_year": ds.windows[0].plan_year,
            "last_plan_year": ds.windows[-1].plan_year,
            "age_55_on": ds.age_55_on.isoformat() if ds.age_55_on else None,
            "tenth_year_of_participation": ds.tenth_participation_year,
        }
        if as_of < ds.windows[0].opens:
            out["next_window_opens"] = ds.windows[0].opens.isoformat()
        elif as_of > ds.windows[-1].closes:
            out["last_window_closed"] = ds.windows[-1].closes.isoformat()
    out["shares_allocated_since_inception"] = f"{given.shares_allocated_since_inception:.4f}"
    out["shares_already_elected"] = f"{given.shares_diversified:.4f}"
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
