"""Distributions after Termination of Service (§7.5, §7.6): the forms offered, the normal form
(QJSA for a married Participant), the automatic cash-out (§7.5(g)), the 13-month window for a cash
lump sum (§7.6(c)), installments (§7.6(e)) and annuities priced from an insurer's quote.

Annuities are bought from an insurer (§7.1(d)): the plan has no factors of its own, so a monthly
amount exists only when the administrator has entered a purchase quote.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from benefits.engine.account_options import AccountDistributionRules
from benefits.engine.dates import add_months, previous_business_day
from benefits.engine.money import ZERO, to_decimal, to_money
from benefits.engine.trace import Trace, TraceBuilder, money, recording

from .settings import DEFAULT_SETTINGS, BenefitSettings

ANNUITY_FORMS = ("js50", "js75", "js100", "life", "cc5", "cc10", "cc15", "cc20")
FORM_NAMES = {
    "js50": "50% Joint and Survivor Annuity",
    "js75": "75% Joint and Survivor Annuity",
    "js100": "100% Joint and Survivor Annuity",
    "life": "Straight Life Annuity",
    "lump_sum": "lump sum",
} | {f"cc{n}": f"Period Certain and Life Annuity, {n} years certain" for n in (5, 10, 15, 20)}
FORM_SECTIONS = {
    "js50": "§7.1(a)(v), §7.6(a)",
    "js75": "§7.1(a)(iv), §7.6(a)",
    "js100": "§7.1(a)(iii), §7.6(a)",
    "life": "§7.1(a)(ii), §7.6(b)",
    "lump_sum": "§7.6(c)",
} | {f"cc{n}": "§7.1(a)(vi), §7.6(a) (GAP-26)" for n in (5, 10, 15, 20)}
MAX_INSTALLMENT_YEARS = 10

# §7.6(d)-(g): the forms besides the annuities and the cash lump sum. §7.6(e): "equal monthly, quarterly
# or annual installments over a period not to exceed ten (10) years", not "beyond the life expectancy of
# such Participant or the life expectancy of such Participant and his Beneficiary" — the plan names no
# table, so the Single Life Table of Treas. Reg. §1.401(a)(9)-9(b) (the table §7.10 uses) is read on the
# participant's life alone: never longer than a joint life expectancy, so no period it allows is one the
# plan forbids. A12 (GAP-27): each installment = current vested balance ÷ installments remaining.
# §7.6(g): a partial lump sum, the rest as (e) installments or an annuity (§7.1(a)(ii)-(vi)).
ACCOUNT_DISTRIBUTIONS = AccountDistributionRules(
    frequencies=("monthly", "quarterly", "annual"),
    max_installment_years=MAX_INSTALLMENT_YEARS,
    installments_section="Plan §7.6(e)",
    installment_rule_words=(
        "Each installment is your vested balance on the valuation date divided by the number of "
        "installments still to be paid, so the amount changes with the investment results of what is left."
    ),
    life_expectancy_section="Plan §7.6(e)",
    life_expectancy_table=(
        "the plan names no life expectancy table, so the Single Life Table the tax rules use for required "
        "distributions is used, on your life alone"
    ),
    partial_section="Plan §7.6(g)",
    partial_remainder=("installments", "annuity"),
    rollover_section="Plan §7.6(f), §7.9",
    deferral_section="Plan §7.5(a), §7.6(d), §7.11",
)
OLD_CASH_OUT = Decimal("3500")
CASH_OUT = Decimal("5000")
CASH_OUT_FROM = date(1998, 1, 1)


def normal_form(married: bool) -> str:
    """§7.5(a): a 50% Joint and Survivor Annuity with the Spouse, or a Straight Life Annuity if the
    Participant has no Spouse, starting at the later of NRD and the Postponed Retirement Date."""
    return "js50" if married else "life"


def spousal_consent_required(form: str, married: bool, beneficiary_is_spouse: bool = True) -> bool:
    """§7.2(a)(i), A11: every form except the 50% Joint and Survivor Annuity with the Spouse."""
    return married and not (form == "js50" and beneficiary_is_spouse)


# ---------------------------------------------------------------- cash-out (§7.5(g))


def cash_out_threshold(on: date, settings: BenefitSettings = DEFAULT_SETTINGS) -> tuple[Decimal, str]:
    """§7.5(g): $3,500; $5,000 from 1/1/1998; a sponsor-adopted higher limit by setting (GAP-15)."""
    if settings.cash_out_threshold_override is not None:
        return to_decimal(settings.cash_out_threshold_override), "§7.5(g) as amended (GAP-15)"
    return (CASH_OUT, "§7.5(g)") if on >= CASH_OUT_FROM else (OLD_CASH_OUT, "§7.5(g)")


@dataclass(frozen=True)
class CashOut:
    required: bool
    threshold: Decimal
    amount_tested: Decimal
    trace: Trace


def cash_out(
    vested_balance: object,
    *,
    terminated: bool,
    on: date,
    rollover_balance: object = ZERO,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> CashOut:
    """§7.5(g): at a Termination of Service for any reason, a vested balance of no more than the
    threshold is paid as a lump sum without election or consent (A13: Rollover counts)."""
    tb = TraceBuilder()
    threshold, sec = cash_out_threshold(on, settings)
    tested = to_money(vested_balance)
    if not settings.cash_out_counts_rollover:
        tested -= to_money(rollover_balance)
        tb.step("The Rollover account is left out of the test", section="§7.5(g) (A13)", result=money(tested))
    required = terminated and tested <= threshold
    if recording():  # without a trace, no step's words (a census asks for every participant)
        tb.step(
            "A vested balance at or below the threshold is paid in a lump sum on Termination of Service, "
            "without consent"
            if terminated
            else "No Termination of Service: no automatic cash-out",
            section=sec,
            result=required,
            vested_balance=money(tested),
            threshold=money(threshold),
        )
    return CashOut(required, threshold, tested, tb.build())


# ---------------------------------------------------------------- timing (§7.6)


@dataclass(frozen=True)
class LumpSumWindow:
    last_day: date  # 13 months after termination (month-end clamp)
    last_valuation_date: date  # the last business day on or before it
    trace: Trace


def lump_sum_window(termination_date: date, settings: BenefitSettings = DEFAULT_SETTINGS) -> LumpSumWindow:
    """§7.6(c): a cash lump sum as of a Valuation Date after termination, before NRD and no later
    than 13 months after termination (GAP-5; a missing day becomes the month's last, e.g. Jan 31 →
    Feb 29). The Valuation Date is a business day (§1.71)."""
    last = add_months(termination_date, 13)
    if not settings.lump_sum_window_month_end_clamp and last.day != termination_date.day:
        last = add_months(termination_date, 14).replace(day=1)
    vd = previous_business_day(last)
    t = Trace().add(
        "A cash lump sum must be valued no later than 13 months after Termination of Service, on a "
        "business day",
        section="§7.6(c), §1.71 (GAP-5)",
        result=vd,
        termination_date=termination_date,
        thirteen_months=last,
    )
    return LumpSumWindow(last, vd, t)


@dataclass(frozen=True)
class FormsOffered:
    commencement_date: date
    forms: tuple[str, ...]  # contract form keys
    normal_form: str
    other_options: tuple[str, ...]  # installments, direct rollover, partial lump sum, deferral
    trace: Trace


def forms_offered(
    *,
    married: bool,
    commencement_date: date,
    termination_date: date,
    normal_retirement_date: date,
    early_retirement_date: date | None,
    disability_date: date | None = None,
    period_certain_years: tuple[int, ...] = (),
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> FormsOffered:
    """§7.5(a), §7.6: which forms can start on `commencement_date`.

    Annuities start at NRD (or later), or from the ERD or the date of Disability (§7.6(a), (b)).
    A cash lump sum is open from termination to 13 months after it, before NRD (§7.6(c)); at or after
    NRD the Participant who deferred takes a lump sum under §7.6(d). Installments, a direct rollover
    and a partial lump sum have no stated window (GAP-5). The period-certain lengths are not stated
    (GAP-26): only those the sponsor offers (and the insurer quoted) are listed.
    """
    tb = TraceBuilder()
    forms: list[str] = []
    opened = [normal_retirement_date]
    if early_retirement_date is not None:
        opened.append(early_retirement_date)
    if disability_date is not None:
        opened.append(disability_date)
    annuity_ok = commencement_date >= min(opened)
    tb.step(
        "Annuities may start at the Normal Retirement Date, or from the Early Retirement Date or the "
        "date of Disability",
        section="§7.5(a), §7.6(a), §7.6(b)",
        result=annuity_ok,
        normal_retirement_date=normal_retirement_date,
        early_retirement_date=early_retirement_date,
        disability_date=disability_date,
    )
    if annuity_ok:
        forms += ["js50", "js75", "js100", "life"] + [f"cc{n}" for n in period_certain_years]
    window = lump_sum_window(termination_date, settings)
    if commencement_date >= normal_retirement_date:
        lump_ok = True
        tb.step(
            "At or after NRD the deferred balance may be paid as a lump sum", section="§7.6(d)", result=True
        )
    else:
        lump_ok = termination_date < commencement_date <= window.last_day
        tb.step(
            "Cash lump sum only as of a Valuation Date within 13 months after Termination of Service",
            section="§7.6(c) (GAP-5)",
            result=lump_ok,
            last_day=window.last_day,
        )
    if lump_ok:
        forms.append("lump_sum")
    others: tuple[str, ...] = ("installments", "direct_rollover", "partial_lump_sum")
    if commencement_date < normal_retirement_date:
        others += ("defer_to_normal_retirement_date",)
    else:
        others += ("defer_beyond_normal_retirement_date",)
    nf = normal_form(married)
    tb.step(f"Normal form: {FORM_NAMES[nf]}", section="§7.5(a)", result=nf, married=married)
    return FormsOffered(commencement_date, tuple(forms), nf, others, tb.build())


# ---------------------------------------------------------------- pricing


@dataclass(frozen=True)
class AnnuityQuote:
    """An insurer's purchase quote: monthly income bought by each $1,000 of premium, for one form and
    starting date (§7.1(d): a legal reserve life insurer licensed in New York)."""

    form: str
    monthly_per_1000: Decimal
    insurer: str = ""
    quoted_on: date | None = None


def price_annuity(vested_balance: object, quote: AnnuityQuote) -> tuple[Decimal, Trace]:
    """The monthly annuity the vested balance buys at the quote, to the cent."""
    monthly = to_money(to_decimal(vested_balance) / 1000 * to_decimal(quote.monthly_per_1000))
    t = Trace().add(
        f"{FORM_NAMES.get(quote.form, quote.form)}: the vested balance buys an annuity from an insurer; "
        "monthly amount = balance ÷ 1,000 × the quoted monthly income per $1,000 (an illustration, the "
        "insurer's price on the purchase date governs)",
        section=f"§7.1(d), {FORM_SECTIONS.get(quote.form, '§7.6')}",
        result=money(monthly),
        vested_balance=money(to_money(vested_balance)),
        monthly_per_1000=money(to_decimal(quote.monthly_per_1000)),
        insurer=quote.insurer,
        quoted_on=quote.quoted_on,
    )
    return monthly, t


def estimate_forms(
    vested_balance: object,
    offered: FormsOffered,
    quotes: Mapping[str, AnnuityQuote],
) -> tuple[dict[str, dict[str, Decimal]], Trace]:
    """Contract `estimates[].forms`: annuities that are offered and quoted, and the lump sum."""
    tb = TraceBuilder()
    tb.include(offered.trace)
    forms: dict[str, dict[str, Decimal]] = {}
    for f in offered.forms:
        if f == "lump_sum":
            forms[f] = {
                "lump_sum": tb.step(
                    "Lump sum: the vested balance as of the Valuation Date",
                    section=FORM_SECTIONS[f],
                    result=money(to_money(vested_balance)),
                )
            }
        elif f in quotes:
            m, t = price_annuity(vested_balance, quotes[f])
            tb.include(t)
            forms[f] = {"monthly": m}
    missing = [f for f in offered.forms if f != "lump_sum" and f not in quotes]
    if missing:
        tb.step(
            "No insurer quote entered for these annuity forms, so no monthly amount is shown",
            section="§7.1(d)",
            result=missing,
        )
    return forms, tb.build()


def installment_amount(balance: object, installments_remaining: int) -> tuple[Decimal, Trace]:
    """§7.6(e), A12: each installment is the balance ÷ the installments remaining (GAP-27)."""
    if installments_remaining <= 0:
        raise ValueError("no installments remain")
    amt = to_money(to_decimal(balance) / installments_remaining)
    return amt, Trace().add(
        "Installment: the current vested balance divided by the installments remaining",
        section="§7.6(e) (A12, GAP-27)",
        result=money(amt),
        balance=money(to_money(balance)),
        remaining=installments_remaining,
    )


def check_installment_period(years: int, life_expectancy_years: object | None = None) -> None:
    """§7.6(e): no more than 10 years, nor beyond the (joint) life expectancy."""
    if not 0 < years <= MAX_INSTALLMENT_YEARS:
        raise ValueError("§7.6(e): installments run for at most ten years")
    if life_expectancy_years is not None and years > to_decimal(life_expectancy_years):
        raise ValueError("§7.6(e): installments may not run beyond the life expectancy")


# ---------------------------------------------------------------- latest start and RBD (§7.11)


def latest_commencement(
    *, birth_date: date, participation_year: int, termination_date: date | None
) -> tuple[date | None, Trace]:
    """§7.11(a): unless the Participant elects otherwise, payment starts by the 60th day after the
    close of the Plan Year of the latest of age 65, the 10th anniversary of the year participation
    began, and termination (None while still employed)."""
    at65 = add_months(birth_date, 65 * 12)
    if termination_date is None:
        return None, Trace().add("Still employed: the latest start waits for termination", section="§7.11(a)")
    year = max(at65.year, participation_year + 10, termination_date.year)
    d = date(year, 12, 31) + timedelta(days=60)
    return d, Trace().add(
        "Latest start: 60 days after the end of the Plan Year of the latest of age 65, the 10th anniversary "
        "of the year participation began, and termination",
        section="§7.11(a)",
        result=d,
        age_65=at65,
        tenth_anniversary_year=participation_year + 10,
        termination_date=termination_date,
    )


def rmd_age_date(birth_date: date, settings: BenefitSettings = DEFAULT_SETTINGS) -> tuple[date, str]:
    """The date the required-beginning age is reached: 70½ in the text (A3: six months after the 70th
    birthday); current law by birth date (GAP-16)."""
    half = add_months(birth_date, 70 * 12 + 6)
    if settings.rmd_age_rule == "plan_text" or birth_date < date(1949, 7, 1):
        return half, "70½"
    age = 72 if birth_date < date(1951, 1, 1) else (73 if birth_date < date(1960, 1, 1) else 75)
    return add_months(birth_date, age * 12), str(age)


def required_beginning_date(
    *,
    birth_date: date,
    termination_date: date | None,
    five_percent_owner: bool = False,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> tuple[date | None, Trace]:
    """§7.11(b)-(c): April 1 after the year the applicable age is reached (5% owners), or after the
    later of that year and termination (everyone else who joined from 1997 or reaches the age from
    2003). None while a non-owner is still employed."""
    reached, age = rmd_age_date(birth_date, settings)
    if five_percent_owner:
        year = reached.year
    elif termination_date is None:
        return None, Trace().add(
            "Still employed: the required beginning date follows termination",
            section="§7.11(c)",
            result=None,
            age=age,
            reached=reached,
        )
    else:
        year = max(reached.year, termination_date.year)
    rbd = date(year + 1, 4, 1)
    return rbd, Trace().add(
        f"Required beginning date: April 1 after the year of reaching age {age}"
        + ("" if five_percent_owner else " or of termination, whichever is later"),
        section="§7.11(b)-(c) (GAP-16)",
        result=rbd,
        reached=reached,
        termination_date=termination_date,
    )
