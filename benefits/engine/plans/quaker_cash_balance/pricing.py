"""Many commencement dates priced together, without traces: the price grid's and the one-pass
contract path's shared arithmetic.

``date_rows`` takes, for each date, the scalar steps of ``estimate`` that need no annuity factor (the
balance before the date, the vested percent, the route, the §5.16 threshold, the Applicable basis);
``price_rows`` then computes every date's annuity factors on the vectorized path (``form_factors``,
equal to the scalar factors bit for bit) and posts the money with ``estimate``'s Decimal steps,
rounded at the same points: the life annuity (§1.2(g)), the §415(b) limit and the lump sum's
equivalent (``apply_415``), the optional forms (``retirement_forms``, ``immediate_vested_forms``) and
each form held to the limit converted to it (``limit_forms_415``). Not covered here, so left to the
scalar path by the callers: a participant who died, the grandfathered 1999 minimum.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

from benefits.engine.actuarial import Basis, Form, form_factors
from benefits.engine.core import CoreResult
from benefits.engine.dates import months_between
from benefits.engine.money import to_decimal, to_money, to_money_down
from benefits.engine.mortality import MortalityTable
from benefits.engine.numpy_on_first_use import NumpyOnFirstUse
from benefits.engine.parameters import ParameterNotInForce, parameter
from benefits.engine.types import Participant

from .annuity import ApplicableBasis, age_at, applicable_basis
from .estimates import _route, _vested_percent_on
from .forms import (
    CERTAIN_FORMS,
    SURVIVOR_FORMS,
    _form,
    form_limit_monthly,
    general_basis,
    limit_basis,
    survivor_disregarded,
)
from .inputs import _pd_date, _settings, vested_amount
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

if TYPE_CHECKING:
    import numpy as np
else:
    np = NumpyOnFirstUse(globals())


@dataclass
class DateRow:
    """One date's figures: the scalar parts (``date_rows``), then the priced ones (``price_rows``)."""

    d: date
    route: str
    balance: Decimal
    vested: Decimal
    estimate: bool
    percent: Decimal  # the vested percent the date is priced on (100 under the AMBIG-2 reading)
    unvested_early: bool = False  # AMBIG-2: the Early Retirement Benefit though not yet vested
    basis: ApplicableBasis | None = None  # None: nothing vested, nothing priced
    age: float = 0.0
    threshold: Decimal = Decimal(0)
    cash_out: bool = False  # §5.16: the vested balance is paid as a lump sum without consent
    lump: Decimal | None = None  # the lump sum payable (after the §415(b) limit)
    monthly: dict[str, Decimal] = field(default_factory=dict)  # form key → monthly amount
    limit: Decimal | None = None  # the annual §415(b) limit (None: not applied)
    life_limited: bool = False  # the life annuity was cut to the limit
    lump_limited: bool = False  # the lump sum was cut to the limit
    reduced: list[str] = field(default_factory=list)  # forms cut to the limit converted to them


def date_rows(
    p: Participant, as_of: date, market: MarketData, core: CoreResult, ledger: Ledger, dates: Sequence[date]
) -> list[DateRow]:
    """``estimate``'s steps before any annuity factor, for each date (the first of a month)."""
    settings = _settings(core)
    estimated_from = ledger.estimated_from
    rows: list[DateRow] = []
    for d in dates:
        balance = ledger.balance_before(d)
        est = (estimated_from is not None and estimated_from < d) or d > as_of
        pct = _vested_percent_on(d, core)
        vested = vested_amount(balance, pct)
        route = _route(d, core)
        row = DateRow(d, route, balance, vested, est, pct)
        if vested <= 0 and route == "early" and core.service.employed and balance > 0:
            row.percent, row.vested, row.unvested_early = Decimal(100), balance, True  # AMBIG-2
        if row.vested <= 0:
            row.route = "not_vested"
            rows.append(row)
            continue
        row.threshold, _ = cash_out_threshold(d, settings)
        row.basis, row.age = applicable_basis(d, market), age_at(p.birth_date, d)
        row.cash_out = row.vested <= row.threshold  # the lump sum is the vested balance (no 1999 minimum)
        rows.append(row)
    return rows


def price_rows(
    p: Participant,
    core: CoreResult,
    rows: Sequence[DateRow],
    lumps: Sequence[Decimal] | None = None,
    survival: dict[tuple[Any, ...], np.ndarray] | None = None,
) -> None:
    """Every row's forms, lump sum and §415(b) limit, its factors from one vectorized pass.

    ``lumps``: each row's lump sum before the limit (the projection value where the plan pays it,
    GAP-3); by default its vested balance. A cash-out row's lump sum is that, without the limit."""
    settings = _settings(core)
    for i, r in enumerate(rows):
        if r.basis is not None:
            r.lump = r.vested if lumps is None else lumps[i]
    priced = [r for r in rows if r.basis is not None and not r.cash_out]
    factors = _Factors(survival)

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
    for i, r in enumerate(priced):
        table = cast(ApplicableBasis, r.basis).table
        monthly = to_money(r.vested / (12 * to_decimal(life[i])))
        lump: Decimal = r.lump  # type: ignore[assignment]
        year = r.d.year
        if year not in dollar_cache:
            try:
                dollar_cache[year] = parameter("irs_415b_dollar_limit").at(date(year, 12, 31))
            except ParameterNotInForce:
                dollar_cache[year] = None
        dollar = dollar_cache[year]
        if dollar is not None:
            adjusted, _ = age_adjusted_dollar_limit(dollar, age=r.age, table=table, factor=age_factor[i])
            if year not in high3_cache:
                high3_cache[year] = high3_average(p.compensation, entry.year, year)
            r.limit = _limit_415b(
                monthly * 12,
                dollar_limit=adjusted,
                high3_compensation=high3_cache[year],
                years_of_participation=Decimal(months_between(entry, r.d)) / 12,
                years_of_service=service_years,
                had_dc_plan=had_dc,
            )[3]
            if r.limit is not None:
                if not monthly * 12 <= r.limit:
                    monthly, r.life_limited = to_money_down(r.limit / 12), True
                factor = to_decimal(equivalent[i])
                if to_money(lump / factor) > r.limit:
                    lump, r.lump_limited = to_money_down(r.limit * factor), True
        r.lump = lump
        r.monthly = {"life": monthly}
        ratios = {key: life_f / form_f for key, form_f, life_f in by_limit[i]}
        for key, form_f, life_f in by_form[i]:
            if r.route == "vested_immediate":
                amount = to_money(r.vested / (12 * to_decimal(form_f)))
            else:
                amount = to_money(monthly * to_decimal(life_f / form_f))
            if r.limit is not None:  # ``limit_forms_415``: no form above the limit converted to it
                cap = form_limit_monthly(
                    r.limit, key, table=table, age_m=0, spouse_m=None,
                    disregard_survivor=key not in ratios, ratio=ratios.get(key),
                )  # fmt: skip
                if amount > cap:
                    amount = cap
                    r.reduced.append(key)
            r.monthly[key] = amount


@lru_cache(maxsize=64)  # a few tables and rates; the same Basis object keeps the factor caches warm
def general_like(table: MortalityTable, rate: float) -> Basis:
    """The §1.2(b) equivalence basis of ``limits._life_factor``: the table at ``rate``."""
    from benefits.engine.actuarial import plan_basis

    return plan_basis(table, rate)


class _Factors:
    """Factors for many (basis, age) requests, computed by basis on the vectorized path; the
    survival matrices are shared between the bases on the same table."""

    def __init__(self, survival: dict[tuple[Any, ...], np.ndarray] | None = None) -> None:
        self.survival: dict[tuple[Any, ...], np.ndarray] = {} if survival is None else survival

    def by_basis(
        self, requests: Sequence[tuple[Basis, float]], deferrals: Sequence[float] | None = None
    ) -> list[float]:
        """Life annuity factors, one per request, in order (each deferred by ``deferrals[i]`` years)."""
        out = [0.0] * len(requests)
        groups: dict[Basis, list[int]] = {}
        for i, (basis, _) in enumerate(requests):
            groups.setdefault(basis, []).append(i)
        for basis, idx in groups.items():
            values = form_factors(
                basis,
                Form.life(),
                [requests[i][1] for i in idx],
                deferrals=0.0 if deferrals is None else [deferrals[i] for i in idx],
                survival_cache=self.survival if deferrals is None else None,
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
