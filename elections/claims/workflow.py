"""The machinery every claim action shares: who may act, locking, one transition at a time, and the
timeline row plus audit event written in the same transaction as the change."""

from __future__ import annotations

from datetime import date

from allauth.mfa.utils import is_mfa_enabled
from django.core.exceptions import PermissionDenied
from django.utils import timezone
from django_fsm import can_proceed

from benefits import formatting
from benefits.audit import AuditEventType, audit_record
from elections import uploads
from elections.claims.models import Claim, ClaimDetermination, ClaimDocument, ClaimEvent, ClaimType

Outcome = ClaimDetermination.Outcome
Stage = ClaimDetermination.Stage


class ClaimActionRefused(Exception):
    """The action is not open for this claim now; the message says why, in words for the user."""


def today() -> date:
    return timezone.localdate()


# ------------------------------------------------------------------------------------ authority


def require_claimant(claim: Claim, actor) -> None:
    if not actor.is_authenticated or claim.filed_by_id != actor.pk:
        raise PermissionDenied("Only the claimant may do this.")


def mfa_authenticated(request) -> bool:
    """Did this session's login include a second factor? (allauth records each method used.)"""
    from allauth.account.authentication import get_authentication_records

    return any(r.get("method") == "mfa" for r in get_authentication_records(request, request.user))


def require_decider(claim: Claim, actor, request) -> None:
    """Decisions are the committee's, by a member who logged in with MFA and is not the claimant."""
    if not actor.is_authenticated or not actor.is_committee:
        raise PermissionDenied("Only a plan committee member may act on a claim.")
    if not is_mfa_enabled(actor) or (request is not None and not mfa_authenticated(request)):
        raise PermissionDenied("Committee decisions need a login with two-factor authentication.")
    if claim.filed_by_id == actor.pk or claim.participant.user_id == actor.pk:
        # No member decides on his own benefits, on any plan: some plans' texts bar it outright (their
        # claim rules cite the section); the bar holds where a text is silent too.
        raise PermissionDenied("You cannot act on a claim for your own benefits.")


# ------------------------------------------------------------------------------------ helpers


def locked_claim(claim: Claim) -> Claim:
    # The claim row only (OF self): its plan and person rows stay free for workers issuing notices.
    return (
        Claim.objects.select_for_update(of=("self",))
        .select_related("membership__plan", "participant")
        .get(pk=claim.pk)
    )


def _actor_label(claim: Claim, actor) -> str:
    if actor is None:
        return "Plan Benefits"
    if actor.pk == claim.filed_by_id:
        return "Claimant"
    return "Plan committee"


def record_event(
    claim: Claim, *, actor, action: str, from_state: str, note: str = "", request=None, **extra
) -> None:
    ClaimEvent.objects.create(
        claim=claim,
        actor=actor if getattr(actor, "is_authenticated", False) else None,
        actor_label=_actor_label(claim, actor),
        action=action,
        from_state=from_state,
        to_state=claim.state,
        note=note,
        due_on=claim.due_on,
    )
    audit_record(
        event_type=AuditEventType(f"claim.{action}"),  # the action names a claim.* member
        summary=f"Claim {claim.pk} ({claim.get_claim_type_display()}): {action.replace('_', ' ')}, "
        f"{from_state or 'new'} → {claim.state}",
        actor=actor,
        participant=claim.participant,
        request=request,
        claim_id=claim.pk,
        from_state=from_state,
        to_state=claim.state,
        reason=note,
        due_on=claim.due_on.isoformat() if claim.due_on else None,
        **extra,
    )
    from elections.claims.limits import loan_pending_sync

    if claim.claim_type == ClaimType.LOAN:
        loan_pending_sync(claim.membership, actor=actor, request=request)


def move(claim: Claim, method: str, *, on: date) -> str:
    """Run one transition (its guards included); returns the state it left."""
    bound = getattr(claim, method)
    if not can_proceed(bound):
        raise ClaimActionRefused(refusal_message(claim, method))
    from_state = claim.state
    bound()
    claim.refresh_due(today=on)
    claim.save()
    return from_state


def refusal_message(claim: Claim, method: str) -> str:
    if claim.clock().paused and method in {"approve", "deny", "approve_on_review", "deny_on_review"}:
        return (
            "The claimant has not yet answered the request for information; the clock is stopped until then."
        )
    if method == "appeal" and claim.appeal_by is not None:
        return f"The appeal window closed on {formatting.date_words(claim.appeal_by)}."
    return f"This cannot be done while the claim is “{claim.get_state_display()}”."


def save_uploads(
    claim: Claim, files: list[uploads.CheckedUpload], *, actor, stage: str
) -> list[ClaimDocument]:
    saved = []
    for f in files:
        saved.append(
            ClaimDocument.objects.create(
                claim=claim,
                stage=stage,
                original_name=f.original_name,
                content_type=f.content_type,
                size=len(f.content),
                sha256=f.sha256,
                file_name=uploads.store(claim.pk, f),
                uploaded_by=actor,
            )
        )
    return saved


def require_independent(claim: Claim, actor) -> None:
    rules = claim.plan_rules
    if (rules.independent_review or claim.disability_based) and claim.initial_decided_by_id == actor.pk:
        why = rules.review_decider if rules.independent_review else "29 CFR 2560.503-1(h)(3)(ii)"
        raise PermissionDenied(
            f"The appeal must be reviewed by someone other than the person who made the initial decision ({why})."
        )
