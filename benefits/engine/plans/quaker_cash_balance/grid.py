"""The modeler's price grid: every month from the earliest commencement date to age 70, every form.

``price_grid`` prices every month in one pass: the ledger is built once and read at each date, and
the annuity factors of all dates are computed together on the vectorized path
(``actuarial.form_factors``, equal to the scalar factors bit for bit; ``pricing.py``, shared with the
one-pass contract path of ``dates.py``). The money is the scalar path's: the same Decimal
operations, rounded at the same points. ``price_grid_reference`` is the
scalar path (``estimate`` for each date, with its traces), kept as the reference the fast grid is
tested against, and used for what the fast grid does not price (a survivor's window, the
grandfathered 1999 minimum, the whipsaw setting).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from benefits.engine.core import CoreResult
from benefits.engine.dates import add_months, date_attaining_age, first_of_month_on_or_after
from benefits.engine.mortality import (
    LOADED_417E_KEY,
    loaded_417e_tables,
    parse_loaded_417e_tables,
    revrul_2001_62_reading,
)
from benefits.engine.types import Participant

from .account import participant_ledger
from .estimates import estimate
from .inputs import _core, _pd_money, _settings, account_inputs, earliest_commencement
from .ledger_entries import Ledger
from .market import MarketData
from .pricing import date_rows, price_rows
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


def _months(first: date, last: date) -> list[date]:
    out = []
    d = first
    while d <= last:
        out.append(d)
        d = add_months(d, 1)
    return out


def price_grid(
    p: Participant,
    as_of: date,
    assumptions: Mapping[str, Any],
    core: CoreResult | None = None,
    *,
    start: date | None = None,
    end_age: int = GRID_END_AGE,
) -> tuple[GridRow, ...]:
    """Every month from the earliest commencement date to age ``end_age``, every form (one pass)."""
    core = _core(p, as_of, core)
    # 2003–2007 dates' table on the plan's reading; §417(e)(3) tables loaded as inputs for their years
    tables = parse_loaded_417e_tables((assumptions or {}).get(LOADED_417E_KEY))
    with revrul_2001_62_reading(_settings(core).revrul_2001_62_reading), loaded_417e_tables(tables):
        return _price_grid(p, as_of, assumptions, core, start, end_age)


def _price_grid(
    p: Participant,
    as_of: date,
    assumptions: Mapping[str, Any],
    core: CoreResult,
    start: date | None,
    end_age: int,
) -> tuple[GridRow, ...]:
    if p.death_date is not None:
        return price_grid_reference(p, as_of, assumptions, core, start=start, end_age=end_age)
    market = MarketData.from_assumptions(assumptions)
    inputs = account_inputs(p, core, market)
    first = start or earliest_commencement(p, as_of, core, inputs)
    last = first_of_month_on_or_after(date_attaining_age(p.birth_date, end_age))
    dates = _months(first, last)
    if dates and (_pd_money(p, "dec31_1999_benefit") is not None or _settings(core).pay_whipsaw_projection):
        return price_grid_reference(p, as_of, assumptions, core, start=start, end_age=end_age)
    ledger = participant_ledger(p, as_of, market, core, through=last, inputs=inputs)
    return _price_rows(p, as_of, market, core, ledger, dates)


def _price_rows(
    p: Participant,
    as_of: date,
    market: MarketData,
    core: CoreResult,
    ledger: Ledger,
    dates: Sequence[date],
) -> tuple[GridRow, ...]:
    """``estimate`` for every date, without traces, its factors from one vectorized pass
    (``pricing.py``): every step is the one ``estimate`` takes for a participant alive, without the
    1999 minimum and without the whipsaw setting; the property tests compare the two over random
    participants and dates."""
    rows = date_rows(p, as_of, market, core, ledger, dates)
    price_rows(p, core, rows)
    return tuple(GridRow(r.d, r.route, r.balance, r.monthly, r.lump, r.estimate) for r in rows)


def price_grid_reference(
    p: Participant,
    as_of: date,
    assumptions: Mapping[str, Any],
    core: CoreResult | None = None,
    *,
    start: date | None = None,
    end_age: int = GRID_END_AGE,
) -> tuple[GridRow, ...]:
    """The scalar path: ``estimate`` (with its traces) for every month; the fast grid's reference."""
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
    for d in _months(first, last):
        if p.death_date is not None:
            e = survivor_estimate(p, as_of, market, core, inputs, d)
        else:
            e = estimate(p, as_of, market, core, d, ledger=ledger, inputs=inputs, with_relative_values=False)
        monthly = {k: f.monthly for k, f in e.forms.items() if f.monthly is not None}
        rows.append(
            GridRow(d, e.route, e.balance, monthly, e.lump_sum.amount if e.lump_sum else None, e.estimate)
        )
    return tuple(rows)


__all__ = ["GRID_END_AGE", "GridRow", "price_grid", "price_grid_reference"]
