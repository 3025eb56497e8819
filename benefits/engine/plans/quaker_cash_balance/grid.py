"""The modeler's price grid: every month from the earliest commencement date to age 70, every form.

``price_grid`` prices every month in one pass: the ledger is built once and read at each date, and
the annuity factors of all dates are computed together on the vectorized path
(``actuarial.form_factors``, equal to the scalar factors bit for bit). The money is the scalar
path's: the same Decimal operations, rounded at the same points. ``price_grid_reference`` is the
scalar path (``estimate`` for each date, with its traces), kept as the reference the fast grid is
tested against, and used for what the fast grid does not price (a survivor's window, the
grandfathered 1999 minimum, the whipsaw setting).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from functools import lru_cache
from typing import Any

import numpy as np

from benefits.engine.actuarial import Basis, Form, form_factors
from benefits.engine.core import CoreResult
from benefits.engine.dates import (
    add_months,
    date_attaining_age,
    first_of_month_on_or_after,
    months_between,
)
from benefits.engine.money import to_decimal, to_money, to_money_down
from benefits.engine.mortality import (
    LOADED_417E_KEY,
    MortalityTable,
    loaded_417e_tables,
    parse_loaded_417e_tables,
    revrul_2001_62_reading,
)
from benefits.engine.parameters import ParameterNotInForce, parameter
from benefits.engine.types import Participant

from .account import participant_ledger
from .annuity import ApplicableBasis, age_at, applicable_basis
from .estimates import _route, _vested_percent_on, estimate
from .forms import (
    CERTAIN_FORMS,
    SURVIVOR_FORMS,
    _form,
    form_limit_monthly,
    general_basis,
    limit_basis,
    survivor_disregarded,
)
from .inputs import (
    AccountInputs,
    _core,
    _pd_date,
    _pd_money,
    _settings,
    account_inputs,
    earliest_commencement,
    vested_amount,
)
from .ledger_entries import Ledger
from .limits import (
    _limit_415b,
    age_adjusted_dollar_limit,
    age_factors,
    cash_out_threshold,
    equivalent_rate,
    high3_average,
)
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
    return _price_rows(p, as_of, market, core, inputs, ledger, dates)


@dataclass
class _Row:
    """One date's figures between the passes (the scalar parts first, then the factors)."""

    d: date
    route: str
    balance: Decimal
    vested: Decimal
    estimate: bool
    basis: ApplicableBasis | None = None
    age: float = 0.0
    cash_out: bool = False


def _price_rows(
    p: Participant,
    as_of: date,
    market: MarketData,
    core: CoreResult,
    inputs: AccountInputs,
    ledger: Ledger,
    dates: Sequence[date],
) -> tuple[GridRow, ...]:
    """``estimate`` for every date, without traces, its factors from one vectorized pass.

    Every step below is the one ``estimate`` (and ``lump_sum``, ``apply_415``, ``retirement_forms``,
    ``immediate_vested_forms``) takes for a participant alive, without the 1999 minimum and without
    the whipsaw setting; the property tests compare the two over random participants and dates.
    """
    settings = _settings(core)
    estimated_from = ledger.estimated_from
    rows: list[_Row] = []
    for d in dates:
        balance = ledger.balance_before(d)
        est = (estimated_from is not None and estimated_from < d) or d > as_of
        pct = _vested_percent_on(d, core)
        vested = vested_amount(balance, pct)
        route = _route(d, core)
        if vested <= 0 and route == "early" and core.service.employed and balance > 0:
            vested = balance  # AMBIG-2, as ``estimate`` reads it
        if vested <= 0:
            rows.append(_Row(d, "not_vested", balance, vested, est))
            continue
        threshold, _ = cash_out_threshold(d, settings)
        row = _Row(d, route, balance, vested, est, applicable_basis(d, market), age_at(p.birth_date, d))
        row.cash_out = vested <= threshold  # the lump sum is the vested balance (no 1999 minimum)
        rows.append(row)
    priced = [r for r in rows if r.basis is not None and not r.cash_out]
    factors = _Factors()

    # The life annuity the account buys at each date (§1.2(g)), on each date's Applicable basis.
    life = factors.by_basis([(r.basis.basis, r.age) for r in priced])  # type: ignore[union-attr]
    # §415: the limitation year's dollar amount, adjusted for age (8% / 5%, the Applicable table).
    limit_ages: dict[MortalityTable, list[int]] = {}
    for i, r in enumerate(priced):
        limit_ages.setdefault(r.basis.table, []).append(i)  # type: ignore[union-attr]
    age_factor: list[float | None] = [None] * len(priced)
    for table, idx in limit_ages.items():
        adjust = age_factors(table, [priced[i].age for i in idx], survival_cache=factors.survival)
        for i, f in zip(idx, adjust, strict=True):
            age_factor[i] = f
    equivalent = factors.by_basis(
        [(general_like(r.basis.table, equivalent_rate(r.basis.rate.value)), r.age) for r in priced]  # type: ignore[union-attr]
    )
    # The forms' conversion factors: the general basis (UP-84 at 8%) or the Applicable one (setting).
    spouse = p.spouse_birth_date or _pd_date(p, "contingent_annuitant_birth_date")
    form_rows: list[tuple[Basis, str, int, int | None]] = []
    limit_rows: list[tuple[Basis, str, int, int | None]] = []  # §415(b) converted to each form (§1.2(a))
    for r in priced:
        if r.route == "vested_immediate":
            basis = r.basis.basis  # type: ignore[union-attr]
            spouse_m = months_between(p.spouse_birth_date, r.d) if p.spouse_birth_date else None
            keys = ["js50"] if spouse_m is not None else []
        else:
            basis = (
                general_basis(settings.form_conversion_interest)
                if settings.form_conversion_basis == "up84_8pct"
                else r.basis.basis  # type: ignore[union-attr]
            )
            spouse_m = months_between(spouse, r.d) if spouse else None
            keys = list(CERTAIN_FORMS) + (list(SURVIVOR_FORMS) if spouse_m is not None else [])
        age_m = months_between(p.birth_date, r.d)
        form_rows.append((basis, "life" if r.route != "vested_immediate" else "", age_m, None))
        form_rows.extend((basis, k, age_m, spouse_m if k in SURVIVOR_FORMS else None) for k in keys)
        lb = limit_basis(r.basis.table)  # type: ignore[union-attr]
        limit_rows.append((lb, "life", age_m, None))
        limit_rows.extend(
            (lb, k, age_m, spouse_m if k in SURVIVOR_FORMS else None)
            for k in keys
            if not survivor_disregarded(k, married=p.is_married, spouse_birth_date=p.spouse_birth_date)
        )
    by_form = factors.forms(form_rows)
    by_limit = factors.forms(limit_rows)

    dollar_cache: dict[int, Decimal | None] = {}
    high3_cache: dict[int, Decimal] = {}
    entry = core.participation_date or p.hire_date
    service_years = Decimal(core.service.total_years)
    had_dc = bool(p.plan_data.get("had_dc_plan", True))
    out: list[GridRow] = []
    k = 0
    for r in rows:
        if r.basis is None:
            out.append(GridRow(r.d, r.route, r.balance, {}, None, r.estimate))
            continue
        if r.cash_out:
            out.append(GridRow(r.d, r.route, r.balance, {}, r.vested, r.estimate))
            continue
        i = k
        k += 1
        monthly = to_money(r.vested / (12 * to_decimal(life[i])))
        lump = r.vested
        limit = None
        year = r.d.year
        if year not in dollar_cache:
            try:
                dollar_cache[year] = parameter("irs_415b_dollar_limit").at(date(year, 12, 31))
            except ParameterNotInForce:
                dollar_cache[year] = None
        dollar = dollar_cache[year]
        if dollar is not None:
            adjusted, _ = age_adjusted_dollar_limit(
                dollar, age=r.age, table=r.basis.table, factor=age_factor[i]
            )
            if year not in high3_cache:
                high3_cache[year] = high3_average(p.compensation, entry.year, year)
            limit = _limit_415b(
                monthly * 12,
                dollar_limit=adjusted,
                high3_compensation=high3_cache[year],
                years_of_participation=Decimal(months_between(entry, r.d)) / 12,
                years_of_service=service_years,
                had_dc_plan=had_dc,
            )[3]
            if limit is not None:
                if not monthly * 12 <= limit:
                    monthly = to_money_down(limit / 12)
                factor = to_decimal(equivalent[i])
                if to_money(lump / factor) > limit:
                    lump = to_money_down(limit * factor)
        amounts = {"life": monthly}
        ratios = {key: life_f / form_f for key, form_f, life_f in by_limit[i]}
        for key, form_f, life_f in by_form[i]:
            if r.route == "vested_immediate":
                amount = to_money(r.vested / (12 * to_decimal(form_f)))
            else:
                amount = to_money(monthly * to_decimal(life_f / form_f))
            if limit is not None:  # ``limit_forms_415``: no form above the limit converted to it
                cap = form_limit_monthly(
                    limit, key, table=r.basis.table, age_m=0, spouse_m=None,
                    disregard_survivor=key not in ratios, ratio=ratios.get(key),
                )  # fmt: skip
                amount = min(amount, cap)
            amounts[key] = amount
        out.append(GridRow(r.d, r.route, r.balance, amounts, lump, r.estimate))
    return tuple(out)


@lru_cache(maxsize=64)  # a few tables and rates; the same Basis object keeps the factor caches warm
def general_like(table: MortalityTable, rate: float) -> Basis:
    """The §1.2(b) equivalence basis of ``limits._life_factor``: the table at ``rate``."""
    from benefits.engine.actuarial import plan_basis

    return plan_basis(table, rate)


class _Factors:
    """Factors for many (basis, age) requests, computed by basis on the vectorized path; the
    survival matrices are shared between the bases on the same table."""

    def __init__(self) -> None:
        self.survival: dict[tuple[Any, ...], np.ndarray] = {}

    def by_basis(self, requests: Sequence[tuple[Basis, float]]) -> list[float]:
        """Life annuity factors, one per request, in order."""
        out = [0.0] * len(requests)
        groups: dict[Basis, list[int]] = {}
        for i, (basis, _) in enumerate(requests):
            groups.setdefault(basis, []).append(i)
        for basis, idx in groups.items():
            values = form_factors(
                basis, Form.life(), [requests[i][1] for i in idx], survival_cache=self.survival
            )
            for i, v in zip(idx, values, strict=True):
                out[i] = float(v)
        return out

    def forms(
        self, requests: Sequence[tuple[Basis, str, int, int | None]]
    ) -> list[list[tuple[str, float, float]]]:
        """For each priced date (requests grouped: its ``life`` request, then its forms): the list of
        (form key, form factor, life factor) at the ages in months, as ``forms._ratio`` gives them."""
        groups: dict[tuple[Basis, str], list[int]] = {}
        for i, (basis, key, _, _) in enumerate(requests):
            if key:
                groups.setdefault((basis, key), []).append(i)
        value = [0.0] * len(requests)
        # Survivor forms first: their payment grids are the longest (the younger life), so the
        # participant's survival matrix is made once, wide enough for the other forms too.
        ordered = sorted(groups.items(), key=lambda g: g[0][1] not in SURVIVOR_FORMS)
        for (basis, key), idx in ordered:
            ages = [requests[i][2] / 12.0 for i in idx]
            spouses = (
                [requests[i][3] / 12.0 for i in idx]  # type: ignore[operator]
                if key in SURVIVOR_FORMS
                else None
            )
            values = form_factors(basis, _form(key), ages, spouses, survival_cache=self.survival)
            for i, v in zip(idx, values, strict=True):
                value[i] = float(v)
        out: list[list[tuple[str, float, float]]] = []
        life_f = 0.0
        for i, (_, key, _, _) in enumerate(requests):
            if key in ("life", ""):  # a date's first request ("": no life factor needed)
                out.append([])
                life_f = value[i]
            else:
                out[-1].append((key, value[i], life_f))
        return out


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
