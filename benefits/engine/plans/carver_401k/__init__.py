"""The carver-401k plan (Carver Federal Savings Bank 401(k) Savings Plan): ``PLAN`` is its ``base.Plan``.

Service, vesting and retirement dates come from ``rules.core``; the plan's benefit figures from
``contract.plan_outputs``.
"""

from __future__ import annotations

from ..base import ContributionRules, PackagePlan, PlanFeature, SourceAccounts
from . import rules, statement
from .claims import CLAIM_RULES
from .contract import plan_outputs
from .contributions import match_source, period_match, year_contributions
from .deferral_changes import DEFERRALS
from .distributions import ACCOUNT_DISTRIBUTIONS
from .elections import BENEFICIARY_RULES, ELECTION_RULES
from .hardship import HARDSHIP
from .loans import LOANS
from .payment_orders import PAYMENT_ORDERS
from .rules import ServiceVestingSettings, core
from .settings import DEFAULT_SETTINGS, BenefitSettings

PLAN_KEY = "carver-401k"
PLAN = PackagePlan(
    key=PLAN_KEY,
    title="Carver Federal Savings Bank 401(k) Savings Plan",
    core=core,
    service_vesting=ServiceVestingSettings,
    benefit_settings=BenefitSettings,
    outputs=plan_outputs,
    core_uses_benefit_settings=True,  # which sources the §4.1 schedule covers is a benefit setting
    claim_rules=CLAIM_RULES,
    election_rules=ELECTION_RULES,
    beneficiary_rules=BENEFICIARY_RULES,
    account_distributions=ACCOUNT_DISTRIBUTIONS,
    loans=LOANS,
    payment_orders=PAYMENT_ORDERS,
    deferrals=DEFERRALS,
    hardship=HARDSHIP,
    source_accounts=SourceAccounts(
        kinds=statement.Kind,
        transaction=statement.Transaction,
        statement=statement.account_statement,
        settings_class=BenefitSettings,
        default_settings=DEFAULT_SETTINGS,
    ),
    contributions=ContributionRules(year_contributions, period_match, match_source),
    cash_out=PlanFeature("cash_out", "§7.5(g)"),
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
