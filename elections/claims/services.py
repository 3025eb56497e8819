"""Claims and appeals: every write checks who may act, moves the state machine, keeps the ERISA clock,
and records an audit event and a timeline row in one transaction. Notices are PDFs rendered after commit.

This module holds the claimant's side (filing, answers, appeals, documents); the committee's side is in
``elections.claims.decisions`` and is re-exported here, so callers have one place to look.
"""

from __future__ import annotations

from datetime import date

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django_fsm import can_proceed

from benefits import formatting
from benefits.audit import AuditEventType, audit_record
from benefits.models import PlanMembership
from benefits.stored_files import atomic_with_files
from elections import uploads
from elections.claims import checks, deadlines, limits, notices, one_benefit
from elections.claims.decisions import (  # noqa: F401  (re-exported)
    claim_decide,
    claim_extend,
    claim_request_information,
    claim_resume_without_answer,
    claim_start_review,
)
from elections.claims.models import (
    COMMENCEMENT_TYPES,
    COMMITTEE_OPEN,
    BeneficiaryLink,
    Claim,
    ClaimDocument,
    ClaimState,
    ClaimType,
)
from elections.claims.workflow import (  # noqa: F401  (re-exported)
    ClaimActionRefused,
    locked_claim,
    mfa_authenticated,
    move,
    record_event,
    refusal_message,
    require_claimant,
    save_uploads,
    today,
)

# ------------------------------------------------------------------------------------ filing


def memberships_claimable_by(user) -> list[tuple[PlanMembership, bool]]:
    """(membership, as beneficiary) pairs this login may file for: their own plans, or, for a verified
    Beneficiary, the plans of the participant who died."""
    out: list[tuple[PlanMembership, bool]] = []
    if not user.is_authenticated or not user.is_participant_role:
        return out
    participant = getattr(user, "participant", None)
    if participant is not None and participant.death_date is None:
        out += [(m, False) for m in participant.memberships.select_related("plan")]
    links = BeneficiaryLink.objects.filter(
        user=user, verified_at__isnull=False, participant__death_date__isnull=False
    )
    for link in links.select_related("participant"):
        out += [(m, True) for m in link.participant.memberships.select_related("plan")]
    return out


def claim_file(
    *,
    filer,
    membership: PlanMembership,
    claim_type: str,
    details: dict,
    statement: str = "",
    disability_based: bool = False,
    files: list[uploads.CheckedUpload] = (),
    request=None,
    on: date | None = None,
) -> Claim:
    """File a claim. It is checked against the engine first; an invalid claim is refused whole."""
    on = on or today()
    allowed = {m.pk: beneficiary for m, beneficiary in memberships_claimable_by(filer)}
    if membership.pk not in allowed:
        raise PermissionDenied("You can file claims only for your own plans.")
    beneficiary = allowed[membership.pk]
    errors: dict[str, str] = {}
    if claim_type == ClaimType.HARDSHIP and not files:
        section = deadlines.plan_rules(membership.plan.key).section("hardship_evidence")
        errors["documents"] = f"Documents: a hardship claim needs evidence of the need ({section})."
    try:
        engine_check = checks.check_claim(
            membership=membership,
            claim_type=claim_type,
            details=details,
            filed_on=on,
            beneficiary=beneficiary,
        )
    except checks.ClaimInvalid as exc:
        errors = {**exc.errors, **errors}
    if errors:  # every problem at once, and nothing is filed
        raise checks.ClaimInvalid(errors)
    if claim_type in COMMENCEMENT_TYPES:
        _refuse_second_commencement(membership)
    maximums = None
    if claim_type in limits.MONEY_TYPES and claim_type != ClaimType.ESOP_DISTRIBUTION:
        maximums = limits.plan_maximums(membership, on=on)  # the books, before the lock is taken
    participant = membership.participant
    if beneficiary:
        link = BeneficiaryLink.objects.get(user=filer, participant=participant)
        name, relationship = link.beneficiary_name, link.relationship
    else:
        name, relationship = participant.full_name, "participant"
    stored_details = {
        k: (v.isoformat() if isinstance(v, date) else str(v) if v is not None else None)
        for k, v in details.items()
    }
    with atomic_with_files():  # an upload is removed again if this does not commit
        if claim_type in limits.MONEY_TYPES:
            # The row lock queues parallel filings for one account: each counts the others' claims.
            limits.lock_membership(membership)
            others = limits.other_claims(membership, states=limits.PENDING_AT_FILING)
            over = limits.limit_errors(
                membership,
                claim_type=claim_type,
                amount=details.get("amount"),
                maximums=maximums,
                others=others,
            )
            if over:
                raise checks.ClaimInvalid(over)
        claim = Claim(
            participant=participant,
            membership=membership,
            filed_by=filer,
            claimant_name=name,
            claimant_relationship=relationship,
            claim_type=claim_type,
            disability_based=disability_based,
            statement=statement,
            details=stored_details,
            engine_check=engine_check,
            received_on=on,
        )
        claim.refresh_due(today=on)
        try:
            with transaction.atomic():  # a savepoint: the loser of a parallel race gets the plain refusal
                claim.save()
        except IntegrityError as exc:
            if not one_benefit.is_violation(exc, one_benefit.CLAIM_CONSTRAINT):
                raise
            _refuse_second_commencement(membership)
            raise
        save_uploads(claim, list(files), actor=filer, stage=ClaimDocument.Stage.CLAIM)
        record_event(claim, actor=filer, action="filed", from_state="", request=request, documents=len(files))
        notices.notify_committee(claim, what="a new claim was filed", due=claim.due_on)
    return claim


def _refuse_second_commencement(membership: PlanMembership) -> None:
    """A benefit is started once: a second claim (or a claim beside an election made without one) is
    refused, naming the first."""
    first = one_benefit.commencement_claim(membership)
    if first is not None:
        raise checks.ClaimInvalid({"__all__": one_benefit.claim_words(first)})
    election = one_benefit.election_in_force(membership)
    if election is not None and election.claim_id is None:
        raise checks.ClaimInvalid({"__all__": one_benefit.election_words(election)})


def claim_answer_information(
    *,
    claim: Claim,
    actor,
    response: str,
    files: list[uploads.CheckedUpload] = (),
    request=None,
    on: date | None = None,
) -> Claim:
    on = on or today()
    if not response.strip() and not files:
        raise checks.ClaimInvalid({"response": "Your answer: write an answer or attach a document."})
    with atomic_with_files():  # an upload is removed again if this does not commit
        claim = locked_claim(claim)
        require_claimant(claim, actor)
        method = "answer_appeal_information" if claim.in_review_stage else "answer_information"
        if not can_proceed(getattr(claim, method)):
            raise ClaimActionRefused(refusal_message(claim, method))
        claim.set_clock(claim.clock().resume(on=on))
        from_state = move(claim, method, on=on)
        claim.next_step = ""
        claim.information_due_on = None
        claim.save(update_fields=["next_step", "information_due_on"])
        save_uploads(claim, list(files), actor=actor, stage=ClaimDocument.Stage.INFORMATION)
        record_event(
            claim,
            actor=actor,
            action="information_answered",
            from_state=from_state,
            note=response.strip(),
            request=request,
            documents=len(files),
        )
    return claim


# ------------------------------------------------------------------------------------ appeals


def claim_appeal(
    *,
    claim: Claim,
    actor,
    statement: str,
    files: list[uploads.CheckedUpload] = (),
    request=None,
    on: date | None = None,
) -> Claim:
    """Appeal a denial within the window, or a claim not decided in time (deemed denied)."""
    on = on or today()
    if not statement.strip():
        raise checks.ClaimInvalid({"statement": "Your appeal: say why the decision should change."})
    with atomic_with_files():  # an upload is removed again if this does not commit
        claim = locked_claim(claim)
        require_claimant(claim, actor)
        if claim.state in (ClaimState.RECEIVED, ClaimState.UNDER_REVIEW, ClaimState.INFO_REQUESTED):
            method = "appeal_deemed_denial"
            missed = deemed_denial_since(claim, on=on)
            if missed is None:
                raise ClaimActionRefused(
                    f"The decision is not overdue: it is due by {formatting.date_words(claim.clock().due(today=on))}."
                )
            claim.appeal_by = deadlines.appeal_deadline(missed, claim.clock_rules)
        else:
            method = "appeal"
        if claim.claim_type in COMMENCEMENT_TYPES:
            # A denied claim to start the benefit comes back to life on appeal only if no other holds it.
            first = one_benefit.commencement_claim(claim.membership, exclude_pk=claim.pk)
            if first is not None:
                raise ClaimActionRefused(one_benefit.claim_words(first))
        claim.appeal_filed_on = on  # the review clock starts on receipt of the appeal
        if not can_proceed(getattr(claim, method)):
            raise ClaimActionRefused(refusal_message(claim, "appeal"))
        claim.appeal_statement = statement.strip()
        from_state = move(claim, method, on=on)
        claim.next_step = ""
        claim.save(update_fields=["appeal_statement", "next_step", "appeal_by"])
        save_uploads(claim, list(files), actor=actor, stage=ClaimDocument.Stage.APPEAL)
        record_event(
            claim,
            actor=actor,
            action="appealed" if method == "appeal" else "appealed_deemed_denial",
            from_state=from_state,
            note=statement.strip(),
            request=request,
            documents=len(files),
        )
        notices.notify_committee(claim, what="an appeal was filed", due=claim.due_on)
    return claim


def deemed_denial_since(claim: Claim, *, on: date) -> date | None:
    """The missed due date, when the initial decision is overdue (and the clock is not stopped: a
    request for information without an extension does not stop it)."""
    open_states = (ClaimState.RECEIVED, ClaimState.UNDER_REVIEW, ClaimState.INFO_REQUESTED)
    if claim.state not in open_states or claim.in_review_stage:
        return None
    clock = claim.clock()
    due = clock.due(today=on)
    return due if not clock.paused and on > due else None


def claim_request_documents(*, claim: Claim, actor, request=None, on: date | None = None) -> Claim:
    """2560.503-1(h)(2)(iii): reasonable access to, and copies of, all documents relevant to the claim,
    free of charge. The claim file (every record the decision rested on) is prepared as a PDF at once."""
    on = on or today()
    with transaction.atomic():
        claim = locked_claim(claim)
        require_claimant(claim, actor)
        if claim.state in (ClaimState.RECEIVED,):
            raise ClaimActionRefused(
                "The claim file can be requested once the committee has started its review."
            )
        claim.documents_requested_on = on
        claim.save(update_fields=["documents_requested_on"])
        record_event(
            claim, actor=actor, action="documents_requested", from_state=claim.state, request=request
        )
        notices.claim_file(claim, actor=actor, request=request, on=on)
    return claim


def claim_add_documents(*, claim: Claim, actor, files: list[uploads.CheckedUpload], request=None) -> Claim:
    """The claimant adds documents while the claim or the appeal is open (comments go with an appeal)."""
    if not files:
        raise checks.ClaimInvalid({"documents": "Documents: choose at least one file."})
    with atomic_with_files():  # an upload is removed again if this does not commit
        claim = locked_claim(claim)
        require_claimant(claim, actor)
        if claim.state not in COMMITTEE_OPEN:
            raise ClaimActionRefused("Documents can be added only while the claim or the appeal is open.")
        stage = ClaimDocument.Stage.APPEAL if claim.in_review_stage else ClaimDocument.Stage.CLAIM
        save_uploads(claim, files, actor=actor, stage=stage)
        record_event(
            claim,
            actor=actor,
            action="documents_added",
            from_state=claim.state,
            request=request,
            documents=len(files),
        )
    return claim


def claim_document_viewed(*, document: ClaimDocument, viewer, request=None) -> None:
    """Committee members opening a claimant's upload is recorded."""
    if viewer.pk == document.claim.filed_by_id:
        return
    with transaction.atomic():
        audit_record(
            event_type=AuditEventType.CLAIM_DOCUMENT_VIEWED,
            summary=f"Claim document {document.pk} opened",
            actor=viewer,
            participant=document.claim.participant,
            request=request,
            claim_id=document.claim_id,
            document_id=document.pk,
        )


def claim_notice_viewed(*, notice, viewer, request=None) -> None:
    """Anyone but the claimant opening a claim notice is recorded, like an upload or a statement."""
    claim = notice.claim
    if viewer.pk == claim.filed_by_id:
        return
    with transaction.atomic():
        audit_record(
            event_type=AuditEventType.CLAIM_NOTICE_VIEWED,
            summary=f"Claim notice {notice.pk} opened",
            actor=viewer,
            participant=claim.participant,
            request=request,
            claim_id=claim.pk,
            notice_id=notice.pk,
        )


def claims_refresh_due_dates(*, on: date | None = None) -> int:
    on = on or today()
    changed = 0
    for claim in Claim.objects.filter(state__in=COMMITTEE_OPEN).select_related("membership__plan"):
        before = claim.due_on
        claim.refresh_due(today=on)
        if claim.due_on != before:
            Claim.objects.filter(pk=claim.pk).update(due_on=claim.due_on)
            changed += 1
    return changed
