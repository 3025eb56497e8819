"""Check a claim against the engine before it can be submitted.

Every number comes from the engine (``membership_calculate`` or the 401(k) module's functions); this
module only compares what the claimant asked for with what the engine says the plan allows, and names
the rule when the request goes past it. A failed check is a ``ClaimInvalid`` with one message per field.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from benefits import formatting
from benefits.engine import ENGINE_VERSION
from benefits.engine.plans import get_plan
from benefits.engine_adapter import CalculationError, membership_calculate
from benefits.models import MarketRate, Plan, PlanMembership
from elections.claims import deadlines
from elections.claims.models import ClaimType

# Which claims each kind of plan takes (the plans' distribution articles).
TYPES_BY_PLAN_KIND = {
    Plan.Kind.FINAL_AVERAGE_PAY: (ClaimType.COMMENCEMENT, ClaimType.DEATH_BENEFIT),
    Plan.Kind.CASH_BALANCE: (ClaimType.COMMENCEMENT, ClaimType.LUMP_SUM, ClaimType.DEATH_BENEFIT),
    Plan.Kind.SAVINGS_401K: (
        ClaimType.HARDSHIP,
        ClaimType.WITHDRAWAL_59HALF,
        ClaimType.TERMINATION_DISTRIBUTION,
        ClaimType.LOAN,
        ClaimType.DEATH_BENEFIT,
    ),
    Plan.Kind.ESOP: (ClaimType.ESOP_DISTRIBUTION, ClaimType.DEATH_BENEFIT),
}
PRIME_SERIES = "prime_rate"


class ClaimInvalid(Exception):
    def __init__(self, errors: dict[str, str]) -> None:
        super().__init__("; ".join(f"{k}: {v}" for k, v in errors.items()))
        self.errors = errors


def claim_types_for(membership: PlanMembership, *, beneficiary: bool) -> list[ClaimType]:
    types = TYPES_BY_PLAN_KIND.get(membership.plan.kind, ())
    if beneficiary:
        return [t for t in types if t == ClaimType.DEATH_BENEFIT]
    return [t for t in types if t != ClaimType.DEATH_BENEFIT]


# Claims the plans pay only after employment ends: not offered to someone still employed (the check
# refuses them anyway, naming the plan's section: its claim rules' "after_separation").
AFTER_SEPARATION = (ClaimType.TERMINATION_DISTRIBUTION, ClaimType.LUMP_SUM)


def claim_types_offered(membership: PlanMembership, *, beneficiary: bool) -> list[ClaimType]:
    """The claims the claims page offers this person: the plan's kinds, less those that wait for the
    end of employment while the participant is still employed."""
    types = claim_types_for(membership, beneficiary=beneficiary)
    if beneficiary or membership.participant.termination_date is not None:
        return types
    return [t for t in types if t not in AFTER_SEPARATION]


def prime_rate_for(month_of: date) -> MarketRate | None:
    """The prime rate recorded for the month of the request (a loan plan's rate follows it: its
    ``LoanProgram.terms.rate_words``)."""
    return MarketRate.objects.filter(series=PRIME_SERIES, period=month_of.replace(day=1)).first()


def _section(membership: PlanMembership, rule: str) -> str:
    """The plan's citation for one of its claim rules (``PlanClaimRules.sections``)."""
    return deadlines.plan_rules(membership.plan.key).section(rule)


def hardship_rules(membership: PlanMembership):
    """The plan's hardship reasons and sections (None when it has no hardship distributions)."""
    return get_plan(membership.plan.key).hardship


def loan_rate(membership: PlanMembership, prime: MarketRate) -> Decimal:
    """The plan's loan rate (a percent) for a request in the month of ``prime``."""
    return get_plan(membership.plan.key).loans.rate(prime.percent)[0]


def check_claim(
    *, membership: PlanMembership, claim_type: str, details: dict, filed_on: date, beneficiary: bool = False
) -> dict:
    """Check the request; return what the engine said (stored on the claim), or raise ClaimInvalid."""
    if claim_type not in claim_types_for(membership, beneficiary=beneficiary):
        raise ClaimInvalid(
            {"claim_type": f"{membership.plan.name} does not take this kind of claim from you."}
        )
    from elections.claims.windows import date_window_errors

    window = date_window_errors(
        birth_date=membership.participant.birth_date, details=details, filed_on=filed_on
    )
    if window:
        raise ClaimInvalid(window)
    check = _CHECKS[claim_type]
    try:
        result = check(membership, details, filed_on)
    except CalculationError as exc:
        raise ClaimInvalid({"__all__": f"The plan's calculation could not be made: {exc}"}) from exc
    result.update({"engine_version": ENGINE_VERSION, "as_of": filed_on.isoformat()})
    return result


def _calc(membership: PlanMembership, filed_on: date, commencement: date | None = None) -> dict:
    dates = (commencement,) if commencement else ()
    # Figures only (the check reads dates and amounts): a plan with a grid prices on its one-pass path.
    return membership_calculate(membership, as_of=filed_on, commencement_dates=dates, traces=False)


def _commencement_checks(
    membership, details, filed_on, *, forms_required: tuple[str, ...] = (), enforce_earliest: bool = True
) -> dict:
    rules = deadlines.plan_rules(membership.plan.key)
    start: date = details["commencement_date"]
    errors: dict[str, str] = {}
    earliest_filing = deadlines.earliest_commencement_for_filing(filed_on, rules)
    if start < earliest_filing:
        errors["commencement_date"] = (
            f"Benefit start date: the earliest you can ask for is {formatting.date_words(earliest_filing)} "
            f"({rules.article}: a claim must be filed at least {rules.filing_lead_days} days before benefits begin)."
        )
    result = _calc(membership, filed_on, start)
    earliest = result.get("earliest_commencement_date") or result.get("earliest_retirement_date")
    if enforce_earliest and earliest and start < date.fromisoformat(earliest):
        errors["commencement_date"] = (
            f"Benefit start date: the earliest date the plan allows is {formatting.date_words(date.fromisoformat(earliest))} "
            "(the plan's earliest retirement date, as the calculation engine reads your service and age)."
        )
    estimates = result.get("estimates") or []
    forms = estimates[0]["forms"] if estimates else {}
    form = details.get("form") or ""
    if forms_required:
        forms = {k: v for k, v in forms.items() if k in forms_required}
    if form not in forms:
        offered = ", ".join(sorted(forms)) or "none"
        errors["form"] = (
            f"Form of payment: the plan offers {offered} for a start on {formatting.date_words(start)}."
        )
    if errors:
        raise ClaimInvalid(errors)
    return {
        "commencement_date": start.isoformat(),
        "earliest_retirement_date": earliest,
        "form": form,
        "form_amounts": forms[form],
        "normal_form": estimates[0].get("normal_form", ""),
    }


def _needs_termination(membership, what: str, section: str) -> None:
    if membership.participant.termination_date is None:
        raise ClaimInvalid(
            {"claim_type": f"{what}: the plan pays it only after employment ends ({section})."}
        )


def check_commencement(membership, details, filed_on) -> dict:
    return _commencement_checks(membership, details, filed_on)


def check_lump_sum(membership, details, filed_on) -> dict:
    _needs_termination(membership, "A lump sum", _section(membership, "after_separation"))
    details = {**details, "form": "lump_sum"}
    # A lump sum may be elected any time after separation; the engine says whether it is offered on
    # the date asked for.
    return _commencement_checks(
        membership, details, filed_on, forms_required=("lump_sum",), enforce_earliest=False
    )


def check_termination_distribution(membership, details, filed_on) -> dict:
    _needs_termination(membership, "A distribution of the account", _section(membership, "after_separation"))
    return _commencement_checks(membership, details, filed_on)


def check_esop_distribution(membership, details, filed_on) -> dict:
    _needs_termination(membership, "An ESOP distribution", "the plan's distribution article")
    rules = deadlines.plan_rules(membership.plan.key)
    start: date = details["commencement_date"]
    earliest_filing = deadlines.earliest_commencement_for_filing(filed_on, rules)
    if start < earliest_filing:
        raise ClaimInvalid(
            {
                "commencement_date": f"Distribution date: the earliest you can ask for is {formatting.date_words(earliest_filing)} "
                f"({rules.article}: a claim must be filed at least {rules.filing_lead_days} days before)."
            }
        )
    result = _calc(membership, filed_on)
    given = (result.get("account") or {}).get("vested_balance")
    if given is None:  # a plan input it rests on is missing (the engine's ``missing``): no figure yet
        raise ClaimInvalid(
            {
                "claim_type": "The vested account balance cannot be worked out yet: information the plan "
                "needs is missing. Please contact the plan administrator."
            }
        )
    vested = Decimal(given)
    if vested <= 0:
        raise ClaimInvalid({"claim_type": "There is no vested account balance to distribute."})
    offer = result.get("distribution")
    if offer is not None and not offer.get("forms"):  # the plan offers no form it can be paid in now
        raise ClaimInvalid({"claim_type": str(offer.get("unavailable"))})
    return {"commencement_date": start.isoformat(), "vested_balance": f"{vested:.2f}"}


def _requested_payment_date(membership, details, filed_on, section: str) -> dict[str, str]:
    pay = details.get("payment_date")
    # The plan's days of prior written notice before an in-service payment.
    rules = deadlines.plan_rules(membership.plan.key)
    earliest = filed_on + timedelta(days=rules.payment_notice_days)
    if pay is None or pay < earliest:
        notice = rules.section("payment_notice", f"{rules.payment_notice_days} days' prior notice")
        return {
            "payment_date": f"Payment date: the earliest is {formatting.date_words(earliest)} ({section}: {notice})."
        }
    return {}


def check_withdrawal(membership, details, filed_on) -> dict:
    result = _calc(membership, filed_on)
    w = result.get("withdrawal") or {}
    section = _section(membership, "withdrawal")
    errors = _requested_payment_date(membership, details, filed_on, section)
    eligible_from = date.fromisoformat(w["eligible_from"]) if w.get("eligible_from") else None
    if eligible_from is None or filed_on < eligible_from:
        when = f" (from {formatting.date_words(eligible_from)})" if eligible_from else ""
        errors["claim_type"] = f"An age 59½ withdrawal is available only from age 59½{when} ({section})."
    amount: Decimal = details["amount"]
    maximum = Decimal(w.get("maximum", "0"))
    if amount > maximum:
        errors["amount"] = (
            f"Amount: the most you can withdraw is {formatting.money(maximum)} "
            f"({_section(membership, 'withdrawal_maximum')})."
        )
    if errors:
        raise ClaimInvalid(errors)
    return {
        "maximum": f"{maximum:.2f}",
        "amount": f"{amount:.2f}",
        "eligible_from": w["eligible_from"],
        "spousal_consent_required": bool(w.get("spousal_consent_required")),
    }


def check_hardship(membership, details, filed_on) -> dict:
    result = _calc(membership, filed_on)
    section = _section(membership, "hardship")
    errors = _requested_payment_date(membership, details, filed_on, section)
    w = result.get("withdrawal") or {}
    if (
        w.get("eligible_from")
        and date.fromisoformat(w["eligible_from"]) <= filed_on
        and Decimal(w.get("maximum", "0")) > 0
    ):
        errors["claim_type"] = (
            "A hardship distribution is open only to a Participant who has already withdrawn the most "
            f"available under {_section(membership, 'withdrawal')} or is not eligible for it ({section}): you "
            "can file an age 59½ withdrawal instead."
        )
    hardship = get_plan(membership.plan.key).hardship
    try:
        if hardship is None:
            raise ValueError("the plan has no hardship distributions")
        reason = hardship.reason(details.get("reason", ""))
    except ValueError:
        listed = hardship.reasons_section if hardship is not None else "the plan"
        errors["reason"] = f"Reason: choose one of the needs {listed} deems immediate and heavy."
        reason = None
    maximum = Decimal(result["hardship"]["maximum_available"])
    amount: Decimal = details["amount"]
    if amount > maximum:
        errors["amount"] = (
            f"Amount: the most available for hardship is {formatting.money(maximum)} "
            f"({_section(membership, 'hardship_maximum')})."
        )
    if not details.get("representation"):
        errors["representation"] = (
            f"Representation: {_section(membership, 'hardship_representation')} requires your statement that "
            "the need cannot be met otherwise."
        )
    if errors:
        raise ClaimInvalid(errors)
    return {
        "maximum_available": f"{maximum:.2f}",
        "amount": f"{amount:.2f}",
        "reason": reason.value,
        "reason_section": reason.section,
        "evidence": list(reason.evidence),
    }


def check_loan(membership, details, filed_on) -> dict:
    loans = get_plan(membership.plan.key).loans
    if loans is None:
        raise ClaimInvalid({"claim_type": f"{membership.plan.name} does not make loans."})
    result = _calc(membership, filed_on)
    loan = result["loan"]
    errors: dict[str, str] = {}
    maximum = Decimal(loan["maximum_new_loan"])
    amount: Decimal = details["amount"]
    if not loan.get("eligible"):
        errors["amount"] = "Loan: you cannot borrow now (" + "; ".join(loan.get("reasons") or []) + ")."
    elif amount > maximum:
        errors["amount"] = (
            f"Loan amount: the most you can borrow is {formatting.money(maximum)} "
            f"({loans.terms.maximum_section}: {loans.terms.maximum_words})."
        )
    elif amount < loans.minimum:
        errors["amount"] = (
            f"Loan amount: the least you can borrow is {formatting.money(loans.minimum)} "
            f"({loans.terms.minimum_section})."
        )
    residence = bool(details.get("principal_residence"))
    try:
        loans.check_term(details["term_months"], principal_residence=residence)
    except ValueError as exc:
        errors["term_months"] = f"Term: {exc}."
    prime = prime_rate_for(filed_on)
    if prime is None:
        errors["__all__"] = (
            f"The loan rate cannot be set: no prime rate is recorded for {formatting.month_words(filed_on)} "
            f"({loans.terms.rate_section}). "
            "The plan administrator must record it first; please try again later."
        )
    if errors:
        raise ClaimInvalid(errors)
    rate, _trace = loans.rate(prime.percent)
    return {
        "maximum_new_loan": f"{maximum:.2f}",
        "amount": f"{amount:.2f}",
        "term_months": details["term_months"],
        "principal_residence": residence,
        "prime_rate": f"{prime.percent.normalize():f}",
        "prime_rate_period": prime.period.isoformat(),
        "prime_rate_source": prime.source,
        "rate_percent": f"{rate}",
    }


def check_death_benefit(membership, details, filed_on) -> dict:
    p = membership.participant
    if p.death_date is None:
        raise ClaimInvalid({"claim_type": "A death benefit is payable only after the participant's death."})
    result = _calc(membership, filed_on)
    account = result.get("account") or {}
    out = {"death_date": p.death_date.isoformat()}
    if account.get("vested_balance"):
        out["vested_balance"] = account["vested_balance"]
    return out


_CHECKS = {
    ClaimType.COMMENCEMENT: check_commencement,
    ClaimType.LUMP_SUM: check_lump_sum,
    ClaimType.TERMINATION_DISTRIBUTION: check_termination_distribution,
    ClaimType.ESOP_DISTRIBUTION: check_esop_distribution,
    ClaimType.WITHDRAWAL_59HALF: check_withdrawal,
    ClaimType.HARDSHIP: check_hardship,
    ClaimType.LOAN: check_loan,
    ClaimType.DEATH_BENEFIT: check_death_benefit,
}
