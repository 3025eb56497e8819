"""The plan registry: the contract's plan keys → plan packages (one package per plan).

Each package exposes ``calculate(participant, as_of, assumptions, settings=None) -> dict``,
``core(participant, as_of, settings) -> CoreResult`` and ``settings_classes()``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

PLANS: dict[str, str] = {
    "carver-db": "carver_db",
    "quaker-cash-balance": "quaker_cash_balance",
    "carver-401k": "carver_401k",
    "fairport-esop": "fairport_esop",
    "carver-esop": "carver_esop",
}


class UnknownPlan(KeyError):
    pass


def plan_keys() -> tuple[str, ...]:
    return tuple(PLANS)


def get_plan(key: str) -> ModuleType:
    """The plan package for a contract plan key (``UnknownPlan`` if there is none)."""
    try:
        name = PLANS[key]
    except KeyError:
        raise UnknownPlan(key) from None
    return importlib.import_module(f"{__name__}.{name}")


def settings_classes(key: str) -> dict[str, type]:
    """The settings groups of a plan (name → frozen dataclass), for the web app."""
    return get_plan(key).settings_classes()
