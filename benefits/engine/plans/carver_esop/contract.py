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

from benefits.engine.money import HUNDRED, ZERO, money_str, to_decimal
from benefits.engine.plans.fairport_esop.contract import statement_output
from benefits.engine.plans.fairport_esop.inputs import statement_inputs
from benefits.engine.plans.fairport_esop.statement import statement
from benefits.engine.share_distributions import offer_output
from benefits.engine.trace import Trace, TraceBuilder, money, percent

from .cash_out import cash_out_decision
from .distribution_forms import offer as distribution_offer
from .inputs import CarverEsopInputs, _error
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
        chosen = (getattr(core, "settings", None) or {}).get("benefits")
        settings = chosen if isinstance(chosen, BenefitSettings) else DEFAULT_SETTINGS
    service_settings = (getattr(core, "settings", None) or {}).get("service_vesting")
    given = CarverEsopInputs.parse(
        participant, as_of, getattr(service_settings, "normal_retirement_age", None)
    )
    out: dict[str, Any] = {}
    traces: dict[str, list[Any]] = {}
    if given.account_balance is not None:
        balance = given.account_balance
        out["account"] = {"balance": money_str(balance)}
        traces["account"] = (
            Trace()
            .add(
                "Account value = Qualifying Employer Securities × share value + other investments",
                section="Carver ESOP (base plan not provided; SPEC GAP D2.1)",
                result=money(balance),
            )
            .as_list()
        )
    vested = given.vested_account_value
    if vested is None:
        # The vesting rules are in the missing base plan, so the vested value is an input: without it
        # the vested balance, the §10.6 cash-out test and the statement wait; vesting and dates stay.
        blocks = ["/account/vested_balance", "/cash_out"] + (["/statement"] if given.statement else [])
        out["missing"] = [
            {
                "field": "/plan_data/vested_account_value",
                "message": "the vested account value is needed for the vested balance and the §10.6 "
                "cash-out test (the base plan's vesting rules are missing, SPEC GAP D2.1)",
                "blocks": blocks,
            }
        ]
        out["traces"] = traces
        return out
    out.setdefault("account", {})["vested_balance"] = money_str(vested)
    when = given.distribution_date
    decision = cash_out_decision(
        vested_value=vested,
        distribution_date=when,
        birth_date=participant.birth_date,
        normal_retirement_age=given.normal_retirement_age,
        election=given.distribution_election,
        elects_shares=given.elects_shares,
        termination_reason=given.termination_reason,
        prior_valuation_value=given.prior_valuation_value,
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
    # The Former Participant's own distribution: the forms §10.6(a) offers (none above the threshold).
    if given.account_balance is not None:
        pd = participant.plan_data or {}
        dist = distribution_offer(
            vested=vested,
            shares=to_decimal(str(pd["shares"])),
            cash=to_decimal(str(pd.get("cash") or "0")),
            share_value=to_decimal(str(pd["share_value"])),
            termination_date=participant.termination_date,
            as_of=as_of,
            decision=decision,
        )
        out["distribution"], traces["distribution"] = offer_output(dist), dist.trace.as_list()

    # Account statement for a period (project-added ``plan_data.statement``; the Fairport ESOP's ledger).
    if given.statement is not None:
        out["statement"], traces["statement"] = _statement(given, as_of, given.statement, vested)
    out["traces"] = traces
    return out


def _statement(
    given: CarverEsopInputs, as_of: date, raw: Mapping[str, Any], vested: Decimal
) -> tuple[dict[str, Any], list[Any]]:
    """The vesting rules are not known (SPEC GAP D2.1), so, as the web's statements do, the vested
    percent is ``vested_account_value`` as a share of the account it was given for: ``shares`` ×
    ``share_value`` + ``cash`` when given (the account on ``as_of``), otherwise the statement's closing
    value; two places, applied to the closing balance."""
    inputs = statement_inputs(raw, as_of, default_elected=given.elected_dividends)
    if given.account_balance is not None:
        total = given.account_balance
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
        result=percent(pct),
        vested_account_value=money(vested),
        account_value=money(total),
    )
    st = statement(**inputs, vested_percent=pct)
    tb.include(st.trace)
    return statement_output(st, inputs), tb.build().as_list()
