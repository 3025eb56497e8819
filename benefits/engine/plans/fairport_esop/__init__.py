"""The fairport-esop plan (Fairport Savings Bank Employee Stock Ownership Plan): ``PLAN`` is its
``base.Plan``.

Service, vesting and retirement dates come from ``rules.core``; the plan's benefit figures from
``contract.plan_outputs``.
"""

from __future__ import annotations

from ..base import DiversificationProgram, PackagePlan, PlanFeature, ShareAccounts
from . import rules, statement
from .claims import CLAIM_RULES
from .contract import plan_outputs
from .elections import BENEFICIARY_RULES, ELECTION_RULES
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
    beneficiary_rules=BENEFICIARY_RULES,
    share_accounts=SHARE_ACCOUNTS,
    cash_out=PlanFeature("cash_out", "Fairport ESOP §10.1"),
    diversification=DiversificationProgram(
        "diversification",
        "Fairport ESOP §6.4; Code §401(a)(28)(B)",
        # §6.4-1 to §6.4-3: the Committee chooses among these methods.
        methods=(
            "paying the amount you elect to diversify to you as a distribution (§6.4-1)",
            "moving it into at least three other investment options in the plan, where the plan offers "
            "them (§6.4-2)",
            "transferring it to another of the employer's retirement plans that offers at least three "
            "investment options (§6.4-3)",
        ),
        completion="The plan carries out your election within 90 days after the election period closes (§6.4).",
        election_sections="§6.4 of the plan; Internal Revenue Code §401(a)(28)(B)",
    ),
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
