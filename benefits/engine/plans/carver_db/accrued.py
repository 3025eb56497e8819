"""The Accrued Benefit of §3.1: the greatest of (A) the offset formula, (B) $25 a month of Credited
Service, (C) the Prior Plan Accrued Benefit and (D) the Accrued Benefit at 12/31/1997.

Every amount is ANNUAL, a Life-No Death Benefit payable from Normal Retirement Date (§1.1(A)).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from decimal import Decimal

from benefits.engine.dates import date_attaining_age, day_after
from benefits.engine.trace import Trace, TraceBuilder, money, number
from benefits.engine.types import EmploymentPeriod

from .credited_service import credited_service, projected_service_months
from .earnings import final_earnings, window_end_exclusive
from .settings import DEFAULT_SETTINGS, PLAN_FREEZE_DATE, BenefitSettings

ZERO = Decimal(0)
HALF = Decimal("0.5")
FIFTEEN_YEARS = 180  # months


@dataclass(frozen=True)
class AccruedBenefit:
    annual: Decimal  # full precision
    formula_a: Decimal
    minimum_b: Decimal
    prior_plan_c: Decimal
    as_of_1997_d: Decimal
    final_earnings: Decimal
    credited_months: int
    ratio: Decimal
    trace: Trace

    @property
    def monthly(self) -> Decimal:
        return self.annual / 12


def accrued_benefit(
    *,
    final_earnings: Decimal,
    social_security_amount: Decimal,
    credited_months: int,
    ceased_before_nrd: bool,
    projected_months: int | None = None,
    prior_plan_benefit: Decimal = ZERO,
    benefit_at_1997_12_31: Decimal = ZERO,
    max_offset_401l: Decimal | None = None,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> AccruedBenefit:
    """§3.1 from its inputs (annual amounts, Credited Service in months)."""
    tb = TraceBuilder()
    offset = HALF * social_security_amount
    if max_offset_401l is not None and offset > max_offset_401l:
        tb.step(
            "The offset is limited to the maximum allowed by Reg. §1.401(l)-3(b)(3) (GAP-4, stored value)",
            section="§3.1(A)(1)",
            result=money(max_offset_401l),
            half_of_social_security_amount=money(offset),
        )
        offset = max_offset_401l
    gross = max(ZERO, HALF * final_earnings - offset)
    tb.step(
        "50% of Final Earnings reduced by 50% of the Social Security Amount",
        section="§3.1(A)(1)",
        result=money(gross),
        final_earnings=money(final_earnings),
        social_security_amount=money(social_security_amount),
    )
    if not ceased_before_nrd:
        ratio = Decimal(min(credited_months, FIFTEEN_YEARS)) / FIFTEEN_YEARS
        tb.step(
            "Employment did not cease before Normal Retirement Date: years of Credited Service "
            "(at most 15) over 15",
            section="§3.1(A)(2)(a)",
            result=number(ratio),
            credited_months=credited_months,
        )
    else:
        projected = credited_months if projected_months is None else projected_months
        denominator = max(FIFTEEN_YEARS, projected)
        ratio = Decimal(credited_months) / Decimal(denominator)
        tb.step(
            "Employment ceased before Normal Retirement Date: years of Credited Service over the "
            "greater of 15 and the years he would have had at Normal Retirement Date",
            section="§3.1(A)(2)(b)",
            result=number(ratio),
            credited_months=credited_months,
            projected_months=projected,
        )
    formula_a = gross * ratio
    minimum_b = settings.minimum_benefit_per_month * credited_months
    prior_c = Decimal(prior_plan_benefit)
    d_1997 = Decimal(benefit_at_1997_12_31)
    annual = max(formula_a, minimum_b, prior_c, d_1997)
    # Each amount is compared; the ones below the greatest did not make the benefit (applied=False).
    tb.step("Amount (A)", section="§3.1(A)(2)", result=money(formula_a), applied=formula_a == annual)
    tb.step(
        "Amount (B): $25 for each month of Credited Service (an annual amount)",
        section="§3.1(B)",
        result=money(minimum_b),
        applied=minimum_b == annual and formula_a != annual,
        credited_months=credited_months,
    )
    if prior_c:
        tb.step(
            "Amount (C): the Prior Plan Accrued Benefit (stored)",
            section="§3.1(C)",
            result=money(prior_c),
            applied=prior_c == annual and annual not in (formula_a, minimum_b),
        )
    if d_1997:
        tb.step(
            "Amount (D): the Accrued Benefit at 12/31/1997 (stored)",
            section="§3.1(D)",
            result=money(d_1997),
            applied=d_1997 == annual and annual not in (formula_a, minimum_b, prior_c),
        )
    tb.step(
        "Accrued Benefit: the greatest of (A), (B), (C) and (D), a yearly life annuity from "
        "Normal Retirement Date",
        section="§3.1, §1.1(A)",
        result=money(annual),
    )
    return AccruedBenefit(
        annual, formula_a, minimum_b, prior_c, d_1997, final_earnings, credited_months, ratio, tb.build()
    )


@dataclass(frozen=True)
class AccrualData:
    """What §3.1 needs about one participant (the participant record read once)."""

    periods: tuple[EmploymentPeriod, ...]
    compensation: Mapping[int, Decimal]
    social_security_amount: Decimal
    nrd: date
    termination_date: date | None = None  # the earliest of termination, retirement or death
    prior_plan_benefit: Decimal = ZERO
    benefit_at_1997_12_31: Decimal = ZERO
    max_offset_401l: Decimal | None = None
    years_of_service: int | None = None  # for the fewer-than-3-years rule of §1.1(P)
    hours: Mapping[int, int] = field(default_factory=dict)


def accrued_at(
    data: AccrualData,
    *,
    up_to: date | None = None,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> AccruedBenefit:
    """The Accrued Benefit with Final Earnings and Credited Service up to ``up_to`` (exclusive), the
    termination date, or the freeze, whichever is first.

    Without ``up_to`` this is the frozen Accrued Benefit the participant keeps (§5.2(A), §4.4(A)).
    ``up_to`` is how §4.2 measures B(NRD) and B(Plan Year end) for late retirement.
    """
    tb = TraceBuilder()
    event = data.termination_date
    end_excl = window_end_exclusive(event, settings)
    if up_to is not None:
        end_excl = min(end_excl, up_to)
    fe = final_earnings(
        data.compensation, end_excl, years_of_service=data.years_of_service, settings=settings
    )
    tb.include(fe.trace)
    periods = _periods_to(data.periods, event)
    cs = credited_service(periods, up_to=up_to, settings=settings)
    tb.include(cs.trace)
    ceased = event is not None and event < data.nrd
    projected = None
    if ceased:
        projected, ptrace = projected_service_months(periods, data.nrd, settings=settings)
        tb.include(ptrace)
    ab = accrued_benefit(
        final_earnings=fe.amount,
        social_security_amount=data.social_security_amount,
        credited_months=cs.months,
        ceased_before_nrd=ceased,
        projected_months=projected,
        prior_plan_benefit=data.prior_plan_benefit,
        benefit_at_1997_12_31=data.benefit_at_1997_12_31,
        max_offset_401l=data.max_offset_401l,
        settings=settings,
    )
    tb.include(ab.trace)
    trace = tb.build()
    if trace is ab.trace:  # nothing traced (both the one empty trace): the same figures, as they are
        return ab
    return AccruedBenefit(
        ab.annual,
        ab.formula_a,
        ab.minimum_b,
        ab.prior_plan_c,
        ab.as_of_1997_d,
        ab.final_earnings,
        ab.credited_months,
        ab.ratio,
        trace,
    )


def _periods_to(periods: tuple[EmploymentPeriod, ...], event: date | None) -> tuple[EmploymentPeriod, ...]:
    """Employment periods ended no later than the event (termination, retirement or death)."""
    if event is None:
        return periods
    out = tuple(
        EmploymentPeriod(p.start, event if p.end is None or p.end > event else p.end)
        for p in periods
        if p.start <= event
    )
    return out or periods[:1]


def falling_earnings_floor(
    data: AccrualData,
    birth_date: date,
    *,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> tuple[Decimal, Trace]:
    """§3.1: a fall in Final Earnings never leaves the NRD benefit below what he would have had had
    his Service ceased earlier while eligible for an immediate income (age 55, before the freeze).

    Final Earnings move only at calendar-year ends, so each Plan Year end from age 55 to the earlier
    of NRD and the freeze is tested (and the 55th birthday itself).
    """
    tb = TraceBuilder()
    at55 = date_attaining_age(birth_date, 55)
    stop = min(data.nrd, day_after(PLAN_FREEZE_DATE))
    if data.termination_date is not None:
        stop = min(stop, data.termination_date)
    if at55 >= stop:
        return Decimal(0), tb.build()
    points = [at55] + [date(y, 1, 1) for y in range(at55.year + 1, stop.year + 1) if date(y, 1, 1) < stop]
    best = Decimal(0)
    for x in points:
        ceased = replace(data, termination_date=x - timedelta(days=1))
        best = max(best, accrued_at(ceased, settings=settings).annual)
    tb.step(
        "Highest benefit had his Service ceased earlier at 55 or over (protection against a fall in "
        "Final Earnings)",
        section="§3.1",
        result=money(best),
        dates_tested=points,
    )
    return best, tb.build()
