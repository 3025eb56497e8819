"""Carver DB benefit figures for one commencement date: the benefit at NRD, the §415 limit, and the
estimate in every form (the Python API the web app calls). Numbers stay full precision (Decimal) until a
monthly payment is rounded to cents, half up.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal
from typing import Any

from benefits.engine.actuarial import Form
from benefits.engine.core import CoreResult
from benefits.engine.dates import complete_months, day_after, months_between_firsts
from benefits.engine.money import to_money
from benefits.engine.parameters import unrecorded_reads
from benefits.engine.relative_value import (
    ComparisonRules,
    OptionalForm,
    RelativeValues,
    optional_form,
    relative_values,
)
from benefits.engine.trace import Trace, TraceBuilder, money, percent
from benefits.engine.types import Participant

from .accrued import AccrualData, AccruedBenefit, accrued_at, falling_earnings_floor
from .cash_out import CashOut, cash_out, cash_out_event
from .commencement import earliest_commencement_date, life_amount_at
from .death import SpouseBenefit, preretirement_spouse_benefit
from .forms import CERTAIN_YEARS, SURVIVOR_SHARE, FormAmount, form_amounts, ss_commencement_date
from .inputs import (
    HUNDRED,
    ONE_DAY,
    ZERO,
    _credited_years,
    _pd_date,
    _pd_decimal,
    accrual_data,
    pay_by_year,
    settings_of,
)
from .limits import (
    Limit415,
    TopHeavyMinimum,
    apply_415,
    highest_average_compensation,
    section_415_limit,
    top_heavy_minimum,
)
from .settings import DEFAULT_SETTINGS, UNFROZEN_PROJECTION, BenefitSettings


@dataclass(frozen=True)
class NrdBenefit:
    """The benefit payable at Normal Retirement Date as a Life-No Death Benefit (annual, Decimal)."""

    nrd: date
    accrued: AccruedBenefit
    top_heavy: TopHeavyMinimum
    annual: Decimal  # the greater of the Accrued Benefit and the top-heavy minimum
    vested_percent: Decimal
    vested_annual: Decimal
    trace: Trace

    @property
    def monthly(self) -> Decimal:
        return to_money(self.annual / 12)

    @property
    def vested_monthly(self) -> Decimal:
        return to_money(self.vested_annual / 12)


@dataclass(frozen=True)
class Estimate:
    """Every form payable from one Retirement Date (annual Decimal amounts, monthly in cents)."""

    commencement_date: date
    kind: str  # early / normal / late / deferred / cash_out / spouse / none
    life_annual: Decimal
    normal_form: str
    forms: Mapping[str, FormAmount]
    cash_out: CashOut | None
    spouse_benefit: SpouseBenefit | None
    limit_415: Limit415 | None
    trace: Trace
    error: str = ""
    relative_values: RelativeValues | None = None  # §7.4(E); None when there is no election

    @property
    def lump_sum(self) -> Decimal | None:
        return self.cash_out.value if self.cash_out and self.cash_out.required else None


@dataclass(frozen=True)
class CarverBenefits:
    at_nrd: NrdBenefit
    earliest_commencement_date: date | None
    estimates: tuple[Estimate, ...]
    settings: BenefitSettings
    notes: tuple[str, ...] = field(default_factory=tuple)


def benefit_at_nrd(
    p: Participant, as_of: date, core: CoreResult, data: AccrualData | None = None
) -> NrdBenefit:
    settings = settings_of(core)
    data = data or accrual_data(p, as_of, core)
    tb = TraceBuilder()
    ab = accrued_at(data, settings=settings)
    tb.include(ab.trace)
    sv = (core.settings or {}).get("service_vesting")
    top_heavy_years = getattr(sv, "top_heavy_years", ()) or ()
    # The compensation is read only in a Top-Heavy year. A stored §415 compensation is still parsed
    # (its errors stay); the participant's own pay ``accrual_data`` has already read.
    stored_415 = isinstance(p.plan_data.get("section_415_compensation"), Mapping)
    th = top_heavy_minimum(
        compensation=_section_415_compensation(p) if top_heavy_years or stored_415 else {},
        top_heavy_years=top_heavy_years,
        # read only in a Top-Heavy year, so counted only when the plan had one
        vesting_service_years=_credited_years(core) if top_heavy_years else (),
        key_employee=bool(p.plan_data.get("key_employee", False)),
        average_all_if_fewer_than_5=settings.top_heavy_average_all_if_fewer_than_5,
    )
    # A top-heavy minimum that is not above the Accrued Benefit did not make the benefit.
    tb.include(th.trace if th.annual > ab.annual else th.trace.not_applied())
    floor, ft = falling_earnings_floor(data, p.birth_date, settings=settings)
    if floor > ab.annual:
        tb.include(ft)
    annual = max(ab.annual, th.annual, floor)
    if th.annual > ab.annual:
        tb.step(
            "The top-heavy minimum is larger than the Accrued Benefit",
            section="§6.2(B)",
            result=money(annual),
        )
    vested = Decimal(core.vesting.percent)
    vested_annual = annual * vested / HUNDRED
    tb.step(
        "Vested benefit at Normal Retirement Date: the benefit times the Vesting Percentage",
        section="§5.2(A), §6.2(C)",
        result=money(vested_annual),
        vested_percent=percent(vested),
    )
    return NrdBenefit(core.normal_retirement_date, ab, th, annual, vested, vested_annual, tb.build())


def _section_415_compensation(p: Participant) -> Mapping[int, Decimal]:
    raw = p.plan_data.get("section_415_compensation")
    if isinstance(raw, Mapping):
        return {int(k): Decimal(str(v)) for k, v in raw.items()}
    return pay_by_year(p.compensation)


def _limit_415(p: Participant, core: CoreResult, data: AccrualData, retirement_date: date) -> Limit415 | None:
    """§6.1 with the limitation year's dollar amount (the latest published one for future years)."""
    from benefits.engine.parameters import parameter

    dollar = parameter("irs_415b_dollar_limit")
    year_end = date(retirement_date.year, 12, 31)
    amount = dollar.latest_published(
        year_end
    ).value  # a future year: a traced estimate; before 1983: an error
    if amount is None:
        return None
    comp = _section_415_compensation(p)
    start = core.participation_date
    end = data.termination_date or retirement_date
    years = [y for y in comp if start is not None and start.year <= y <= end.year]
    hac = highest_average_compensation(comp, years)
    participation = complete_months(start, day_after(end)) if start else 0
    service = sum(
        complete_months(x.start, day_after(x.end) if x.end else retirement_date) for x in data.periods
    )
    return section_415_limit(
        birth_date=p.birth_date,
        retirement_date=retirement_date,
        nrd=core.normal_retirement_date,
        dollar_limit=amount,
        highest_average_comp=hac,
        participation_months=participation,
        service_months=service,
        never_in_dc_plan=bool(p.plan_data.get("never_in_defined_contribution_plan", False)),
    )


class Limits415:
    """``_limit_415`` for one participant at many dates: what does not change with the date (the
    §415 compensation, each limitation year's dollar amount, the highest average for each last
    year) is read once. ``at(d)`` equals ``_limit_415(p, core, data, d)``. ``traced``: the dollar
    amount is read again for every date, so that each date's trace lists the read (on the traced
    path the read is one of the estimate's steps, ``parameters.recorded_reads``)."""

    def __init__(self, p: Participant, core: CoreResult, data: AccrualData, *, traced: bool = False) -> None:
        from benefits.engine.parameters import parameter

        self.p, self.core, self.data, self.traced = p, core, data, traced
        self.dollar = parameter("irs_415b_dollar_limit")
        self.comp = _section_415_compensation(p)
        self.never_in_dc = bool(p.plan_data.get("never_in_defined_contribution_plan", False))
        self.amounts: dict[int, Decimal | None] = {}
        self.averages: dict[int, Decimal] = {}

    def at(self, retirement_date: date) -> Limit415 | None:
        year = retirement_date.year
        if self.traced or year not in self.amounts:
            self.amounts[year] = self.dollar.latest_published(date(year, 12, 31)).value
        amount = self.amounts[year]
        if amount is None:
            return None
        start = self.core.participation_date
        end = self.data.termination_date or retirement_date
        if end.year not in self.averages:
            years = [y for y in self.comp if start is not None and start.year <= y <= end.year]
            self.averages[end.year] = highest_average_compensation(self.comp, years)
        participation = complete_months(start, day_after(end)) if start else 0
        service = sum(
            complete_months(x.start, day_after(x.end) if x.end else retirement_date)
            for x in self.data.periods
        )
        return section_415_limit(
            birth_date=self.p.birth_date,
            retirement_date=retirement_date,
            nrd=self.core.normal_retirement_date,
            dollar_limit=amount,
            highest_average_comp=self.averages[end.year],
            participation_months=participation,
            service_months=service,
            never_in_dc_plan=self.never_in_dc,
        )


def _annuitant_birth(p: Participant) -> date | None:
    if p.is_married:
        return p.spouse_birth_date
    return _pd_date(p, "contingent_pensioner_birth_date")


def estimate(
    p: Participant,
    as_of: date,
    commencement_date: date,
    core: CoreResult,
    assumptions: Mapping[str, Any] | None = None,
    *,
    nrd_benefit: NrdBenefit | None = None,
    data: AccrualData | None = None,
    limits: Limits415 | None = None,
) -> Estimate:
    """Every form the plan pays from ``commencement_date`` (a first of a month). ``limits``: the
    participant's §415 inputs read once for all his dates (``Limits415`` made with ``traced``)."""
    settings = settings_of(core)
    data = data or accrual_data(p, as_of, core)
    nb = nrd_benefit or benefit_at_nrd(p, as_of, core, data)
    nrd = core.normal_retirement_date
    normal_form = "js50" if p.is_married else "life"
    tb = TraceBuilder()

    def fail(message: str, kind: str = "none") -> Estimate:
        tb.step(message, section="§4.3, §5.1, §7.7", result=None)
        return Estimate(commencement_date, kind, ZERO, normal_form, {}, None, None, None, tb.build(), message)

    if commencement_date.day != 1:
        return fail("A Retirement Date is always the first day of a month (§1.1(GG))")
    if p.death_date is not None and p.death_date < commencement_date:
        sb = (
            preretirement_spouse_benefit(
                data,
                birth_date=p.birth_date,
                spouse_birth_date=p.spouse_birth_date if p.is_married else None,
                death_date=p.death_date,
                marriage_date=_pd_date(p, "marriage_date"),
                vested_percent=nb.vested_percent,
                years_of_service=core.years_of_vesting_service,
                nrd=nrd,
                commencement_date=commencement_date if p.is_married else None,
                settings=settings,
            )
            if p.is_married
            else None
        )
        if sb is None or not sb.eligible:
            tb.step(
                "Death before the Retirement Date with no Preretirement Spouse Benefit: no benefit is "
                "payable",
                section="§10.1",
                result=ZERO,
            )
            return Estimate(commencement_date, "none", ZERO, normal_form, {}, None, sb, None, tb.build())
        return Estimate(commencement_date, "spouse", ZERO, normal_form, {}, None, sb, None, sb.trace)
    term = data.termination_date
    co: CashOut | None = None
    if term is not None and commencement_date > term and nb.vested_percent > 0:
        # §13.7(G) applies after termination whatever the age: a small Value is paid at once. The
        # earliest retirement date limits annuities, not this test.
        co = cash_out(
            vested_annual_at_nrd=nb.vested_annual,
            birth_date=p.birth_date,
            distribution_date=commencement_date,
            event_date=cash_out_event(term, commencement_date),
            nrd=nrd,
            assumptions=assumptions,
            settings=settings,
        )
        if co.required:
            tb.include(nb.trace)
            tb.include(co.trace)
            return Estimate(commencement_date, "cash_out", ZERO, normal_form, {}, co, None, None, tb.build())
    earliest = earliest_commencement_date(p.birth_date, term, p.hire_date)
    if commencement_date < earliest and commencement_date < nrd:
        if co is not None:
            # The small-benefit test was made (above the threshold, or not yet valued): keep it on
            # the estimate, and say why no annuity can start yet.
            tb.include(co.trace)
            message = (
                f"Payments cannot start before {earliest.isoformat()}: age 55 and after leaving employment"
            )
            if co.required is None:
                message += "; whether the benefit is small enough to be cashed out cannot be checked yet"
            tb.step(message, section="§4.3, §13.7(G)", result=None)
            return Estimate(
                commencement_date, "none", ZERO, normal_form, {}, co, None, None, tb.build(), message
            )
        return fail(
            f"Payments cannot start before {earliest.isoformat()}: age 55 and after leaving employment"
        )
    if nb.vested_percent <= 0:
        co = cash_out(
            vested_annual_at_nrd=ZERO,
            birth_date=p.birth_date,
            distribution_date=commencement_date,
            event_date=term or commencement_date,
            nrd=nrd,
            assumptions=None,
            settings=settings,
        )
        tb.include(co.trace)
        return Estimate(commencement_date, "cash_out", ZERO, normal_form, {}, co, None, None, tb.build())
    employed_past_nrd = term is None or term >= nrd
    if term is None and commencement_date < nrd and settings.projected_cs_mode == UNFROZEN_PROJECTION:
        # An active participant must leave to start early: employment then ceases before NRD, and
        # §3.1(A)(2)(b) applies (it only differs from (a) under GAP-1 interpretation II).
        data = replace(data, termination_date=commencement_date - ONE_DAY)
        nb = benefit_at_nrd(p, as_of, core, data)
        tb.step(
            "Modelled as leaving employment the day before the Retirement Date",
            section="§3.1(A)(2)(b), §4.3",
            result=data.termination_date,
        )
    life = life_amount_at(
        data, nb.vested_annual, nrd, commencement_date, employed_past_nrd=employed_past_nrd, settings=settings
    )
    tb.include(nb.trace)
    tb.include(life.trace)
    limit = (
        limits.at(commencement_date)
        if limits is not None and data is limits.data
        else _limit_415(p, core, data, commencement_date)
    )
    annual = life.annual
    if limit is not None:
        annual, lt = apply_415(annual, limit)
        tb.include(lt)
    if co is None:
        co = cash_out(
            vested_annual_at_nrd=nb.vested_annual,
            birth_date=p.birth_date,
            distribution_date=commencement_date,
            event_date=cash_out_event(term, commencement_date),
            nrd=nrd,
            assumptions=assumptions,
            settings=settings,
        )
    forms = form_amounts(
        annual,
        participant_birth=p.birth_date,
        retirement_date=commencement_date,
        married=p.is_married,
        annuitant_birth=_annuitant_birth(p),
        nrd=nrd,
        ss_option_amount=_pd_decimal(p, "ss_option_amount", None)
        or _pd_decimal(p, "social_security_amount", None),
        settings=settings,
        limit_annual=limit.annual_limit if limit is not None else None,
    )
    base = tb.build()
    forms = {k: v.with_trace(base.extend(v.trace)) for k, v in forms.items()}
    if co is not None and co.required:
        return Estimate(commencement_date, life.kind, annual, normal_form, {}, co, None, limit, base)
    rv = form_relative_values(
        forms,
        birth_date=p.birth_date,
        retirement_date=commencement_date,
        married=p.is_married,
        annuitant_birth=_annuitant_birth(p),
        assumptions=assumptions,
        settings=settings,
    )
    return Estimate(commencement_date, life.kind, annual, normal_form, forms, co, None, limit, base, "", rv)


def relative_value_rules(settings: BenefitSettings) -> ComparisonRules:
    """Plan data for the §7.4(E) relative values: the married participant's QJSA is the 50% Joint
    and Survivor form (§7.1), the unmarried participant's the Life-No Death Benefit (§7.2); the rate
    is the GATT Applicable Interest Rate, the 30-year Treasury rate for the third full calendar month
    before the Retirement Date (Table A)."""
    return ComparisonRules(
        qjsa_form="js50",
        single_life_form="life",
        lookback_months=3,
        rate_key="treasury_30y_monthly",
        section="§7.4(E)",
        interest=settings.relative_value_interest,
    )


# The shape of each Table A form for the comparison, made once.
_SHAPES: dict[str, Form] = {
    "life": Form.life(),
    **{f"js{pct}": Form.contingent(share) for pct, share in SURVIVOR_SHARE.items()},
    **{f"cc{years}": Form.certain_and_life(years) for years in CERTAIN_YEARS},
}


_LEVEL = Form.life()  # the level-income option's shape: a life annuity that changes once


def optional_forms(
    forms: Mapping[str, FormAmount],
    *,
    birth_date: date,
    retirement_date: date,
    annuitant_birth: date | None,
    settings: BenefitSettings = DEFAULT_SETTINGS,
    ss_start: date | None = None,
) -> list[OptionalForm]:
    """Each priced form as the relative-value comparison sees it (its shape and monthly payment).
    ``ss_start``: the Social Security Commencement Date, when the caller has it."""
    options = []
    for key, f in forms.items():
        shape = _SHAPES.get(key)
        # ``f.monthly``, read from (or put in) the instance's dict without the cached property's
        # descriptor call (every form of every date of a grid passes here; the contract reads it so)
        cached = f.__dict__
        monthly = cached.get("monthly")
        if monthly is None:
            monthly = cached["monthly"] = to_money(f.annual / 12)
        if shape is not None:
            options.append(
                optional_form(key, shape, monthly, annuitant_birth if shape.needs_spouse else None)
            )
        elif key == "ss_level" and f.monthly_after is not None:
            start = ss_start or ss_commencement_date(birth_date, settings)
            months = months_between_firsts(retirement_date, start)
            options.append(optional_form(key, _LEVEL, monthly, None, f.monthly_after, months))
    return options


def form_relative_values(
    forms: Mapping[str, FormAmount],
    *,
    birth_date: date,
    retirement_date: date,
    married: bool,
    annuitant_birth: date | None,
    assumptions: Mapping[str, Any] | None,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> RelativeValues:
    """The relative value of every form against the QJSA (Treas. Reg. §1.417(a)(3)-1(c)(2)), on the
    monthly payments the plan pays.

    No regulatory read is recorded: each value's trace names its basis in its own steps (the
    table and the rate, ``relative_value._dated_basis``) and lists no read, and the estimate's
    trace is built before this runs, so a read recorded here was listed nowhere (the command line's
    output is the same byte for byte) and only cost its making, on every date of a request."""
    with unrecorded_reads():
        return relative_values(
            lambda: optional_forms(  # made only when the date's comparison basis can be formed
                forms,
                birth_date=birth_date,
                retirement_date=retirement_date,
                annuitant_birth=annuitant_birth,
                settings=settings,
            ),
            birth_date=birth_date,
            asd=retirement_date,
            married=married,
            assumptions=assumptions,
            rules=relative_value_rules(settings),
            single_sum=None,
        )
