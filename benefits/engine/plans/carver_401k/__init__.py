"""The carver-401k plan: ``calculate()`` gives the contract result for one participant.

Service, vesting and retirement dates come from ``rules.core``; the plan's benefit figures from
``outputs.plan_outputs`` (written by the plan's benefit engineer).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from datetime import date
from typing import Any

from ...plan_support import resolve_settings, run_calculate
from ...types import Participant
from . import rules
from .rules import ServiceVestingSettings, core

PLAN_KEY = "carver-401k"


def settings_classes() -> dict[str, type]:
    """Settings groups the web app can list and edit: name → frozen dataclass."""
    classes: dict[str, type] = {"service_vesting": ServiceVestingSettings}
    try:
        benefit = importlib.import_module(f"{__name__}.settings")
    except ImportError:
        benefit = None
    cls = getattr(benefit, "BenefitSettings", None)
    if cls is not None:
        classes["benefits"] = cls
    return classes


def default_settings() -> dict[str, Any]:
    return resolve_settings(settings_classes(), None)


def calculate(
    participant: Participant,
    as_of: date,
    assumptions: Mapping[str, Any],
    settings: Mapping[str, Any] | None = None,
    *,
    detail: bool = False,
) -> dict:
    """The contract result for one participant (engine-cli.md).

    ``settings`` maps a group name of ``settings_classes()`` to an instance; missing groups
    take their defaults. ``detail`` adds the service breakdown and the trace.
    """
    from .outputs import plan_outputs

    resolved = resolve_settings(settings_classes(), settings)
    return run_calculate(participant, as_of, assumptions, resolved, core, plan_outputs, detail=detail)


__all__ = ["PLAN_KEY", "calculate", "core", "default_settings", "rules", "settings_classes"]
