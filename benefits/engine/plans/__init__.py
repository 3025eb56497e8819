"""The plan registry: the contract's plan keys → plan objects (one package per plan, each exporting
``PLAN``, a ``base.Plan``).

Callers outside ``benefits/engine/plans/`` use ``get_plan(key)`` and the protocol; they never import a
plan package.
"""

from __future__ import annotations

from .base import Plan
from .carver_401k import PLAN as CARVER_401K
from .carver_db import PLAN as CARVER_DB
from .carver_esop import PLAN as CARVER_ESOP
from .fairport_esop import PLAN as FAIRPORT_ESOP
from .quaker_cash_balance import PLAN as QUAKER_CASH_BALANCE

PLANS: dict[str, Plan] = {
    plan.key: plan for plan in (CARVER_DB, QUAKER_CASH_BALANCE, CARVER_401K, FAIRPORT_ESOP, CARVER_ESOP)
}


class UnknownPlan(KeyError):
    pass


def plan_keys() -> tuple[str, ...]:
    return tuple(PLANS)


def get_plan(key: str) -> Plan:
    """The plan for a contract plan key (``UnknownPlan`` if there is none)."""
    try:
        return PLANS[key]
    except KeyError:
        raise UnknownPlan(key) from None


def settings_classes(key: str) -> dict[str, type]:
    """The settings groups of a plan (name → frozen dataclass), for the web app."""
    return get_plan(key).settings_classes()


__all__ = ["PLANS", "Plan", "UnknownPlan", "get_plan", "plan_keys", "settings_classes"]
