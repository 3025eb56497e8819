"""The contract's JSON for one participant (docs/engine-cli.md): ``plan_outputs`` turns
``results.benefits`` into the keys the command line returns.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date
from decimal import Decimal
from typing import Any, cast

from benefits.engine.core import CoreResult, ParticipantError
from benefits.engine.input_ranges import sign_checked
from benefits.engine.missing import Missing, merge
from benefits.engine.money import money_str
from benefits.engine.relative_value import write_basis_and_groups, write_values
from benefits.engine.trace import SharedSteps
from benefits.engine.types import Participant

from .estimates import QuakerBenefits
from .forms import FormAmount
from .grid_forms import GridForms
from .market import MarketDataError
from .results import benefits


def _forms_json(forms: Mapping[str, FormAmount], written: list[str]) -> tuple[dict[str, Any], dict[str, str]]:
    """Each form's contract object (``{"monthly", "survivor_monthly"}`` or ``{"lump_sum"}``) and the
    survivors' amounts by form (the ``survivor_monthly`` key), each money string made once (and
    added to ``written``)."""
    if isinstance(forms, GridForms):  # the one pass's: written from its lists
        return forms.contract_json(written)
    out: dict[str, Any] = {}
    survivors: dict[str, str] = {}
    for k, f in forms.items():
        if f.monthly is None:
            amount = money_str(cast(Decimal, f.lump_sum))
            out[k] = {"lump_sum": amount}
            written.append(amount)
        elif f.survivor_monthly is None:
            amount = money_str(f.monthly)
            out[k] = {"monthly": amount}
            written.append(amount)
        else:
            amount, survivor = money_str(f.monthly), money_str(f.survivor_monthly)
            survivors[k] = survivor
            out[k] = {"monthly": amount, "survivor_monthly": survivor}
            written += (amount, survivor)
    return out, survivors


def plan_outputs(
    participant: Participant, as_of: date, assumptions: Mapping[str, Any], core: CoreResult
) -> dict[str, Any]:
    """The contract keys for one participant (engine-cli.md), every date priced on its own
    (``contract_outputs`` with ``results.benefits``)."""
    return contract_outputs(participant, as_of, assumptions, core, benefits)


def contract_outputs(
    participant: Participant,
    as_of: date,
    assumptions: Mapping[str, Any],
    core: CoreResult,
    benefits_of: Callable[..., QuakerBenefits],
    *,
    traces_map: bool = True,
) -> dict[str, Any]:
    """The contract keys for one participant (engine-cli.md) from ``benefits_of``, ``results.benefits``
    or the one-pass path's (``dates.grid_benefits``): the same keys, written the same way.

    Form objects hold exactly the contract's ``monthly`` or ``lump_sum``; every figure's trace is in
    one ``traces`` map keyed by the dotted path of the figure (``"account.balance"``,
    ``"accrued_benefit.monthly_at_nrd"``, ``"estimates[0].forms.js50"``, ``"cash_out"``,
    ``"survivor_annuity"``), as the other plans do. Missing market data (docs/engine-cli.md,
    ``missing``): a Treasury yield the account needs blocks every benefit figure (vesting and dates
    stay); a missing Applicable Interest Rate keeps the account figures and blocks the annuity
    figures; a month the grandfathered minimum lump sum needs blocks that lump sum. Malformed market
    data is a participant error (pointer into the request). ``traces_map`` false: the ``traces`` map
    is left empty (the one-pass path, whose result is read without it).
    """
    missing: list[Missing] = []
    try:
        b = benefits_of(participant, as_of, assumptions, core)
    except MarketDataError as exc:
        if "missing" not in exc.message:
            raise ParticipantError(exc.field, exc.message, absolute=True) from None
        if not exc.field.startswith("/assumptions/applicable_interest_rate"):
            raise  # the account itself needs it: the engine keeps vesting and dates only
        # The account needs no AIR: give it, and name the missing rate for the annuity figures.
        missing.append(Missing(exc.field, exc.message, ("/accrued_benefit", "/estimates")))
        try:
            b = benefits_of(participant, as_of, assumptions, core, annuities=False)
        except MarketDataError as exc2:
            if "missing" not in exc2.message:
                raise ParticipantError(exc2.field, exc2.message, absolute=True) from None
            raise
    shared = SharedSteps()  # a step listed in many traces (each form repeats its date's) made once
    traces: dict[str, list[Any]] = {"account.balance": b.account.trace.as_list(shared)} if traces_map else {}
    estimates = []
    written: list[str] = []  # every string put in the estimates but their dates (``sign_checked``)
    for i, e in enumerate(b.estimates):
        forms, survivors = _forms_json(e.forms, written)
        item: dict[str, Any] = {
            "commencement_date": e.commencement_date.isoformat(),
            "forms": forms,
            "route": e.route,
            "default_form": e.default_form,
            "estimate": e.estimate,
        }
        written += (e.route, e.default_form or "")  # no default form: the JSON's null
        if survivors:
            item["survivor_monthly"] = survivors  # also on each form (kept for earlier callers)
        rv = e.relative_values
        if rv is not None and rv.basis is not None:
            write_basis_and_groups(rv.basis, rv.groups, item, written)
            write_values(rv.values, forms, written)  # ``relative_value_json`` of each value
            if traces_map:
                for k in rv.values:
                    traces[f"estimates[{i}].forms.{k}.relative_value"] = rv.traces[k].as_list(shared)
        if e.notes:
            item["notes"] = list(e.notes)
            written += e.notes
        for field_, message in e.missing:
            missing.append(Missing(field_, message, (f"/estimates/{i}/forms/lump_sum",)))
        rv_field: str = getattr(rv.note, "field", "") if rv is not None else ""
        if rv is not None and rv_field:  # omitted, or on the plan's rate for want of the law's data
            where = (f"/estimates/{i}/relative_value_basis",)
            blocked = (rv_field, str(rv.note), (), where) if rv.basis else (rv_field, str(rv.note), where)
            missing.append(Missing(*blocked))
        estimates.append(item)
        if not traces_map:
            continue
        for k, f in e.forms.items():
            traces[f"estimates[{i}].forms.{k}"] = f.trace.as_list(shared)
        if not e.forms:
            traces[f"estimates[{i}]"] = e.trace.as_list(shared)
    out: dict[str, Any] = {
        "account": {
            "balance": money_str(b.account.balance),
            "vested_balance": money_str(b.account.vested_balance),
        },
        "estimates": sign_checked(estimates, written),
    }
    if b.earliest_start is not None:
        # The claim form reads this before the plan's earliest retirement date (§5.9(e) pays an
        # immediate vested annuity after a separation, before any Early Retirement Date).
        out["earliest_commencement_date"] = b.earliest_start.isoformat()
    if b.accrued is not None:
        out["accrued_benefit"] = {
            "monthly_at_nrd": money_str(b.accrued.monthly_at_nrd),
            "balance_at_nrd": money_str(b.accrued.balance_at_nrd),
            "estimate": b.accrued.estimate,
        }
        traces["accrued_benefit.monthly_at_nrd"] = b.accrued.trace.as_list(shared)
    if b.cash_out is not None:
        co = b.cash_out
        out["cash_out"] = {
            "required": co.required,
            "threshold": money_str(co.threshold),
            "commencement_date": co.commencement_date.isoformat() if co.commencement_date else None,
        }
        traces["cash_out"] = co.trace.as_list(shared)
    if b.survivor is not None:
        s = b.survivor
        out["survivor_annuity"] = {
            "recipient": s.recipient,
            "commencement_date": s.start.isoformat(),
            "monthly": money_str(s.monthly),
            "lump_sum": money_str(s.lump_sum),
            "lump_sum_automatic": s.lump_sum_automatic,
            "latest_commencement_date": s.dates.latest_start.isoformat(),
            "lump_sum_election_deadline": s.dates.lump_sum_election_deadline.isoformat(),
        }
        traces["survivor_annuity"] = s.trace.as_list(shared)
    if b.notes:
        out["benefit_notes"] = list(b.notes)
    missing.extend(b.missing)
    if missing:
        out["missing"] = merge(missing)
    out["traces"] = traces
    return out
