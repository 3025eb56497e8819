"""The plan registry: the contract's plan keys → plan objects (one package per plan, each exporting
``PLAN``, a ``base.Plan``).

Callers outside ``benefits/engine/plans/`` use ``get_plan(key)`` and the protocol; they never import a
plan package. A plan's package is imported the first time its key is looked up, so a command-line
run for one plan loads that plan's code alone (about a third of the interpreter's start-up otherwise).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, MutableMapping

from .base import Plan

# contract key → package under benefits/engine/plans/, in the contract's order
_PACKAGES = {
    "carver-db": "carver_db",
    "quaker-cash-balance": "quaker_cash_balance",
    "carver-401k": "carver_401k",
    "fairport-esop": "fairport_esop",
    "carver-esop": "carver_esop",
}


class _Registry(MutableMapping[str, Plan]):
    """The five plans by key, each imported on first use. Assignable (tests and benchmarks swap a
    plan's outputs for a stub); the keys are always the contract's five."""

    def __init__(self) -> None:
        self._plans: dict[str, Plan] = {}

    def __getitem__(self, key: str) -> Plan:
        plan = self._plans.get(key)
        if plan is None:
            package = _PACKAGES[key]  # KeyError for an unknown key, as a dict would
            plan = importlib.import_module(f"{__name__}.{package}").PLAN
            if plan.key != key:
                raise RuntimeError(f"package {package} declares plan {plan.key!r}, registered as {key!r}")
            self._plans[key] = plan
        return plan

    def __setitem__(self, key: str, plan: Plan) -> None:
        if key not in _PACKAGES:
            raise KeyError(key)
        self._plans[key] = plan

    def __delitem__(self, key: str) -> None:  # back to the package's own plan on the next lookup
        if key not in _PACKAGES:
            raise KeyError(key)
        self._plans.pop(key, None)

    def __iter__(self) -> Iterator[str]:
        return iter(_PACKAGES)

    def __len__(self) -> int:
        return len(_PACKAGES)

    def __contains__(self, key: object) -> bool:
        return key in _PACKAGES


PLANS: MutableMapping[str, Plan] = _Registry()


class UnknownPlan(KeyError):
    pass


def plan_keys() -> tuple[str, ...]:
    return tuple(_PACKAGES)


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
