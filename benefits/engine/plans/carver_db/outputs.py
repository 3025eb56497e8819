"""Carver DB benefit figures: the contract keys (``plan_outputs``), the Python API the web app calls
(``calculate_benefits``, ``estimate``), and the modeler's ``price_grid``.

Numbers stay full precision (Decimal) until a monthly payment is rounded to cents, half up.
Every figure carries a Trace; in the contract output they are in one ``traces`` map keyed by the
dotted path of the figure (e.g. ``"estimates[0].forms.js50"``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from decimal import Decimal
from types import MappingProxyType
from typing import Any

from benefits.engine.actuarial import Form
from benefits.engine.core import CoreResult, ParticipantError
from benefits.engine.missing import Missing, MissingInput, MissingLog
from benefits.engine.money import money_str, to_money
from benefits.engine.relative_value import (
    ComparisonRules,
    OptionalForm,
    RelativeValues,
    groups_json,
    relative_value_json,
    relative_values,
)
from benefits.engine.trace import Trace, TraceBuilder
from benefits.engine.types import Participant

from .accrued import AccrualData, AccruedBenefit, accrued_at, falling_earnings_floor
from .cash_out import CashOut, cash_out, cash_out_event
from .commencement import earliest_commencement_date, life_amount_at
from .dates import (
    add_months,
    birthday,
    complete_months,
    day_after,
    first_of_month_on_or_after,
    months_between_firsts,
)
from .death import SpouseBenefit, preretirement_spouse_benefit
from .forms import CERTAIN_YEARS, SURVIVOR_SHARE, FormAmount, form_amounts, ss_commencement_date
from .limits import (
    Limit415,
    TopHeavyMinimum,
    apply_415,
    highest_average_compensation,
    section_415_limit,
    top_heavy_minimum,
)
from .settings import DEFAULT_SETTINGS, UNFROZEN_PROJECTION, BenefitSettings

ZERO = Decimal(0)
HUNDRED = Decimal(100)
GRID_LAST_AGE = 70
ONE_DAY = timedelta(days=1)
NRD_POINTER = {
    "rule": "The benefit at Normal Retirement Date, as traced under accrued_benefit.monthly_at_nrd",
    "section": "§3.1, §5.2(A)",
    "inputs": {},
    "result": "accrued_benefit.monthly_at_nrd",
}


# ------------------------------------------------------------------ participant inputs


def _pd_decimal(p: Participant, key: str, default: Decimal | None = ZERO) -> Decimal | None:
    raw = p.plan_data.get(key)
    if raw is None or raw == "":
        return default
    try:
        return Decimal(str(raw))
    except ArithmeticError:
        raise ParticipantError(f"/plan_data/{key}", f"{key} must be a decimal string") from None


def _pd_date(p: Participant, key: str) -> date | None:
    raw = p.plan_data.get(key)
    if raw is None or isinstance(raw, date):
        return raw
    try:
        return date.fromisoformat(str(raw))
    except ValueError:
        raise ParticipantError(f"/plan_data/{key}", f"{key} must be a date") from None


def settings_of(core: CoreResult | None) -> BenefitSettings:
    given = (core.settings or {}).get("benefits") if core is not None else None
    return given if isinstance(given, BenefitSettings) else DEFAULT_SETTINGS


def event_date(p: Participant, as_of: date) -> date | None:
    """The earliest of Termination of Employment, retirement or death on or before ``as_of``."""
    ends = [x.end for x in p.periods if x.start <= as_of]
    term = ends[-1] if ends and ends[-1] is not None and ends[-1] < as_of else None
    if p.death_date is not None and p.death_date <= as_of:
        term = min(term, p.death_date) if term else p.death_date
    return term


def _credited_years(core: CoreResult) -> list[int]:
    out = []
    for y in getattr(core.service, "years", ()):
        try:
            if y.credited:
                out.append(int(y.label))
        except (AttributeError, ValueError):
            continue
    return out


def accrual_data(p: Participant, as_of: date, core: CoreResult) -> AccrualData:
    """What §3.1 needs, read once from the participant record and the service core."""
    ssa = _pd_decimal(p, "social_security_amount", None)
    if ssa is None:
        # Blocks the benefit figures only: vesting and dates stay (engine-cli.md, ``missing``).
        raise MissingInput(
            "/plan_data/social_security_amount",
            "the frozen Social Security Amount (§1.1(II)) is needed to compute the Accrued Benefit",
        )
    event = event_date(p, as_of)
    years_before_event = [y for y in _credited_years(core) if event is None or y <= event.year]
    periods = tuple(x for x in p.periods if x.start <= as_of)
    return AccrualData(
        periods=periods,
        compensation=MappingProxyType({int(k): Decimal(v) for k, v in p.compensation.items()}),
        social_security_amount=ssa,
        nrd=core.normal_retirement_date,
        termination_date=event,
        prior_plan_benefit=_pd_decimal(p, "prior_plan_benefit") or ZERO,
        benefit_at_1997_12_31=_pd_decimal(p, "benefit_at_1997_12_31") or ZERO,
        max_offset_401l=_pd_decimal(p, "max_offset_401l", None),
        years_of_service=len(years_before_event) if years_before_event or p.hours else None,
        hours=MappingProxyType(dict(p.hours)),
    )


# ------------------------------------------------------------------ results (the Python API)


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
    th = top_heavy_minimum(
        compensation=_section_415_compensation(p),
        top_heavy_years=getattr(sv, "top_heavy_years", ()) or (),
        vesting_service_years=_credited_years(core),
        key_employee=bool(p.plan_data.get("key_employee", False)),
        average_all_if_fewer_than_5=settings.top_heavy_average_all_if_fewer_than_5,
    )
    tb.include(th.trace)
    floor, ft = falling_earnings_floor(data, p.birth_date, settings=settings)
    if floor > ab.annual:
        tb.include(ft)
    annual = max(ab.annual, th.annual, floor)
    if th.annual > ab.annual:
        tb.step("The top-heavy minimum is larger than the Accrued Benefit", section="§6.2(B)", result=annual)
    vested = Decimal(core.vesting.percent)
    vested_annual = annual * vested / HUNDRED
    tb.step(
        "Vested benefit at Normal Retirement Date: the benefit times the Vesting Percentage",
        section="§5.2(A), §6.2(C)",
        result=vested_annual,
        vested_percent=vested,
    )
    return NrdBenefit(core.normal_retirement_date, ab, th, annual, vested, vested_annual, tb.build())


def _section_415_compensation(p: Participant) -> Mapping[int, Decimal]:
    raw = p.plan_data.get("section_415_compensation")
    if isinstance(raw, Mapping):
        return {int(k): Decimal(str(v)) for k, v in raw.items()}
    return {int(k): Decimal(v) for k, v in p.compensation.items()}


def _limit_415(p: Participant, core: CoreResult, data: AccrualData, retirement_date: date) -> Limit415 | None:
    """§6.1 with the limitation year's dollar amount; for a future year the latest published one,
    recorded in the trace as an estimate. A year before the table (1983) raises: never a later value."""
    from benefits.engine.parameters import parameter

    dollar = parameter("irs_415b_dollar_limit")
    year_end = date(retirement_date.year, 12, 31)
    amount = dollar.latest_published(year_end).value
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
) -> Estimate:
    """Every form the plan pays from ``commencement_date`` (a first of a month)."""
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
    co = None
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
    limit = _limit_415(p, core, data, commencement_date)
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
    )
    base = tb.build()
    forms = {k: replace(v, trace=base.extend(v.trace)) for k, v in forms.items()}
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
    monthly payments the plan pays."""
    options = []
    for key, f in forms.items():
        if key == "life":
            options.append(OptionalForm(key, Form.life(), f.monthly))
        elif key.startswith("js"):
            share = SURVIVOR_SHARE[key[2:]]
            options.append(OptionalForm(key, Form.contingent(share), f.monthly, annuitant_birth))
        elif key.startswith("cc") and int(key[2:]) in CERTAIN_YEARS:
            options.append(OptionalForm(key, Form.certain_and_life(int(key[2:])), f.monthly))
        elif key == "ss_level" and f.monthly_after is not None:
            months = months_between_firsts(retirement_date, ss_commencement_date(birth_date, settings))
            options.append(
                OptionalForm(
                    key, Form.life(), f.monthly, amount_after=f.monthly_after, change_after_months=months
                )
            )
    return relative_values(
        options,
        birth_date=birth_date,
        asd=retirement_date,
        married=married,
        assumptions=assumptions,
        rules=relative_value_rules(settings),
        single_sum=None,
    )


def _safe_estimate(p, as_of, d, core, assumptions, nb, data) -> Estimate:
    """One estimate; a date the plan cannot price (e.g. beyond Table A) becomes an estimate error."""
    try:
        return estimate(p, as_of, d, core, assumptions, nrd_benefit=nb, data=data)
    except ValueError as exc:
        trace = Trace().add(str(exc), section="Table A, §9.3", result=None)
        normal = "js50" if p.is_married else "life"
        return Estimate(d, "none", ZERO, normal, {}, None, None, None, trace, str(exc))


def calculate_benefits(
    p: Participant, as_of: date, core: CoreResult, assumptions: Mapping[str, Any] | None = None
) -> CarverBenefits:
    """The whole Carver DB benefit picture for one participant (the web app's entry point)."""
    settings = settings_of(core)
    data = accrual_data(p, as_of, core)
    nb = benefit_at_nrd(p, as_of, core, data)
    earliest = (
        earliest_commencement_date(p.birth_date, data.termination_date, p.hire_date)
        if nb.vested_percent > 0
        else None
    )
    ests = tuple(_safe_estimate(p, as_of, d, core, assumptions, nb, data) for d in p.commencement_dates)
    notes = []
    if core.normal_retirement_date > date(2000, 12, 31):
        notes.append(
            "No increase for starting after Normal Retirement Date: the plan's late retirement factor "
            "counts no time after 12/31/2000 (GAP-7)."
        )
    return CarverBenefits(nb, earliest, ests, settings, tuple(notes))


# ------------------------------------------------------------------ the modeler's grid


@dataclass(frozen=True)
class GridRow:
    commencement_date: date
    kind: str
    monthly: Mapping[str, Decimal]  # form → monthly payment in cents


@dataclass(frozen=True)
class PriceGrid:
    rows: tuple[GridRow, ...]
    forms: tuple[str, ...]
    nrd_benefit: NrdBenefit


def price_grid(
    p: Participant,
    as_of: date,
    core: CoreResult | None = None,
    *,
    start: date | None = None,
    last_age: int = GRID_LAST_AGE,
) -> PriceGrid:
    """Every month from the earliest commencement date (not before ``as_of``) to age 70, every form.

    Rows carry rounded monthly amounts only; ``estimate()`` gives the trace for any one date.
    """
    if core is None:
        from .rules import ServiceVestingSettings
        from .rules import core as run_core

        core = run_core(p, as_of, ServiceVestingSettings())
    settings = settings_of(core)
    data = accrual_data(p, as_of, core)
    nb = benefit_at_nrd(p, as_of, core, data)
    nrd = core.normal_retirement_date
    first = start or max(
        earliest_commencement_date(p.birth_date, data.termination_date, p.hire_date),
        first_of_month_on_or_after(as_of),
    )
    end = first_of_month_on_or_after(birthday(p.birth_date, last_age))
    rows = []
    names: list[str] = []
    if nb.vested_percent <= 0 or (p.death_date is not None and p.death_date <= as_of):
        return PriceGrid((), (), nb)  # nothing to model: not vested, or only a Spouse benefit remains
    employed_past_nrd = data.termination_date is None or data.termination_date >= nrd
    annuitant = _annuitant_birth(p)
    ss_amount = _pd_decimal(p, "ss_option_amount", None) or data.social_security_amount
    early_nb = nb
    if data.termination_date is None and settings.projected_cs_mode == UNFROZEN_PROJECTION:
        early_nb = benefit_at_nrd(p, as_of, core, replace(data, termination_date=first - ONE_DAY))
    d = first
    while d <= end:
        base = early_nb.vested_annual if d < nrd else nb.vested_annual
        life = life_amount_at(data, base, nrd, d, employed_past_nrd=employed_past_nrd, settings=settings)
        limit = _limit_415(p, core, data, d)
        annual = min(life.annual, limit.annual_limit) if limit is not None else life.annual
        forms = form_amounts(
            annual,
            participant_birth=p.birth_date,
            retirement_date=d,
            married=p.is_married,
            annuitant_birth=annuitant,
            nrd=nrd,
            ss_option_amount=ss_amount,
            settings=settings,
        )
        for k in forms:
            if k not in names:
                names.append(k)
        rows.append(GridRow(d, life.kind, {k: v.monthly for k, v in forms.items()}))
        d = add_months(d, 1)
    return PriceGrid(tuple(rows), tuple(names), nb)


# ------------------------------------------------------------------ the contract (engine-cli.md)


def _form_json(f: FormAmount) -> dict:
    out: dict[str, Any] = {"monthly": money_str(f.monthly)}
    if f.survivor_monthly is not None:
        out["survivor_monthly"] = money_str(f.survivor_monthly)
    if f.monthly_after is not None:
        out["monthly_after_social_security"] = money_str(f.monthly_after)
    if f.note:
        out["note"] = f.note
    return out


def _cash_out_json(co: CashOut) -> dict:
    return {
        "required": co.required,
        "threshold": money_str(co.threshold),
        "value": None if co.value is None else money_str(co.value),
    }


def plan_outputs(
    participant: Participant, as_of: date, assumptions: Mapping[str, Any], core: CoreResult
) -> dict:
    """The Carver DB keys of the contract result, with a ``traces`` map keyed by figure path."""
    result = calculate_benefits(participant, as_of, core, assumptions)
    nb = result.at_nrd
    traces: dict[str, list] = {"accrued_benefit.monthly_at_nrd": nb.trace.as_list()}
    out: dict[str, Any] = {
        "accrued_benefit": {
            "monthly_at_nrd": money_str(nb.annual / 12),
            "annual_at_nrd": money_str(nb.annual),
            "vested_monthly_at_nrd": money_str(nb.vested_annual / 12),
        },
        "earliest_commencement_date": (
            result.earliest_commencement_date.isoformat() if result.earliest_commencement_date else None
        ),
    }
    estimates = []
    log = MissingLog()
    for i, e in enumerate(result.estimates):
        item: dict[str, Any] = {
            "commencement_date": e.commencement_date.isoformat(),
            "forms": {k: _form_json(f) for k, f in e.forms.items()},
            "normal_form": e.normal_form,
            "kind": e.kind,
        }
        skip = len(nb.trace.steps)
        for k, f in e.forms.items():
            # The NRD steps are under "accrued_benefit.monthly_at_nrd"; point there, don't repeat them.
            tail = f.trace.steps[skip:] if f.trace.steps[:skip] == nb.trace.steps else f.trace.steps
            traces[f"estimates[{i}].forms.{k}"] = [NRD_POINTER] + Trace(tail).as_list()
        rv = e.relative_values
        if rv is not None and rv.basis is not None:
            item["relative_value_basis"] = rv.basis.as_json()
            item["relative_value_groups"] = groups_json(rv.groups)
            for k, value in rv.values.items():
                item["forms"][k]["relative_value"] = relative_value_json(value)
                traces[f"estimates[{i}].forms.{k}.relative_value"] = rv.traces[k].as_list()
        elif rv is not None and rv.note:
            item["notes"] = [rv.note]
            if getattr(rv.note, "field", ""):
                log.items.append(
                    Missing(rv.note.field, str(rv.note), (f"/estimates/{i}/relative_value_basis",))
                )
        if e.cash_out is not None:
            item["cash_out"] = _cash_out_json(e.cash_out)
            if e.cash_out.missing is not None:
                log.items.append(Missing(*e.cash_out.missing, (f"/estimates/{i}/cash_out",)))
            traces[f"estimates[{i}].cash_out"] = e.cash_out.trace.as_list()
            if e.cash_out.required:
                item["forms"] = {"lump_sum": {"lump_sum": money_str(e.cash_out.value or ZERO)}}
                traces[f"estimates[{i}].forms.lump_sum"] = e.cash_out.trace.as_list()
        if e.spouse_benefit is not None and e.spouse_benefit.eligible:
            item["preretirement_spouse_benefit"] = {
                "monthly": money_str(e.spouse_benefit.monthly),
                "rule": e.spouse_benefit.rule,
            }
            traces[f"estimates[{i}].preretirement_spouse_benefit"] = e.spouse_benefit.trace.as_list()
        if e.error:
            item["error"] = e.error
            traces[f"estimates[{i}]"] = e.trace.as_list()
        estimates.append(item)
    out["estimates"] = estimates
    first_co = next((e.cash_out for e in result.estimates if e.cash_out is not None), None)
    if first_co is not None:
        out["cash_out"] = {
            "required": first_co.required,
            "threshold": money_str(first_co.threshold),
            "mandatory_distribution": bool(first_co.required),
            "automatic_rollover": False,
        }
    if result.notes:
        out["notes"] = list(result.notes)
    if log.items:
        out["missing"] = log.as_json()
    out["traces"] = traces
    return out
