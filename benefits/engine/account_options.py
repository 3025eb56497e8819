"""The non-annuity optional forms of an account plan at an annuity starting date (pure: no Django).

An account plan (a 401(k) whose normal form is an annuity bought with the balance) may also pay the
vested balance as installments, a partial single sum with the rest as installments or an annuity, a
single sum paid in a direct rollover, or let the participant leave it in the plan (defer). A plan that
offers these has an ``AccountDistributionRules`` capability (``Plan.account_distributions``) with its
own terms and sections; this module computes, for one person and one date:

* the installment terms: the frequencies, and the longest period for that person — the plan's cap,
  and no longer than the participant's life expectancy (the plan's rule), from the Single Life Table
  of Treas. Reg. §1.401(a)(9)-9(b) when the plan names no table (``benefits.engine.life_expectancy``);
* the first installment for a few representative periods (the plan's amount rule: the balance ÷ the
  installments remaining, to the cent, half up), each saying whether it is an eligible rollover
  distribution: a series of substantially equal periodic payments for a specified period of 10 years
  or more is not one (Code §402(c)(4)(A); Treas. Reg. §1.402(c)-2, Q&A-5), a shorter one is;
* the partial single sum, the direct rollover and deferral, with their conditions;
* which withholding certificate applies: Form W-4R to a nonperiodic payment or an eligible rollover
  distribution paid to the participant (Code §3405(b), (c)), Form W-4P to periodic payments that are
  not eligible rollover distributions (Code §3405(a)).

``check_choice`` validates a participant's choice against the options the engine gave for that
person and date, naming the field and the rule, so the web refuses an invalid election whole.

No relative value is given for these forms: they are not annuities, so the §1.417(a)(3)-1(c)(1)(iv)
comparison with the QJSA (required of defined benefit plans only) has nothing to compare beyond the
account value they pay out; their financial effect ((c)(1)(iii)) is the amounts and timing shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from .dates import age_on_birthday_in_year
from .life_expectancy import TableNotInForce, single_life_expectancy, single_life_source
from .money import ZERO, money_str, to_decimal, to_money
from .trace import Trace, TraceBuilder, count, money, years

FREQUENCIES: dict[str, int] = {"monthly": 12, "quarterly": 4, "annual": 1}
ROLLOVER_SECTION = "Code §402(c)(4)(A); Treas. Reg. §1.402(c)-2, Q&A-5"
ROLLOVER_PERIOD_YEARS = 10  # periodic payments over a specified period of 10 years or more are not ERDs
WITHHOLDING_SECTION = "Code §3405(a), (b), (c)"


@dataclass(frozen=True)
class AccountDistributionRules:
    """One account plan's non-annuity optional forms, each with the section it was read from."""

    frequencies: tuple[str, ...]
    max_installment_years: int
    installments_section: str
    installment_rule_words: str  # how each installment is worked out, in plain words
    life_expectancy_section: str  # the plan's "not beyond the life expectancy" rule
    life_expectancy_table: str  # which table is used, and why (the plan names none)
    partial_section: str
    partial_remainder: tuple[str, ...]  # "installments" and/or "annuity"
    rollover_section: str
    deferral_section: str
    representative_years: tuple[int, ...] = (5, 9, 10)


def rollover_eligible_installments(n_years: int) -> bool:
    """A specified period of 10 years or more is not an eligible rollover distribution."""
    return n_years < ROLLOVER_PERIOD_YEARS


def withholding_form(*, periodic: bool, rollover_eligible: bool) -> str:
    """W-4P for periodic payments that are not ERDs; W-4R for ERDs and nonperiodic payments."""
    return "W-4P" if periodic and not rollover_eligible else "W-4R"


@dataclass(frozen=True)
class InstallmentLimit:
    max_years: int
    plan_cap_years: int
    age: int | None
    life_expectancy: Decimal | None
    limited_by: str  # "plan" | "life_expectancy"
    note: str  # why the life expectancy was not applied ("" when it was)
    trace: Trace


def installment_limit(rules: AccountDistributionRules, *, birth_date: date, asd: date) -> InstallmentLimit:
    """The longest installment period for this person: the plan's cap, and whole years no longer than
    the participant's life expectancy at the age on the birthday in the year payments start."""
    tb = TraceBuilder()
    cap = rules.max_installment_years
    tb.step(
        f"Installments run for no more than {cap} years",
        section=rules.installments_section,
        result=count(cap),
    )
    age = age_on_birthday_in_year(birth_date, asd.year)
    try:
        le = single_life_expectancy(age, asd)
    except TableNotInForce as exc:
        note = f"life expectancy not applied: {exc}"
        tb.step(
            "The life expectancy limit could not be applied: " + str(exc),
            section=rules.life_expectancy_section,
            result=None,
        )
        return InstallmentLimit(cap, cap, age, None, "plan", note, tb.build())
    tb.step(
        f"Life expectancy at age {age} (the age on the birthday in {asd.year}); {rules.life_expectancy_table}",
        section=f"{rules.life_expectancy_section}; {single_life_source(asd)}",
        result=years(le),
        age=age,
    )
    whole = int(le)  # whole years not beyond the life expectancy
    max_years = max(0, min(cap, whole))
    limited_by = "plan" if cap <= whole else "life_expectancy"
    tb.step(
        "Longest installment period: the smaller of the plan's limit and the whole years of life expectancy",
        section=rules.installments_section,
        result=count(max_years),
        plan_limit=count(cap),
        life_expectancy=years(le),
    )
    return InstallmentLimit(max_years, cap, age, le, limited_by, "", tb.build())


def first_installment(
    balance: object, n_years: int, frequency: str, section: str = ""
) -> tuple[Decimal, Trace]:
    """The first of ``n_years`` × payments a year installments: the balance ÷ the installments
    remaining (all of them), to the cent, half up."""
    per_year = FREQUENCIES[frequency]
    n = n_years * per_year
    if n <= 0:
        raise ValueError("no installments remain")
    amount = to_money(to_decimal(balance) / n)
    return amount, Trace().add(
        f"First {frequency} installment over {n_years} years: the vested balance divided by the "
        f"{n} installments remaining",
        section=section,
        result=money(amount),
        balance=money(to_money(balance)),
        installments=count(n),
    )


@dataclass(frozen=True)
class InstallmentExample:
    years: int
    rollover_eligible: bool
    first: Mapping[str, Decimal]  # frequency → first installment


@dataclass(frozen=True)
class AccountOptions:
    """The non-annuity forms open at one ASD, with the engine's figures for that person."""

    vested_balance: Decimal
    limit: InstallmentLimit
    frequencies: tuple[str, ...]
    examples: tuple[InstallmentExample, ...]
    partial_example: Decimal  # an example single sum (half the balance)
    partial_rest_first: Decimal  # the first monthly installment of the rest over the longest period
    installments_open: bool
    partial_open: bool
    rollover_open: bool
    deferral: Mapping[str, Any]
    rules: AccountDistributionRules
    trace: Trace

    def as_json(self) -> dict[str, Any]:
        r = self.rules
        lim = self.limit
        return {
            "vested_balance": money_str(self.vested_balance),
            "installments": {
                "available": self.installments_open,
                "frequencies": list(self.frequencies),
                "payments_a_year": {f: FREQUENCIES[f] for f in self.frequencies},
                "max_years": lim.max_years,
                "plan_max_years": lim.plan_cap_years,
                "limited_by": lim.limited_by,
                "age": lim.age,
                "life_expectancy": f"{lim.life_expectancy:f}" if lim.life_expectancy is not None else "",
                "life_expectancy_table": r.life_expectancy_table,
                "life_expectancy_note": lim.note,
                "rollover_eligible_below_years": ROLLOVER_PERIOD_YEARS,
                "rule": r.installment_rule_words,
                "section": r.installments_section,
                "examples": [
                    {
                        "years": e.years,
                        "rollover_eligible": e.rollover_eligible,
                        "withholding_form": withholding_form(
                            periodic=True, rollover_eligible=e.rollover_eligible
                        ),
                        "first": {f: money_str(v) for f, v in e.first.items()},
                    }
                    for e in self.examples
                ],
            },
            "partial_lump_sum": {
                "available": self.partial_open,
                "maximum_below": money_str(self.vested_balance),
                "remainder": list(r.partial_remainder),
                "example_amount": money_str(self.partial_example),
                "example_rest": money_str(self.vested_balance - self.partial_example),
                "example_rest_monthly_first": money_str(self.partial_rest_first),
                "example_rest_years": lim.max_years,
                "rollover_eligible": True,
                "section": r.partial_section,
            },
            "direct_rollover": {
                "available": self.rollover_open,
                "amount": money_str(self.vested_balance),
                "rollover_eligible": True,
                "section": r.rollover_section,
            },
            "deferral": dict(self.deferral),
            "rollover_section": ROLLOVER_SECTION,
            "withholding_section": WITHHOLDING_SECTION,
        }


def account_options(
    rules: AccountDistributionRules,
    vested_balance: object,
    *,
    birth_date: date,
    asd: date,
    normal_retirement_date: date,
    deferral_until: date | None,
    terminated_by_asd: bool = True,
) -> AccountOptions:
    """Installments, a partial single sum, a direct rollover and deferral at ``asd``, with figures."""
    tb = TraceBuilder()
    balance = to_money(vested_balance)
    lim = installment_limit(rules, birth_date=birth_date, asd=asd)
    tb.include(lim.trace)
    examples = []
    shown = sorted({y for y in rules.representative_years if 0 < y <= lim.max_years} | {lim.max_years} - {0})
    for y in shown:
        firsts = {}
        for f in rules.frequencies:
            amt, t = first_installment(balance, y, f, rules.installments_section)
            tb.include(t)
            firsts[f] = amt
        eligible = rollover_eligible_installments(y)
        tb.step(
            f"Installments over {y} years "
            + (
                "are an eligible rollover distribution (a period under 10 years)"
                if eligible
                else "are not an eligible rollover distribution (a specified period of 10 years or more)"
            ),
            section=ROLLOVER_SECTION,
            result=eligible,
        )
        examples.append(InstallmentExample(y, eligible, firsts))
    open_ = balance > ZERO and terminated_by_asd and lim.max_years > 0
    half = to_money(balance / 2)
    rest_first = ZERO
    if lim.max_years > 0 and "monthly" in rules.frequencies:
        rest_first, _ = first_installment(balance - half, lim.max_years, "monthly", rules.partial_section)
        tb.step(
            f"Example partial single sum of half the balance; the rest in monthly installments over "
            f"{lim.max_years} years",
            section=rules.partial_section,
            result=money(rest_first),
            single_sum=money(half),
            rest=money(balance - half),
        )
    deferral = {
        "available": True,
        "normal_retirement_date": normal_retirement_date.isoformat(),
        "beyond_normal_retirement": asd >= normal_retirement_date,
        "until": deferral_until.isoformat() if deferral_until else "",
        "section": rules.deferral_section,
    }
    return AccountOptions(
        vested_balance=balance,
        limit=lim,
        frequencies=rules.frequencies,
        examples=tuple(examples),
        partial_example=half,
        partial_rest_first=rest_first,
        installments_open=open_,
        partial_open=open_ and balance > to_money("0.01"),
        rollover_open=balance > ZERO and terminated_by_asd,
        deferral=deferral,
        rules=rules,
        trace=tb.build(),
    )


# ------------------------------------------------------------------------------------ choices


def _int(value: object) -> int | None:
    try:
        return int(str(value))
    except (TypeError, ValueError):
        return None


def _money(value: object) -> Decimal | None:
    try:
        d = Decimal(str(value).replace(",", "").replace("$", "").strip())
    except (InvalidOperation, TypeError, ValueError):
        return None
    return d if d.is_finite() else None


def check_installments(choice: Mapping[str, Any], options: Mapping[str, Any]) -> dict[str, str]:
    """The frequency and number of years against the options the engine gave (field → rule broken)."""
    inst = options.get("installments") or {}
    errors: dict[str, str] = {}
    frequencies = inst.get("frequencies") or []
    if choice.get("frequency") not in frequencies:
        errors["frequency"] = "How often: choose monthly, quarterly or annual installments."
    n = _int(choice.get("years"))
    max_years = int(inst.get("max_years") or 0)
    plan_max = int(inst.get("plan_max_years") or max_years)
    if n is None or n < 1:
        errors["years"] = "Number of years: a whole number of years, at least 1."
    elif n > plan_max:
        errors["years"] = (
            f"Number of years: the plan pays installments over no more than {plan_max} years ({inst.get('section', '')})."
        )
    elif n > max_years:
        errors["years"] = (
            f"Number of years: installments may not run beyond your life expectancy "
            f"({inst.get('life_expectancy')} years at age {inst.get('age')}), so at most {max_years} years."
        )
    return errors


def check_choice(form: str, choice: Mapping[str, Any], options: Mapping[str, Any]) -> dict[str, str]:
    """Every rule a choice of ``installments`` or ``partial_lump_sum`` must meet (empty when it does)."""
    if form == "installments":
        if not (options.get("installments") or {}).get("available"):
            return {"form": "Installments are not available on this payment start date."}
        return check_installments(choice, options)
    if form == "partial_lump_sum":
        partial = options.get("partial_lump_sum") or {}
        if not partial.get("available"):
            return {"form": "A partial single sum is not available on this payment start date."}
        errors: dict[str, str] = {}
        amount = _money(choice.get("partial_amount"))
        balance = Decimal(str(options.get("vested_balance") or "0"))
        if amount is None or amount <= ZERO or amount != amount.quantize(Decimal("0.01")):
            errors["partial_amount"] = "Single sum now: an amount in dollars and cents, more than $0."
        elif amount >= balance:
            errors["partial_amount"] = (
                f"Single sum now: less than your vested balance of ${balance:,.2f}; to take it all, choose "
                "the lump sum or the direct rollover."
            )
        errors.update(check_installments(choice, options))
        return errors
    return {}


def choice_figures(form: str, choice: Mapping[str, Any], options: Mapping[str, Any]) -> dict[str, str]:
    """The figures a valid choice pays (the signed election keeps them): the first installment, the
    number of installments, the single sum, and whether each part is an eligible rollover distribution."""
    balance = Decimal(str(options.get("vested_balance") or "0"))
    n_years = int(str(choice["years"]))
    frequency = str(choice["frequency"])
    out: dict[str, str] = {"frequency": frequency, "years": str(n_years)}
    rest = balance
    if form == "partial_lump_sum":
        single = to_money(Decimal(str(choice["partial_amount"])))
        rest = balance - single
        out["lump_sum"] = money_str(single)
        out["rest"] = money_str(rest)
    first, _ = first_installment(rest, n_years, frequency)
    eligible = rollover_eligible_installments(n_years)
    out.update(
        installments=str(n_years * FREQUENCIES[frequency]),
        first_installment=money_str(first),
        installments_rollover_eligible="yes" if eligible else "no",
        installments_withholding=withholding_form(periodic=True, rollover_eligible=eligible),
    )
    return out


__all__ = [
    "FREQUENCIES",
    "AccountDistributionRules",
    "AccountOptions",
    "InstallmentLimit",
    "account_options",
    "check_choice",
    "check_installments",
    "choice_figures",
    "first_installment",
    "installment_limit",
    "rollover_eligible_installments",
    "withholding_form",
]
