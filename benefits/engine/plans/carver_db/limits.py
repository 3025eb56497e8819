"""The Code §415 maximum as §6.1 states it, and the top-heavy minimum of §6.2(B).

§6.1 is pre-EGTRRA text (GAP-16): the dollar limit is reduced for a start before the Social Security
Retirement Age and the limits are prorated under 10 years. The dollar amount of the limitation year
comes from the shared dated parameters (the $90,000 of §6.1(A)(8) as adjusted under Code §415(d)).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from functools import cache
from typing import TYPE_CHECKING

from benefits.engine.dates import date_attaining_age as birthday
from benefits.engine.dates import first_of_month_on_or_after, months_between_firsts
from benefits.engine.numpy_on_first_use import NumpyOnFirstUse
from benefits.engine.trace import Trace, TraceBuilder, money, money_step
from benefits.engine.trace import factor as factor_of

from .forms import early_factor, late_factor

if TYPE_CHECKING:
    import numpy as np
else:
    np = NumpyOnFirstUse(globals())

ZERO = Decimal(0)
FIVE_PERCENT = 0.05


def social_security_retirement_age(birth_date: date) -> int:
    """§1.1(JJ): the Social Security Act §216(l) age without the age increase factor: 65 for births
    before 1938, 66 for 1938–1954, 67 after 1954."""
    if birth_date.year < 1938:
        return 65
    if birth_date.year <= 1954:
        return 66
    return 67


@cache
def _gatt_commutation() -> tuple[float, np.ndarray, np.ndarray]:
    """Monthly commutation columns at 5% on the GATT (1983 GAM 50/50) table: D = v^x·l(x), N = ΣD."""
    from benefits.engine.mortality import get_table

    table = get_table("gatt1983_unisex")
    ages = np.arange(table.min_age * 12, (table.max_age + 1) * 12 + 1) / 12.0
    d = (1.0 + FIVE_PERCENT) ** (-ages) * table.l(ages)
    n = np.cumsum(d[::-1])[::-1]
    return float(table.min_age), d, n


def _gatt_annuity_due(age: float, defer_years: float) -> float:
    """Monthly life annuity-due of 1 a year at 5% and the GATT table, deferred ``defer_years``
    (ages and deferrals to the nearest month)."""
    min_age, d, n = _gatt_commutation()
    i = int(round((age - min_age) * 12))
    j = min(i + int(round(defer_years * 12)), len(n) - 1)
    return float(n[j] / d[i] / 12.0)


@dataclass(frozen=True)
class Limit415:
    annual_limit: Decimal
    dollar_limit: Decimal
    compensation_limit: Decimal
    trace: Trace


def highest_average_compensation(compensation: Mapping[int, Decimal], years: Iterable[int]) -> Decimal:
    """§6.1(A): the highest average of 3 consecutive calendar years as a Participant (fewer: all)."""
    ys = sorted(y for y in years)
    if not ys:
        return ZERO
    vals = [Decimal(compensation.get(y, ZERO)) for y in range(ys[0], ys[-1] + 1)]
    if len(vals) < 3:
        return sum(vals, ZERO) / len(vals)
    return max(sum(vals[i : i + 3], ZERO) / 3 for i in range(len(vals) - 2))


def section_415_limit(
    *,
    birth_date: date,
    retirement_date: date,
    nrd: date,
    dollar_limit: Decimal,
    highest_average_comp: Decimal,
    participation_months: int,
    service_months: int,
    never_in_dc_plan: bool = False,
) -> Limit415:
    """The annual life-annuity limit at a Retirement Date, as §6.1(C) states it."""
    tb = TraceBuilder()
    tb.put(
        money_step(
            "Maximum Permissible Dollar Amount for the limitation year ($90,000 as adjusted under Code §415(d))",
            "§6.1(A)(8), §6.1(C)(5)",
            dollar_limit,
        )
    )
    ssra = social_security_retirement_age(birth_date)
    ssra_date = first_of_month_on_or_after(birthday(birth_date, ssra))
    age62 = first_of_month_on_or_after(birthday(birth_date, 62))
    limit = Decimal(dollar_limit)
    if retirement_date < ssra_date:
        early = months_between_firsts(retirement_date, ssra_date)
        first = min(early, 36)
        extra = min(max(0, months_between_firsts(max(retirement_date, age62), ssra_date) - 36), 24)
        if retirement_date >= age62:
            limit = limit * (1 - Decimal(5) / 900 * first - Decimal(5) / 1200 * extra)
            tb.step(
                "Start before the Social Security Retirement Age: the dollar limit is reduced 5/9 of 1% "
                "for each of the first 36 months and 5/12 of 1% for each further month",
                section="§6.1(C)(7)",
                result=money(limit),
                social_security_retirement_age=ssra,
                months_early=early,
            )
        else:
            at62 = limit * (
                1
                - Decimal(5) / 900 * min(months_between_firsts(age62, ssra_date), 36)
                - Decimal(5) / 1200 * min(max(0, months_between_firsts(age62, ssra_date) - 36), 24)
            )
            # The lesser of the plan's early basis (Table A) and 5% with the GATT table.
            plan_ratio = early_factor(months_between_firsts(retirement_date, nrd)) / early_factor(
                max(0, months_between_firsts(age62, nrd))
            )
            age_now = months_between_firsts(date(birth_date.year, birth_date.month, 1), retirement_date) / 12
            defer = months_between_firsts(retirement_date, age62) / 12
            gatt_ratio = _gatt_annuity_due(age_now, defer) / _gatt_annuity_due(age_now, 0.0)
            ratio = min(plan_ratio, Decimal(repr(gatt_ratio)))
            limit = at62 * ratio
            tb.step(
                "Start before 62: the age-62 limit reduced by the lesser of the plan's early "
                "commencement basis and 5% interest with the GATT mortality table",
                section="§6.1(C)(7)(c), Table A",
                result=money(limit),
                limit_at_62=money(at62),
                plan_ratio=factor_of(plan_ratio, 6),
                gatt_ratio=factor_of(gatt_ratio, 6),
            )
    elif retirement_date > ssra_date:
        # The lesser of the plan's late basis (the LRF counts no time after 12/31/2000) and 5%/GATT.
        stop = min(retirement_date, date(2001, 1, 1))
        plan_factor = late_factor(max(0, months_between_firsts(ssra_date, stop)))
        factor = plan_factor
        if plan_factor > 1:  # a deferral is worth at least 1 on 5%/GATT, so only then compare
            age_ssra = float(ssra)
            t = months_between_firsts(ssra_date, retirement_date) / 12
            deferred = _gatt_annuity_due(age_ssra, t)
            if deferred > 0:  # beyond the table's last age the deferral is worth nothing: use the plan's
                gatt_factor = _gatt_annuity_due(age_ssra, 0.0) / deferred
                factor = min(plan_factor, Decimal(repr(gatt_factor)))
        limit = limit * factor
        tb.step(
            "Start after the Social Security Retirement Age: the dollar limit increased by the lesser of "
            "the plan's late retirement basis and 5% with the GATT table",
            section="§6.1(C)(6)",
            result=money(limit),
            factor=factor_of(factor, 6),
        )
    comp_limit = Decimal(highest_average_comp)
    deminimis = Decimal(10000)
    if participation_months < 120:
        frac = max(Decimal(participation_months) / 120, Decimal("0.1"))
        limit = limit * frac
        tb.step(
            "Fewer than 10 years of participation: the dollar limit prorated",
            section="§6.1(C)(4)",
            result=money(limit),
            participation_months=participation_months,
        )
    if service_months < 120:
        frac = max(Decimal(service_months) / 120, Decimal("0.1"))
        comp_limit *= frac
        deminimis *= frac
        tb.step(
            "Fewer than 10 years of service: the compensation limit and the $10,000 prorated",
            section="§6.1(C)(4)",
            result=money(comp_limit),
            service_months=service_months,
        )
    annual = min(limit, comp_limit)
    tb.put(
        money_step(
            "Limit: the lesser of the dollar limit and 100% of Highest Average Compensation",
            "§6.1(C)(1)",
            annual,
            highest_average_compensation=highest_average_comp,
        )
    )
    if never_in_dc_plan and annual < deminimis:
        annual = deminimis
        tb.step(
            "The $10,000 de minimis benefit applies (never in a defined contribution plan of the Employer)",
            section="§6.1(C)(2)",
            result=money(annual),
        )
    return Limit415(annual, limit, comp_limit, tb.build())


def apply_415(annual: Decimal, limit: Limit415) -> tuple[Decimal, Trace]:
    """Cap a life-annuity amount at the §415 limit; the plan basis converts every form through the
    life amount, so the cap is tested on it (§6.1(C)(3))."""
    if annual <= limit.annual_limit:  # the limit did not bind: none of its steps made the benefit
        return annual, limit.trace.not_applied().with_step(
            money_step("The benefit is within the Code §415 limit", "§6.1", annual, applied=False)
        )
    return limit.annual_limit, limit.trace.with_step(
        money_step("The benefit is reduced to the Code §415 limit", "§6.1", limit.annual_limit)
    )


@dataclass(frozen=True)
class TopHeavyMinimum:
    annual: Decimal
    average_compensation: Decimal
    top_heavy_service_years: int
    trace: Trace


def top_heavy_minimum(
    *,
    compensation: Mapping[int, Decimal],
    top_heavy_years: Iterable[int],
    vesting_service_years: Iterable[int],
    key_employee: bool = False,
    average_all_if_fewer_than_5: bool = True,
) -> TopHeavyMinimum:
    """§6.2(B): 2% of the highest 5-consecutive-year average Section 415 Compensation (capped under
    §401(a)(17); years after the last Top-Heavy year excluded) × years of vesting Service completed
    in Top-Heavy years (at most 10), as a life annuity from NRD. Non-key employees only."""
    tb = TraceBuilder()
    th = set(top_heavy_years)
    if key_employee or not th:
        tb.step(
            "No top-heavy minimum: the plan was never Top-Heavy for him, or he is a Key Employee",
            section="§6.2(B)",
            result=money(ZERO),
            applied=False,
        )
        return TopHeavyMinimum(ZERO, ZERO, 0, tb.build())
    from benefits.engine.parameters import parameter  # only where the plan was ever Top-Heavy

    cap = parameter("irs_401a17_compensation_limit")
    last_th = max(th)
    years = sorted(y for y, v in compensation.items() if Decimal(v) > 0 and y <= last_th)
    if not years:
        return TopHeavyMinimum(ZERO, ZERO, 0, tb.build())

    def capped(y: int) -> Decimal:
        c = cap.at_or_none(date(y, 1, 1))
        v = Decimal(compensation.get(y, ZERO))
        return v if c is None else min(v, c)

    span = [capped(y) for y in range(years[0], years[-1] + 1)]
    if len(span) < 5:
        divisor = len(span) if average_all_if_fewer_than_5 else 5
        average = sum(span, ZERO) / divisor
    else:
        average = max(sum(span[i : i + 5], ZERO) / 5 for i in range(len(span) - 4))
    tb.step(
        "Average Section 415 Compensation of the 5 consecutive Plan Years with the highest pay (all "
        "years if fewer than 5), none after the last Top-Heavy year",
        section="§6.2(B)(1)",
        result=money(average),
        last_top_heavy_year=last_th,
    )
    th_service = min(10, len(th & set(vesting_service_years)))
    annual = Decimal("0.02") * average * th_service
    tb.step(
        "Top-heavy minimum: 2% of that average for each year of vesting Service in a Top-Heavy year "
        "(at most 10), a yearly life annuity from Normal Retirement Date",
        section="§6.2(B)",
        result=money(annual),
        top_heavy_service_years=th_service,
    )
    return TopHeavyMinimum(annual, average, th_service, tb.build())
