"""The fairport-esop plan (Fairport Savings Bank Employee Stock Ownership Plan): ``PLAN`` is its
``base.Plan``.

Service, vesting and retirement dates come from ``rules.core``; the plan's benefit figures from
``contract.plan_outputs``.
"""

from __future__ import annotations

from ..base import PackagePlan, PlanFeature, ShareAccounts
from . import rules, statement
from .claims import CLAIM_RULES
from .contract import plan_outputs
from .elections import ELECTION_RULES
from .rules import ServiceVestingSettings, core
from .settings import BenefitSettings

PLAN_KEY = "fairport-esop"
# The share-and-cash account statement both ESOPs use (F §8.6).
SHARE_ACCOUNTS = ShareAccounts(
    entry=statement.LedgerEntry, kinds=statement.KINDS, statement=statement.statement
)
PLAN = PackagePlan(
    key=PLAN_KEY,
    title="Fairport Savings Bank Employee Stock Ownership Plan",
    core=core,
    service_vesting=ServiceVestingSettings,
    benefit_settings=BenefitSettings,
    outputs=plan_outputs,
    claim_rules=CLAIM_RULES,
    election_rules=ELECTION_RULES,
    share_accounts=SHARE_ACCOUNTS,
    cash_out=PlanFeature("cash_out", "Fairport ESOP §10.1"),
    diversification=PlanFeature("diversification", "Fairport ESOP §6.4; Code §401(a)(28)(B)"),
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
