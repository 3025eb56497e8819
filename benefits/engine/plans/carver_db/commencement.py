"""When the benefit starts and how its amount moves with the start (§3.2, §4.1–§4.4, §5.1–§5.2).

All amounts are annual Life-No Death Benefit amounts; the form factors are applied afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from benefits.engine.dates import date_attaining_age as birthday
from benefits.engine.dates import day_after, first_of_month_on_or_after, months_between_firsts
from benefits.engine.trace import Trace, TraceBuilder, money, money_step
from benefits.engine.trace import factor as factor_of

from .accrued import AccrualData, accrued_at
from .forms import early_factor, late_factor, table_a_places
from .settings import DEFAULT_SETTINGS, PLAN_FREEZE_DATE, BenefitSettings

EARLIEST_AGE = 55
LRF_STOP = day_after(PLAN_FREEZE_DATE)  # Table A: "not beyond December 31, 2000" (counted to 1/1/2001)


def earliest_commencement_date(
    birth_date: date, termination_date: date | None, hire_date: date | None = None
) -> date:
    """First of the month on or after both age 55 and the day after employment ends (§4.3, §5.1).

    While employed the participant must retire first, so an active participant's earliest date is
    modelled as if he retired the day before it (and never before he was hired).
    """
    at_55 = birthday(birth_date, EARLIEST_AGE)
    after_term = day_after(termination_date) if termination_date else at_55
    after_hire = day_after(hire_date) if hire_date else at_55
    return first_of_month_on_or_after(max(at_55, after_term, after_hire))


@dataclass(frozen=True)
class StartAmount:
    """The annual life amount payable from a Retirement Date, before any form factor."""

    retirement_date: date
    annual: Decimal
    factor: Decimal  # ERF (<1), LRF-driven increase (>1) or 1
    kind: str  # "early", "normal", "late", "deferred"
    trace: Trace


def early_amount(
    base_at_nrd: Decimal, nrd: date, retirement_date: date, settings: BenefitSettings = DEFAULT_SETTINGS
) -> StartAmount:
    """§4.4(B), §5.2(B): the amount at NRD times the Early Commencement Adjustment Factor."""
    months = months_between_firsts(retirement_date, nrd)
    factor = early_factor(months, settings)
    annual = base_at_nrd * factor
    trace = Trace().add(
        f"Starting {months} months before Normal Retirement Date: the amount payable at Normal "
        "Retirement Date times the Early Commencement Adjustment Factor (by month, rounded to .01)",
        section="§4.4(B), §5.2(B), Table A",
        result=money(annual),
        amount_at_nrd=money(base_at_nrd),
        factor=factor_of(factor, table_a_places(settings)),
        months_before_nrd=months,
    )
    return StartAmount(retirement_date, annual, factor, "early", trace)


def late_amount(
    data: AccrualData, nrd: date, late_retirement_date: date, settings: BenefitSettings = DEFAULT_SETTINGS
) -> StartAmount:
    """§4.2 for employment continuing past NRD: the greatest of B(NRD) × LRF, B(LRD) and the
    Plan-Year-end recursion, every measure stopping at 12/31/2000 (Table A)."""
    tb = TraceBuilder()

    def b(at: date) -> Decimal:
        return accrued_at(data, up_to=min(at, LRF_STOP), settings=settings).annual

    def lrf(at: date) -> Decimal:
        return late_factor(max(0, months_between_firsts(nrd, min(at, LRF_STOP))), settings)

    b_nrd = b(nrd)
    t_lrd = min(late_retirement_date, LRF_STOP)
    one = b_nrd * lrf(t_lrd)
    two = b(t_lrd)
    tb.step(
        "Amount at Normal Retirement Date times the Late Retirement Adjustment Factor (no increase "
        "for time after 12/31/2000)",
        section="§4.2(A)(1), Table A",
        result=money(one),
        amount_at_nrd=money(b_nrd),
        lrf=factor_of(lrf(t_lrd), table_a_places(settings)),
    )
    tb.step(
        "Amount from Final Earnings and Credited Service to retirement, but not later than 12/31/2000",
        section="§4.2(A)(2)",
        result=money(two),
    )
    best = max(one, two)
    carried: Decimal | None = None
    prior_point: date | None = None
    for year in range(nrd.year, min(late_retirement_date.year - 1, PLAN_FREEZE_DATE.year) + 1):
        point = date(year + 1, 1, 1)  # the Plan Year end 12/31/year, counted through that day
        value = max(b_nrd * lrf(point), b(point))
        if carried is not None:
            carry = carried
            if settings.lrf_recursion == "R2" and prior_point is not None:
                carry = carried * lrf(point) / lrf(prior_point)
            value = max(value, carry)
        carried, prior_point = value, point
        tb.step(
            f"Greatest amount determined at the Plan Year end 12/31/{year}",
            section="§4.2(B)(3), §4.2(C)(3)",
            result=money(value),
            lrf=factor_of(lrf(point), table_a_places(settings)),
        )
    if carried is not None and prior_point is not None:
        three = carried * lrf(t_lrd) / lrf(prior_point)
        tb.step(
            "Plan Year end amount times the ratio of the LRF to the Prior LRF",
            section="§4.2(B)(3), §4.2(C)(3)",
            result=money(three),
        )
        best = max(best, three)
    tb.step("Late retirement income: the greatest of these amounts", section="§4.2", result=money(best))
    factor = best / b_nrd if b_nrd else Decimal(1)
    return StartAmount(late_retirement_date, best, factor, "late", tb.build())


def life_amount_at(
    data: AccrualData,
    base_at_nrd: Decimal,
    nrd: date,
    retirement_date: date,
    *,
    employed_past_nrd: bool,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> StartAmount:
    """The annual life amount from ``retirement_date`` for any start the plan allows.

    ``base_at_nrd`` is the (vested) amount payable at NRD. A start after NRD only increases for
    someone still employed at NRD, and then only up to 12/31/2000 (§4.2, Table A); a terminated
    vested participant who waits gets no increase (§5.1, GAP-7).
    """
    if retirement_date <= nrd and data.termination_date is None and retirement_date < LRF_STOP:
        # Retiring before the freeze ends the Credited Service then (§4.4(A)(2)); at NRD too (§3.2):
        # ``base_at_nrd`` counts an active participant's service to the freeze.
        full = accrued_at(data, settings=settings).annual
        then = accrued_at(data, up_to=retirement_date, settings=settings).annual
        base_at_nrd = base_at_nrd * then / full if full else base_at_nrd
    if retirement_date < nrd:
        return early_amount(base_at_nrd, nrd, retirement_date, settings)
    if retirement_date == nrd:
        trace = Trace().add(
            "Starting at Normal Retirement Date: the Accrued Benefit",
            section="§3.2, §3.3",
            result=money(base_at_nrd),
        )
        return StartAmount(retirement_date, base_at_nrd, Decimal(1), "normal", trace)
    if employed_past_nrd and nrd < LRF_STOP:
        late = late_amount(data, nrd, retirement_date, settings)
        full_at_nrd = accrued_at(data, up_to=nrd, settings=settings).annual
        # ``late`` is on the full Accrued Benefit; a vesting fraction below 100% scales it.
        scale = base_at_nrd / full_at_nrd if full_at_nrd else Decimal(1)
        annual = late.annual * min(scale, Decimal(1)) if scale < 1 else late.annual
        return StartAmount(retirement_date, annual, late.factor, "late", late.trace)
    trace = Trace().with_step(  # the same step for every date after NRD
        money_step(
            "Starting after Normal Retirement Date: no late retirement increase, because the Late "
            "Retirement Adjustment Factor counts no time after 12/31/2000 (GAP-7: flag for counsel)",
            "§4.2, §5.1, Table A",
            base_at_nrd,
        )
    )
    kind = "late" if employed_past_nrd else "deferred"
    return StartAmount(retirement_date, base_at_nrd, Decimal(1), kind, trace)
