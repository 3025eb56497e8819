"""The quaker-cash-balance plan: ``calculate()`` gives the contract result for one participant.

Service, vesting and retirement dates come from ``rules.core``; the plan's benefit figures from
``outputs.plan_outputs``.
"""

from __future__ import annotations

from ...plan_support import PlanAPI
from . import rules
from .rules import ServiceVestingSettings, core

PLAN_KEY = "quaker-cash-balance"
_API = PlanAPI(__name__, core, ServiceVestingSettings)
settings_classes = _API.settings_classes
default_settings = _API.default_settings
calculate = _API.calculate
core_result = _API.core_result

__all__ = ["PLAN_KEY", "calculate", "core", "core_result", "default_settings", "rules", "settings_classes"]
