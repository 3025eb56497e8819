"""The committee's side of a claim: starting a review, extensions, requests for information, and
decisions (with votes where the plan's committee acts by a majority), each with its notice."""

from __future__ import annotations

from datetime import date, timedelta

from django.db import transaction
from django_fsm import can_proceed

from benefits import formatting
from benefits.audit import AuditEventType, audit_record
from benefits.engine.elections import election_rules
from elections.claims import checks, deadlines, notices
from elections.claims.models import Claim, ClaimDetermination, ClaimState, ClaimType, ClaimVote
from elections.claims.workflow import (
    ClaimActionRefused,
    Outcome,
    Stage,
    locked_claim,
    move,
    record_event,
    refusal_message,
    require_decider,
    require_independent,
    today,
)

# ------------------------------------------------------------------------------------ committee steps


def claim_start_review(*, claim: Claim, actor, request=None, on: date | None = None) -> Claim:
    on = on or today()
    with transaction.atomic():
        claim = locked_claim(claim)
        require_decider(claim, actor, request)
        method = "start_appeal_review" if claim.state == ClaimState.APPEALED else "start_review"
        if method == "start_appeal_review":
            require_independent(claim, actor)
        from_state = move(claim, method, on=on)
        record_event(claim, actor=actor, action=method, from_state=from_state, request=request)
    return claim


def claim_extend(*, claim: Claim, actor, reason: str, request=None, on: date | None = None) -> Claim:
    """Take an extension: the notice goes out now, before the running period ends, with the reason and
    the date by which a decision is expected."""
    on = on or today()
    reason = reason.strip()
    if not reason:
        raise checks.ClaimInvalid(
            {"reason": "Reason: an extension notice must state the special circumstances."}
        )
    with transaction.atomic():
        claim = locked_claim(claim)
        require_decider(claim, actor, request)
        method = "extend_review" if claim.in_review_stage else "extend_initial"
        if method == "extend_review":
            require_independent(claim, actor)
        clock = claim.clock()
        try:
            days = clock.next_extension_days()
            new_clock = clock.extend(notice_sent=on, days=days, today=on)
        except deadlines.ExtensionRefused as exc:
            raise ClaimActionRefused(str(exc)) from exc
        if not can_proceed(getattr(claim, method)):
            raise ClaimActionRefused(refusal_message(claim, method))
        claim.set_clock(new_clock)
        from_state = move(claim, method, on=on)
        expected = new_clock.due(today=on)
        record_event(
            claim,
            actor=actor,
            action="extended",
            from_state=from_state,
            note=reason,
            request=request,
            days=days,
            expected_decision=expected.isoformat(),
        )
        notices.extension_notice(
            claim, reason=reason, days=days, expected=expected, actor=actor, request=request, on=on
        )
    return claim


def claim_request_information(
    *,
    claim: Claim,
    actor,
    what: str,
    respond_by: date,
    extend: bool = False,
    request=None,
    on: date | None = None,
) -> Claim:
    """Ask the claimant for information. With ``extend`` the request is an extension notice for the
    missing information: the next extension is taken and the clock stops from today until the answer
    (2560.503-1(f)(4), (i)(4)). Without it the clock keeps running, so the answer must be asked for
    before the decision is due."""
    on = on or today()
    what = what.strip()
    errors = {}
    if not what:
        errors["what"] = "Information needed: say what the claimant must send, and why."
    rules = claim.clock_rules
    clock = claim.clock()
    due = clock.due(today=on)
    if extend and not clock.can_extend():
        errors["extend"] = (
            "Extension: every extension the rule allows has been taken; ask without one "
            "(the clock keeps running)."
        )
    elif extend and on > due:
        errors["extend"] = (
            f"Extension: the notice had to be sent by {formatting.date_words(due)}, before the period ended."
        )
    # (f)(3): an extension for a disability claim gives the claimant at least 45 days to answer.
    least = rules.min_information_days if extend else 0
    most = deadlines.most_information_days(rules, review=claim.in_review_stage)
    if respond_by <= on or (respond_by - on).days < least:
        errors["respond_by"] = (
            f"Answer by: give the claimant at least {max(least, 1)} days "
            f"({'29 CFR 2560.503-1(f)(3)' if least else 'a date after today'})."
        )
    elif extend and (respond_by - on).days > most:
        errors["respond_by"] = (
            f"Answer by: at most {most} days from today ({formatting.date_words(on + timedelta(days=most))}), the longest "
            f"the regulation lets this decision take ({rules.source})."
        )
    elif not extend and respond_by >= due:
        errors["respond_by"] = (
            f"Answer by: without an extension the clock keeps running and the decision is due by "
            f"{formatting.date_words(due)}; ask for an answer before then, or extend the time because the "
            f"information is missing."
        )
    if errors:
        raise checks.ClaimInvalid(errors)
    with transaction.atomic():
        claim = locked_claim(claim)
        require_decider(claim, actor, request)
        method = "request_appeal_information" if claim.in_review_stage else "request_information"
        if claim.clock().awaiting_answer or not can_proceed(getattr(claim, method)):
            # A second request while the first is unanswered.
            raise ClaimActionRefused(
                "The claimant has not yet answered the earlier request for information; "
                "wait for the answer, or go on without it once its date has passed."
                if claim.clock().awaiting_answer
                else refusal_message(claim, method)
            )
        if extend and claim.in_review_stage:
            require_independent(claim, actor)
        try:
            new_clock = claim.clock().ask(start=on, respond_by=respond_by, extend=extend)
        except deadlines.ExtensionRefused as exc:
            raise ClaimActionRefused(str(exc)) from exc
        claim.set_clock(new_clock)
        from_state = move(claim, method, on=on)
        # The next-step box says what is asked, not only that something is (issue 14).
        asked = what if len(what) <= 200 else what[:197].rstrip() + "…"
        claim.next_step = f"Send by {formatting.date_words(respond_by)}: {asked}"
        claim.information_due_on = respond_by
        claim.save(update_fields=["next_step", "information_due_on"])
        extension_days = new_clock.extensions[-1] if extend else 0
        notices.information_request(
            claim,
            what=what,
            respond_by=respond_by,
            extension_days=extension_days,
            days_left=new_clock.days_left(on=on) if extend else None,
            due=None if extend else due,
            actor=actor,
            request=request,
            on=on,
        )
        record_event(
            claim,
            actor=actor,
            action="information_requested_with_extension" if extend else "information_requested",
            from_state=from_state,
            note=f"{what} (answer by {formatting.date_words(respond_by)})",
            request=request,
            respond_by=respond_by.isoformat(),
            extension_days=extension_days,
        )
    return claim


def claim_resume_without_answer(*, claim: Claim, actor, request=None, on: date | None = None) -> Claim:
    """The answer-by date passed with no answer: the request is closed on that date (a tolled clock runs
    again from it), and the committee decides on the record it has (2560.503-1(f)(4))."""
    on = on or today()
    with transaction.atomic():
        claim = locked_claim(claim)
        require_decider(claim, actor, request)
        method = "answer_appeal_information" if claim.in_review_stage else "answer_information"
        if claim.information_due_on is None or not can_proceed(getattr(claim, method)):
            raise ClaimActionRefused(refusal_message(claim, method))
        if on <= claim.information_due_on:
            raise ClaimActionRefused(
                f"The claimant has until {formatting.date_words(claim.information_due_on)} to answer."
            )
        claim.set_clock(claim.clock().resume(on=claim.information_due_on))
        from_state = move(claim, method, on=on)
        tolled = claim.clock().tolls[-1].tolls
        note = f"No answer by {formatting.date_words(claim.information_due_on)}" + (
            "; the clock runs again from that date." if tolled else "."
        )
        claim.next_step, claim.information_due_on = "", None
        claim.save(update_fields=["next_step", "information_due_on"])
        record_event(
            claim,
            actor=actor,
            action="information_not_answered",
            from_state=from_state,
            note=note,
            request=request,
        )
    return claim


# ------------------------------------------------------------------------------------ decisions


def claim_decide(
    *,
    claim: Claim,
    actor,
    outcome: str,
    reasons: str,
    provisions: str,
    perfecting_material: str = "",
    request=None,
    on: date | None = None,
) -> Claim:
    """Approve or deny (initially or on review). Where the plan's committee acts by a majority of its
    seats, this records the member's vote, and the decision is made when a majority agrees."""
    on = on or today()
    reasons, provisions, perfecting_material = (
        reasons.strip(),
        provisions.strip(),
        perfecting_material.strip(),
    )
    with transaction.atomic():
        claim = locked_claim(claim)
        require_decider(claim, actor, request)
        review = claim.in_review_stage
        if review:
            require_independent(claim, actor)
        _check_content(
            claim,
            outcome=outcome,
            reasons=reasons,
            provisions=provisions,
            perfecting_material=perfecting_material,
            review=review,
        )
        method = {
            (False, Outcome.APPROVED): "approve",
            (False, Outcome.DENIED): "deny",
            (True, Outcome.APPROVED): "approve_on_review",
            (True, Outcome.DENIED): "deny_on_review",
        }[(review, outcome)]
        if not can_proceed(getattr(claim, method)):
            raise ClaimActionRefused(refusal_message(claim, method))
        if outcome == Outcome.APPROVED:
            _check_limits_at_approval(claim, on=on)
        stage = Stage.REVIEW if review else Stage.INITIAL
        rules = claim.plan_rules
        if rules.voting == "majority_of_seats":
            ClaimVote.objects.update_or_create(
                claim=claim,
                stage=stage,
                member=actor,
                defaults={
                    "outcome": outcome,
                    "reasons": reasons,
                    "provisions": provisions,
                    "perfecting_material": perfecting_material,
                },
            )
            agreeing = ClaimVote.objects.filter(claim=claim, stage=stage, outcome=outcome).count()
            if agreeing < rules.votes_needed:
                record_event(
                    claim,
                    actor=actor,
                    action="vote_recorded",
                    from_state=claim.state,
                    note=f"Vote to {outcome}: {agreeing} of the {rules.votes_needed} votes needed "
                    f"(a majority of {rules.seats} seats).",
                    request=request,
                    vote=outcome,
                )
                return claim
        from_state = move(claim, method, on=on)
        determination = ClaimDetermination.objects.create(
            claim=claim,
            stage=stage,
            outcome=outcome,
            reasons=reasons,
            provisions=provisions,
            perfecting_material=perfecting_material,
            decided_by=actor,
            decided_on=on,
        )
        votes = [
            {"member": v.member.email, "outcome": v.outcome, "cast_at": v.cast_at.isoformat()}
            for v in ClaimVote.objects.filter(claim=claim, stage=stage).select_related("member")
        ]
        if review:
            claim.review_decided_on = on
        else:
            claim.decided_on = on
            claim.initial_decided_by = actor
        if outcome == Outcome.DENIED and not review:
            claim.notice_delivered_on = on  # delivered electronically today (A22)
            claim.appeal_by = deadlines.appeal_deadline(on, claim.clock_rules)
            claim.next_step = f"You may appeal until {formatting.date_words(claim.appeal_by)}."
        elif outcome == Outcome.DENIED:
            claim.next_step = "The decision on review is final under the plan; you may bring a civil action under ERISA §502(a)."
        else:
            claim.next_step = ""
        claim.save()
        record_event(
            claim,
            actor=actor,
            action=method,
            from_state=from_state,
            note=reasons,
            request=request,
            provisions=provisions,
            votes=votes,
        )
        if outcome == Outcome.APPROVED:  # first, so the notice can state the next step
            _after_approval(claim, actor=actor, request=request, on=on)
        notice = notices.decision_notice(
            claim, determination, votes=votes, actor=actor, request=request, on=on
        )
        determination.notice = notice
        determination.save(update_fields=["notice"])
    return claim


def _check_limits_at_approval(claim: Claim, *, on: date) -> None:
    """Checked again at approval, against the books today and the claims already approved: the row
    lock on the membership (taken with the claim's) makes parallel approvals queue, so two loans
    cannot both pass one limit."""
    from decimal import Decimal

    from elections.claims import limits

    if claim.claim_type not in limits.MONEY_TYPES:
        return
    limits.lock_membership(claim.membership)
    maximums = None
    if claim.claim_type != ClaimType.ESOP_DISTRIBUTION:
        maximums = limits.plan_maximums(claim.membership, on=on)
    amount = claim.details.get("amount")
    over = limits.limit_errors(
        claim.membership,
        claim_type=claim.claim_type,
        amount=Decimal(amount) if amount else None,
        maximums=maximums,
        others=limits.other_claims(claim.membership, states=limits.APPROVED_NOT_PAID, exclude_pk=claim.pk),
    )
    if over:
        raise ClaimActionRefused(
            "This claim cannot be approved as filed, since other claims were approved first. In the "
            f"claimant's terms: {' '.join(over.values())}"
        )


def _check_content(claim, *, outcome, reasons, provisions, perfecting_material, review) -> None:
    """2560.503-1(g) and (j): a denial states its reasons, the provisions relied on and (initially) what
    would perfect the claim. An approval needs no reasons (the regulation asks them of a denial); a
    note of why is kept when the member gives one."""
    errors = {}
    if outcome not in (Outcome.APPROVED, Outcome.DENIED):
        errors["outcome"] = "Decision: choose approve or deny."
    if outcome == Outcome.DENIED and not reasons:
        errors["reasons"] = "Reasons: state the specific reasons for the denial (29 CFR 2560.503-1(g)(1)(i))."
    if outcome == Outcome.DENIED and not provisions:
        errors["provisions"] = (
            "Plan provisions: cite the provisions the denial rests on (2560.503-1(g)(1)(ii))."
        )
    if outcome == Outcome.DENIED and not review and not perfecting_material:
        errors["perfecting_material"] = (
            "Material to perfect the claim: describe what would perfect it and why, or say that none would "
            "(2560.503-1(g)(1)(iii))."
        )
    if errors:
        raise checks.ClaimInvalid(errors)


def _after_approval(claim: Claim, *, actor, request, on: date) -> None:
    """The next step after an approval: loan papers, and the election where the plan requires one."""
    rules = claim.plan_rules
    married = claim.participant.marital_status == "married"
    if claim.claim_type == ClaimType.LOAN:
        notices.loan_documents(claim, actor=actor, request=request, on=on)
    if claim.claim_type in rules.election_required_types and claim.claimant_relationship == "participant":
        from elections.claims.consents import CONSENT_TYPES, consent_open_for_claim

        consent_only = claim.claim_type in CONSENT_TYPES  # the spouse consents to the claim itself
        if consent_only:
            step = f"Election required: spousal consent ({rules.section('claim_consent')})" if married else ""
        elif not election_rules(claim.membership.plan.key).qjsa_applies:
            # Outside §417: no joint and survivor explanation and no spouse's consent to the form.
            step = "Election required: your distribution election (its form, rollover and tax withholding)"
        else:
            step = (
                "Election required: §417(a)(3) explanation and spousal consent"
                if married
                else "Election required: §417(a)(3) explanation and your election of a form of payment"
            )
        if step:
            from_state = move(claim, "require_election", on=on)
            how = (
                "Print the consent form from this claim, have your spouse sign it in front of a notary "
                "public or a plan representative, and upload it here"
                if consent_only
                else "Read the explanation of your payment options and make your election from this claim"
            )
            claim.next_step = f"{step}. {how}; nothing is paid before it is complete."
            claim.save(update_fields=["next_step"])
            record_event(
                claim,
                actor=actor,
                action="handed_to_election",
                from_state=from_state,
                note=claim.next_step,
                request=request,
            )
            if consent_only:
                consent = consent_open_for_claim(claim, actor=actor, request=request)
                audit_record(
                    event_type=AuditEventType.CLAIM_CONSENT_REQUESTED,
                    summary=f"Spouse's consent form issued for claim {claim.pk}",
                    actor=actor,
                    participant=claim.participant,
                    request=request,
                    claim_id=claim.pk,
                    consent_id=consent.pk,
                )
            return
    if claim.claim_type == ClaimType.LOAN:
        claim.next_step = "Sign the promissory note; the loan is paid out after the Committee receives it."
    else:
        claim.next_step = "Approved: the plan administrator will arrange payment."
    from elections.claims.consents import CONSENT_TYPES

    if claim.claim_type in CONSENT_TYPES and claim.claimant_relationship == "participant":
        # No spouse's consent is needed: the payment (or the loan's disbursement) is scheduled now.
        from elections.benefit_elections.claim_effects import scheduled_words

        from_state = move(claim, "schedule_payment", on=on)
        claim.next_step = scheduled_words(
            claim, actor=actor, on=on, request=request, fallback=claim.next_step
        )
        claim.save(update_fields=["next_step"])
        record_event(
            claim,
            actor=actor,
            action="payment_scheduled",
            from_state=from_state,
            note=claim.next_step,
            request=request,
        )
        return
    claim.save(update_fields=["next_step"])
