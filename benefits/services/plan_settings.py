"""Plan readings changed and confirmed by administrators (the engine's named settings for each GAP in a
plan's text; ``benefits.engine_adapter.plan_readings`` lists them with their values).

``Plan.settings`` stores only the values an administrator chose; everything else is the engine's
default. Changing a reading clears the plan's confirmation; confirming needs every required reading.
"""

from __future__ import annotations

import json

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from benefits.audit import AuditEventType, audit_record
from benefits.engine.plans import settings_classes
from benefits.engine.settings import SettingError, describe, override
from benefits.engine_adapter import plan_readings
from benefits.models import Plan


def parse_reading_input(text: str) -> object:
    """Administrators type JSON-like values: 5, true, "elapsed", [1999, 2000], 2.5, 2000-12-31."""
    text = text.strip()
    if text in ("true", "false"):
        return text == "true"
    if len(text) > 2000:
        raise SettingError("value", "A reading is at most 2,000 characters.")
    try:
        value = json.loads(text, parse_constant=str)  # NaN/Infinity stay text, and are refused by name
    except (ValueError, RecursionError):  # not JSON, or a number past Python's digit limit
        return text
    if isinstance(value, float):
        return text  # decimals stay exact: the engine converts the string
    return value


def plan_update_reading(*, plan: Plan, name: str, raw: str, actor, request=None) -> Plan:
    """Set one reading after the engine validates it; the plan must be confirmed again."""
    if not actor.is_administrator:
        raise PermissionDenied("Only an administrator changes a plan's readings.")
    classes = settings_classes(plan.key)
    group = next((g for g, cls in classes.items() if name in {r["name"] for r in describe(cls)}), None)
    if group is None:
        raise SettingError(name, f"{plan.name} has no reading named {name!r}.")
    value = parse_reading_input(raw)
    override(classes[group](), {name: value})  # raises SettingError naming the rule
    with transaction.atomic():
        plan = Plan.objects.select_for_update().get(pk=plan.pk)
        old = plan.settings.get(name, "(engine default)")
        plan.settings = {**plan.settings, name: value}
        plan.settings_confirmed_at = None
        plan.settings_confirmed_by = None
        plan.save(update_fields=["settings", "settings_confirmed_at", "settings_confirmed_by"])
        audit_record(
            event_type=AuditEventType.PLAN_READING_CHANGED,
            summary=f"{plan.key}: {name} changed",
            actor=actor,
            request=request,
            plan=plan.key,
            setting=name,
            old=old,
            new=value,
        )
    return plan


def plan_reset_reading(*, plan: Plan, name: str, actor, request=None) -> Plan:
    if not actor.is_administrator:
        raise PermissionDenied("Only an administrator changes a plan's readings.")
    with transaction.atomic():
        plan = Plan.objects.select_for_update().get(pk=plan.pk)
        if name not in plan.settings:
            return plan
        old = plan.settings[name]
        plan.settings = {k: v for k, v in plan.settings.items() if k != name}
        plan.settings_confirmed_at = None
        plan.settings_confirmed_by = None
        plan.save(update_fields=["settings", "settings_confirmed_at", "settings_confirmed_by"])
        audit_record(
            event_type=AuditEventType.PLAN_READING_CHANGED,
            summary=f"{plan.key}: {name} reset to the engine default",
            actor=actor,
            request=request,
            plan=plan.key,
            setting=name,
            old=old,
            new="(engine default)",
        )
    return plan


class PlanReadingsIncomplete(Exception):
    pass


def plan_confirm_settings(*, plan: Plan, actor, request=None) -> Plan:
    """An administrator confirms the plan's readings as a whole; a required reading must be set first."""
    if not actor.is_administrator:
        raise PermissionDenied("Only an administrator confirms a plan's readings.")
    missing = [r.name for r in plan_readings(plan) if r.unconfirmed]
    if missing:
        raise PlanReadingsIncomplete(
            "Set these readings before confirming (the plan text leaves them blank): " + ", ".join(missing)
        )
    with transaction.atomic():
        plan.settings_confirmed_at = timezone.now()
        plan.settings_confirmed_by = actor
        plan.save(update_fields=["settings_confirmed_at", "settings_confirmed_by"])
        audit_record(
            event_type=AuditEventType.PLAN_SETTINGS_CONFIRMED,
            summary=f"Plan readings of {plan.key} confirmed",
            actor=actor,
            request=request,
            plan=plan.key,
            settings=plan.settings,
        )
    return plan
