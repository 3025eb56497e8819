"""Carver ESOP results for the engine contract: the §10.6 cash-out decision (Sixth Amendment). Only §10.6
of this plan is known (SPEC GAP D2.1): vesting, allocations and diversification cannot be computed from
it, so the vested value is an input (``plan_data.vested_account_value``) and the Normal Retirement Age
is required (``plan_data.normal_retirement_age``). Shape: nested objects plus ``traces`` (see docs/plan-
notes/carver-esop/benefits.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from decimal import Decimal
from typing import Any

from benefits.engine import statement_input as si
from benefits.engine.money import HUNDRED, ZERO, money_str, to_money
from benefits.engine.plans.fairport_esop.contract import statement_output
from benefits.engine.plans.fairport_esop.inputs import statement_inputs
from benefits.engine.plans.fairport_esop.statement import statement
from benefits.engine.trace import Trace, TraceBuilder

from .cash_out import ELECTIONS, cash_out_decision
from .inputs import _dec, _error
from .settings import DEFAULT_SETTINGS, BenefitSettings


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
    out: dict[str, Any] = {}
    traces: dict[str, list[Any]] = {}
    if all(k in pd for k in ("shares", "share_value")):
        balance = to_money(
            _dec(pd, "shares") * _dec(pd, "share_value") + (_dec(pd, "cash") if "cash" in pd else 0)
        )
        out["account"] = {"balance": money_str(balance)}
        traces["account"] = (
            Trace()
            .add(
                "Account value = Qualifying Employer Securities × share value + other investments",
                section="Carver ESOP (base plan not provided; SPEC GAP D2.1)",
                result=balance,
            )
            .as_list()
        )
    if "vested_account_value" not in pd:
        raise _error(
            "/plan_data/vested_account_value", "plan_data.vested_account_value is required (§10.6 test)"
        )
    if pd.get("normal_retirement_age") is None:
        raise _error(
            "/plan_data/normal_retirement_age",
            "plan_data.normal_retirement_age is required: the base plan is missing (SPEC GAP D2.1)",
        )
    vested = to_money(_dec(pd, "vested_account_value"))
    out.setdefault("account", {})["vested_balance"] = money_str(vested)
    election = pd.get("distribution_election")
    if election not in ELECTIONS:
        raise _error(
            "/plan_data/distribution_election", "distribution_election is 'pay_directly' or 'direct_rollover'"
        )
    when = pd.get("distribution_date")
    if when is not None:
        when = date.fromisoformat(when) if isinstance(when, str) else when
    elif participant.commencement_dates:
        when = participant.commencement_dates[0]
    else:
        when = as_of
    prior = pd.get("prior_valuation_value")
    decision = cash_out_decision(
        vested_value=vested,
        distribution_date=when,
        birth_date=participant.birth_date,
        normal_retirement_age=int(pd["normal_retirement_age"]),
        election=election,
        elects_shares=bool(pd.get("elects_shares", False)),
        termination_reason=pd.get("termination_reason", "other"),
        prior_valuation_value=None if prior is None else _dec(pd, "prior_valuation_value"),
        settings=settings,
    )
    out["cash_out"] = {
        "required": decision.required,
        "threshold": money_str(decision.threshold),
        "mandatory_distribution": decision.mandatory_distribution,
        "automatic_rollover": decision.automatic_rollover,
        "route": decision.route,
        "form": decision.form,
        "committee_review": decision.committee_review,
        "distribution_date": when.isoformat(),
    }
    traces["cash_out"] = decision.trace.as_list()

    # Account statement for a period (project-added ``plan_data.statement``; the Fairport ESOP's ledger).
    raw_statement = si.section(pd)
    if raw_statement is not None:
        out["statement"], traces["statement"] = _statement(pd, as_of, raw_statement, vested)
    out["traces"] = traces
    return out


def _statement(
    pd: Mapping[str, Any], as_of: date, raw: Mapping[str, Any], vested: Decimal
) -> tuple[dict[str, Any], list[Any]]:
    """The vesting rules are not known (SPEC GAP D2.1), so, as the web's statements do, the vested
    percent is ``vested_account_value`` as a share of the account it was given for: ``shares`` ×
    ``share_value`` + ``cash`` when given (the account on ``as_of``), otherwise the statement's closing
    value; two places, applied to the closing balance."""
    elected = _dec(pd, "elected_dividends") if pd.get("elected_dividends") is not None else ZERO
    inputs = statement_inputs(raw, as_of, default_elected=elected)
    if all(pd.get(k) is not None for k in ("shares", "share_value")):
        cash = _dec(pd, "cash") if pd.get("cash") is not None else ZERO
        total = to_money(_dec(pd, "shares") * _dec(pd, "share_value") + cash)
        basis = f"the account on {as_of.isoformat()} (plan_data shares × share_value + cash)"
    else:
        total = statement(**inputs, vested_percent=ZERO).closing.value
        basis = f"the closing balance on {inputs['period_end'].isoformat()}"
    pct = (vested / total * HUNDRED).quantize(Decimal("0.01")) if total else ZERO
    if pct > HUNDRED:
        raise _error("/plan_data/vested_account_value", f"the vested value exceeds {basis}")
    tb = TraceBuilder()
    tb.step(
        f"Vested percent = the vested value given ÷ {basis}",
        section="Carver ESOP (base plan not provided; SPEC GAP D2.1)",
        result=pct,
        vested_account_value=vested,
        account_value=total,
    )
    st = statement(**inputs, vested_percent=pct)
    tb.include(st.trace)
    return statement_output(st, inputs), tb.build().as_list()
