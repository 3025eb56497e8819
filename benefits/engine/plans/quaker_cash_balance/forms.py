"""Forms of payment (§5.2, §5.9(e), §5.10, §5.11) priced from the account.

Two routes, as the SPEC's §7 routing table reads §1.2:

* Early, Normal or Late Retirement (and the Vested benefit at NRD): the account buys the single life
  annuity on the §1.2(g) basis (B2); the QJSA (§5.10(c)) and the optional forms (§5.11(b)) are its
  Actuarial Equivalent on the general basis, UP-84 at 8% (B1; AMBIG-12 setting).
* A vested former participant taking an immediate benefit under §5.9(e) before his Early Retirement
  Date: the life annuity or the Joint and Survivor Annuity is bought directly from the balance on the
  Applicable basis, "in the form of annuity in which the Benefit shall be distributed" (B3). §5.11's
  optional forms are paid "during ... his Early, Normal or Late Retirement", so they are not offered.

Contract keys: ``life``, ``js50`` (the 50% QJSA / 50% contingent annuitant), ``js66`` (66-2/3%),
``js100``, ``cc5``/``cc10``/``cc15``/``cc20`` (60/120/180/240 payments certain), ``lump_sum``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from functools import lru_cache
from typing import Any, cast

from benefits.engine.actuarial import Basis, Form, FormKind, form_factor, life_annuity, plan_basis
from benefits.engine.dates import months_between
from benefits.engine.money import to_decimal, to_money, to_money_down
from benefits.engine.mortality import MortalityTable
from benefits.engine.trace import Trace, factor, money

from .annuity import ApplicableBasis, LifeAnnuity, age_words, mortality_table
from .settings import BenefitSettings

SURVIVOR_FORMS: dict[str, Decimal] = {"js50": Decimal("0.5"), "js66": Decimal(2) / 3, "js100": Decimal(1)}
CERTAIN_FORMS: dict[str, int] = {"cc5": 5, "cc10": 10, "cc15": 15, "cc20": 20}
FORM_NAMES = {
    "life": "Single life annuity",
    "js50": "Joint and 50% survivor annuity",
    "js66": "Joint and 66-2/3% survivor annuity (contingent annuitant)",
    "js100": "Joint and 100% survivor annuity (contingent annuitant)",
    "cc5": "Life annuity with 60 payments certain",
    "cc10": "Life annuity with 120 payments certain",
    "cc15": "Life annuity with 180 payments certain",
    "cc20": "Life annuity with 240 payments certain",
    "lump_sum": "Lump sum",
}


@dataclass(frozen=True)
class FormAmount:
    key: str
    name: str
    monthly: Decimal | None = None  # the participant's monthly amount (annuities)
    survivor_monthly: Decimal | None = None  # to the spouse/contingent annuitant after death
    lump_sum: Decimal | None = None
    trace: Trace = Trace()


def _form(key: str) -> Form:
    if key == "life":
        return Form.life()
    if key in SURVIVOR_FORMS:
        return Form.contingent(SURVIVOR_FORMS[key])
    return Form.certain_and_life(CERTAIN_FORMS[key])


@lru_cache(maxsize=4)
def general_basis(rate: Decimal) -> Basis:
    """§1.2 lead paragraph: "the UP 84 Mortality Table and ... eight percent (8%)" (basis B1)."""
    return plan_basis(mortality_table("up1984"), rate, label=f"UP-1984 at {(rate * 100).normalize():f}%")


@lru_cache(maxsize=65536)
def _ratio(basis: Basis, key: str, age_m: int, spouse_m: int | None) -> tuple[float, float]:
    """(life factor, form factor) at exact ages in months; cached for price grids."""
    age = age_m / 12.0
    spouse = None if spouse_m is None else spouse_m / 12.0
    return life_annuity(basis, age), form_factor(basis, _form(key), age, spouse)


# §1.2(a): "8% for purposes of adjusting the limitations of any form of benefit not subject to the
# present value restrictions in Code Section 417(e)(3)", with the Applicable Mortality Table; Code
# §415(b)(2)(E)(i) asks for no less than the greater of 5% and the plan's rate, so 8% it is.
LIMIT_FORM_RATE = 0.08


@lru_cache(maxsize=16)
def limit_basis(table: MortalityTable) -> Basis:
    """The basis on which the §415(b) limit is converted to a form (§1.2(a)): the table at 8%."""
    return plan_basis(table, LIMIT_FORM_RATE)


def survivor_disregarded(key: str, *, married: bool, spouse_birth_date: date | None) -> bool:
    """§5.15(a): "that portion of the survivor benefit payable to a Spouse provided under Section 5.10
    ... shall not be taken into account" (Code §415(b)(2)(B)): the married participant's QJSA, the
    Joint and 50% Survivor Annuity with the Spouse (§5.10(b)), is limited like a life annuity."""
    return key == "js50" and married and spouse_birth_date is not None


def limit_forms_415(
    forms: dict[str, FormAmount],
    *,
    limit: Decimal,
    table: MortalityTable,
    birth_date: date,
    start: date,
    married: bool,
    spouse_birth_date: date | None,
    annuitant_birth_date: date | None,
) -> tuple[dict[str, FormAmount], list[str]]:
    """§1.2 (last sentence of (c)), §5.15(a); Code §415(b)(2)(B): no form pays more than the annual
    §415(b) ``limit`` converted to that form, a straight life annuity's Actuarial Equivalent on the
    Applicable Mortality Table at 8% (§1.2(a)); for the QJSA the Spouse's survivor portion is left
    out, so its monthly amount is held to the life annuity's limit. Returns the forms and the keys
    of those reduced. ``annuitant_birth_date``: the survivor's birth date the forms were priced on."""
    out: dict[str, FormAmount] = {}
    reduced: list[str] = []
    age_m = months_between(birth_date, start)
    for key, f in forms.items():
        if f.monthly is None:
            out[key] = f
            continue
        cap = form_limit_monthly(
            limit,
            key,
            table=table,
            age_m=age_m,
            spouse_m=months_between(annuitant_birth_date, start) if annuitant_birth_date else None,
            disregard_survivor=survivor_disregarded(
                key, married=married, spouse_birth_date=spouse_birth_date
            ),
        )
        if f.monthly <= cap:
            out[key] = f
            continue
        survivor = to_money(cap * SURVIVOR_FORMS[key]) if key in SURVIVOR_FORMS else None
        trace = f.trace.add(
            f"{FORM_NAMES[key]} reduced to the §415(b) limit converted to this form",
            section="§1.2(a),(c), §5.15(a); Code §415(b)(2)(B)",
            result=money(cap),
            annual_limit=money(limit),
            before_limit=money(f.monthly),
            basis=limit_basis(table).describe(),
        )
        out[key] = FormAmount(key, f.name, monthly=cap, survivor_monthly=survivor, trace=trace)
        reduced.append(key)
    return out, reduced


def form_limit_monthly(
    limit: Decimal,
    key: str,
    *,
    table: MortalityTable,
    age_m: int,
    spouse_m: int | None,
    disregard_survivor: bool,
    ratio: float | None = None,
) -> Decimal:
    """The monthly amount of form ``key`` that is the Actuarial Equivalent of a straight life
    annuity of ``limit`` a year (§1.2(a)), rounded down to the cent. ``ratio``: life factor ÷ form
    factor on ``limit_basis(table)`` when already computed (the price grid)."""
    if key == "life" or disregard_survivor:
        return to_money_down(limit / 12)
    if ratio is None:
        life_f, form_f = _ratio(limit_basis(table), key, age_m, spouse_m if key in SURVIVOR_FORMS else None)
        ratio = life_f / form_f
    return to_money_down(limit * to_decimal(ratio) / 12)


def retirement_forms(
    sla: LifeAnnuity,
    *,
    birth_date: date,
    spouse_birth_date: date | None,
    applicable: ApplicableBasis,
    settings: BenefitSettings,
) -> dict[str, FormAmount]:
    """The life annuity and its Actuarial Equivalents (§5.10(c), §5.11(a)(i)-(iii), (b))."""
    start = sla.start
    if settings.form_conversion_basis == "up84_8pct":
        basis, section = general_basis(settings.form_conversion_interest), "§1.2, §5.10(c), §5.11(b)"
    else:
        basis, section = applicable.basis, "§1.2(d)-(g) (AMBIG-12 setting), §5.10(c), §5.11(b)"
    age_m = months_between(birth_date, start)
    spouse_m = months_between(spouse_birth_date, start) if spouse_birth_date else None
    out = {"life": FormAmount("life", FORM_NAMES["life"], monthly=sla.monthly, trace=sla.trace)}
    keys = list(CERTAIN_FORMS) + (list(SURVIVOR_FORMS) if spouse_m is not None else [])
    for key in keys:
        life_f, form_f = _ratio(basis, key, age_m, spouse_m if key in SURVIVOR_FORMS else None)
        ratio = life_f / form_f
        monthly = to_money(sla.monthly * to_decimal(ratio))
        survivor = to_money(monthly * SURVIVOR_FORMS[key]) if key in SURVIVOR_FORMS else None
        extra: dict[str, Any] = {}
        if key in SURVIVOR_FORMS:
            extra["spouse_age"] = age_words(cast(date, spouse_birth_date), start)
        if survivor is not None:
            extra["survivor_monthly"] = money(survivor)
        trace = sla.trace.add(
            f"{FORM_NAMES[key]}: the Actuarial Equivalent of the life annuity "
            f"(life annuity × life factor ÷ form factor)",
            section=section,
            result=money(monthly),
            life_annuity=money(sla.monthly),
            life_factor=factor(round(life_f, 6), 6),
            form_factor=factor(round(form_f, 6), 6),
            basis=basis.describe(),
            age=age_words(birth_date, start),
            **extra,
        )
        out[key] = FormAmount(key, FORM_NAMES[key], monthly=monthly, survivor_monthly=survivor, trace=trace)
    return out


def immediate_vested_forms(
    sla: LifeAnnuity,
    *,
    birth_date: date,
    spouse_birth_date: date | None,
    applicable: ApplicableBasis,
    keys: tuple[str, ...] = ("js50",),
) -> dict[str, FormAmount]:
    """§5.9(e): the life annuity, and the 50% Joint and Survivor Annuity, each bought directly from
    the balance on the Applicable basis (B3). ``keys`` may add other forms priced the same way (the
    SPEC's "B3 comparison" figures); the plan itself offers only ``life`` and ``js50`` here."""
    out = {"life": FormAmount("life", FORM_NAMES["life"], monthly=sla.monthly, trace=sla.trace)}
    start = sla.start
    age_m = months_between(birth_date, start)
    spouse_m = months_between(spouse_birth_date, start) if spouse_birth_date else None
    for key in keys:
        if key in SURVIVOR_FORMS and spouse_m is None:
            continue
        _, form_f = _ratio(applicable.basis, key, age_m, spouse_m if key in SURVIVOR_FORMS else None)
        monthly = to_money(sla.balance / (12 * to_decimal(form_f)))
        survivor = to_money(monthly * SURVIVOR_FORMS[key]) if key in SURVIVOR_FORMS else None
        extra: dict[str, Any] = {}
        if survivor is not None:
            extra = {
                "spouse_age": age_words(cast(date, spouse_birth_date), start),
                "survivor_monthly": money(survivor),
            }
        trace = sla.trace.add(
            f"{FORM_NAMES[key]} bought directly from the balance: balance ÷ (12 × form factor)",
            section="§5.9(e), §1.2(g), §5.10(b)",
            result=money(monthly),
            balance=money(sla.balance),
            form_factor=factor(round(form_f, 6), 6),
            basis=applicable.describe(),
            age=age_words(birth_date, start),
            **extra,
        )
        out[key] = FormAmount(key, FORM_NAMES[key], monthly=monthly, survivor_monthly=survivor, trace=trace)
    return out


__all__ = [
    "CERTAIN_FORMS",
    "FORM_NAMES",
    "FormAmount",
    "FormKind",
    "SURVIVOR_FORMS",
    "general_basis",
    "form_limit_monthly",
    "immediate_vested_forms",
    "limit_basis",
    "limit_forms_415",
    "retirement_forms",
    "survivor_disregarded",
]
