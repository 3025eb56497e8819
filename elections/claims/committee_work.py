"""The committee's own working tools on a claim: who prepares it, and internal notes. Writes only,
each checked, changed and audited in one transaction (the claimant never sees either)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction

from accounts.models import User
from benefits.audit import AuditEventType, audit_record
from elections.claims.checks import ClaimInvalid
from elections.claims.models import Claim, ClaimNote
from elections.claims.workflow import locked_claim

NOTE_MAX = 4000


def _require_member(actor) -> None:
    if not actor.is_authenticated or not actor.is_committee:
        raise PermissionDenied("Only a plan committee member may do this.")


def committee_members():
    return User.objects.filter(role=User.Role.COMMITTEE, is_active=True).order_by("email")


def claim_assign(*, claim: Claim, actor, assignee_id: int | None, request=None) -> Claim:
    """Assign the claim to a committee member (or to nobody)."""
    _require_member(actor)
    assignee = None
    if assignee_id:
        assignee = committee_members().filter(pk=assignee_id).first()
        if assignee is None:
            raise ClaimInvalid({"assignee": "Assign to: choose a member of the plan committee."})
    with transaction.atomic():
        claim = locked_claim(claim)
        old = claim.assigned_to.email if claim.assigned_to_id else ""
        claim.assigned_to = assignee
        claim.save(update_fields=["assigned_to"])
        audit_record(
            event_type=AuditEventType.CLAIM_ASSIGNED,
            summary=f"Claim {claim.pk} assigned to {assignee.email if assignee else 'nobody'}",
            actor=actor,
            participant=claim.participant,
            request=request,
            claim_id=claim.pk,
            old=old or "nobody",
            new=assignee.email if assignee else "nobody",
        )
    return claim


def claim_note_add(*, claim: Claim, actor, text: str, request=None) -> ClaimNote:
    _require_member(actor)
    text = (text or "").strip()
    if not text:
        raise ClaimInvalid({"text": "Note: write the note before saving it."})
    if len(text) > NOTE_MAX:
        raise ClaimInvalid({"text": f"Note: keep it to {NOTE_MAX:,} characters."})
    with transaction.atomic():
        claim = locked_claim(claim)
        note = ClaimNote.objects.create(claim=claim, author=actor, text=text)
        audit_record(
            event_type=AuditEventType.CLAIM_NOTE_ADDED,
            summary=f"Claim {claim.pk}: internal note added",
            actor=actor,
            participant=claim.participant,
            request=request,
            claim_id=claim.pk,
            new=text[:200],
        )
    return note
