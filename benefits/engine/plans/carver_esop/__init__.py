"""The carver-esop plan (Carver Bancorp, Inc. Employee Stock Ownership Plan): ``PLAN`` is its
``base.Plan``.

Service, vesting and retirement dates come from ``rules.core``; the plan's benefit figures from
``contract.plan_outputs``.
"""

from __future__ import annotations

from ..base import PackagePlan, PlanFeature
from ..fairport_esop import SHARE_ACCOUNTS
from . import rules
from .claims import CLAIM_RULES
from .contract import plan_outputs
from .elections import ELECTION_RULES
from .rules import ServiceVestingSettings, core
from .settings import BenefitSettings

PLAN_KEY = "carver-esop"
PLAN = PackagePlan(
    key=PLAN_KEY,
    title="Carver Bancorp, Inc. Employee Stock Ownership Plan",
    core=core,
    service_vesting=ServiceVestingSettings,
    benefit_settings=BenefitSettings,
    outputs=plan_outputs,
    claim_rules=CLAIM_RULES,
    election_rules=ELECTION_RULES,
    share_accounts=SHARE_ACCOUNTS,  # the same share-and-cash ledger as the Fairport ESOP's
    cash_out=PlanFeature("cash_out", "Carver ESOP §10.6 (Sixth Amendment)"),
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
