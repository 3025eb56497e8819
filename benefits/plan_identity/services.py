"""An administrator maintains a plan's identification; each change is one audit event with the old
and new values, in one transaction."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction

from benefits.audit import AuditEventType, audit_record
from benefits.models import Plan
from benefits.plan_identity.models import PlanContact


def plan_identity_update(
    *, plan: Plan, values: dict, actor, request=None, demo_data: bool = False
) -> PlanContact:
    """Set the plan's number, sponsor and administrator (``values``: PlanContact.FIELDS)."""
    if actor is not None and not getattr(actor, "is_administrator", False):
        raise PermissionDenied("Only an administrator changes a plan's identification.")
    with transaction.atomic():
        Plan.objects.select_for_update().get(pk=plan.pk)
        contact = PlanContact.objects.filter(plan=plan).first()
        old = {f: getattr(contact, f) for f in PlanContact.FIELDS} if contact else {}
        new = {f: str(values[f]).strip() for f in PlanContact.FIELDS}
        if contact is None:
            contact = PlanContact(plan=plan)
        for f, v in new.items():
            setattr(contact, f, v)
        contact.demo_data = demo_data
        contact.full_clean()
        changed = {f: {"old": old.get(f, ""), "new": v} for f, v in new.items() if old.get(f, "") != v}
        if not changed:
            return contact
        contact.save()
        audit_record(
            event_type=AuditEventType.PLAN_IDENTITY_CHANGED,
            summary=f"{plan.key}: plan identification changed ({', '.join(changed)})",
            actor=actor,
            request=request,
            plan=plan.key,
            changes=changed,
        )
    return contact
