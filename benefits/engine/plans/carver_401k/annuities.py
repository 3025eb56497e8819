"""Annuities from the vested account balance (§7.1(d), §7.5(a), §7.6(a)-(b)) and their relative values.

The plan buys every annuity from an insurer (§7.1(d)) and states no conversion basis of its own, so the
monthly amount is known only when an insurer quotes it. For the §417(a)(3) explanation, which must state
each form's financial effect and relative value (Treas. Reg. §1.417(a)(3)-1(c)(1)(iii)-(iv)), a form the
insurer has not quoted is illustrated on the §417(e)(3) applicable basis for the annuity starting date:
the applicable mortality table and the applicable interest rate (segment rates from 2012, the PPA blend in
2008-2011, the 30-year Treasury rate before) of the plan's look-back month and stability period
(Treas. Reg. §1.417(e)-1(d)(3)-(4)). The plan names neither, so both are readings (settings), as is the
basis itself (``annuity_illustration_basis``): docs/plan-notes/carver-401k/benefits.md.

The amount is the balance divided by the form's annuity factor: for a form paying ``P`` a month,
``balance = 12 × P × ä(12)`` where ``ä(12)`` is the form's APV of 1 a year paid monthly in advance from the
ASD (``actuarial.form_factor``), so ``P = balance ÷ (12 × ä(12))``, rounded to the cent. Relative values
compare every form with the QJSA (the 50% Joint and Survivor Annuity with the spouse; the Straight Life
Annuity for an unmarried participant, (c)(2)(ii)) on that same basis, as (c)(2)(iv) allows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from types import MappingProxyType
from typing import Any

from benefits.engine.actuarial import (
    AgeMethod,
    Form,
    RelativeValue,
    attained_age,
    form_factor,
    relative_value_of_apvs,
)
from benefits.engine.minimum_present_value import (
    BasisNotAvailable,
    MissingMarketData,
    StatutoryBasis,
    lookback,
    statutory_basis,
)
from benefits.engine.money import percent_str, to_decimal, to_money
from benefits.engine.trace import Trace, money, years
from benefits.engine.trace import factor as factor_of

from .settings import DEFAULT_SETTINGS, BenefitSettings

SURVIVOR_SHARE = {"js50": Decimal("0.5"), "js75": Decimal("0.75"), "js100": Decimal("1")}
REGULATION = "Treas. Reg. §1.417(a)(3)-1(c)(2)"
BASIS_SECTION = "IRC §417(e)(3); Treas. Reg. §1.417(e)-1(d) (the plan states no conversion basis)"
# The explanation is given 30-90 days before the ASD (§1.417(e)-1(b)(3)(ii)); the "approximately
# equal" wording is not available for explanations before 1/1/2007 ((f)(2)(iii)): the latest day.
EXPLANATION_DAYS_BEFORE_ASD = 30


class NoBasis(LookupError):
    """No illustration basis for the date; ``field`` is the JSON pointer of what is missing ('' if none)."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def form_shape(key: str) -> Form | None:
    """The actuarial shape of a plan form key (§7.1(a)(ii)-(vi)); None for a lump sum or unknown key."""
    if key == "life":
        return Form.life()
    if key in SURVIVOR_SHARE:
        return Form.contingent(SURVIVOR_SHARE[key])
    if key.startswith("cc") and key[2:].isdigit():
        return Form.certain_and_life(int(key[2:]))
    return None


def stability_period_start(asd: date, settings: BenefitSettings = DEFAULT_SETTINGS) -> date:
    """The first day of the stability period containing the ASD: the Plan Year (the calendar year,
    §1.52) or the calendar month, as the reading says (Treas. Reg. §1.417(e)-1(d)(4)(iv))."""
    if settings.annuity_stability_period == "month":
        return date(asd.year, asd.month, 1)
    return date(asd.year, 1, 1)


def illustration_lookback_month(asd: date, settings: BenefitSettings = DEFAULT_SETTINGS) -> str:
    """The month ("YYYY-MM") whose §417(e)(3) rates illustrate an annuity starting on ``asd``: this many full
    calendar months before the stability period begins (Treas. Reg. §1.417(e)-1(d)(4)(v): the
    first to fifth month)."""
    return lookback(stability_period_start(asd, settings), settings.annuity_lookback_months)


def illustration_basis(
    asd: date, assumptions: Mapping[str, Any] | None, settings: BenefitSettings = DEFAULT_SETTINGS
) -> StatutoryBasis:
    """The §417(e)(3) applicable basis for an annuity starting on ``asd`` (raises ``NoBasis``)."""
    if settings.annuity_illustration_basis != "417e":
        raise NoBasis("the plan's reading is to show annuity amounts only from an insurer's quote")
    start = stability_period_start(asd, settings)
    month = illustration_lookback_month(asd, settings)
    try:
        return statutory_basis(asd, assumptions, lookback_month=month, period_start=start, projection=True)
    except MissingMarketData as exc:
        raise NoBasis(exc.message, exc.field) from None
    except BasisNotAvailable as exc:
        raise NoBasis(str(exc), "/engine/mortality/417e") from None


@dataclass(frozen=True)
class PricedForm:
    monthly: Decimal
    survivor_monthly: Decimal | None
    factor: Decimal  # ä(12) per 1 a year, as used
    trace: Trace


def price_on_basis(
    vested_balance: object,
    key: str,
    basis: StatutoryBasis,
    *,
    age: float,
    beneficiary_age: float | None,
) -> PricedForm:
    """The monthly annuity of form ``key`` that the vested balance buys on ``basis``."""
    shape = form_shape(key)
    if shape is None:
        raise ValueError(f"{key} is not an annuity form")
    factor = to_decimal(form_factor(basis.basis, shape, age, beneficiary_age))
    balance = to_money(vested_balance)
    monthly = to_money(balance / (12 * factor))
    share = SURVIVOR_SHARE.get(key)
    survivor = to_money(monthly * share) if share is not None else None
    inputs: dict[str, Any] = {
        "vested_balance": money(balance),
        "annuity_factor": factor_of(round(factor, 6), 6),
        "age": years(round(Decimal(repr(age)), 4)),
    }
    if beneficiary_age is not None and shape.needs_spouse:
        inputs["beneficiary_age"] = years(round(Decimal(repr(beneficiary_age)), 4))
    t = Trace().add(
        f"{shape.label}: an illustration of what the vested balance buys — balance ÷ (12 × the annuity "
        f"factor) on {basis.words}; the insurer's price on the purchase date governs",
        section=f"§7.1(d); {BASIS_SECTION}",
        result=money(monthly),
        **inputs,
    )
    if survivor is not None and share is not None:
        t = t.add(
            f"After the participant's death the survivor receives {percent_str(share * Decimal(100))}% of the monthly "
            "amount",
            section="§7.1(a)(iii)-(v)",
            result=money(survivor),
        )
    return PricedForm(monthly, survivor, factor, t)


@dataclass(frozen=True)
class RelativeValues:
    comparison_form: str
    basis: StatutoryBasis
    values: Mapping[str, RelativeValue] = field(default_factory=lambda: MappingProxyType({}))
    traces: Mapping[str, Trace] = field(default_factory=lambda: MappingProxyType({}))

    def basis_json(self) -> dict[str, Any]:
        return {
            "form": self.comparison_form,
            "interest": " / ".join(f"{r.normalize():f}%" for r in self.basis.rates_percent),
            "mortality": self.basis.table.name,
            "source": f"{REGULATION}(iv): one basis for every form, the §417(e)(3) applicable basis "
            f"({self.basis.words})",
            "lookback_month": self.basis.lookback_month,
        }


def relative_values(
    forms: Mapping[str, Mapping[str, Decimal]],
    *,
    basis: StatutoryBasis,
    asd: date,
    married: bool,
    age: float,
    beneficiary_age: float | None,
    factors: Mapping[str, Decimal] | None = None,
) -> RelativeValues | None:
    """Each form's APV as a percentage of the QJSA's, all on ``basis`` (None if the QJSA is not priced).

    APVs: an annuity's is ``12 × monthly × ä(12)`` (the rounded monthly amount the plan would pay); the
    lump sum's is the sum itself. ``factors``: the ä(12) of forms already priced on ``basis`` at these
    ages (``PricedForm.factor``), so they are not worked out again."""
    comparison = "js50" if married else "life"
    if "monthly" not in (forms.get(comparison) or {}):
        return None
    known = factors or {}

    def apv(key: str) -> Decimal | None:
        amounts = forms[key]
        if "lump_sum" in amounts and "monthly" not in amounts:
            return to_decimal(amounts["lump_sum"])
        shape = form_shape(key)
        if shape is None or (shape.needs_spouse and beneficiary_age is None):
            return None
        factor = known.get(key)
        if factor is None:
            factor = to_decimal(form_factor(basis.basis, shape, age, beneficiary_age))
        return to_decimal(amounts["monthly"]) * 12 * factor

    qjsa_apv = apv(comparison)
    if qjsa_apv is None or qjsa_apv <= 0:
        return None
    explained = asd - timedelta(days=EXPLANATION_DAYS_BEFORE_ASD)
    values: dict[str, RelativeValue] = {}
    traces: dict[str, Trace] = {}
    for key in forms:
        value = qjsa_apv if key == comparison else apv(key)
        if value is None:
            continue
        rv = relative_value_of_apvs(value, qjsa_apv, places=1, explanation_date=explained)
        values[key] = rv
        traces[key] = Trace().add(
            f"Relative value of {key} compared with {comparison}: its actuarial present value as a "
            f"percentage of the {comparison}'s, both on {basis.words}"
            + ("; approximately equal in value (95%-105%)" if rv.approximately_equal else ""),
            section=f"§7.5(b)(v); {REGULATION}",
            result=rv.percent,
            option_present_value=round(value, 2),
            comparison_present_value=round(qjsa_apv, 2),
        )
    return RelativeValues(comparison, basis, MappingProxyType(values), MappingProxyType(traces))


@dataclass(frozen=True)
class Illustration:
    """The annuity forms of one ASD with amounts (quoted or illustrated) and relative values."""

    forms: dict[str, dict[str, Decimal]]
    relative: RelativeValues | None
    notes: tuple[str, ...]
    missing: tuple[tuple[str, str], ...]  # (JSON pointer, message) of inputs the figures lacked
    trace: Trace
    basis_words: str = ""  # the illustration basis in words ("" when none was used)


def illustrate(
    vested_balance: object,
    offered: tuple[str, ...],
    quoted: Mapping[str, Mapping[str, Decimal]],
    *,
    asd: date,
    birth_date: date,
    married: bool,
    beneficiary_birth: date | None,
    assumptions: Mapping[str, Any] | None,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> Illustration:
    """Every offered annuity form priced (an insurer's quote first, else the illustration basis), the
    survivor's amount of each joint and survivor form, and every form's relative value."""
    forms: dict[str, dict[str, Decimal]] = {k: dict(v) for k, v in quoted.items()}
    trace = Trace()
    notes: list[str] = []
    missing: list[tuple[str, str]] = []
    age, beneficiary_age = ages(birth_date, beneficiary_birth, asd)
    annuities = [k for k in offered if form_shape(k) is not None]
    factors: dict[str, Decimal] = {}  # ä(12) of each form priced here, for its relative value
    try:
        basis: StatutoryBasis | None = illustration_basis(asd, assumptions, settings)
    except NoBasis as exc:
        basis = None
        if annuities:
            notes.append(f"annuity amounts not illustrated: {exc.message}")
            if exc.field:
                missing.append((exc.field, exc.message))
    if basis is not None:
        trace = trace.extend(basis.trace)
    for key in annuities:
        if key in forms:
            share = SURVIVOR_SHARE.get(key)
            if share is not None and "monthly" in forms[key]:
                forms[key]["survivor_monthly"] = to_money(forms[key]["monthly"] * share)
            continue
        if basis is None:
            continue
        shape = form_shape(key)
        if shape is not None and shape.needs_spouse and beneficiary_age is None:
            who = "spouse" if married else "contingent annuitant"
            notes.append(f"{key} not illustrated: the {who}'s birth date is needed")
            continue
        priced = price_on_basis(vested_balance, key, basis, age=age, beneficiary_age=beneficiary_age)
        forms[key] = {"monthly": priced.monthly}
        factors[key] = priced.factor
        if priced.survivor_monthly is not None:
            forms[key]["survivor_monthly"] = priced.survivor_monthly
        trace = trace.extend(priced.trace)
    relative = None
    if basis is not None:
        relative = relative_values(
            forms,
            basis=basis,
            asd=asd,
            married=married,
            age=age,
            beneficiary_age=beneficiary_age,
            factors=factors,
        )
        if relative is None and annuities:
            notes.append(
                "relative values omitted: the "
                + ("joint and survivor" if married else "straight life")
                + " annuity is not priced"
            )
    words = basis.words if basis is not None else ""
    return Illustration(forms, relative, tuple(notes), tuple(missing), trace, words)


def ages(birth_date: date, beneficiary_birth: date | None, asd: date) -> tuple[float, float | None]:
    """Completed years and months on the ASD (the engine's one age function), participant and beneficiary."""
    age = attained_age(birth_date, asd, AgeMethod.EXACT_MONTHS)
    other = attained_age(beneficiary_birth, asd, AgeMethod.EXACT_MONTHS) if beneficiary_birth else None
    return age, other


__all__ = [
    "Illustration",
    "NoBasis",
    "PricedForm",
    "RelativeValues",
    "ages",
    "form_shape",
    "illustrate",
    "illustration_basis",
    "price_on_basis",
    "relative_values",
    "stability_period_start",
]
