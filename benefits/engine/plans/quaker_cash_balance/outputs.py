"""Quaker cash balance benefits for one participant: the Python API and the contract's keys.

The web app calls the frozen-dataclass API (``benefits``, ``participant_ledger``, ``statement``,
``estimate``, ``price_grid``); the command line calls ``plan_outputs``, which turns the same results
into the contract's JSON (engine-cli.md). Service, vesting, NRD and ERD come from ``rules.core``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal
from typing import Any

from benefits.engine.actuarial import Form
from benefits.engine.core import CoreResult, ParticipantError
from benefits.engine.dates import (
    add_months,
    date_attaining_age,
    first_of_month_on_or_after,
    first_of_next_month,
    months_between,
)
from benefits.engine.missing import Missing, describe, merge
from benefits.engine.money import HUNDRED, ZERO, money_str, to_decimal, to_money, to_money_down
from benefits.engine.parameters import ParameterNotInForce, parameter
from benefits.engine.relative_value import (
    ComparisonRules,
    OptionalForm,
    RelativeValues,
    groups_json,
    relative_value_json,
    relative_values,
)
from benefits.engine.trace import Trace
from benefits.engine.types import Participant

from .annuity import ApplicableBasis, LifeAnnuity, applicable_basis, balance_to_life_annuity
from .compensation import ActivePeriod
from .death import SurvivorAnnuity, survivor_annuity, survivor_dates
from .forms import CERTAIN_FORMS, SURVIVOR_FORMS, FormAmount, immediate_vested_forms, retirement_forms
from .ledger import Forfeiture, Ledger, Statement, account_ledger, build_ledger
from .limits import (
    CashOut,
    age_adjusted_dollar_limit,
    cash_out,
    cash_out_threshold,
    high3_average,
    lump_sum_annual_equivalent,
    section_415b,
)
from .lump_sum import LumpSum, beginning_balance, earliest_lump_sum_date, floor_basis, lump_sum, whipsaw_value
from .market import MarketData, MarketDataError
from .settings import DEFAULT_SETTINGS, BenefitSettings

RESTATEMENT = date(2000, 1, 1)
GRID_END_AGE = 70


# ------------------------------------------------------------------------------------- inputs


@dataclass(frozen=True)
class AccountInputs:
    """What the ledger needs, read from the participant, the core result and the plan data."""

    account_open: date | None  # None: never an Active Participant yet (no account)
    opening_balance: Decimal
    opening_trace: Trace
    periods: tuple[ActivePeriod, ...]
    forfeitures: tuple[Forfeiture, ...]
    compensation: Mapping[int, Decimal]
    countable_override: Mapping[int, Decimal] | None
    loan_agent: bool
    separation: date | None  # the last Separation from Service, if not employed now


def _pd_money(p: Participant, key: str) -> Decimal | None:
    raw = p.plan_data.get(key)
    if raw is None:
        return None
    try:
        return to_decimal(str(raw))
    except Exception:  # noqa: BLE001 - any bad value is a field error
        raise ParticipantError(f"/plan_data/{key}", f"{key} must be a decimal string") from None


def _pd_date(p: Participant, key: str) -> date | None:
    raw = p.plan_data.get(key)
    if raw is None or isinstance(raw, date):
        return raw
    try:
        return date.fromisoformat(str(raw))
    except ValueError:
        raise ParticipantError(f"/plan_data/{key}", f"{key} must be an ISO date") from None


def _vested_at_separation(core: CoreResult, year: int) -> bool:
    rows = [r for r in core.service.years if int(r.label) <= year]
    return bool(rows) and rows[-1].running_total >= 5


def account_inputs(p: Participant, core: CoreResult, market: MarketData) -> AccountInputs:
    entry = core.participation_date
    opening = _pd_money(p, "opening_balance")
    trace = Trace()
    if entry is None and opening is None:
        return AccountInputs(None, ZERO, trace, (), (), p.compensation, None, False, None)
    if opening is None and entry is not None and entry < RESTATEMENT:
        benefit_1999 = _pd_money(p, "dec31_1999_benefit")
        if benefit_1999 is None:
            raise ParticipantError(
                "/plan_data/opening_balance",
                "a participant before 2000 needs the January 1, 2000 Beginning Balance "
                "(or plan_data.dec31_1999_benefit) (§4.2, GAP-1)",
            )
        nrd_1999 = _pd_date(p, "dec31_1999_benefit_nrd") or core.normal_retirement_date
        basis = applicable_basis(RESTATEMENT, market)
        opening, trace = beginning_balance(benefit_1999, birth_date=p.birth_date, nrd=nrd_1999, basis=basis)
    if opening is not None:
        account_open = RESTATEMENT
    else:
        account_open, opening = entry, ZERO
    # Active spans: from entry (re-entry at once on rehire, AMBIG-8) to each separation; death
    # ends the last; Disability Retirement keeps the person Active until the ASD (§1.17(a), §5.8).
    periods: list[ActivePeriod] = []
    forfeits: list[Forfeiture] = []
    spans = p.periods
    for i, span in enumerate(spans):
        start = max(span.start, entry or span.start)
        end = span.end
        if (
            p.disability_date
            and span.start <= p.disability_date
            and (end is None or p.disability_date <= end)
        ):
            end = None
        if p.death_date and (end is None or p.death_date < end):
            end = p.death_date
        if end is not None and end < start:
            continue
        periods.append(ActivePeriod(start, end))
        # §2.3(a): a non-vested Separation from Service forfeits the account; §5.14(a)(i) restores
        # it on re-entry before five consecutive One-Year Breaks.
        partly_vested = i == len(spans) - 1 and core.vesting.percent > 0  # e.g. top-heavy 40% (GAP-17)
        if (
            end is not None
            and end < core.normal_retirement_date
            and not partly_vested
            and not _vested_at_separation(core, end.year)
        ):
            restored = None
            if i + 1 < len(spans):
                nxt = spans[i + 1].start
                breaks = sum(
                    1 for r in core.service.years if end.year <= int(r.label) < nxt.year and r.is_break
                )
                if breaks < 5:
                    restored = nxt
            forfeits.append(Forfeiture(end, restored))  # a non-vested death too (§5.9(d), §5.12(a))
    last = spans[-1].end if spans else None
    override_raw = p.plan_data.get("countable_compensation")
    override = None
    if override_raw:
        override = {int(k): to_decimal(str(v)) for k, v in dict(override_raw).items()}
    return AccountInputs(
        account_open,
        opening,
        trace,
        tuple(periods),
        tuple(forfeits),
        p.compensation,
        override,
        bool(p.plan_data.get("loan_agent")),
        last if last is not None and not (p.disability_date and p.disability_date <= last) else None,
    )


def vested_amount(balance: Decimal, percent: Decimal) -> Decimal:
    """GAP-17: a vested percentage applies to the account proportionally (to the cent)."""
    return to_money(balance * percent / HUNDRED)


def _settings(core: CoreResult | None) -> BenefitSettings:
    if core is None:
        return DEFAULT_SETTINGS
    return core.settings.get("benefits") or DEFAULT_SETTINGS


def _comp_limit(year: int) -> Decimal:
    # Projected pay years beyond the last published limit use it as a traced estimate.
    value = parameter("irs_401a17_compensation_limit").latest_published(date(year, 1, 1)).value
    assert value is not None
    return value


def _loan_limit(year: int) -> Decimal:
    value = parameter("irs_414q_hce_compensation_threshold").latest_published(date(year, 1, 1)).value
    assert value is not None
    return value


def _core(p: Participant, as_of: date, core: CoreResult | None) -> CoreResult:
    if core is not None:
        return core
    from .rules import ServiceVestingSettings
    from .rules import core as rules_core

    return rules_core(p, as_of, ServiceVestingSettings())


# ------------------------------------------------------------------------------------- ledger


def participant_ledger(
    p: Participant,
    as_of: date,
    market: MarketData,
    core: CoreResult,
    *,
    through: date | None = None,
    asd: date | None = None,
    inputs: AccountInputs | None = None,
) -> Ledger:
    """The account ledger through ``through`` (default ``as_of``); after ``as_of`` it is a projection."""
    settings = _settings(core)
    inputs = inputs or account_inputs(p, core, market)
    if inputs.account_open is None:
        return Ledger(())
    return account_ledger(
        account_open=inputs.account_open,
        opening_balance=inputs.opening_balance,
        periods=inputs.periods,
        compensation=inputs.compensation,
        comp_limit=_comp_limit,
        market=market,
        as_of=as_of,
        through=through or as_of,
        settings=settings,
        asd=asd,
        forfeitures=inputs.forfeitures,
        disability_date=p.disability_date,
        countable_override=inputs.countable_override,
        loan_agent_limit=_loan_limit if inputs.loan_agent else None,
    )


def statement(
    p: Participant,
    as_of: date,
    assumptions: Mapping[str, Any],
    start: date,
    end: date,
    core: CoreResult | None = None,
) -> Statement:
    """The ledger for a statement period: opening, pay credits, interest credits, closing."""
    core = _core(p, as_of, core)
    market = MarketData.from_assumptions(assumptions)
    return participant_ledger(p, as_of, market, core, through=end).statement(start, end)


# ------------------------------------------------------------------------------------- results


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


@dataclass(frozen=True)
class QuakerBenefits:
    account: Account
    accrued: AccruedBenefit | None
    estimates: tuple[Estimate, ...]
    cash_out: CashOut | None
    survivor: SurvivorAnnuity | None
    ledger: Ledger
    notes: tuple[str, ...] = field(default_factory=tuple)


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
        result=balance,
        commencement_date=d,
        vested_percent=pct,
        vested_balance=vested,
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
    sla, ls, lump, limit_notes = apply_415(p, core, d, sla, ls, lump, basis)
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
        d, route, balance, vested, forms, default, ls, False, est, tuple(notes), trace, rv, missing
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
    options = []
    for key, f in forms.items():
        if key == "lump_sum" and f.lump_sum is not None:
            options.append(OptionalForm(key, Form.lump_sum(), f.lump_sum))
        elif f.monthly is None:
            continue
        elif key == "life":
            options.append(OptionalForm(key, Form.life(), f.monthly))
        elif key in SURVIVOR_FORMS:
            options.append(
                OptionalForm(key, Form.contingent(SURVIVOR_FORMS[key]), f.monthly, beneficiary_birth)
            )
        elif key in CERTAIN_FORMS:
            options.append(OptionalForm(key, Form.certain_and_life(CERTAIN_FORMS[key]), f.monthly))
    return relative_values(
        options,
        birth_date=birth_date,
        asd=asd,
        married=married,
        assumptions=assumptions,
        rules=relative_value_rules(settings),
        table=basis.table,
    )


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
        ledger = build_ledger(
            account_open=start,
            opening_balance=vested_amount(balance_before_asd, percent),
            pay_credits={},
            treasury_rate=lambda y: market.treasury_rate(y, allow_estimate=y > as_of.year),
            through=nrd,
            settings=_settings(core),
            asd=nrd,
            opening_basis="balance at the ASD, projected to NRD with Interest Credits only (GAP-3)",
            opening_earns_first_quarter=True,
        )
        at_nrd = ledger.balance_before(nrd)
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
) -> tuple[LifeAnnuity, LumpSum, FormAmount, list[str]]:
    """§5.15 / §1.2(a)-(c): clip the life annuity (and so every form) and the lump sum to the §415(b)
    limit for the start date, and flag the case for the Enrolled Actuary (SPEC §13.1)."""
    notes: list[str] = []
    try:
        dollar = parameter("irs_415b_dollar_limit").at(date(d.year, 12, 31))
    except ParameterNotInForce:
        return sla, ls, lump, notes
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
        return sla, ls, lump, notes
    steps = check.trace.add("§415(b) dollar limit for the start date: " + words, section="§5.15(a)(i), §1.2(a),(c)",
                            result=adjusted, limit_year=d.year, dollar_limit=dollar)  # fmt: skip
    if not check.passes:
        monthly = to_money_down(check.limit / 12)
        sla = replace(sla, monthly=monthly, trace=sla.trace.extend(steps).add(
            "Life annuity reduced to the §415(b) limit", section="§5.15, §1.2", result=monthly))  # fmt: skip
        notes.append("§415(b) limit applied: Enrolled Actuary to review (SPEC §13.1)")
    equivalent, factor = lump_sum_annual_equivalent(
        ls.amount, age=sla.age, air=basis.rate.value, table=basis.table
    )
    if equivalent > check.limit:
        capped = to_money_down(check.limit * to_decimal(factor))
        ls = replace(ls, amount=capped, trace=ls.trace.extend(steps).add(
            "Lump sum reduced: its straight-life equivalent (at the greater of AIR and 8%) exceeds the "
            "§415(b) limit", section="§5.15, §1.2(b)", result=capped, annual_equivalent=equivalent))  # fmt: skip
        lump = replace(lump, lump_sum=capped, trace=lump.trace.extend(ls.trace))
        notes.append("§415(b) limit applied to the lump sum: Enrolled Actuary to review")
    return sla, ls, lump, notes


def entry_before_2000(core: CoreResult) -> bool:
    return core.participation_date is not None and core.participation_date < RESTATEMENT


def accrued_benefit(
    p: Participant, as_of: date, market: MarketData, core: CoreResult, inputs: AccountInputs
) -> AccruedBenefit | None:
    """The life annuity at NRD bought by today's balance with Interest Credits only to NRD (§5.3)."""
    nrd = core.normal_retirement_date
    if inputs.account_open is None:
        return None
    # No pay credits after the last December 31 for someone still working; a separated person's
    # final-year credit is earned (it posts on December 31, §4.3(b)).
    last_dec31 = as_of if (as_of.month, as_of.day) == (12, 31) else date(as_of.year - 1, 12, 31)
    spans = tuple(ActivePeriod(x.start, x.end or last_dec31) for x in inputs.periods)
    frozen = AccountInputs(
        inputs.account_open, inputs.opening_balance, inputs.opening_trace,
        tuple(x for x in spans if x.end >= x.start),
        inputs.forfeitures, inputs.compensation, inputs.countable_override, inputs.loan_agent,
        inputs.separation,
    )  # fmt: skip
    ledger = participant_ledger(p, as_of, market, core, through=nrd, inputs=frozen)
    balance = ledger.balance_before(nrd)
    pct = core.vesting.percent
    basis = applicable_basis(nrd, market)
    sla = balance_to_life_annuity(
        balance, birth_date=p.birth_date, start=nrd, basis=basis, section="§1.2(g), §5.3"
    )
    trace = (
        Trace()
        .add(
            "Accrued benefit: the balance earned so far with Interest Credits only to NRD",
            section="§5.3(a),(b), §5.9(c)",
            result=balance,
            as_of=as_of,
            normal_retirement_date=nrd,
            vested_percent=pct,
        )
        .extend(sla.trace)
    )
    return AccruedBenefit(nrd, balance, sla.monthly, nrd > as_of, trace)


def survivor_benefit(
    p: Participant, as_of: date, market: MarketData, core: CoreResult, inputs: AccountInputs,
    start: date | None = None,
) -> SurvivorAnnuity | None:  # fmt: skip
    """§5.12 for a participant who died vested before his ASD (start: the earliest, or ``start``)."""
    if p.death_date is None or core.vesting.percent <= 0 or inputs.account_open is None:
        return None
    if p.is_married and p.spouse_birth_date and not p.plan_data.get("qpsa_waived"):
        recipient, who = "spouse", p.spouse_birth_date
    else:
        who = _pd_date(p, "beneficiary_birth_date")
        if who is None:
            return None
        recipient = "beneficiary"
    dates = survivor_dates(death_date=p.death_date, birth_date=p.birth_date, recipient=recipient)
    begin = first_of_month_on_or_after(start) if start else dates.earliest_start
    ledger = participant_ledger(p, as_of, market, core, through=begin, inputs=inputs)
    balance = vested_amount(ledger.balance_before(begin), core.vesting.percent)
    threshold, _ = cash_out_threshold(begin, _settings(core))
    return survivor_annuity(
        balance, recipient=recipient, start=begin, survivor_birth_date=who, dates=dates,
        basis=applicable_basis(begin, market), cash_out_threshold=threshold,
    )  # fmt: skip


def yearly_trace(ledger: Ledger, as_of: date) -> Trace:
    """One plain-words step per Plan Year of the ledger up to ``as_of`` (the statement summary)."""
    steps: dict[int, list[Decimal]] = {}  # year → [opening, interest, pay, other, closing]
    balance = ZERO
    for e in ledger.entries:
        if e.date > as_of:
            break
        row = steps.setdefault(e.date.year, [balance, ZERO, ZERO, ZERO, balance])
        row[1 if e.kind == "interest_credit" else 2 if e.kind == "pay_credit" else 3] += e.amount
        row[4] = balance = e.balance
    trace = Trace()
    for year, (opening, interest, pay, other, closing) in steps.items():
        words = (
            f"Plan Year {year}: opening {opening:,.2f} + Interest Credits {interest:,.2f} "
            f"+ Contribution Credit {pay:,.2f}"
        )
        if other:
            words += f" + other movements {other:,.2f}"
        partial = year == as_of.year and (as_of.month, as_of.day) != (12, 31)
        trace = trace.add(
            words + f" = {closing:,.2f}" + (" (to date)" if partial else ""),
            section="§4.3, §4.4" + (", §2.3(a), §4.5, §5.14" if other else ""),
            result=closing,
        )
    return trace


def survivor_estimate(
    p: Participant, as_of: date, market: MarketData, core: CoreResult, inputs: AccountInputs, start: date
) -> Estimate:
    """For a participant who died before his ASD, a commencement date prices the §5.12 Survivor
    Annuity (``life`` = the survivor's monthly life annuity) and its lump sum (§5.12(e))."""
    d = first_of_month_on_or_after(start)
    s = survivor_benefit(p, as_of, market, core, inputs, start=d)
    if s is None:
        return Estimate(d, "no_survivor_benefit", ZERO, ZERO, {}, None, None, False, d > as_of,
                        ("no §5.12 benefit: not vested at death, or no spouse/beneficiary data",), Trace())  # fmt: skip
    notes = []
    if d < s.dates.earliest_start or d > s.dates.latest_start:
        notes.append(f"outside the §5.12 start window {s.dates.earliest_start} – {s.dates.latest_start}")
    forms = {
        "life": FormAmount("life", f"Survivor Annuity to the {s.recipient}", monthly=s.monthly, trace=s.trace),
        "lump_sum": FormAmount("lump_sum", "Lump sum instead of the Survivor Annuity", lump_sum=s.lump_sum,
                               trace=s.trace),
    }  # fmt: skip
    default = "life"
    if s.lump_sum_automatic:  # §5.12(e): paid in a lump sum in lieu of the annuity
        forms, default = {"lump_sum": forms["lump_sum"]}, "lump_sum"
    return Estimate(d, "survivor", s.balance, s.balance, forms, default, None, s.lump_sum_automatic,
                    d > as_of, tuple(notes), s.trace)  # fmt: skip


def benefits(
    p: Participant,
    as_of: date,
    assumptions: Mapping[str, Any],
    core: CoreResult | None = None,
    *,
    annuities: bool = True,
) -> QuakerBenefits:
    """Everything the web app shows for one participant (raises MarketDataError/ParticipantError).

    ``annuities=False`` skips what needs the Applicable Interest Rate (accrued benefit, estimates,
    survivor annuity, the 1999 floor in the cash-out test): the account alone."""
    core = _core(p, as_of, core)
    market = MarketData.from_assumptions(assumptions)
    settings = _settings(core)
    inputs = account_inputs(p, core, market)
    last = max([as_of, *p.commencement_dates])
    ledger = participant_ledger(p, as_of, market, core, through=last, inputs=inputs)
    balance = ledger.balance_at(as_of)
    pct = core.vesting.percent
    vested = vested_amount(balance, pct)
    acct_trace = inputs.opening_trace.extend(yearly_trace(ledger, as_of)).add(
        "Account balance on the as-of date, from the ledger; vested balance = vested % × balance",
        section="Art. 4; §5.9(a), §7.3 (GAP-17)",
        result=balance,
        as_of=as_of,
        vested_percent=pct,
        vested_balance=vested,
        entries=len([e for e in ledger.entries if e.date <= as_of]),
    )
    account = Account(as_of, balance, pct, vested, acct_trace)
    notes: list[str] = []
    residual = [e for e in ledger.entries if e.residual]
    if residual:
        notes.append("a Contribution Credit falls after the ASD: residual work item (GAP-2)")
    accrued = accrued_benefit(p, as_of, market, core, inputs) if annuities else None
    if not annuities:
        estimates: tuple[Estimate, ...] = ()
    elif p.death_date is not None:
        estimates = tuple(survivor_estimate(p, as_of, market, core, inputs, d) for d in p.commencement_dates)
    else:
        estimates = tuple(
            estimate(
                p,
                as_of,
                market,
                core,
                d,
                ledger=ledger,
                inputs=inputs,
                with_whipsaw=True,
                assumptions=assumptions,
            )
            for d in p.commencement_dates
        )
    co = None
    if inputs.separation is not None and p.death_date is None:
        at_sep = ledger.balance_at(inputs.separation)
        floor = None
        if annuities and _pd_money(p, "dec31_1999_benefit") is not None:
            floor = estimate(p, as_of, market, core, first_of_next_month(inputs.separation),
                             ledger=ledger, inputs=inputs, with_relative_values=False).lump_sum.floor  # fmt: skip
        co = cash_out(
            separation=inputs.separation,
            vested_balance=vested_amount(at_sep, pct),
            settings=settings,
            as_of=as_of,
            floor=floor,
            prior_distribution_over_limit=bool(p.plan_data.get("prior_distribution_over_cash_out_limit")),
        )
    survivor = survivor_benefit(p, as_of, market, core, inputs) if annuities else None
    return QuakerBenefits(account, accrued, estimates, co, survivor, ledger, tuple(notes))


# ------------------------------------------------------------------------------------- grid


@dataclass(frozen=True)
class GridRow:
    commencement_date: date
    route: str
    balance: Decimal
    monthly: Mapping[str, Decimal]  # form key → monthly amount
    lump_sum: Decimal | None
    estimate: bool


def price_grid(
    p: Participant,
    as_of: date,
    assumptions: Mapping[str, Any],
    core: CoreResult | None = None,
    *,
    start: date | None = None,
    end_age: int = GRID_END_AGE,
) -> tuple[GridRow, ...]:
    """Every month from the earliest commencement date to age ``end_age``, every form.

    One projected ledger serves every month (see ``estimate``); factors are cached by age in months.
    """
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
    d = first
    while d <= last:
        if p.death_date is not None:
            e = survivor_estimate(p, as_of, market, core, inputs, d)
        else:
            e = estimate(p, as_of, market, core, d, ledger=ledger, inputs=inputs, with_relative_values=False)
        monthly = {k: f.monthly for k, f in e.forms.items() if f.monthly is not None}
        rows.append(
            GridRow(d, e.route, e.balance, monthly, e.lump_sum.amount if e.lump_sum else None, e.estimate)
        )
        d = add_months(d, 1)
    return tuple(rows)


def earliest_commencement(p: Participant, as_of: date, core: CoreResult, inputs: AccountInputs) -> date:
    """The first date a benefit could start: §5.11(a)(iv) after a separation, else the next month
    (for someone still working, assuming a separation then), never before the next month."""
    floor = first_of_next_month(as_of)
    if inputs.separation is not None:
        retired = _retirement_separation(p, core, inputs)
        return max(floor, earliest_lump_sum_date(inputs.separation, retirement=retired))
    return floor


def _retirement_separation(p: Participant, core: CoreResult, inputs: AccountInputs) -> bool:
    """Whether the separation was "on account of his Early, Normal, Late or Disability Retirement"
    (§5.11(a)(iv)): an ERD or NRD on the first of the month after it, or a disability."""
    sep = inputs.separation
    if sep is None:
        return False
    if p.disability_date is not None and p.disability_date <= sep:
        return True
    erd = core.earliest_retirement_date
    return first_of_next_month(sep) >= min(erd or core.normal_retirement_date, core.normal_retirement_date)


# ------------------------------------------------------------------------------------- contract


def _form_json(f: FormAmount) -> dict:
    if f.monthly is None:
        return {"lump_sum": money_str(f.lump_sum)}
    out = {"monthly": money_str(f.monthly)}
    if f.survivor_monthly is not None:
        out["survivor_monthly"] = money_str(f.survivor_monthly)
    return out


def plan_outputs(
    participant: Participant, as_of: date, assumptions: Mapping[str, Any], core: CoreResult
) -> dict:
    """The contract keys for one participant (engine-cli.md).

    Form objects hold exactly the contract's ``monthly`` or ``lump_sum``; every figure's trace is in
    one ``traces`` map keyed by the dotted path of the figure (``"account.balance"``,
    ``"accrued_benefit.monthly_at_nrd"``, ``"estimates[0].forms.js50"``, ``"cash_out"``,
    ``"survivor_annuity"``), as the other plans do. Missing market data (docs/engine-cli.md,
    ``missing``): a Treasury yield the account needs blocks every benefit figure (vesting and dates
    stay); a missing Applicable Interest Rate keeps the account figures and blocks the annuity
    figures; a month the grandfathered minimum lump sum needs blocks that lump sum. Malformed market
    data is a participant error (pointer into the request).
    """
    missing: list[dict[str, Any]] = []
    try:
        b = benefits(participant, as_of, assumptions, core)
    except MarketDataError as exc:
        if "missing" not in exc.message:
            raise ParticipantError(exc.field, exc.message, absolute=True) from None
        if not exc.field.startswith("/assumptions/applicable_interest_rate"):
            raise  # the account itself needs it: the engine keeps vesting and dates only
        # The account needs no AIR: give it, and name the missing rate for the annuity figures.
        missing.append(
            {"field": exc.field, "message": exc.message, "blocks": ["/accrued_benefit", "/estimates"]}
        )
        try:
            b = benefits(participant, as_of, assumptions, core, annuities=False)
        except MarketDataError as exc2:
            if "missing" not in exc2.message:
                raise ParticipantError(exc2.field, exc2.message, absolute=True) from None
            raise
    traces: dict[str, list] = {"account.balance": b.account.trace.as_list()}
    estimates = []
    for i, e in enumerate(b.estimates):
        item: dict[str, Any] = {
            "commencement_date": e.commencement_date.isoformat(),
            "forms": {k: _form_json(f) for k, f in e.forms.items()},
            "route": e.route,
            "default_form": e.default_form,
            "estimate": e.estimate,
        }
        survivors = {
            k: money_str(f.survivor_monthly) for k, f in e.forms.items() if f.survivor_monthly is not None
        }
        if survivors:
            item["survivor_monthly"] = survivors  # also on each form (kept for earlier callers)
        rv = e.relative_values
        if rv is not None and rv.basis is not None:
            item["relative_value_basis"] = rv.basis.as_json()
            item["relative_value_groups"] = groups_json(rv.groups)
            for k, value in rv.values.items():
                item["forms"][k]["relative_value"] = relative_value_json(value)
                traces[f"estimates[{i}].forms.{k}.relative_value"] = rv.traces[k].as_list()
        if e.notes:
            item["notes"] = list(e.notes)
        for field_, message in e.missing:
            missing.append(
                {"field": field_, "message": message, "blocks": [f"/estimates/{i}/forms/lump_sum"]}
            )
        estimates.append(item)
        for k, f in e.forms.items():
            traces[f"estimates[{i}].forms.{k}"] = f.trace.as_list()
        if not e.forms:
            traces[f"estimates[{i}]"] = e.trace.as_list()
    out: dict[str, Any] = {
        "account": {
            "balance": money_str(b.account.balance),
            "vested_balance": money_str(b.account.vested_balance),
        },
        "estimates": estimates,
    }
    if b.accrued is not None:
        out["accrued_benefit"] = {
            "monthly_at_nrd": money_str(b.accrued.monthly_at_nrd),
            "balance_at_nrd": money_str(b.accrued.balance_at_nrd),
            "estimate": b.accrued.estimate,
        }
        traces["accrued_benefit.monthly_at_nrd"] = b.accrued.trace.as_list()
    if b.cash_out is not None:
        co = b.cash_out
        out["cash_out"] = {
            "required": co.required,
            "threshold": money_str(co.threshold),
            "commencement_date": co.commencement_date.isoformat() if co.commencement_date else None,
        }
        traces["cash_out"] = co.trace.as_list()
    if b.survivor is not None:
        s = b.survivor
        out["survivor_annuity"] = {
            "recipient": s.recipient,
            "commencement_date": s.start.isoformat(),
            "monthly": money_str(s.monthly),
            "lump_sum": money_str(s.lump_sum),
            "lump_sum_automatic": s.lump_sum_automatic,
            "latest_commencement_date": s.dates.latest_start.isoformat(),
            "lump_sum_election_deadline": s.dates.lump_sum_election_deadline.isoformat(),
        }
        traces["survivor_annuity"] = s.trace.as_list()
    if b.notes:
        out["benefit_notes"] = list(b.notes)
    if missing:
        out["missing"] = merge(Missing(m["field"], m["message"], tuple(m["blocks"])) for m in missing)
    out["traces"] = traces
    return out
