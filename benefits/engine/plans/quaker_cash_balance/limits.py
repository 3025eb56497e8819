"""Limits and small-benefit rules: the involuntary cash-out (§5.16), the top-heavy minimum (§7.2)
and the §415(b) check (§5.15) with its inputs explicit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

from benefits.engine.actuarial import life_annuity, life_annuity_factors, plan_basis, pure_endowment
from benefits.engine.dates import first_of_next_month
from benefits.engine.money import ZERO, to_decimal, to_money
from benefits.engine.mortality import MortalityTable
from benefits.engine.numpy_on_first_use import NumpyOnFirstUse
from benefits.engine.parameters import parameter
from benefits.engine.trace import Trace, money, rate
from benefits.engine.trace import factor as factor_of

from .settings import BenefitSettings

if TYPE_CHECKING:
    import numpy as np
else:
    np = NumpyOnFirstUse(globals())

TEN = Decimal(10)


def cash_out_threshold(on: date, settings: BenefitSettings) -> tuple[Decimal, str]:
    """$5,000 as the plan text says (§5.16), or the law's limit on ``on`` (GAP-6 setting)."""
    if settings.cash_out_threshold is not None:
        return settings.cash_out_threshold, "plan text §5.16"
    entry = parameter("irs_411a11_cash_out_limit").entry_at(on)
    return cast(Decimal, entry.value), entry.source


@dataclass(frozen=True)
class CashOut:
    required: bool
    threshold: Decimal
    tested_amount: Decimal
    commencement_date: date | None  # the first of the month after separation
    trace: Trace


def cash_out(
    *,
    separation: date | None,
    vested_balance: Decimal,
    settings: BenefitSettings,
    as_of: date,
    floor: Decimal | None = None,
    prior_distribution_over_limit: bool = False,
) -> CashOut:
    """§5.16: a vested balance of $5,000 or less at Separation from Service is paid in a lump sum,
    without consent, on the first of a month after the separation (unless it exceeded the limit at
    a prior distribution). AMBIG-18: the test may use the grandfathered lump-sum floor if larger."""
    on = first_of_next_month(separation) if separation else None
    threshold, source = cash_out_threshold(on or as_of, settings)
    tested = vested_balance
    if floor is not None and settings.cash_out_test_includes_floor and floor > tested:
        tested = floor
    required = bool(separation) and ZERO < tested <= threshold and not prior_distribution_over_limit
    reason = (
        "no Separation from Service"
        if not separation
        else "balance exceeded the limit at a prior distribution"
        if prior_distribution_over_limit
        else "nothing vested"
        if tested <= ZERO
        else f"vested balance {'within' if required else 'over'} the limit"
    )
    trace = Trace().add(
        f"Involuntary cash-out: {reason}",
        section="§5.16, §5.10(a)(iii)" + ("; AMBIG-18" if tested != vested_balance else ""),
        result=required,
        vested_balance=money(vested_balance),
        tested_amount=money(tested),
        threshold=money(threshold),
        threshold_source=source,
        commencement_date=on,
    )
    return CashOut(required, threshold, tested, on if required else None, trace)


def top_heavy_minimum_annual(top_heavy_years: int, average_compensation: Decimal) -> tuple[Decimal, Trace]:
    """§7.2: 2% of average Statutory Compensation per top-heavy Year of Vesting Service, at most
    20%: the minimum life annuity at NRD for a Non-Key Employee (before any §416(f) DC offset)."""
    pct = min(Decimal("0.02") * top_heavy_years, Decimal("0.20"))
    amount = to_money(pct * average_compensation)
    trace = Trace().add(
        "Top-heavy minimum: 2% × top-heavy years (at most 20%) × average Statutory Compensation",
        section="§7.2(a)",
        result=amount,
        years=top_heavy_years,
        average_compensation=money(average_compensation),
        percent=rate(pct * 100),
    )
    return amount, trace


@dataclass(frozen=True)
class Limit415:
    limit: Decimal | None  # None when the de minimis rule of §5.15(c) switches (a)(i),(ii) off
    passes: bool
    trace: Trace


def section_415b(
    annual_life_annuity: Decimal,
    *,
    dollar_limit: Decimal,
    high3_compensation: Decimal,
    years_of_participation: Decimal,
    years_of_service: Decimal,
    had_dc_plan: bool,
) -> Limit415:
    """§5.15(a),(c),(d): the annual straight life annuity ≤ the lesser of the dollar limit × years of
    participation/10 and the high-3 average × years of service/10 (fractions at least 1/10); off if
    the benefit is at most $10,000 × service/10 and there never was a Bank DC plan. The dollar
    limit passed must already be adjusted for age (§415(b)(2)(C),(D), basis B8) by the caller."""
    f_part, f_serv, de_minimis, limit = _limit_415b(
        annual_life_annuity,
        dollar_limit=dollar_limit,
        high3_compensation=high3_compensation,
        years_of_participation=years_of_participation,
        years_of_service=years_of_service,
        had_dc_plan=had_dc_plan,
    )
    if limit is None:
        trace = Trace().add(
            "§415(b): de minimis benefit, the dollar and pay limits do not apply",
            section="§5.15(c), (d)(ii)",
            result=True,
            annual_benefit=money(annual_life_annuity),
            de_minimis=money(de_minimis),
        )
        return Limit415(None, True, trace)
    passes = annual_life_annuity <= limit
    trace = Trace().add(
        "§415(b): annual life annuity against the lesser of the dollar and pay limits",
        section="§5.15(a), (d)",
        result=passes,
        annual_benefit=money(annual_life_annuity),
        dollar_limit=money(dollar_limit),
        participation_fraction=factor_of(f_part, 6),
        high3_compensation=money(high3_compensation),
        service_fraction=factor_of(f_serv, 6),
        limit=limit,
    )
    return Limit415(limit, passes, trace)


def _limit_415b(
    annual_life_annuity: Decimal,
    *,
    dollar_limit: Decimal,
    high3_compensation: Decimal,
    years_of_participation: Decimal,
    years_of_service: Decimal,
    had_dc_plan: bool,
) -> tuple[Decimal, Decimal, Decimal, Decimal | None]:
    """The numbers of ``section_415b`` without its trace (a price grid tests every month):
    (participation fraction, service fraction, de minimis amount, limit or None when de minimis)."""
    f_part = min(Decimal(1), max(years_of_participation / TEN, Decimal("0.1")))
    f_serv = min(Decimal(1), max(years_of_service / TEN, Decimal("0.1")))
    de_minimis = to_money(Decimal(10000) * f_serv)
    if not had_dc_plan and annual_life_annuity <= de_minimis:
        return f_part, f_serv, de_minimis, None
    return (
        f_part,
        f_serv,
        de_minimis,
        min(to_money(dollar_limit * f_part), to_money(high3_compensation * f_serv)),
    )


def age_adjusted_dollar_limit(
    dollar_limit: Decimal, *, age: float, table: MortalityTable, factor: float | None = None
) -> tuple[Decimal, str]:
    """§5.15(a)(i), §1.2(a),(c): the dollar limit actuarially reduced for a start before 62 (8%,
    Applicable Mortality Table) or increased for a start after 65 (5%). The plan's own words name the
    Social Security Retirement Age (pre-EGTRRA); 62 and 65 are the law since 2002 (GAP-6).
    ``factor``: the adjustment already computed for this age and table (``age_factors``)."""
    if 62 <= age <= 65:
        return dollar_limit, "no age adjustment between 62 and 65"
    if factor is None:
        factor = _age_factor(table, age)
    if age < 62:
        words = f"reduced for a start at {age:.2f} (8%, {table.name})"
    else:
        words = f"increased for a start at {age:.2f} (5%, {table.name})"
    return to_money(dollar_limit * to_decimal(factor)), words


@lru_cache(maxsize=8192)
def _age_factor(table: MortalityTable, age: float) -> float:
    if age < 62:
        basis = plan_basis(table, 0.08)
        at62 = life_annuity(basis, age, deferral=62 - age)  # value at x of 1 a year from 62
        return at62 / life_annuity(basis, age)
    basis = plan_basis(table, 0.05)
    return life_annuity(basis, 65.0) / (pure_endowment(basis, 65.0, age - 65) * life_annuity(basis, age))


def age_factors(
    table: MortalityTable,
    ages: Sequence[float],
    *,
    survival_cache: dict[tuple[Any, ...], np.ndarray] | None = None,
) -> list[float | None]:
    """``_age_factor`` for many ages at once (the vectorized annuity path; equal to the scalar
    factors bit for bit); None between 62 and 65, where there is no adjustment. The life factors
    are taken at every age, so a grid's survival matrix on ``table`` (``survival_cache``) serves."""
    out: list[float | None] = [None] * len(ages)
    young = [i for i, a in enumerate(ages) if a < 62]
    old = [i for i, a in enumerate(ages) if a > 65]
    if young:
        basis = plan_basis(table, 0.08)
        x = np.array([ages[i] for i in young])
        at62 = life_annuity_factors(basis, x, deferrals=62 - x)
        life = life_annuity_factors(basis, ages, survival_cache=survival_cache)
        for j, i in enumerate(young):
            out[i] = float(at62[j]) / float(life[i])
    if old:
        basis = plan_basis(table, 0.05)
        life = life_annuity_factors(basis, ages, survival_cache=survival_cache)
        at65 = life_annuity(basis, 65.0)
        for i in old:
            out[i] = at65 / (pure_endowment(basis, 65.0, ages[i] - 65) * float(life[i]))
    return out


@lru_cache(maxsize=8192)
def _life_factor(table: MortalityTable, rate: float, age: float) -> float:
    return life_annuity(plan_basis(table, rate), age)


def equivalent_rate(air: Decimal) -> float:
    """§1.2(b): a lump sum is converted at the greater of AIR and 8%."""
    return max(float(air), 0.08)


def high3_average(compensation: dict[int, Decimal] | object, from_year: int, to_year: int) -> Decimal:
    """§5.15(a)(ii): the average over the three consecutive calendar years as a Participant with the
    greatest aggregate (fewer years: the average of those there are). Plan Compensation stands in for
    Statutory Compensation (§1.54) until payroll supplies it."""
    years = [y for y in range(from_year, to_year + 1) if y in compensation]  # type: ignore[operator]
    if not years:
        return ZERO
    pay = [compensation[y] for y in years]  # type: ignore[index]
    if len(pay) <= 3:
        return sum(pay, ZERO) / len(pay)
    return max(sum(pay[i : i + 3], ZERO) for i in range(len(pay) - 2)) / 3


def lump_sum_annual_equivalent(
    lump: Decimal, *, age: float, air: Decimal, table: MortalityTable
) -> tuple[Decimal, float]:
    """§1.2(b): a lump sum's straight-life equivalent for §415, at the greater of AIR and 8%."""
    factor = _life_factor(table, equivalent_rate(air), age)
    return to_money(lump / to_decimal(factor)), factor
