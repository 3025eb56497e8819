"""A claim's status as a sentence for the person reading it (issue 25 item 4): the claimant reads
what happens next and what to do; the committee reads where the claim stands and what it waits for.
Dates print through ``benefits.formatting``."""

from __future__ import annotations

from benefits.formatting import date_words
from elections.claims.models import ClaimState as S

PARTICIPANT = "participant"
COMMITTEE = "committee"


def _on(d) -> str:
    return f" on {date_words(d)}" if d else ""


def _by(d) -> str:
    return f" by {date_words(d)}" if d else ""


def status_sentence(claim, reader: str = PARTICIPANT) -> str:
    committee = reader == COMMITTEE
    s = claim.state
    if s == S.RECEIVED:
        return f"Received{_on(claim.received_on)}: " + (
            "review not started" if committee else "waiting for the committee's review"
        )
    if s == S.UNDER_REVIEW:
        return (
            f"Under review: a decision is due{_by(claim.due_on)}"
            if committee
            else "Waiting for the committee's decision"
        )
    if s in (S.INFO_REQUESTED, S.APPEAL_INFO_REQUESTED):
        on_appeal = " on the appeal" if s == S.APPEAL_INFO_REQUESTED else ""
        if committee:
            return f"Information requested{on_appeal}{_on(claim.documents_requested_on)}: answer due{_by(claim.information_due_on)}"
        return f"The committee asked you for information{on_appeal}{_on(claim.documents_requested_on)}: please answer{_by(claim.information_due_on)}"
    if s == S.APPROVED:
        return f"Approved{_on(claim.decided_on)}"
    if s == S.ELECTION_REQUIRED:
        return f"Approved{_on(claim.decided_on)}: " + (
            "waiting for the participant's election" if committee else "make your election"
        )
    if s == S.DENIED:
        if committee:
            return f"Denied{_on(claim.decided_on)}: the claimant may appeal{_by(claim.appeal_by)}"
        return f"Denied{_on(claim.decided_on)}: you may appeal{_by(claim.appeal_by)}"
    if s == S.APPEALED:
        if committee:
            return f"Appeal received{_on(claim.appeal_filed_on)}: review not started"
        return f"Your appeal was received{_on(claim.appeal_filed_on)}: waiting for the committee's review"
    if s == S.APPEAL_UNDER_REVIEW:
        if committee:
            return f"Appeal under review: a decision is due{_by(claim.due_on)}"
        return "Waiting for the committee's decision on your appeal"
    if s == S.APPROVED_ON_REVIEW:
        return f"Approved on appeal{_on(claim.review_decided_on)}"
    if s == S.DENIED_ON_REVIEW:
        return f"Denied on appeal{_on(claim.review_decided_on)}: this is the plan's final decision"
    if s == S.PAYMENT_SCHEDULED:
        return "Approved: payment scheduled, not yet confirmed as paid"
    if s == S.IN_PAY:
        return "Approved: payments are being made"
    if s == S.PAID:
        return "Paid"
    if s == S.LOAN_IN_EFFECT:
        return "Approved: the loan has been made"
    return claim.get_state_display()
