"""The spouse's consent to a loan or an in-service withdrawal that the plan conditions on it.

An approved claim of a married participant whose plan requires consent for it (the plan's claim rules:
``election_required_types``) waits in "election required" with a consent form naming the loan or the
withdrawal. When a valid consent is verified (or an administrator certifies an exception) the claim
moves on: the loan is made on the day of verification, with its note and repayment schedule from that
day; the withdrawal is paid.

When a consent counts (the day it takes effect is the day of verification):

* a loan: the 90 days ending on the day the loan is made (Code §417(a)(4); Treas. Reg. §1.401(a)-20
  Q&A-24), and not before the loan was approved on the terms the form names;
* a withdrawal: the plan's election period (the days ending on the payment date; never more than the
  statute's 180, Code §417(a)(6)(A)), and not before the withdrawal was approved.
"""

from __future__ import annotations

from datetime import date, timedelta

from django.db import transaction
from django.utils import timezone

from benefits import formatting
from benefits.engine.elections import ConsentPeriod, consent_problems, election_rules
from elections.claims import notices
from elections.claims.models import ClaimState
from elections.claims.workflow import locked_claim, move, record_event
from elections.consents import services as consents
from elections.consents.facts import consent_facts
from elections.consents.models import SpousalConsent

LOAN_CONSENT_DAYS = 90  # Code §417(a)(4)
LOAN_SOURCE = "Code §417(a)(4); Treas. Reg. §1.401(a)-20 Q&A-24"
CONSENT_TYPES = ("loan", "hardship", "withdrawal_59half")  # the claims a spouse consents to themselves


def today() -> date:
    return timezone.localdate()


def _approved_on(claim) -> date:
    return claim.review_decided_on or claim.decided_on or today()


def payment_date(claim, *, on: date) -> date:
    """A withdrawal is paid on the date asked for, or on the day the consent is verified if later."""
    asked = (claim.details or {}).get("payment_date")
    asked_on = date.fromisoformat(asked) if isinstance(asked, str) and asked else asked
    return max(on, asked_on) if isinstance(asked_on, date) else on


def consent_period(claim, *, on: date) -> ConsentPeriod:
    """The days on which the spouse's signature counts, for a loan made or a withdrawal paid on ``on``."""
    if claim.claim_type == "loan":
        return ConsentPeriod(
            on - timedelta(days=LOAN_CONSENT_DAYS),
            on,
            f"{LOAN_SOURCE}: the 90 days ending on the day the loan is made",
        )
    rules = election_rules(claim.membership.plan.key)
    days = min(rules.period_days, 180)
    paid_on = payment_date(claim, on=on)
    return ConsentPeriod(
        paid_on - timedelta(days=days),
        paid_on,
        f"{rules.period_source}: the {days} days ending on the day it is paid",
    )


def _money(value) -> str:
    """ "$10,000.00": the amounts in these sentences are read by people."""
    return formatting.money(value)


def what_words(claim) -> str:
    d = claim.engine_check or {}
    if claim.claim_type == "loan":
        return (
            f"a loan of {_money(d.get('amount'))} from the plan for {d.get('term_months', '')} months at "
            f"{d.get('rate_percent', '')}% a year, secured by the participant's account"
        )
    label = "a hardship distribution" if claim.claim_type == "hardship" else "an age 59½ withdrawal"
    return f"{label} of {_money(d.get('amount'))} paid from the participant's account"


def consent_form_payload(claim) -> dict:
    p = claim.participant
    approved = _approved_on(claim)
    period = consent_period(claim, on=approved)
    return {
        "claim_id": claim.pk,
        "plan": claim.membership.plan.name,
        "participant": p.full_name,
        "participant_number": p.participant_number,
        "spouse": p.spouse_name,
        "is_loan": claim.claim_type == "loan",
        "what": what_words(claim),
        "approved_on": formatting.date_words(approved),
        "consent_source": election_rules(claim.membership.plan.key).consent_source,
        "period_days": (period.period_closes - period.period_opens).days,
        "period_source": period.period_source,
    }


def consent_open_for_claim(claim, *, actor, request=None) -> SpousalConsent:
    """Issue the consent form naming this loan or withdrawal (called when the claim is approved)."""
    with transaction.atomic():
        consent = consents.consent_open(
            subject={"claim": claim},
            participant=claim.participant,
            spouse_name=claim.participant.spouse_name,
            title=f"Spousal consent form for claim {claim.pk} ({claim.get_claim_type_display()})",
            template_name="pdf/notices/spousal_consent_claim.html",
            payload=consent_form_payload(claim),
            actor=actor,
            request=request,
        )
    return consent


def claim_consent_validity(consent: SpousalConsent, *, on: date) -> dict[str, str]:
    claim = consent.claim
    p = claim.participant
    spouse_now = p.spouse_name if p.marital_status == p.MaritalStatus.MARRIED else ""
    facts = consent_facts(consent, subject_id=claim.pk)
    return consent_problems(
        facts,
        spouse_now=spouse_now,
        election_signed_on=_approved_on(claim),
        window=consent_period(claim, on=on),
        subject="the loan" if claim.claim_type == "loan" else "the withdrawal",
    )


def claim_try_effective(claim, *, actor=None, on: date | None = None, request=None) -> bool:
    """With a valid verified consent, schedule the loan's disbursement (note and schedule from today) or
    the withdrawal's payment; the claim reads "loan made" or "paid" once the paying agent confirmed it."""

    on = on or today()
    if claim.state != ClaimState.ELECTION_REQUIRED:
        return claim.state in (ClaimState.PAYMENT_SCHEDULED, ClaimState.LOAN_IN_EFFECT, ClaimState.PAID)
    if not any(not claim_consent_validity(c, on=on) for c in claim.consents.all()):
        return False
    with transaction.atomic():
        claim = locked_claim(claim)
        if claim.state != ClaimState.ELECTION_REQUIRED:  # another actor moved it meanwhile: once only
            return claim.state in (ClaimState.PAYMENT_SCHEDULED, ClaimState.LOAN_IN_EFFECT, ClaimState.PAID)
        from elections.benefit_elections.claim_effects import scheduled_words

        if claim.claim_type == "loan":
            note = notices.loan_documents(claim, actor=actor, request=request, on=on)
            loan = note.payload["loan"]
            fallback = (
                f"Loan approved on {formatting.date_words(on)}: {_money(loan['principal'])} at {loan['rate_percent']}% a year, "
                f"{loan['number_of_payments']} payments of {_money(loan['level_payment'])}. The promissory "
                "note and repayment schedule are with this claim."
            )
        else:
            fallback = f"Scheduled for {formatting.date_words(payment_date(claim, on=on))}: {_money(claim.engine_check.get('amount'))}."
        from_state = move(claim, "schedule_payment", on=on)
        claim.next_step = scheduled_words(claim, actor=actor, on=on, request=request, fallback=fallback)
        claim.save(update_fields=["next_step"])
        record_event(
            claim,
            actor=actor,
            action="consent_complete",
            from_state=from_state,
            note=claim.next_step,
            request=request,
        )
    return True
