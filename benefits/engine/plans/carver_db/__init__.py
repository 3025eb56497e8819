"""The carver-db plan (Carver Federal Savings Bank Retirement Income Plan): ``PLAN`` is its ``base.Plan``.

Service, vesting and retirement dates come from ``rules.core``; the plan's benefit figures from
``contract.plan_outputs``.
"""

from __future__ import annotations

from ..base import GridPricing, PackagePlan, PlanFeature
from . import rules
from .claims import CLAIM_RULES
from .contract import plan_outputs
from .dates import grid_outputs
from .elections import ELECTION_RULES
from .grid import price_grid
from .market_needs import market_needs
from .rules import ServiceVestingSettings, core
from .settings import BenefitSettings

PLAN_KEY = "carver-db"
PLAN = PackagePlan(
    key=PLAN_KEY,
    title="Carver Federal Savings Bank Retirement Income Plan",
    core=core,
    service_vesting=ServiceVestingSettings,
    benefit_settings=BenefitSettings,
    outputs=plan_outputs,
    claim_rules=CLAIM_RULES,
    election_rules=ELECTION_RULES,
    grid=GridPricing(
        lambda p, as_of, assumptions, core=None: price_grid(p, as_of, core), outputs=grid_outputs
    ),
    cash_out=PlanFeature("cash_out", "§13.7(G)"),
    market_needs=market_needs,
)
settings_classes = PLAN.settings_classes
default_settings = PLAN.default_settings
calculate = PLAN.calculate
core_result = PLAN.core_result

__all__ = [
    "PLAN",
    "PLAN_KEY",
    "calculate",
    "core",
    "core_result",
    "default_settings",
    "rules",
    "settings_classes",
]
