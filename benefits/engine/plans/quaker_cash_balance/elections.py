"""Quaker City cash balance election and consent rules (SPEC §8.2, §9.2)."""

from benefits.engine.elections import ElectionRules

ELECTION_RULES = ElectionRules(
    period_days=90,  # §1.22: the Election Period begins 90 days before the ASD
    period_source="Plan §1.22",
    # §5.11(d): no Spousal Consent for a contingent annuitant form naming the Spouse; §5.10: the QJSA.
    consent_free_forms=frozenset({"js50", "js66", "js100"}),
    consent_source="Plan §5.10(g), §5.11(a)",
    single_sum_needs_consent=True,  # §5.11(a): every optional form, the lump sum included
    default_beneficiary="your spouse; otherwise as you designate (§5.17)",
    default_beneficiary_source="Plan §5.17",
)
