"""The contract keys (``plan_outputs``, docs/engine-cli.md). Every figure carries a Trace; in the contract
output they are in one ``traces`` map keyed by the dotted path of the figure (e.g.
``"estimates[0].forms.js50"``).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from benefits.engine.core import CoreResult
from benefits.engine.input_ranges import sign_checked
from benefits.engine.missing import Missing, MissingLog
from benefits.engine.money import money_str, to_money
from benefits.engine.relative_value import value_items, write_basis_and_groups
from benefits.engine.trace import SharedSteps
from benefits.engine.types import Participant

from .cash_out import CashOut
from .estimates import CarverBenefits
from .forms import FormAmount
from .inputs import NRD_POINTER, ZERO
from .results import calculate_benefits


def _form_json(f: FormAmount, written: list[str]) -> dict[str, Any]:
    # f.monthly, f.survivor_monthly and f.monthly_after, each already a whole number of cents, so
    # its money string is str(); read here without the properties' descriptors (every form of
    # every date passes here). Each string is added to ``written`` (``sign_checked``).
    cached = f.__dict__
    monthly = cached.get("monthly")
    if monthly is None:
        monthly = cached["monthly"] = to_money(f.annual / 12)
    text = str(monthly)
    out: dict[str, Any] = {"monthly": text}
    written.append(text)
    if f.survivor_share is not None:
        text = out["survivor_monthly"] = str(to_money(monthly * f.survivor_share))
        written.append(text)
    if f.annual_after is not None:
        text = out["monthly_after_social_security"] = str(to_money(f.annual_after / 12))
        written.append(text)
    if f.note:
        out["note"] = f.note
        written.append(f.note)
    return out


def _cash_out_json(co: CashOut, written: list[str]) -> dict[str, Any]:
    threshold = money_str(co.threshold)
    value = None if co.value is None else money_str(co.value)
    written.append(threshold)
    if value is not None:
        written.append(value)
    return {"required": co.required, "threshold": threshold, "value": value}


def plan_outputs(
    participant: Participant, as_of: date, assumptions: Mapping[str, Any], core: CoreResult
) -> dict[str, Any]:
    """The Carver DB keys of the contract result, with a ``traces`` map keyed by figure path."""
    return outputs_json(calculate_benefits(participant, as_of, core, assumptions))


def outputs_json(result: CarverBenefits, *, traces_key: bool = True) -> dict[str, Any]:
    """The contract keys of a benefit picture, whichever path priced it (``dates.grid_outputs`` shares
    this with ``plan_outputs``, so both write the same bytes). ``traces_key`` false: no ``traces``
    map is built (the one-pass path runs only for requests that drop it)."""
    nb = result.at_nrd
    shared = SharedSteps()  # a step listed in many traces (each form repeats its date's) made once
    traces: dict[str, list[Any]] = {}
    if traces_key:
        traces["accrued_benefit.monthly_at_nrd"] = nb.trace.as_list(shared)
    out: dict[str, Any] = {
        "accrued_benefit": {
            "monthly_at_nrd": money_str(nb.annual / 12),
            "annual_at_nrd": money_str(nb.annual),
            "vested_monthly_at_nrd": money_str(nb.vested_annual / 12),
        },
        "earliest_commencement_date": (
            result.earliest_commencement_date.isoformat() if result.earliest_commencement_date else None
        ),
    }
    estimates = []
    written: list[str] = []  # every string put in the estimates but their dates (``sign_checked``)
    log = MissingLog()
    for i, e in enumerate(result.estimates):
        item: dict[str, Any] = {
            "commencement_date": e.commencement_date.isoformat(),
            "forms": {k: _form_json(f, written) for k, f in e.forms.items()},
            "normal_form": e.normal_form,
            "kind": e.kind,
        }
        written += (e.normal_form, e.kind)
        skip = len(nb.trace.steps)
        # Each form's trace is the date's steps then its own: the date's part (after the NRD steps)
        # is made into dictionaries once and each form's list joins it with the rest.
        date_steps = e.trace.steps
        cut = len(date_steps) if date_steps[:skip] == nb.trace.steps else -1
        date_part: list[Any] | None = None
        for k, f in e.forms.items() if traces_key else ():
            # The NRD steps are under "accrued_benefit.monthly_at_nrd"; point there, don't repeat them.
            steps = f.trace.steps
            if cut >= 0 and steps[:cut] == date_steps:
                if date_part is None:
                    date_part = [NRD_POINTER, *shared.dicts(date_steps[skip:])]
                traces[f"estimates[{i}].forms.{k}"] = [*date_part, *shared.dicts(steps[cut:])]
                continue
            tail = steps[skip:] if steps[:skip] == nb.trace.steps else steps
            traces[f"estimates[{i}].forms.{k}"] = [NRD_POINTER, *shared.dicts(tail)]
        rv = e.relative_values
        if rv is not None and rv.basis is not None:
            write_basis_and_groups(rv.basis, rv.groups, item, written)
            for k, percent, approx in value_items(rv.values):  # ``relative_value_json`` of each
                item["forms"][k]["relative_value"] = {"percent": percent, "approximately_equal": approx}
                written.append(percent)
                if traces_key:
                    traces[f"estimates[{i}].forms.{k}.relative_value"] = rv.traces[k].as_list(shared)
            fallback: str = getattr(rv.note, "field", "")
            if fallback:  # on the plan's rate: the law's market data for the date are absent
                item["notes"] = [rv.note]
                written.append(rv.note)
                log.items.append(
                    Missing(fallback, str(rv.note), (), (f"/estimates/{i}/relative_value_basis",))
                )
        elif rv is not None and rv.note:
            item["notes"] = [rv.note]
            written.append(rv.note)
            pointer: str = getattr(rv.note, "field", "")
            if pointer:
                log.items.append(Missing(pointer, str(rv.note), (f"/estimates/{i}/relative_value_basis",)))
        if e.cash_out is not None:
            item["cash_out"] = _cash_out_json(e.cash_out, written)
            if e.cash_out.missing is not None:
                log.items.append(Missing(*e.cash_out.missing, (f"/estimates/{i}/cash_out",)))
            if traces_key:
                traces[f"estimates[{i}].cash_out"] = e.cash_out.trace.as_list(shared)
            if e.cash_out.required:
                lump = money_str(e.cash_out.value or ZERO)
                item["forms"] = {"lump_sum": {"lump_sum": lump}}
                written.append(lump)
                if traces_key:
                    traces[f"estimates[{i}].forms.lump_sum"] = e.cash_out.trace.as_list(shared)
        if e.spouse_benefit is not None and e.spouse_benefit.eligible:
            spouse = item["preretirement_spouse_benefit"] = {
                "monthly": money_str(e.spouse_benefit.monthly),
                "rule": e.spouse_benefit.rule,
            }
            written += (spouse["monthly"], spouse["rule"])
            if traces_key:
                traces[f"estimates[{i}].preretirement_spouse_benefit"] = e.spouse_benefit.trace.as_list(
                    shared
                )
        if e.error:
            item["error"] = e.error
            written.append(e.error)
        if traces_key and (e.error or not e.forms):
            # No form carries the estimate's own steps (and the limits it read): list them here.
            traces[f"estimates[{i}]"] = e.trace.as_list(shared)
        estimates.append(item)
    out["estimates"] = sign_checked(estimates, written)
    first_co = next((e.cash_out for e in result.estimates if e.cash_out is not None), None)
    if first_co is not None:
        out["cash_out"] = {
            "required": first_co.required,
            "threshold": money_str(first_co.threshold),
            "mandatory_distribution": bool(first_co.required),
            "automatic_rollover": False,
        }
    if result.notes:
        out["notes"] = list(result.notes)
    if log.items:
        out["missing"] = log.as_json()
    if traces_key:
        out["traces"] = traces
    return out
