"""One commencement date's estimate: the route (retirement, separation, lump sum), every form's monthly
amount and the relative values of the optional forms.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal
from typing import Any

from benefits.engine.actuarial import Form
from benefits.engine.core import CoreResult
from benefits.engine.dates import (
    first_of_month_on_or_after,
    months_between,
)
from benefits.engine.missing import Missing, describe
from benefits.engine.money import HUNDRED, to_decimal, to_money_down
from benefits.engine.parameters import ParameterNotInForce, parameter
from benefits.engine.relative_value import (
    ComparisonRules,
    OptionalForm,
    RelativeValues,
    relative_values,
)
from benefits.engine.trace import Trace, money, percent
from benefits.engine.types import Participant

from .account import participant_ledger
from .annuity import ApplicableBasis, LifeAnnuity, applicable_basis, balance_to_life_annuity
from .death import SurvivorAnnuity
from .forms import (
    CERTAIN_FORMS,
    FORM_NAMES,
    SURVIVOR_FORMS,
    FormAmount,
    immediate_vested_forms,
    limit_forms_415,
    retirement_forms,
)
from .inputs import (
    AccountInputs,
    _pd_date,
    _pd_money,
    _retirement_separation,
    _settings,
    account_inputs,
    entry_before_2000,
    vested_amount,
)
from .interest import projected_balance_before
from .ledger_entries import Ledger
from .limits import (
    CashOut,
    age_adjusted_dollar_limit,
    cash_out_threshold,
    high3_average,
    lump_sum_annual_equivalent,
    section_415b,
)
from .lump_sum import LumpSum, earliest_lump_sum_date, floor_basis, lump_sum, whipsaw_value
from .market import MarketData, MarketDataError
from .settings import DEFAULT_SETTINGS, BenefitSettings


@dataclass(frozen=True)
class Account:
    as_of: date
    balance: Decimal
    vested_percent: Decimal
    vested_balance: Decimal
    trace: Trace


@dataclass(frozen=True)
class AccruedBenefit:
    normal_retirement_date: date
    balance_at_nrd: Decimal  # with Interest Credits only after as_of (§5.3(b)); an estimate if future
    monthly_at_nrd: Decimal
    estimate: bool
    trace: Trace


@dataclass(frozen=True)
class Estimate:
    commencement_date: date
    route: str  # "normal", "late", "early", "vested_immediate" (§5.9(e)), "not_vested"
    balance: Decimal  # at the commencement date, before the §4.5 debit
    vested_balance: Decimal
    forms: Mapping[str, FormAmount]
    default_form: str | None
    lump_sum: LumpSum | None
    cash_out: bool  # the balance is paid as a lump sum without consent (§5.16)
    estimate: bool  # rests on projected pay or rates (GAP-4)
    notes: tuple[str, ...]
    trace: Trace
    relative_values: RelativeValues | None = None  # §5.10(d)(i); None when there is no election
    missing: tuple[tuple[str, str], ...] = ()  # (JSON pointer, message) of inputs blocking a figure
    limit_415: Decimal | None = None  # the annual §415(b) limit every form is held to (None: not applied)


@dataclass(frozen=True)
class QuakerBenefits:
    account: Account
    accrued: AccruedBenefit | None
    estimates: tuple[Estimate, ...]
    cash_out: CashOut | None
    survivor: SurvivorAnnuity | None
    ledger: Ledger
    notes: tuple[str, ...] = field(default_factory=tuple)
    missing: tuple[Missing, ...] = ()  # a figure left out for a missing rate or table (``/accrued_benefit``)
    # The first date any benefit may start (the §5.9(e) immediate vested annuity included): the one
    # date the claim form, the modeler and the election all use (``inputs.earliest_commencement``).
    earliest_start: date | None = None


def _route(d: date, core: CoreResult) -> str:
    nrd, erd = core.normal_retirement_date, core.earliest_retirement_date
    if d == nrd:
        return "normal"
    if d > nrd:
        return "late"
    if erd is not None and d >= erd:
        return "early"
    return "vested_immediate"


def _vested_percent_on(d: date, core: CoreResult) -> Decimal:
    """Vested percent at a commencement date: today's, or the next milestone's once it is reached
    by someone still working (a projection), or 100 after Normal Retirement Age (§5.9(a))."""
    pct = core.vesting.percent
    if pct >= HUNDRED or not core.service.employed:
        return pct
    nra = (core.extra or {}).get("normal_retirement_age")
    if nra is not None and d > nra:
        return HUNDRED
    m = core.vesting.next_milestone
    if m is not None and m.on is not None and m.on < d:
        return m.percent
    return pct


def estimate(
    p: Participant,
    as_of: date,
    market: MarketData,
    core: CoreResult,
    commencement: date,
    *,
    ledger: Ledger | None = None,
    inputs: AccountInputs | None = None,
    with_whipsaw: bool = False,
    assumptions: Mapping[str, Any] | None = None,
    with_relative_values: bool = True,
) -> Estimate:
    """Every form the plan offers on ``commencement`` (the first of a month), with traces.

    ``ledger``: an undistributed projection covering the date (the price grid passes one); the
    balance at an ASD is the balance before it, since no interest posts in the ASD's quarter before
    the ASD (§4.4(b)) and the Dec 31 credit of the year of separation comes after it (GAP-2).
    """
    settings = _settings(core)
    d = first_of_month_on_or_after(commencement)
    inputs = inputs or account_inputs(p, core, market)
    if ledger is None:
        ledger = participant_ledger(p, as_of, market, core, through=d, inputs=inputs)
    balance = ledger.balance_before(d)
    est = (ledger.estimated_from is not None and ledger.estimated_from < d) or d > as_of
    notes: list[str] = []
    pct = _vested_percent_on(d, core)
    vested = vested_amount(balance, pct)
    trace = Trace().add(
        "Account balance at the Annuity Starting Date (no Interest Credit for the ASD's quarter)",
        section="§4.4(b), §4.5",
        result=money(balance),
        commencement_date=d,
        vested_percent=percent(pct),
        vested_balance=money(vested),
        estimate=est,
    )
    route = _route(d, core)
    if vested <= 0 and route == "early" and core.service.employed and balance > 0:
        # AMBIG-2: a pre-2000 participant can reach his ERD (4 Years of Service) before the 5-year
        # cliff; the SPEC's reading pays the Early Retirement Benefit to anyone retiring on an ERD.
        pct, vested = HUNDRED, balance
        notes.append("Early Retirement Benefit paid though not yet vested (AMBIG-2 reading)")
    if vested <= 0:
        return Estimate(d, "not_vested", balance, vested, {}, None, None, False, est,
                        ("not vested: no benefit (§5.9(a), §2.3(a))",), trace)  # fmt: skip
    if route == "vested_immediate" and inputs.separation is not None:
        earliest = earliest_lump_sum_date(
            inputs.separation, retirement=_retirement_separation(p, core, inputs)
        )
        if d < earliest:
            notes.append(f"before the earliest §5.11(a)(iv)/§5.9(e) date {earliest.isoformat()}")
    elif route == "vested_immediate":
        notes.append("assumes a Separation from Service before this date (§5.9(e), §5.11(a)(iv))")
    threshold, _ = cash_out_threshold(d, settings)
    basis = applicable_basis(d, market)
    benefit_1999 = _pd_money(p, "dec31_1999_benefit")
    statutory, floor_missing = None, None
    if benefit_1999 is not None:
        # §5.11(b)'s minimum is a §417(e)(3) minimum present value: the statute's basis from 2008.
        try:
            statutory = floor_basis(d, assumptions if assumptions is not None else _rate_assumptions(market))
        except Exception as exc:
            floor_missing = describe(exc)
            if floor_missing is None:
                raise
            notes.append(
                f"the grandfathered minimum lump sum (§5.11(b)) cannot be valued yet: {floor_missing[1]}"
            )
    floor_on = basis if benefit_1999 is not None and floor_missing is None else None
    ls = lump_sum(
        vested,
        asd=d,
        birth_date=p.birth_date,
        basis=floor_on,
        benefit_1999=benefit_1999,
        benefit_1999_starts=_pd_date(p, "dec31_1999_benefit_nrd") or core.normal_retirement_date,
        statutory=statutory,
    )
    if (with_whipsaw or settings.pay_whipsaw_projection) and d < core.normal_retirement_date:
        wv = projection_value(p, as_of, market, core, balance, d, pct)
        if wv is not None:
            ls = lump_sum(
                vested,
                asd=d,
                birth_date=p.birth_date,
                basis=floor_on,
                benefit_1999=benefit_1999,
                benefit_1999_starts=_pd_date(p, "dec31_1999_benefit_nrd") or core.normal_retirement_date,
                statutory=statutory,
                whipsaw_value=wv,
                pay_whipsaw=settings.pay_whipsaw_projection,
            )
            if wv > vested:
                notes.append(f"projection value {wv} exceeds the balance: flag for counsel (GAP-3)")
    lump = FormAmount("lump_sum", "Lump sum", lump_sum=ls.amount, trace=trace.extend(ls.trace))
    tested = max(vested, ls.floor) if (ls.floor and settings.cash_out_test_includes_floor) else vested
    floor_unknown = floor_missing is not None and settings.cash_out_test_includes_floor
    if tested <= threshold and not floor_unknown:
        notes.append(f"balance not over {threshold}: paid as a lump sum without consent (§5.16)")
        return Estimate(d, route, balance, vested, {"lump_sum": lump}, "lump_sum", ls, True, est,
                        tuple(notes), trace)  # fmt: skip
    sla = balance_to_life_annuity(vested, birth_date=p.birth_date, start=d, basis=basis,
                                  section="§1.2(g), " + {"normal": "§5.3(a)", "late": "§5.7(b)",
                                  "early": "§5.5(b)", "vested_immediate": "§5.9(e)"}[route])  # fmt: skip
    sla = replace(sla, trace=trace.extend(sla.trace))
    sla, ls, lump, limit_notes, limit = apply_415(p, core, d, sla, ls, lump, basis)
    notes.extend(limit_notes)
    spouse = p.spouse_birth_date or _pd_date(p, "contingent_annuitant_birth_date")
    if route == "vested_immediate":
        forms = immediate_vested_forms(sla, birth_date=p.birth_date, spouse_birth_date=p.spouse_birth_date,
                                       applicable=basis)  # fmt: skip
    else:
        forms = retirement_forms(sla, birth_date=p.birth_date, spouse_birth_date=spouse, applicable=basis,
                                 settings=settings)  # fmt: skip
        if entry_before_2000(core):
            notes.append("the grandfathered annuity minimum (§5.3(c), §5.5(b), §5.7(c)) needs the "
                         "pre-2000 plan (GAP-1): not applied")  # fmt: skip
    forms = dict(forms)
    if limit is not None:
        forms, reduced = limit_forms_415(
            forms,
            limit=limit,
            table=basis.table,
            birth_date=p.birth_date,
            start=d,
            married=p.is_married,
            spouse_birth_date=p.spouse_birth_date,
            annuitant_birth_date=p.spouse_birth_date if route == "vested_immediate" else spouse,
        )
        if reduced:
            names = ", ".join(FORM_NAMES[k].lower() for k in reduced)
            notes.append(f"§415(b) limit applied to the {names}: Enrolled Actuary to review (SPEC §13.1)")
    if floor_missing is None:  # without its grandfathered minimum the lump sum is not known
        forms["lump_sum"] = lump
    default = "js50" if (p.is_married and "js50" in forms) else "life"
    if p.is_married and p.spouse_birth_date is None:
        notes.append("married: the QJSA needs spouse_birth_date (§5.10(a); AMBIG-16)")
    rv = None
    if with_relative_values:
        rv = form_relative_values(
            forms,
            birth_date=p.birth_date,
            asd=d,
            married=p.is_married,
            beneficiary_birth=spouse,
            assumptions=assumptions if assumptions is not None else _rate_assumptions(market),
            basis=basis,
            settings=settings,
        )
    if rv is not None and rv.note:
        notes.append(rv.note)
    missing = () if floor_missing is None else (floor_missing,)
    return Estimate(
        d, route, balance, vested, forms, default, ls, False, est, tuple(notes), trace, rv, missing, limit
    )


def relative_value_rules(settings: BenefitSettings) -> ComparisonRules:
    """Plan data for the relative values of the QJSA explanation (§5.10(d)(i)): the married
    participant's QJSA is the Joint and 50% Survivor Annuity (§5.10(b)), the unmarried
    participant's the single life annuity (§5.2); the rate is the Applicable Interest Rate, the
    30-year Treasury rate for the 2nd month before the ASD (§1.2(e))."""
    return ComparisonRules(
        qjsa_form="js50",
        single_life_form="life",
        lookback_months=2,
        rate_key="applicable_interest_rate",
        rate_default_key="applicable_interest_rate_default",
        section="§5.10(d)(i)",
        interest=settings.relative_value_interest,
    )


def _rate_assumptions(market: MarketData) -> dict[str, Any]:
    """The Applicable Interest Rates as the request gave them (percent), for callers without it."""
    out: dict[str, Any] = {
        "applicable_interest_rate": {
            f"{y:04d}-{m:02d}": str(v * HUNDRED) for (y, m), v in market.applicable_interest_rate.items()
        }
    }
    if market.applicable_interest_rate_default is not None:
        out["applicable_interest_rate_default"] = str(market.applicable_interest_rate_default * HUNDRED)
    return out


def form_relative_values(
    forms: Mapping[str, FormAmount],
    *,
    birth_date: date,
    asd: date,
    married: bool,
    beneficiary_birth: date | None,
    assumptions: Mapping[str, Any] | None,
    basis: ApplicableBasis,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> RelativeValues:
    """Every form against the QJSA (Treas. Reg. §1.417(a)(3)-1(c)(2)) on the Applicable Mortality
    Table in force (or pinned) for the ASD; the lump sum's amount against the QJSA's present value."""
    return relative_values(
        optional_forms(forms, beneficiary_birth),
        birth_date=birth_date,
        asd=asd,
        married=married,
        assumptions=assumptions,
        rules=relative_value_rules(settings),
        table=basis.table,
    )


def optional_forms(forms: Mapping[str, FormAmount], beneficiary_birth: date | None) -> list[OptionalForm]:
    """The priced forms as the §417(a)(3) comparison reads them (shape and amount), in their order."""
    options = []
    for key, f in forms.items():
        if key == "lump_sum" and f.lump_sum is not None:
            options.append(_option(key, f.lump_sum, None))
        elif f.monthly is None:
            continue
        elif key in SURVIVOR_FORMS:
            options.append(_option(key, f.monthly, beneficiary_birth))
        elif key == "life" or key in CERTAIN_FORMS:
            options.append(_option(key, f.monthly, None))
    return options


def _option(key: str, amount: Decimal, beneficiary_birth: date | None) -> OptionalForm:
    """``OptionalForm(key, _SHAPES[key], amount, beneficiary_birth)`` without the frozen dataclass's
    field-by-field ``__init__`` (a grid makes one for every form of every date)."""
    option = object.__new__(OptionalForm)
    object.__setattr__(  # its fields as one dict (not a keyword dict copied into the instance's)
        option,
        "__dict__",
        {"key": key, "form": _SHAPES[key], "amount": amount, "beneficiary_birth": beneficiary_birth,
         "amount_after": None, "change_after_months": None},
    )  # fmt: skip
    return option


# Each form key's shape for the comparison (made once: a price grid compares every date's forms).
_SHAPES: dict[str, Form] = {
    "lump_sum": Form.lump_sum(),
    "life": Form.life(),
    **{k: Form.contingent(v) for k, v in SURVIVOR_FORMS.items()},
    **{k: Form.certain_and_life(v) for k, v in CERTAIN_FORMS.items()},
}


def projection_value(
    p: Participant,
    as_of: date,
    market: MarketData,
    core: CoreResult,
    balance_before_asd: Decimal,
    asd: date,
    percent: Decimal,
) -> Decimal | None:
    """GAP-3 (whipsaw): the balance at ``asd`` rolled to NRD with Interest Credits only (future
    Treasury Rates are projections, GAP-4), converted at NRD, and valued back at ``asd`` on AIR and
    the Applicable Mortality Table. None when the market data for NRD is missing."""
    nrd = core.normal_retirement_date
    # The balance before the ASD is the balance at the end of the previous quarter (§4.4(b)); the
    # projection starts there and earns every quarter to NRD, with no further pay (§5.3(b)).
    start = date(asd.year, 3 * ((asd.month - 1) // 3) + 1, 1)
    try:
        at_nrd = projected_balance_before(
            vested_amount(balance_before_asd, percent),
            start=start,
            before=nrd,
            treasury_rate=lambda y: market.treasury_rate(y, allow_estimate=y > as_of.year),
            settings=_settings(core),
        )
        sla = balance_to_life_annuity(
            at_nrd, birth_date=p.birth_date, start=nrd, basis=applicable_basis(nrd, market)
        )
        return whipsaw_value(
            sla.monthly, birth_date=p.birth_date, asd=asd, nrd=nrd, basis=applicable_basis(asd, market)
        )
    except MarketDataError:
        return None


def apply_415(
    p: Participant,
    core: CoreResult,
    d: date,
    sla: LifeAnnuity,
    ls: LumpSum,
    lump: FormAmount,
    basis: ApplicableBasis,
) -> tuple[LifeAnnuity, LumpSum, FormAmount, list[str], Decimal | None]:
    """§5.15 / §1.2(a)-(c): clip the life annuity and the lump sum to the §415(b) limit for the start
    date, and flag the case for the Enrolled Actuary (SPEC §13.1). The annual limit is returned too
    (None when it does not apply): every other form is held to it converted (``limit_forms_415``)."""
    notes: list[str] = []
    try:
        dollar = parameter("irs_415b_dollar_limit").at(date(d.year, 12, 31))
    except ParameterNotInForce:
        return sla, ls, lump, notes, None
    adjusted, words = age_adjusted_dollar_limit(dollar, age=sla.age, table=basis.table)
    entry = core.participation_date or p.hire_date
    participation = Decimal(months_between(entry, d)) / 12
    high3 = high3_average(p.compensation, entry.year, d.year)
    check = section_415b(
        sla.monthly * 12,
        dollar_limit=adjusted,
        high3_compensation=high3,
        years_of_participation=participation,
        years_of_service=Decimal(core.service.total_years),
        had_dc_plan=bool(p.plan_data.get("had_dc_plan", True)),
    )
    if check.limit is None:
        return sla, ls, lump, notes, None
    steps = check.trace.add("§415(b) dollar limit for the start date: " + words, section="§5.15(a)(i), §1.2(a),(c)",
                            result=money(adjusted), limit_year=d.year, dollar_limit=money(dollar))  # fmt: skip
    if not check.passes:
        monthly = to_money_down(check.limit / 12)
        sla = replace(sla, monthly=monthly, trace=sla.trace.extend(steps).add(
            "Life annuity reduced to the §415(b) limit", section="§5.15, §1.2", result=money(monthly)))  # fmt: skip
        notes.append("§415(b) limit applied: Enrolled Actuary to review (SPEC §13.1)")
    equivalent, factor = lump_sum_annual_equivalent(
        ls.amount, age=sla.age, air=basis.rate.value, table=basis.table
    )
    if equivalent > check.limit:
        capped = to_money_down(check.limit * to_decimal(factor))
        ls = replace(ls, amount=capped, trace=ls.trace.extend(steps).add(
            "Lump sum reduced: its straight-life equivalent (at the greater of AIR and 8%) exceeds the "
            "§415(b) limit", section="§5.15, §1.2(b)", result=money(capped), annual_equivalent=money(equivalent)))  # fmt: skip
        lump = replace(lump, lump_sum=capped, trace=lump.trace.extend(ls.trace))
        notes.append("§415(b) limit applied to the lump sum: Enrolled Actuary to review")
    return sla, ls, lump, notes, check.limit
