from __future__ import annotations

from benefits.models import Plan, PlanMembership
from benefits.plan_identity.models import PlanContact
from benefits.plan_identity.presenters import identity_block


def contact_of(plan: Plan) -> PlanContact | None:
    return PlanContact.objects.filter(plan=plan).first()


def document_plans(*, participant, payload: dict, plans=None) -> list[Plan]:
    """The plans a document speaks about: those given, else the plan its payload names (key or name),
    else every plan the participant belongs to (a payment history or a delivery test)."""
    if plans is not None:
        return [p for p in (plans if isinstance(plans, (list, tuple)) else [plans]) if p is not None]
    key = payload.get("plan_key") or payload.get("plan")
    if isinstance(key, str) and (plan := Plan.objects.filter(key=key).first()):
        return [plan]
    name = payload.get("plan_name")
    if isinstance(name, str) and (plan := Plan.objects.filter(name=name).first()):
        return [plan]
    ids = PlanMembership.objects.filter(participant=participant).values_list("plan_id", flat=True)
    return list(Plan.objects.filter(pk__in=ids).select_related("employer").order_by("name"))


def identity_blocks(plans: list[Plan]) -> list[dict]:
    contacts = {c.plan_id: c for c in PlanContact.objects.filter(plan__in=plans)}
    return [identity_block(p, contacts.get(p.pk)) for p in plans]
