"""The Preretirement Spouse Benefit (Section IX), the plan's qualified preretirement survivor annuity."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal

from benefits.engine.dates import add_months, completed_age, first_of_month_on_or_after, full_years_between
from benefits.engine.dates import date_attaining_age as birthday
from benefits.engine.money import to_money
from benefits.engine.trace import Trace, TraceBuilder, money
from benefits.engine.trace import factor as factor_of
from benefits.engine.types import EmploymentPeriod

from .accrued import AccrualData, AccruedBenefit, accrued_at, accrued_benefit
from .commencement import EARLIEST_AGE, life_amount_at
from .credited_service import credited_service
from .earnings import final_earnings, window_end_exclusive
from .forms import early_factor, js_factor, table_a_places
from .settings import DEFAULT_SETTINGS, BenefitSettings

ZERO = Decimal(0)
HALF = Decimal("0.5")
HOUR_OF_SERVICE_CUTOFF = date(1984, 8, 23)


@dataclass(frozen=True)
class SpouseBenefit:
    eligible: bool
    annual: Decimal
    commencement_date: date | None
    rule: str  # "9.2(B)(1)", "9.2(B)(2)(a)(i)", "9.2(B)(2)(a)(ii)", "9.2(B)(2)(b)" or "" when ineligible
    trace: Trace

    @property
    def monthly(self) -> Decimal:
        return to_money(self.annual / 12)


def spouse_age_percentage(participant_birth: date, spouse_birth: date) -> Decimal:
    """§9.2(B)(1): 2% less for each full year beyond 10 that the Spouse is younger."""
    if spouse_birth <= participant_birth:
        return Decimal(1)
    years = full_years_between(participant_birth, spouse_birth)
    return max(ZERO, Decimal(1) - Decimal("0.02") * max(0, years - 10))


def default_commencement(nrd: date, death: date) -> date:
    """§9.3: first of the month on or after the later of NRD and the death."""
    return first_of_month_on_or_after(max(nrd, death))


def earliest_spouse_commencement(birth: date, death: date) -> date:
    """§9.3(A): first of the month on or after the later of the death and age 55 (earliest retirement age)."""
    return first_of_month_on_or_after(max(death, birthday(birth, EARLIEST_AGE)))


def preretirement_spouse_benefit(
    data: AccrualData,
    *,
    birth_date: date,
    spouse_birth_date: date | None,
    death_date: date,
    marriage_date: date | None,
    vested_percent: Decimal,
    years_of_service: int,
    nrd: date,
    commencement_date: date | None = None,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> SpouseBenefit:
    """The Spouse's annual benefit from ``commencement_date`` (default: §9.3's date)."""
    tb = TraceBuilder()
    reasons = []
    if spouse_birth_date is None:
        reasons.append("no Spouse")
    if marriage_date is not None and add_months(marriage_date, 12) > death_date:
        reasons.append("married less than one full year before the death")
    if not any((p.end is None or p.end >= HOUR_OF_SERVICE_CUTOFF) for p in data.periods):
        reasons.append("no Hour of Service on or after August 23, 1984")
    if vested_percent <= 0:
        reasons.append("no vested right to Employer funded benefits")
    if reasons:
        tb.step(
            "Not eligible for the Preretirement Spouse Benefit: " + "; ".join(reasons),
            section="§9.1",
            result=False,
            applied=False,
        )
        return SpouseBenefit(False, ZERO, None, "", tb.build())
    assert spouse_birth_date is not None
    tb.step(
        "Eligible: a Spouse married at least one full year, an Hour of Service after 8/23/1984, and vested"
        + ("" if marriage_date else " (marriage date not supplied: the one-year rule is assumed met)"),
        section="§9.1",
        result=True,
    )
    start = commencement_date or default_commencement(nrd, death_date)
    earliest = earliest_spouse_commencement(birth_date, death_date)
    if start < earliest:
        raise ValueError(f"the Spouse cannot start before {earliest.isoformat()} (§9.3(A))")
    active = data.termination_date is None or data.termination_date >= death_date
    age_at_death = completed_age(birth_date, death_date)
    vest = vested_percent / 100
    if active and age_at_death >= 50 and years_of_service >= 10:
        rule = "9.2(B)(1)"
        ab = _uninterrupted_accrued(data, nrd, settings)
        tb.include(ab.trace)
        pct = spouse_age_percentage(birth_date, spouse_birth_date)
        at_nrd = HALF * ab.annual * pct * vest
        tb.step(
            "Active death at 50 or older with 10 years of Service: 50% of the §3.1 benefit with Credited "
            "Service and Earnings continued to Normal Retirement Date, less 2% for each full year beyond "
            "10 that the Spouse is younger",
            section="§9.2(B)(1)",
            result=money(at_nrd),
            spouse_percentage=factor_of(pct, 2),
            credited_service_projected=settings.spouse_benefit_projects_service,
        )
        annual = _adjust_for_start(at_nrd, nrd, start, tb, settings)
        return SpouseBenefit(True, annual, start, rule, tb.build())
    # §9.2(B)(2): the 50% J&S the Participant would have had, the Spouse getting half of it.
    terminated = replace(data, termination_date=min(data.termination_date or death_date, death_date))
    ab = accrued_at(terminated, settings=settings)
    tb.include(ab.trace)
    vested_ab = ab.annual * vest
    reached_55 = death_date >= birthday(birth_date, EARLIEST_AGE)
    if reached_55 and death_date >= nrd:
        rule = "9.2(B)(2)(a)(i)"
        life = life_amount_at(terminated, vested_ab, nrd, start, employed_past_nrd=active, settings=settings)
        tb.include(life.trace)
        js, jt = js_factor(birth_date, spouse_birth_date, start, "50")
        tb.include(jt)
        annual = HALF * life.annual * js
        tb.step(
            "Death on or after Normal Retirement Date: half of the immediate 50% joint and survivor income "
            "he would have had on retiring the day before death",
            section="§9.2(B)(2)(a)(i)",
            result=annual,
        )
        return SpouseBenefit(True, annual, start, rule, tb.build())
    rule = "9.2(B)(2)(a)(ii)" if reached_55 else "9.2(B)(2)(b)"
    # The hypothetical Retirement Date is the Spouse's start (NRD by default, earlier if elected).
    js, jt = js_factor(birth_date, spouse_birth_date, min(start, nrd), "50")
    tb.include(jt)
    at_nrd_js = vested_ab * js
    annual = HALF * _adjust_for_start(at_nrd_js, nrd, start, tb, settings)
    tb.step(
        "Half of the 50% joint and survivor income the Participant would have had"
        + (" on retiring the day before death" if reached_55 else " had he survived to retirement"),
        section=f"§{rule}",
        result=money(annual),
    )
    return SpouseBenefit(True, annual, start, rule, tb.build())


def _adjust_for_start(
    at_nrd: Decimal, nrd: date, start: date, tb: TraceBuilder, settings: BenefitSettings
) -> Decimal:
    from benefits.engine.dates import months_between_firsts

    if start >= nrd:
        if start > nrd:
            tb.step(
                "A start after Normal Retirement Date gets no increase: the late retirement factor counts no "
                "time after 12/31/2000 (GAP-7)",
                section="§9.3(B), Table A",
                result=at_nrd,
            )
        return at_nrd
    months = months_between_firsts(start, nrd)
    factor = early_factor(months, settings)
    annual = at_nrd * factor
    tb.step(
        "The Spouse elected an earlier start: reduced by the Early Commencement Adjustment Factor",
        section="§9.2, §9.3(A), Table A",
        result=money(annual),
        months_before_nrd=months,
        factor=factor_of(factor, table_a_places(settings)),
    )
    return annual


def _uninterrupted_accrued(data: AccrualData, nrd: date, settings: BenefitSettings) -> AccruedBenefit:
    """§3.1 'assuming that his Credited Service remained uninterrupted and that his Earnings remained
    unchanged until his Normal Retirement Date' (GAP-8: the freeze still applies by default)."""
    fe = final_earnings(
        data.compensation,
        window_end_exclusive(None, settings),
        years_of_service=data.years_of_service,
        settings=settings,
    )
    if settings.spouse_benefit_projects_service:
        periods = data.periods[:-1] + (EmploymentPeriod(data.periods[-1].start, nrd),)
        months = sum(credited_service((p,), settings=settings).months for p in periods[:-1]) + _months(
            periods[-1].start, nrd
        )
    else:
        months = credited_service(data.periods, settings=settings).months
    return accrued_benefit(
        final_earnings=fe.amount,
        social_security_amount=data.social_security_amount,
        credited_months=months,
        ceased_before_nrd=False,
        prior_plan_benefit=data.prior_plan_benefit,
        benefit_at_1997_12_31=data.benefit_at_1997_12_31,
        max_offset_401l=data.max_offset_401l,
        settings=settings,
    )


def _months(start: date, end_exclusive: date) -> int:
    from benefits.engine.dates import complete_months

    return complete_months(start, end_exclusive)
