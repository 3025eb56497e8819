"""Plan readings: the engine's named settings for each GAP in a plan's text, seen and changed by administrators.

The engine declares every reading (``benefits.engine.settings.setting``) with its plan section, GAP
number, default and the other reading. ``Plan.settings`` stores only the values an administrator chose;
everything else is the engine's default. Changing a reading clears the plan's confirmation.
"""

from __future__ import annotations

import json
import typing
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.core.exceptions import PermissionDenied
from django.db import transaction

from benefits.audit import audit_record
from benefits.engine.plans import settings_classes
from benefits.engine.settings import SettingError, describe, override
from benefits.models import Plan
from benefits.portal.plain import people_date, plain_text
from benefits.portal.reading_words import reading_label, value_label


@dataclass(frozen=True)
class Reading:
    group: str
    name: str
    type_name: str
    default: object
    value: object
    overridden: bool
    section: str
    gap: str
    alternative: str
    help: str
    required: bool
    choices: tuple[str, ...]  # for a fixed set of readings

    @property
    def unconfirmed(self) -> bool:
        return self.required and self.value is None

    @property
    def value_text(self) -> str:
        return _text(self.value)

    # What people read (the engine's names and analysts' labels stay in the code).
    @property
    def label(self) -> str:
        return reading_label(self.name)

    @property
    def explanation(self) -> str:
        return plain_text(self.help)

    @property
    def other_reading(self) -> str:
        text = self.alternative
        head, sep, rest = text.partition(":")
        if sep and head.strip() in (*self.choices, "true", "false"):
            text = f"{value_label(head.strip())}:{rest}"
        return plain_text(text)

    @property
    def value_words(self) -> str:
        return _words(self.value)

    @property
    def default_words(self) -> str:
        return _words(self.default)

    @property
    def input_hint(self) -> str:
        """What to type, in words (the engine's type, never shown as a Python type)."""
        t = self.type_name.replace(" ", "")
        blank = " Leave blank to clear it." if "None" in t else ""
        if t.startswith("datetime.date"):
            return "A date, for example 2000-12-31." + blank
        if t.startswith(("Decimal", "decimal")):
            return "A number, for example 5000 or 0.08." + blank
        if t.startswith("int"):
            return "A whole number." + blank
        if t.startswith("tuple"):
            return "A list in brackets, for example [1999, 2000], or [] for none."
        return "A value." + blank

    @property
    def default_text(self) -> str:
        return _text(self.default)


def _text(value: object) -> str:
    if value is None:
        return "not set"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Decimal | date):
        return str(value)
    if isinstance(value, tuple | list):
        return json.dumps([_plain(v) for v in value])
    return str(value)


def _words(value: object) -> str:
    if value is None:
        return "not set"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, date):
        return people_date(value)
    if isinstance(value, tuple | list):
        return ", ".join(_words(v) for v in value) if value else "none"
    if isinstance(value, str):
        return value_label(value)
    return str(value)


def _plain(value: object) -> object:
    if isinstance(value, Decimal | date):
        return str(value)
    return value


def _choices(cls: type, name: str) -> tuple[str, ...]:
    hint = typing.get_type_hints(cls)[name]
    if typing.get_origin(hint) is typing.Literal:
        return tuple(str(a) for a in typing.get_args(hint))
    if hint is bool:
        return ("true", "false")
    return ()


def plan_readings(plan: Plan) -> list[Reading]:
    rows = []
    for group, cls in settings_classes(plan.key).items():
        for row in describe(cls):
            name = row["name"]
            overridden = name in plan.settings
            value = (
                getattr(override(cls(), {name: plan.settings[name]}), name) if overridden else row["default"]
            )
            rows.append(
                Reading(
                    group=group,
                    name=name,
                    type_name=row["type"],
                    default=row["default"],
                    value=value,
                    overridden=overridden,
                    section=row.get("section", ""),
                    gap=row.get("gap", ""),
                    alternative=row.get("alternative", ""),
                    help=row.get("help", ""),
                    required=row.get("required", False),
                    choices=_choices(cls, name),
                )
            )
    return rows


def parse_reading_input(text: str) -> object:
    """Administrators type JSON-like values: 5, true, "elapsed", [1999, 2000], 2.5, 2000-12-31."""
    text = text.strip()
    if text in ("true", "false"):
        return text == "true"
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
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
            event_type="plan.reading_changed",
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
            event_type="plan.reading_changed",
            summary=f"{plan.key}: {name} reset to the engine default",
            actor=actor,
            request=request,
            plan=plan.key,
            setting=name,
            old=old,
            new="(engine default)",
        )
    return plan
