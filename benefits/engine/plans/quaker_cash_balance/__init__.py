"""The quaker-cash-balance plan (Quaker City Bank Employees' Retirement Income Plan): ``PLAN`` is its
``base.Plan``.

Service, vesting and retirement dates come from ``rules.core``; the plan's benefit figures from
``contract.plan_outputs``.
"""

from __future__ import annotations

from ..base import GridPricing, LedgerStatements, PackagePlan, PlanFeature
from . import rules
from .account import statement
from .claims import CLAIM_RULES
from .contract import plan_outputs
from .dates import grid_outputs
from .elections import BENEFICIARY_RULES, ELECTION_RULES
from .grid import price_grid
from .market_needs import market_needs
from .rules import ServiceVestingSettings, core
from .settings import BenefitSettings

PLAN_KEY = "quaker-cash-balance"
PLAN = PackagePlan(
    key=PLAN_KEY,
    title="Quaker City Bank Employees' Retirement Income Plan",
    core=core,
    service_vesting=ServiceVestingSettings,
    benefit_settings=BenefitSettings,
    outputs=plan_outputs,
    claim_rules=CLAIM_RULES,
    election_rules=ELECTION_RULES,
    beneficiary_rules=BENEFICIARY_RULES,
    grid=GridPricing(price_grid, outputs=grid_outputs),
    ledger=LedgerStatements(statement),
    cash_out=PlanFeature("cash_out", "§5.16"),
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
