"""Every commencement date of a request in one pass, without traces: the plan's ``grid.outputs``.

The web modeler, the claim form's check and the command line with ``options.traces`` false ask for
figures only; ``estimate()`` (``results.py``) rebuilds, for each date, what does not change with the
date (the §415 compensation and highest averages, the limitation year's dollar amount) and a trace
for every figure. Here those are read once (``Limits415``), the forms come from Table A without
traces (``untraced_form_amounts``), and the §417(a)(3) relative values of every date are priced
together (``relative_values_of_dates``: one survival matrix per §417(e)(3) table for every date's
ages). The contract keys are written by the same ``outputs_json`` as the traced path, so the result
is, key for key and byte for byte, the traced result without its ``traces``
(``tests/engine/plans/carver_db/test_dates_one_pass.py`` holds it).

A trace is built only for the figure a person opens: the caller recomputes that one date on the
traced path (``benefits.engine_adapter.estimate_traces``).

What the one-pass path does not price goes the scalar way, as the price grid does: a participant who
died (the Preretirement Spouse Benefit) or who has no vested benefit.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import date
from typing import Any

from benefits.engine.core import CoreResult
from benefits.engine.trace import Trace
from benefits.engine.types import Participant

from .accrued import AccrualData
from .cash_out import CashOut, cash_out, cash_out_event, cash_outs_of_dates
from .commencement import earliest_commencement_date, life_amount_at
from .contract import outputs_json
from .estimates import (
    CarverBenefits,
    Estimate,
    Limits415,
    NrdBenefit,
    _annuitant_birth,
    _limit_415,
    benefit_at_nrd,
)
from .forms import ss_commencement_date, untraced_form_amounts
from .inputs import ONE_DAY, ZERO, _pd_decimal, settings_of
from .limits import apply_415
from .relative import relative_values_of_dates
from .results import _safe_estimate, benefit_picture
from .settings import UNFROZEN_PROJECTION

_NO_TRACE = Trace()


def grid_outputs(
    participant: Participant, as_of: date, assumptions: Mapping[str, Any], core: CoreResult
) -> dict[str, Any]:
    """``contract.plan_outputs`` for every commencement date in one pass (no ``traces`` key is read
    by anyone: the untraced request drops it, so none is built)."""
    return outputs_json(grid_benefits(participant, as_of, core, assumptions), traces_key=False)


def grid_benefits(
    p: Participant, as_of: date, core: CoreResult, assumptions: Mapping[str, Any] | None = None
) -> CarverBenefits:
    """``results.calculate_benefits`` with every date priced in one pass."""

    def price(data: AccrualData, nb: NrdBenefit) -> tuple[Estimate, ...]:
        if not p.commencement_dates:  # a census line: nothing to price, nothing to set up
            return ()
        if p.death_date is not None or nb.vested_percent <= 0:  # outside the grid: the scalar path
            return tuple(
                _safe_estimate(p, as_of, d, core, assumptions, nb, data) for d in p.commencement_dates
            )
        return _estimates(p, as_of, core, assumptions, data, nb)

    return benefit_picture(p, core, as_of, price)


def _estimates(
    p: Participant,
    as_of: date,
    core: CoreResult,
    assumptions: Mapping[str, Any] | None,
    data: AccrualData,
    nb: NrdBenefit,
) -> tuple[Estimate, ...]:
    """``estimate()`` for each date (a living participant with a vested benefit), its branches in
    the same order, then the relative values of every date that has forms, together."""
    settings = settings_of(core)
    nrd = core.normal_retirement_date
    normal_form = "js50" if p.is_married else "life"
    term = data.termination_date
    earliest = earliest_commencement_date(p.birth_date, term, p.hire_date)
    limits = Limits415(p, core, data)
    annuitant = _annuitant_birth(p)
    ss_amount = _pd_decimal(p, "ss_option_amount", None) or _pd_decimal(p, "social_security_amount", None)
    employed_past_nrd = term is None or term >= nrd
    unfrozen = term is None and settings.projected_cs_mode == UNFROZEN_PROJECTION
    ss_start = ss_commencement_date(p.birth_date, settings)

    # Every date's §13.7(G) test on the law's basis for that date, priced together; each date meets
    # its own outcome (or the error the scalar path raises) where estimate() would compute it.
    dates = list(p.commencement_dates)
    cash_outs = dict(
        zip(
            dates,
            cash_outs_of_dates(
                vested_annual_at_nrd=nb.vested_annual,
                birth_date=p.birth_date,
                dates=[(d, cash_out_event(term, d)) for d in dates],
                nrd=nrd,
                assumptions=assumptions,
                settings=settings,
            ),
            strict=True,
        )
    )

    def co_at(d: date) -> CashOut:
        co = cash_outs[d]
        if isinstance(co, Exception):
            raise co
        return co

    def fail(d: date, message: str) -> Estimate:
        return Estimate(d, "none", ZERO, normal_form, {}, None, None, None, _NO_TRACE, message)

    def one(d: date) -> Estimate:
        if d.day != 1:
            return fail(d, "A Retirement Date is always the first day of a month (§1.1(GG))")
        co = None
        if term is not None and d > term:
            co = co_at(d)
            if co.required:
                return Estimate(d, "cash_out", ZERO, normal_form, {}, co, None, None, _NO_TRACE)
        if d < earliest and d < nrd:
            message = (
                f"Payments cannot start before {earliest.isoformat()}: age 55 and after leaving employment"
            )
            if co is None:
                return fail(d, message)
            if co.required is None:
                message += "; whether the benefit is small enough to be cashed out cannot be checked yet"
            return Estimate(d, "none", ZERO, normal_form, {}, co, None, None, _NO_TRACE, message)
        d_data, d_nb = data, nb
        if unfrozen and d < nrd:  # modelled as leaving the day before (§3.1(A)(2)(b), §4.3)
            d_data = replace(data, termination_date=d - ONE_DAY)
            d_nb = benefit_at_nrd(p, as_of, core, d_data)
        life = life_amount_at(
            d_data, d_nb.vested_annual, nrd, d, employed_past_nrd=employed_past_nrd, settings=settings
        )
        limit = limits.at(d) if d_data is data else _limit_415(p, core, d_data, d)
        annual = life.annual
        if limit is not None:
            annual, _ = apply_415(annual, limit)
        if co is None and d_nb is not nb:  # valued on the benefit of leaving the day before, as estimate()
            co = cash_out(
                vested_annual_at_nrd=d_nb.vested_annual,
                birth_date=p.birth_date,
                distribution_date=d,
                event_date=cash_out_event(term, d),
                nrd=nrd,
                assumptions=assumptions,
                settings=settings,
            )
        elif co is None:
            co = co_at(d)
        forms = untraced_form_amounts(
            annual,
            participant_birth=p.birth_date,
            retirement_date=d,
            married=p.is_married,
            annuitant_birth=annuitant,
            nrd=nrd,
            ss_option_amount=ss_amount,
            settings=settings,
            limit_annual=limit.annual_limit if limit is not None else None,
            ss_start=ss_start,
        )
        if co is not None and co.required:
            return Estimate(d, life.kind, annual, normal_form, {}, co, None, limit, _NO_TRACE)
        return Estimate(d, life.kind, annual, normal_form, forms, co, None, limit, _NO_TRACE, "")

    out: list[Estimate] = []
    for d in p.commencement_dates:
        try:
            out.append(one(d))
        except ValueError as exc:  # a date the plan cannot price (e.g. beyond Table A), as _safe_estimate
            out.append(fail(d, str(exc)))
    priced = [i for i, e in enumerate(out) if e.forms]
    values = relative_values_of_dates(
        [out[i] for i in priced],
        birth_date=p.birth_date,
        married=p.is_married,
        annuitant_birth=annuitant,
        assumptions=assumptions,
        settings=settings,
    )
    for i, rv in zip(priced, values, strict=True):
        e = out[i]
        if isinstance(rv, ValueError):  # the scalar path's _safe_estimate turns it into the date's error
            out[i] = fail(e.commencement_date, str(rv))
        elif isinstance(rv, Exception):  # stops the participant, as on the scalar path
            raise rv
        else:
            out[i] = replace(e, relative_values=rv)
    return tuple(out)
