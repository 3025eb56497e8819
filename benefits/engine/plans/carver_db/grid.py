"""The modeler's price grid: every month from the earliest commencement date to age 70, every form."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal

from benefits.engine.core import CoreResult
from benefits.engine.dates import add_months, first_of_month_on_or_after
from benefits.engine.dates import date_attaining_age as birthday
from benefits.engine.types import Participant

from .commencement import earliest_commencement_date, life_amount_at
from .estimates import NrdBenefit, _annuitant_birth, _limit_415, benefit_at_nrd
from .forms import form_amounts
from .inputs import ONE_DAY, _pd_decimal, accrual_data, settings_of
from .settings import UNFROZEN_PROJECTION

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

    Rows carry rounded monthly amounts only; ``estimate()`` gives the trace for any one date.
    """
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
    end = first_of_month_on_or_after(birthday(p.birth_date, last_age))
    rows = []
    names: list[str] = []
    if nb.vested_percent <= 0 or (p.death_date is not None and p.death_date <= as_of):
        return PriceGrid((), (), nb)  # nothing to model: not vested, or only a Spouse benefit remains
    employed_past_nrd = data.termination_date is None or data.termination_date >= nrd
    annuitant = _annuitant_birth(p)
    ss_amount = _pd_decimal(p, "ss_option_amount", None) or data.social_security_amount
    early_nb = nb
    if data.termination_date is None and settings.projected_cs_mode == UNFROZEN_PROJECTION:
        early_nb = benefit_at_nrd(p, as_of, core, replace(data, termination_date=first - ONE_DAY))
    d = first
    while d <= end:
        base = early_nb.vested_annual if d < nrd else nb.vested_annual
        life = life_amount_at(data, base, nrd, d, employed_past_nrd=employed_past_nrd, settings=settings)
        limit = _limit_415(p, core, data, d)
        annual = min(life.annual, limit.annual_limit) if limit is not None else life.annual
        forms = form_amounts(
            annual,
            participant_birth=p.birth_date,
            retirement_date=d,
            married=p.is_married,
            annuitant_birth=annuitant,
            nrd=nrd,
            ss_option_amount=ss_amount,
            settings=settings,
        )
        for k in forms:
            if k not in names:
                names.append(k)
        rows.append(GridRow(d, life.kind, {k: v.monthly for k, v in forms.items()}))
        d = add_months(d, 1)
    return PriceGrid(tuple(rows), tuple(names), nb)
