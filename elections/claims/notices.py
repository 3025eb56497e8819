"""Claim notices: a payload with every fact the PDF states, rendered by WeasyPrint in a Celery task
(``benefits.services.documents.document_request``), listed on the claim, and announced to the claimant by email.

The email says only that a notice is ready and where: the notice itself is behind the login.
"""

from __future__ import annotations

import dataclasses
import logging
from datetime import date, timedelta

from django.conf import settings
from django.urls import reverse

from benefits import formatting
from benefits.engine import ENGINE_VERSION
from benefits.engine.plans import get_plan
from benefits.mail import mail_enqueue
from benefits.models import GeneratedDocument
from benefits.services.documents import document_request
from elections.claims.models import Claim, ClaimDetermination, ClaimNotice

logger = logging.getLogger(__name__)


def _d(value: date | None) -> str:
    return f"{formatting.date_words(value)}" if value else ""


def _base_payload(claim: Claim, on: date) -> dict:
    rules = claim.plan_rules
    clock = claim.clock_rules
    return {
        "claim_id": claim.pk,
        "as_of": on.isoformat(),
        "engine_version": claim.engine_check.get("engine_version", ENGINE_VERSION),
        "plan_name": claim.membership.plan.name,
        "plan_key": claim.membership.plan.key,
        "claims_article": rules.article,
        "initial_decider": rules.initial_decider,
        "review_decider": rules.review_decider,
        "claimant_name": claim.claimant_name,
        "claimant_relationship": claim.claimant_relationship,
        "claim_type": claim.get_claim_type_display(),
        "disability_based": claim.disability_based,
        "received_on": _d(claim.received_on),
        "details": claim.details,
        "clock_source": clock.source,
        "appeal_window_days": clock.appeal_window_days,
        "review_days": clock.review_days,
        "review_extension_days": sum(clock.review_extensions),
        "review_outer_days": clock.review_days + sum(clock.review_extensions),
    }


def _deliver(claim: Claim, *, kind: str, title: str, template: str, payload: dict, actor, request, on: date):
    document = document_request(
        kind=f"claim_{kind}",
        participant=claim.participant,
        title=title,
        template_name=template,
        payload=payload,
        plans=claim.membership.plan,
        requested_by=actor,
        request=request,
    )
    ClaimNotice.objects.create(claim=claim, kind=kind, document=document, delivered_on=on)
    claim_url = settings.SITE_URL + reverse("elections:claim_detail", args=[claim.pk])
    # A job sends it: the notice is delivered on the claim page whatever the mail relay does.
    mail_enqueue(
        subject=f"{settings.ACCOUNT_EMAIL_SUBJECT_PREFIX}{title}",
        body=(
            f"A notice about your claim {claim.pk} ({claim.get_claim_type_display()}, {claim.membership.plan.name}) "
            f"is ready: {title}.\n\nSign in to Plan Benefits and open {claim_url} to read it. "
            "For your privacy this email does not contain the notice."
        ),
        to=[claim.filed_by.email],
    )
    return document


def decision_notice(
    claim: Claim, determination: ClaimDetermination, *, votes: list, actor, request, on: date
):
    review = determination.stage == ClaimDetermination.Stage.REVIEW
    denied = determination.outcome == ClaimDetermination.Outcome.DENIED
    payload = {
        **_base_payload(claim, on),
        "stage": determination.stage,
        "outcome": determination.outcome,
        "decided_on": _d(determination.decided_on),
        "reasons": determination.reasons,
        "provisions": determination.provisions,
        "perfecting_material": determination.perfecting_material,
        "appeal_by": _d(claim.appeal_by),
        "appeal_filed_on": _d(claim.appeal_filed_on),
        "votes": votes,
        "next_step": claim.next_step,
        "engine_check": claim.engine_check,
    }
    if review:
        title = "Decision on review: claim " + ("denied" if denied else "approved")
        template = "pdf/claims/review_decision.html"
        kind = "review_decision"
    elif denied:
        title, template, kind = "Notice of denial of your claim", "pdf/claims/denial.html", "denial"
    else:
        title, template, kind = "Notice of approval of your claim", "pdf/claims/approval.html", "approval"
    return _deliver(
        claim, kind=kind, title=title, template=template, payload=payload, actor=actor, request=request, on=on
    )


def extension_notice(claim: Claim, *, reason: str, days: int, expected: date, actor, request, on: date):
    payload = {
        **_base_payload(claim, on),
        "stage": "review" if claim.in_review_stage else "initial",
        "reason": reason,
        "days": days,
        "expected_decision": _d(expected),
        "sent_on": _d(on),
    }
    return _deliver(
        claim,
        kind="extension",
        title="Notice of extension of time to decide your claim",
        template="pdf/claims/extension.html",
        payload=payload,
        actor=actor,
        request=request,
        on=on,
    )


def information_request(
    claim: Claim,
    *,
    what: str,
    respond_by: date,
    actor,
    request,
    on: date,
    extension_days: int = 0,
    days_left: int | None = None,
    due: date | None = None,
):
    """The request for information. With an extension (``extension_days``) it is the extension notice
    of 2560.503-1(f)(4)/(i)(4): what is missing, that the time stops from today until the answer, and
    the days the plan then has left; without one it says the time keeps running to ``due``."""
    payload = {
        **_base_payload(claim, on),
        "stage": "review" if claim.in_review_stage else "initial",
        "what": what,
        "respond_by": _d(respond_by),
        "sent_on": _d(on),
        "extended": bool(extension_days),
        "extension_days": extension_days,
        "days_left": days_left,
        # The decision date if the answer comes on the last day asked: never past the outer limit.
        "decision_if_answered_by": _d(respond_by + timedelta(days=days_left))
        if days_left is not None
        else "",
        "due": _d(due),
    }
    return _deliver(
        claim,
        kind="information_request",
        title=(
            "Notice of extension: information needed to decide your claim"
            if extension_days
            else "Request for information about your claim"
        ),
        template="pdf/claims/information_request.html",
        payload=payload,
        actor=actor,
        request=request,
        on=on,
    )


def claim_file(claim: Claim, *, actor, request, on: date):
    payload = {
        **_base_payload(claim, on),
        "state": claim.get_state_display(),
        "statement": claim.statement,
        "appeal_statement": claim.appeal_statement,
        "engine_check": claim.engine_check,
        "events": [
            {
                "at": f"{e.at:%Y-%m-%d %H:%M}",
                "by": e.actor_label,
                "action": e.action.replace("_", " "),
                "to": e.to_state,
                "note": e.note,
            }
            for e in claim.events.all()
        ],
        "documents": [
            {
                "name": d.original_name,
                "stage": d.get_stage_display(),
                "uploaded": f"{d.uploaded_at:%Y-%m-%d}",
                "sha256": d.sha256,
            }
            for d in claim.documents.all()
        ],
        "determinations": [
            {
                "stage": d.get_stage_display(),
                "outcome": d.get_outcome_display(),
                "reasons": d.reasons,
                "provisions": d.provisions,
                "perfecting_material": d.perfecting_material,
                "decided_on": _d(d.decided_on),
            }
            for d in claim.determinations.all()
        ],
    }
    return _deliver(
        claim,
        kind="claim_file",
        title="Documents relevant to your claim",
        template="pdf/claims/claim_file.html",
        payload=payload,
        actor=actor,
        request=request,
        on=on,
    )


def expected_loan_first_due(membership, decided_on: date) -> date:
    """The plan's first loan repayment date (``LoanProgram.first_due``)."""
    return get_plan(membership.plan.key).loans.first_due(decided_on)


def loan_schedule(claim: Claim, *, decided_on: date) -> dict:
    """The engine's amortization schedule for the approved loan, and the plan's loan terms in its own
    words (``LoanProgram.terms``: the note prints them, never a section of its own)."""
    loans = get_plan(claim.membership.plan.key).loans
    check = claim.engine_check
    employed = claim.participant.termination_date is None
    per_year = loans.payments_per_year(employed=employed)  # the plan's payroll or cash frequency
    n = int(check["term_months"]) * per_year // 12
    first_due = expected_loan_first_due(claim.membership, decided_on)
    schedule = loans.schedule(
        check["amount"], check["rate_percent"], n, first_due=first_due, periods_per_year=per_year
    )
    return {
        "principal": f"{schedule.principal:.2f}",
        "rate_percent": check["rate_percent"],
        "prime_rate": check["prime_rate"],
        "prime_rate_period": check["prime_rate_period"],
        "periods_per_year": per_year,
        "number_of_payments": n,
        "level_payment": f"{schedule.level_payment:.2f}",
        "total_interest": f"{schedule.total_interest:.2f}",
        "first_due": _d(first_due),
        "terms": dataclasses.asdict(loans.terms),
        "payments": [
            {
                "number": p.number,
                "due": p.due.isoformat(),
                "payment": f"{p.payment:.2f}",
                "interest": f"{p.interest:.2f}",
                "principal": f"{p.principal:.2f}",
                "balance": f"{p.balance:.2f}",
            }
            for p in schedule.payments
        ],
    }


def loan_documents(claim: Claim, *, actor, request, on: date) -> GeneratedDocument:
    payload = {
        **_base_payload(claim, on),
        "loan": loan_schedule(claim, decided_on=on),
        "term_months": claim.engine_check["term_months"],
        "borrower": claim.participant.full_name,
        "decided_on": _d(on),
    }
    return _deliver(
        claim,
        kind="loan_note",
        title="Loan promissory note and amortization schedule",
        template="pdf/claims/loan_note.html",
        payload=payload,
        actor=actor,
        request=request,
        on=on,
    )


def notify_committee(claim: Claim, *, what: str, due: date | None) -> None:
    """Tell the committee members that a claim needs them (no participant data in the email)."""
    from accounts.models import User

    recipients = list(
        User.objects.filter(role=User.Role.COMMITTEE, is_active=True).values_list("email", flat=True)
    )
    if not recipients:
        return
    url = settings.SITE_URL + reverse("elections:claim_detail", args=[claim.pk])
    due_text = f" A decision is due by {_d(due)}." if due else ""
    mail_enqueue(
        subject=f"{settings.ACCOUNT_EMAIL_SUBJECT_PREFIX}Claim {claim.pk}: {what}",
        body=f"Claim {claim.pk} ({claim.membership.plan.name}): {what}.{due_text}\n\nOpen {url} to act.",
        to=recipients,
    )
