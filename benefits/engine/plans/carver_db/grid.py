"""The modeler's price grid: every month from the earliest commencement date to age 70, every form."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from typing import Any

from benefits.engine.core import CoreResult
from benefits.engine.dates import add_months, first_of_month_on_or_after
from benefits.engine.dates import date_attaining_age as birthday
from benefits.engine.types import Participant

from .accrued import AccrualData
from .commencement import earliest_commencement_date, life_amount_at
from .estimates import Limits415, NrdBenefit, _annuitant_birth, _limit_415, benefit_at_nrd
from .forms import form_amounts, form_monthly_amounts
from .inputs import ONE_DAY, _pd_decimal, accrual_data, settings_of
from .settings import UNFROZEN_PROJECTION, BenefitSettings

GRID_LAST_AGE = 70


@dataclass(frozen=True)
class GridRow:
    commencement_date: date
    kind: str
    monthly: Mapping[str, Decimal]  # form → monthly payment in cents


@dataclass(frozen=True)
class PriceGrid:
    rows: tuple[GridRow, ...]
    forms: tuple[str, ...]
    nrd_benefit: NrdBenefit


def price_grid(
    p: Participant,
    as_of: date,
    core: CoreResult | None = None,
    *,
    start: date | None = None,
    last_age: int = GRID_LAST_AGE,
) -> PriceGrid:
    """Every month from the earliest commencement date (not before ``as_of``) to age 70, every form.

    Rows carry rounded monthly amounts only; ``estimate()`` gives the trace for any one date. One
    pass: the §415 inputs that do not change with the date (compensation, the limitation year's
    dollar amount, the highest average) are read once, and the forms are priced without traces
    (``form_monthly_amounts``). Table A has no interest or mortality basis, so the only annuity
    factors are the §415 limit's 5%/GATT ones, read from a commutation column. Equal, row for row,
    to ``price_grid_reference`` (the property tests hold it).
    """
    s = _setup(p, as_of, core, start, last_age)
    if isinstance(s, PriceGrid):
        return s
    limits = Limits415(p, s.core, s.data)
    return _priced(
        p,
        s,
        limits.at,
        lambda annual, d, limit: form_monthly_amounts(
            annual, retirement_date=d, limit_annual=limit, **_form_inputs(p, s)
        ),
    )


def price_grid_reference(
    p: Participant,
    as_of: date,
    core: CoreResult | None = None,
    *,
    start: date | None = None,
    last_age: int = GRID_LAST_AGE,
) -> PriceGrid:
    """The scalar path (``form_amounts`` with its traces, the §415 limit looked up afresh for every
    date): the reference ``price_grid`` is tested against."""
    s = _setup(p, as_of, core, start, last_age)
    if isinstance(s, PriceGrid):
        return s

    def monthly(annual: Decimal, d: date, limit: Decimal | None) -> Mapping[str, Decimal]:
        forms = form_amounts(annual, retirement_date=d, limit_annual=limit, **_form_inputs(p, s))
        return {k: v.monthly for k, v in forms.items()}

    return _priced(p, s, lambda d: _limit_415(p, s.core, s.data, d), monthly)


@dataclass(frozen=True)
class _Setup:
    """What both grids read once: the benefit at NRD (and before it, for an active employee under
    the unfrozen projection), the dates the grid spans, and the form inputs that do not change."""

    core: CoreResult
    settings: BenefitSettings
    data: AccrualData
    nb: NrdBenefit
    early_nb: NrdBenefit
    nrd: date
    first: date
    end: date
    employed_past_nrd: bool
    annuitant: date | None
    ss_amount: Decimal | None


def _setup(
    p: Participant, as_of: date, core: CoreResult | None, start: date | None, last_age: int
) -> _Setup | PriceGrid:
    """The grid's inputs, or the empty grid when there is nothing to model (not vested, or only a
    Spouse benefit remains)."""
    if core is None:
        from .rules import ServiceVestingSettings
        from .rules import core as run_core

        core = run_core(p, as_of, ServiceVestingSettings())
    settings = settings_of(core)
    data = accrual_data(p, as_of, core)
    nb = benefit_at_nrd(p, as_of, core, data)
    nrd = core.normal_retirement_date
    first = start or max(
        earliest_commencement_date(p.birth_date, data.termination_date, p.hire_date),
        first_of_month_on_or_after(as_of),
    )
    if nb.vested_percent <= 0 or (p.death_date is not None and p.death_date <= as_of):
        return PriceGrid((), (), nb)
    early_nb = nb
    if data.termination_date is None and settings.projected_cs_mode == UNFROZEN_PROJECTION:
        early_nb = benefit_at_nrd(p, as_of, core, replace(data, termination_date=first - ONE_DAY))
    return _Setup(
        core=core,
        settings=settings,
        data=data,
        nb=nb,
        early_nb=early_nb,
        nrd=nrd,
        first=first,
        end=first_of_month_on_or_after(birthday(p.birth_date, last_age)),
        employed_past_nrd=data.termination_date is None or data.termination_date >= nrd,
        annuitant=_annuitant_birth(p),
        ss_amount=_pd_decimal(p, "ss_option_amount", None) or data.social_security_amount,
    )


def _form_inputs(p: Participant, s: _Setup) -> dict[str, Any]:
    return {
        "participant_birth": p.birth_date,
        "married": p.is_married,
        "annuitant_birth": s.annuitant,
        "nrd": s.nrd,
        "ss_option_amount": s.ss_amount,
        "settings": s.settings,
    }


def _priced(
    p: Participant,
    s: _Setup,
    limit_at: Callable[[date], Any],
    monthly_of: Callable[[Decimal, date, Decimal | None], Mapping[str, Decimal]],
) -> PriceGrid:
    """Each month from ``s.first`` to ``s.end``: the life amount, capped by the §415 limit, in every form."""
    rows = []
    names: list[str] = []
    d = s.first
    while d <= s.end:
        base = s.early_nb.vested_annual if d < s.nrd else s.nb.vested_annual
        life = life_amount_at(
            s.data, base, s.nrd, d, employed_past_nrd=s.employed_past_nrd, settings=s.settings
        )
        limit = limit_at(d)
        annual = min(life.annual, limit.annual_limit) if limit is not None else life.annual
        monthly = monthly_of(annual, d, limit.annual_limit if limit is not None else None)
        for k in monthly:
            if k not in names:
                names.append(k)
        rows.append(GridRow(d, life.kind, monthly))
        d = add_months(d, 1)
    return PriceGrid(tuple(rows), tuple(names), s.nb)
