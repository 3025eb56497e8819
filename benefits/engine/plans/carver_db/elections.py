"""Carver DB election and consent rules (SPEC §9.2–§9.3)."""

from benefits.engine.elections import ElectionRules

ELECTION_RULES = ElectionRules(
    # §7.5: "during the ninety (90) day period before his Retirement Date" (the plan keeps 90 days,
    # inside the 180 the statute now allows: GAP-13).
    period_days=90,
    period_source="Plan §7.5",
    # §7.1: 66-2/3% or 100% continuation to the Spouse "will not require spousal consent".
    consent_free_forms=frozenset({"js50", "js66", "js100"}),
    consent_source="Plan §7.6",
    single_sum_needs_consent=False,  # the only single sum is the mandatory small-benefit cash-out (§7.8)
    default_beneficiary="your spouse (§1.1(E)); otherwise as you designate",
    default_beneficiary_source="Plan §1.1(E)",
)
