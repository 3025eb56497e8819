"""What an account plan still allows after what is already claimed (issue 22).

A 401(k) or ESOP distribution, withdrawal or loan can never exceed what the plan allows once the
claims already pending are counted: the engine gives the plan's maximum from the books (the vested
balance, the loan base and the outstanding loan), and this module takes off what other claims
have asked for and not yet been paid. It runs at filing (against every claim still pending) and again
at approval (against the claims already approved), each time with the membership's row locked
(``select_for_update``), so two parallel filings or approvals cannot both pass.

The loan rules and their sections are the plan's own (``LoanProgram.terms``, from its package): the
largest loan, the minimum, one loan at a time. The withdrawal and hardship maximums are the engine's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import ROUND_DOWN, Decimal

from benefits import formatting
from benefits.engine.plans import get_plan
from benefits.engine.plans.base import LoanTerms
from benefits.engine_adapter import membership_calculate
from benefits.models import PlanMembership
from elections.claims.deadlines import plan_rules
from elections.claims.models import COMMITTEE_OPEN, Claim, ClaimState, ClaimType

CENT = Decimal("0.01")
ZERO = Decimal("0")
MONEY_TYPES = (
    ClaimType.WITHDRAWAL_59HALF,
    ClaimType.HARDSHIP,
    ClaimType.LOAN,
    ClaimType.TERMINATION_DISTRIBUTION,
    ClaimType.ESOP_DISTRIBUTION,
)
# A distribution after leaving takes the whole vested balance: nothing else can be paid beside it.
WHOLE_BALANCE = (ClaimType.TERMINATION_DISTRIBUTION, ClaimType.ESOP_DISTRIBUTION)
APPROVED_NOT_PAID = (ClaimState.APPROVED, ClaimState.APPROVED_ON_REVIEW, ClaimState.ELECTION_REQUIRED)
# At filing: every claim the committee may still approve, and every approved one not yet paid.
PENDING_AT_FILING = (*COMMITTEE_OPEN, *APPROVED_NOT_PAID)


def amount_of(claim: Claim) -> Decimal:
    return Decimal(str(claim.details.get("amount") or claim.engine_check.get("amount") or "0"))


def claim_label(claim: Claim) -> str:
    amount = amount_of(claim)
    what = claim.get_claim_type_display().lower()
    if amount:
        what += f" of {formatting.money(amount)}"
    return f"claim {claim.pk} ({what}, filed on {formatting.date_words(claim.received_on)})"


@dataclass(frozen=True)
class PlanMaximums:
    """The engine's figures from the books, before other claims are counted."""

    withdrawal: Decimal
    hardship: Decimal
    loan_engine: Decimal  # the engine's maximum new loan (0 when no loan may be made)
    loan_eligible: bool
    loan_reasons: tuple[str, ...]
    loan_base: Decimal
    loan_dollar_cap: Decimal
    loan_highest: Decimal
    loan_outstanding: Decimal
    loan_minimum: Decimal


def plan_maximums(membership: PlanMembership, *, on: date) -> PlanMaximums | None:
    """The account plan's maximums on ``on``; None for a plan without these (an ESOP, a DB plan)."""
    result = membership_calculate(membership, as_of=on)
    loan = result.get("loan")
    if not loan or "base" not in loan:
        return None
    program = get_plan(membership.plan.key).loans
    return PlanMaximums(
        withdrawal=Decimal((result.get("withdrawal") or {}).get("maximum", "0")),
        hardship=Decimal((result.get("hardship") or {}).get("maximum_available", "0")),
        loan_engine=Decimal(loan["maximum_new_loan"]),
        loan_eligible=bool(loan.get("eligible")),
        loan_reasons=tuple(loan.get("reasons") or ()),
        loan_base=Decimal(loan["base"]),
        loan_dollar_cap=Decimal(loan["dollar_cap"]),
        loan_highest=Decimal(loan["highest_balance_last_12_months"]),
        loan_outstanding=Decimal(loan["outstanding_balance"]),
        loan_minimum=program.minimum if program is not None else ZERO,
    )


def other_claims(membership: PlanMembership, *, states, exclude_pk: int | None = None) -> list[Claim]:
    qs = Claim.objects.filter(membership=membership, claim_type__in=MONEY_TYPES, state__in=states)
    if exclude_pk is not None:
        qs = qs.exclude(pk=exclude_pk)
    return list(qs.order_by("received_on", "pk"))


def loan_available(m: PlanMaximums, outflow: Decimal) -> Decimal:
    """The loan maximum after the claims not yet paid: 50% of the loan base less what they take out of the accounts,
    and $50,000 less the highest outstanding balance of the last 12 months (or the balance now)."""
    half = ((max(ZERO, m.loan_base - outflow)) / 2).quantize(CENT, rounding=ROUND_DOWN)
    cap = max(ZERO, m.loan_dollar_cap - max(m.loan_highest, m.loan_outstanding))
    return max(ZERO, min(half, cap, m.loan_engine))


def available(maximums: PlanMaximums, claim_type: str, others: list[Claim]) -> Decimal:
    """The most a new claim of this kind could ask for now, after ``others`` (what the claim page shows)."""
    if any(c.claim_type in WHOLE_BALANCE for c in others):
        return ZERO
    outflow = sum((amount_of(c) for c in others), ZERO)
    if claim_type == ClaimType.LOAN:
        if any(c.claim_type == ClaimType.LOAN for c in others) or not maximums.loan_eligible:
            return ZERO
        most = loan_available(maximums, outflow)
        return most if most >= maximums.loan_minimum else ZERO
    if claim_type == ClaimType.WITHDRAWAL_59HALF:
        return max(ZERO, maximums.withdrawal - outflow)
    if claim_type == ClaimType.HARDSHIP:
        return max(ZERO, maximums.hardship - outflow)
    return ZERO


def limit_errors(
    membership: PlanMembership,
    *,
    claim_type: str,
    amount: Decimal | None,
    maximums: PlanMaximums | None,
    others: list[Claim],
) -> dict[str, str]:
    """Why this claim goes past what the plan allows after ``others``; empty when it does not."""
    if claim_type not in MONEY_TYPES or not others and maximums is None:
        return {}
    whole = next((c for c in others if c.claim_type in WHOLE_BALANCE), None)
    if whole is not None:
        return {
            "__all__": f"You already have {claim_label(whole)}: it pays your whole vested balance, so "
            "nothing more can be claimed from this plan until it is decided."
        }
    if claim_type in WHOLE_BALANCE and others:
        listed = "; ".join(claim_label(c) for c in others)
        return {
            "__all__": f"A distribution of your whole account cannot be claimed while {listed} is pending: "
            "it must be decided or paid first."
        }
    if claim_type == ClaimType.LOAN:
        loan = next((c for c in others if c.claim_type == ClaimType.LOAN), None)
        terms = loan_terms(membership)
        if loan is not None and terms is not None and terms.one_at_a_time_section:
            return {
                "amount": f"Loan: you already have {claim_label(loan)}; the plan allows only one loan at a "
                f"time ({terms.one_at_a_time_section})."
            }
    if maximums is None or amount is None:
        return {}
    outflow = sum((amount_of(c) for c in others), ZERO)
    pending = f" after {formatting.money(outflow)} in claims not yet paid" if outflow else ""
    if claim_type == ClaimType.LOAN:
        most = loan_available(maximums, outflow)
        terms = loan_terms(membership)
        if amount > most:
            rule = f"{terms.maximum_section}: {terms.maximum_words}; " if terms else ""
            return {
                "amount": f"Loan amount: the most you can borrow now is {formatting.money(most)}{pending} "
                f"({rule}your loan base is {formatting.money(maximums.loan_base)})."
            }
        if amount < maximums.loan_minimum:
            rule = f" ({terms.minimum_section})" if terms else ""
            return {
                "amount": f"Loan amount: the least you can borrow is {formatting.money(maximums.loan_minimum)}{rule}."
            }
        return {}
    if claim_type == ClaimType.WITHDRAWAL_59HALF:
        most = max(ZERO, maximums.withdrawal - outflow)
        if amount > most:
            return {
                "amount": f"Amount: the most you can withdraw now is {formatting.money(most)}{pending} "
                f"({_section(membership, 'withdrawal_maximum')})."
            }
    if claim_type == ClaimType.HARDSHIP:
        most = max(ZERO, maximums.hardship - outflow)
        if amount > most:
            return {
                "amount": f"Amount: the most available for hardship now is {formatting.money(most)}{pending} "
                f"({_section(membership, 'hardship_maximum')})."
            }
    return {}


def _section(membership: PlanMembership, rule: str) -> str:
    """The plan's citation for one of its claim rules (``PlanClaimRules.sections``)."""
    return plan_rules(membership.plan.key).section(rule)


def loan_terms(membership: PlanMembership) -> LoanTerms | None:
    """The plan's loan terms in its own words (None when it makes no loans)."""
    loans = get_plan(membership.plan.key).loans
    return loans.terms if loans is not None else None


# A loan the Committee approved that is not yet paid out (the claim's later states are "loan made").
LOAN_NOT_DISBURSED = (*APPROVED_NOT_PAID, ClaimState.PAYMENT_SCHEDULED)
PENDING_LOAN_KEY = "loan_approved_not_disbursed"


def loans_pending(membership_ids, *, paid_now=()) -> dict[int, Decimal]:
    """The principal of each membership's loans approved and not yet paid out (one query); the claims in
    ``paid_now`` are being confirmed paid in the caller's transaction and are left out."""
    out = {mid: ZERO for mid in membership_ids}
    for c in Claim.objects.filter(
        membership_id__in=out, claim_type=ClaimType.LOAN, state__in=LOAN_NOT_DISBURSED
    ).exclude(pk__in=list(paid_now)):
        out[c.membership_id] += amount_of(c)
    return {mid: v.quantize(CENT) for mid, v in out.items()}


def pending_loan_data(plan_data: dict, pending: Decimal) -> dict:
    """``plan_data`` with its pending loan principal set (the key left out when there is none)."""
    data = {k: v for k, v in (plan_data or {}).items() if k != PENDING_LOAN_KEY}
    if pending:
        data[PENDING_LOAN_KEY] = f"{pending:.2f}"
    return data


def loan_pending_sync(membership: PlanMembership, *, actor=None, request=None) -> Decimal:
    """Store in ``plan_data`` the principal of this account's loans approved and not yet paid out, which
    the engine counts as outstanding (the plan's loan section, cited in its package): the statement, the dashboard and the claim pages
    all read the same largest new loan from the approval on, not only once the disbursement is confirmed.
    Called in the transaction of every loan claim's step; audited when the figure changes."""
    from benefits.audit import AuditEventType, audit_record

    pending = loans_pending([membership.pk])[membership.pk]
    locked = PlanMembership.objects.select_for_update().select_related("participant").get(pk=membership.pk)
    old = (locked.plan_data or {}).get(PENDING_LOAN_KEY)
    data = pending_loan_data(locked.plan_data, pending)
    new = data.get(PENDING_LOAN_KEY)
    if old == new:
        return pending
    PlanMembership.objects.filter(pk=locked.pk).update(plan_data=data)
    membership.plan_data = data
    audit_record(
        event_type=AuditEventType.LOAN_PENDING_CHANGED,
        summary=f"Loan approved and not yet paid out for membership {locked.pk}: "
        f"{formatting.money(Decimal(old or '0'))} → {formatting.money(pending)}",
        actor=actor,
        participant=locked.participant,
        request=request,
        membership_id=locked.pk,
        old=old or "0.00",
        new=new or "0.00",
    )
    return pending


def lock_membership(membership: PlanMembership) -> PlanMembership:
    """Take the membership's row lock: filings and approvals for one account queue behind each other."""
    return PlanMembership.objects.select_for_update().get(pk=membership.pk)
