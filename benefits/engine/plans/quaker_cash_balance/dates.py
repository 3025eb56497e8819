"""Every commencement date of a request in one pass, without traces: the plan's ``grid.outputs``.

The web modeler, the claim form's check and the command line with ``options.traces`` false ask for
figures only; ``estimate()`` prices each date on its own, with a trace behind every figure. Here
the dates are priced together: the scalar steps that need no annuity factor date by date, then
every date's factors on the vectorized path (``pricing.py``, the price grid's arithmetic: the life
annuity, the §415(b) limit, the lump sum's equivalent, every optional form); the whipsaw projection
(GAP-3) of every date before NRD from one pass of deferred factors (``projection.py``); and the
§417(a)(3) relative values of every date together (``relative_value.relative_values_of_dates``, on
each date's Applicable Mortality Table and the law's basis for the date). The contract keys are
written by the same ``contract_outputs`` as the traced path, so the result is, key for key and byte
for byte, the traced result without its ``traces`` (``tests/engine/plans/quaker_cash_balance/
test_dates_one_pass.py`` holds it).

A trace is built only for the figure a person opens: the caller recomputes that one date on the
traced path (``benefits.engine_adapter.estimate_traces``).

What the one pass does not price goes the scalar way, as the price grid does: a participant who died
(the §5.12 survivor's window, ``results.benefits``), the grandfathered 1999 minimum (§5.11(b)), and a
request the scalar path would stop on (an error met while pricing: the scalar path meets it again,
where it meets it, so the result and its error are the scalar path's).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from decimal import Decimal
from typing import Any

from benefits.engine.core import CoreResult
from benefits.engine.dates import first_of_month_on_or_after
from benefits.engine.money import to_money
from benefits.engine.mortality import MortalityTable
from benefits.engine.relative_value import OptionalForm, RelativeValues, relative_values_of_dates
from benefits.engine.trace import Trace
from benefits.engine.types import Participant

from .contract import contract_outputs
from .estimates import (
    Estimate,
    QuakerBenefits,
    _option,
    _rate_assumptions,
    relative_value_rules,
)
from .forms import CERTAIN_FORMS, FORM_NAMES, SURVIVOR_FORMS, FormAmount
from .grid_forms import GridForms
from .inputs import (
    AccountInputs,
    _pd_date,
    _pd_money,
    _retirement_separation,
    _settings,
    entry_before_2000,
)
from .ledger_entries import Ledger
from .lump_sum import LumpSum, earliest_lump_sum_date
from .market import MarketData
from .pricing import DateRow, date_rows, price_rows
from .projection import projection_values
from .results import benefits, scalar_estimates

_NO_TRACE = Trace()


def grid_outputs(
    participant: Participant, as_of: date, assumptions: Mapping[str, Any], core: CoreResult
) -> dict[str, Any]:
    """``contract.plan_outputs`` with every commencement date priced in one pass (no ``traces`` key
    is read by anyone: the untraced request drops it)."""
    return contract_outputs(participant, as_of, assumptions, core, grid_benefits, traces_map=False)


def grid_benefits(
    p: Participant,
    as_of: date,
    assumptions: Mapping[str, Any],
    core: CoreResult | None = None,
    *,
    annuities: bool = True,
) -> QuakerBenefits:
    """``results.benefits`` with a living participant's dates priced in one pass."""
    return benefits(p, as_of, assumptions, core, annuities=annuities, price_dates=one_pass_estimates)


def one_pass_estimates(
    p: Participant,
    as_of: date,
    market: MarketData,
    core: CoreResult,
    ledger: Ledger,
    inputs: AccountInputs,
    assumptions: Mapping[str, Any],
) -> tuple[Estimate, ...]:
    """``results.scalar_estimates``, every date priced together."""
    if not p.commencement_dates:  # a census line: nothing to price
        return ()
    if _pd_money(p, "dec31_1999_benefit") is not None:  # the grandfathered minimum: the scalar path
        return scalar_estimates(p, as_of, market, core, ledger, inputs, assumptions)
    try:
        return _estimates(p, as_of, market, core, ledger, inputs, assumptions)
    except Exception:  # noqa: BLE001 - the scalar path meets the same error where it meets it
        return scalar_estimates(p, as_of, market, core, ledger, inputs, assumptions)


def _estimates(
    p: Participant,
    as_of: date,
    market: MarketData,
    core: CoreResult,
    ledger: Ledger,
    inputs: AccountInputs,
    assumptions: Mapping[str, Any],
) -> tuple[Estimate, ...]:
    dates = [first_of_month_on_or_after(c) for c in p.commencement_dates]  # as estimate() moves them
    rows = date_rows(p, as_of, market, core, ledger, sorted(set(dates)))
    projected = projection_values(p, as_of, market, core, rows)
    pay = _settings(core).pay_whipsaw_projection
    lumps = [
        w if pay and w is not None and w > r.vested else r.vested
        for r, w in zip(rows, projected, strict=True)
    ]
    survival: dict[tuple[Any, ...], Any] = {}  # the survival matrices, shared with the comparison
    price_rows(p, core, rows, lumps, survival)
    spouse = p.spouse_birth_date or _pd_date(p, "contingent_annuitant_birth_date")
    priced: list[tuple[Mapping[str, FormAmount], list[OptionalForm]]] = [
        _forms(r, spouse) if r.basis is not None and not r.cash_out else ({}, []) for r in rows
    ]
    forms = [f for f, _ in priced]
    values = _relative_values(p, core, rows, [o for _, o in priced], assumptions, market, survival)
    earliest = None
    if inputs.separation is not None:
        earliest = earliest_lump_sum_date(
            inputs.separation, retirement=_retirement_separation(p, core, inputs)
        )
    by_date = {
        r.d: _estimate(p, core, r, f, rv, w, earliest, inputs.separation is not None)
        for r, f, rv, w in zip(rows, forms, values, projected, strict=True)
    }
    return tuple(by_date[d] for d in dates)


def _forms(r: DateRow, spouse: date | None) -> tuple[GridForms, list[OptionalForm]]:
    """The row's forms as ``estimate`` gives them (each survivor's amount from the form's final one),
    then the lump sum; and beside them the same forms as the §417(a)(3) comparison reads them
    (``optional_forms(forms, spouse)``, made in the same loop)."""
    monthly: list[Decimal] = []
    survivors: list[Decimal | None] = []
    options: list[OptionalForm] = []
    for key, amount in r.monthly.items():
        monthly.append(amount)
        if key in SURVIVOR_FORMS:
            survivors.append(to_money(amount * SURVIVOR_FORMS[key]))
            options.append(_option(key, amount, spouse))
        else:
            survivors.append(None)
            if key == "life" or key in CERTAIN_FORMS:
                options.append(_option(key, amount, None))
    if r.lump is not None:
        options.append(_option("lump_sum", r.lump, None))
    return GridForms((*r.monthly, "lump_sum"), monthly, survivors, r.lump), options


def _relative_values(
    p: Participant,
    core: CoreResult,
    rows: list[DateRow],
    options: list[list[OptionalForm]],
    assumptions: Mapping[str, Any] | None,
    market: MarketData,
    survival: dict[tuple[Any, ...], Any] | None = None,
) -> list[RelativeValues | None]:
    """``form_relative_values`` of every priced row (``options[i]``: its forms as the comparison reads
    them, empty for a row not priced), the dates on one Applicable Mortality Table together (the
    comparison is pinned to the table the forms were priced on)."""
    a = assumptions if assumptions is not None else _rate_assumptions(market)
    by_table: dict[MortalityTable, list[int]] = {}
    for i, r in enumerate(rows):
        if r.basis is not None and not r.cash_out:
            by_table.setdefault(r.basis.table, []).append(i)
    out: list[RelativeValues | None] = [None] * len(rows)
    rules = relative_value_rules(_settings(core))
    for table, idx in by_table.items():
        values = relative_values_of_dates(
            [(rows[i].d, options[i]) for i in idx],
            birth_date=p.birth_date,
            married=p.is_married,
            assumptions=a,
            rules=rules,
            table=table,
            survival_cache=survival,
        )
        for i, v in zip(idx, values, strict=True):
            if isinstance(v, Exception):
                raise v  # the scalar path stops on it: priced again there
            out[i] = v
    return out


def _estimate(
    p: Participant,
    core: CoreResult,
    r: DateRow,
    forms: Mapping[str, FormAmount],
    rv: RelativeValues | None,
    projected: Decimal | None,
    earliest: date | None,
    separated: bool,
) -> Estimate:
    """``estimate()``'s result for one priced row: its branches, and its notes in its order."""
    if r.basis is None:
        return Estimate(r.d, "not_vested", r.balance, r.vested, {}, None, None, False, r.estimate,
                        ("not vested: no benefit (§5.9(a), §2.3(a))",), _NO_TRACE)  # fmt: skip
    notes = []
    if r.unvested_early:
        notes.append("Early Retirement Benefit paid though not yet vested (AMBIG-2 reading)")
    if r.route == "vested_immediate" and separated:
        if earliest is not None and r.d < earliest:
            notes.append(f"before the earliest §5.11(a)(iv)/§5.9(e) date {earliest.isoformat()}")
    elif r.route == "vested_immediate":
        notes.append("assumes a Separation from Service before this date (§5.9(e), §5.11(a)(iv))")
    if projected is not None and projected > r.vested:
        notes.append(f"projection value {projected} exceeds the balance: flag for counsel (GAP-3)")
    ls = _made(LumpSum, asd=r.d, balance=r.vested, floor=None, whipsaw_value=projected, amount=r.lump,
               trace=_NO_TRACE)  # fmt: skip
    if r.cash_out:
        notes.append(f"balance not over {r.threshold}: paid as a lump sum without consent (§5.16)")
        lump = FormAmount("lump_sum", "Lump sum", lump_sum=r.lump)
        return Estimate(r.d, r.route, r.balance, r.vested, {"lump_sum": lump}, "lump_sum", ls, True,
                        r.estimate, tuple(notes), _NO_TRACE)  # fmt: skip
    if r.life_limited:
        notes.append("§415(b) limit applied: Enrolled Actuary to review (SPEC §13.1)")
    if r.lump_limited:
        notes.append("§415(b) limit applied to the lump sum: Enrolled Actuary to review")
    if r.route != "vested_immediate" and entry_before_2000(core):
        notes.append("the grandfathered annuity minimum (§5.3(c), §5.5(b), §5.7(c)) needs the "
                     "pre-2000 plan (GAP-1): not applied")  # fmt: skip
    if r.reduced:
        names = ", ".join(FORM_NAMES[k].lower() for k in r.reduced)
        notes.append(f"§415(b) limit applied to the {names}: Enrolled Actuary to review (SPEC §13.1)")
    default = "js50" if (p.is_married and "js50" in forms) else "life"
    if p.is_married and p.spouse_birth_date is None:
        notes.append("married: the QJSA needs spouse_birth_date (§5.10(a); AMBIG-16)")
    if rv is not None and rv.note:
        notes.append(rv.note)
    return _made(Estimate, commencement_date=r.d, route=r.route, balance=r.balance, vested_balance=r.vested,
                 forms=forms, default_form=default, lump_sum=ls, cash_out=False, estimate=r.estimate,
                 notes=tuple(notes), trace=_NO_TRACE, relative_values=rv, missing=(),
                 limit_415=r.limit)  # fmt: skip


def _made[T](cls: type[T], **fields: Any) -> T:
    """``cls(**fields)`` for a frozen dataclass given every field, without its field-by-field
    ``__init__`` (a grid makes one a date)."""
    made = object.__new__(cls)
    object.__setattr__(made, "__dict__", fields)  # the call's own keyword dict, as the instance's
    return made
