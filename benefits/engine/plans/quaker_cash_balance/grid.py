"""The modeler's price grid: every month from the earliest commencement date to age 70, every form."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from benefits.engine.core import CoreResult
from benefits.engine.dates import (
    add_months,
    date_attaining_age,
    first_of_month_on_or_after,
)
from benefits.engine.types import Participant

from .account import participant_ledger
from .estimates import estimate
from .inputs import _core, account_inputs, earliest_commencement
from .market import MarketData
from .results import survivor_benefit, survivor_estimate

GRID_END_AGE = 70


@dataclass(frozen=True)
class GridRow:
    commencement_date: date
    route: str
    balance: Decimal
    monthly: Mapping[str, Decimal]  # form key → monthly amount
    lump_sum: Decimal | None
    estimate: bool


def price_grid(
    p: Participant,
    as_of: date,
    assumptions: Mapping[str, Any],
    core: CoreResult | None = None,
    *,
    start: date | None = None,
    end_age: int = GRID_END_AGE,
) -> tuple[GridRow, ...]:
    """Every month from the earliest commencement date to age ``end_age``, every form.

    One projected ledger serves every month (see ``estimate``); factors are cached by age in months.
    """
    core = _core(p, as_of, core)
    market = MarketData.from_assumptions(assumptions)
    inputs = account_inputs(p, core, market)
    first = start or earliest_commencement(p, as_of, core, inputs)
    last = first_of_month_on_or_after(date_attaining_age(p.birth_date, end_age))
    ledger = participant_ledger(p, as_of, market, core, through=last, inputs=inputs)
    if p.death_date is not None:  # the §5.12 survivor's window instead
        s = survivor_benefit(p, as_of, market, core, inputs)
        if s is None:
            return ()
        first, last = start or s.dates.earliest_start, s.dates.latest_start
    rows = []
    d = first
    while d <= last:
        if p.death_date is not None:
            e = survivor_estimate(p, as_of, market, core, inputs, d)
        else:
            e = estimate(p, as_of, market, core, d, ledger=ledger, inputs=inputs, with_relative_values=False)
        monthly = {k: f.monthly for k, f in e.forms.items() if f.monthly is not None}
        rows.append(
            GridRow(d, e.route, e.balance, monthly, e.lump_sum.amount if e.lump_sum else None, e.estimate)
        )
        d = add_months(d, 1)
    return tuple(rows)
