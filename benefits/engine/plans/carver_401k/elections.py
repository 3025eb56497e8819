"""Carver 401(k) election and consent rules (SPEC §6.4–§6.5)."""

from benefits.engine.elections import ElectionRules

ELECTION_RULES = ElectionRules(
    period_days=90,  # §7.5(c): "the ninety (90) day election period ending on the date ..."
    period_source="Plan §7.5(c)",
    # §7.2(a)(i), ASSUMPTION A11: consent for every form except the 50% J&S annuity with the spouse.
    consent_free_forms=frozenset({"js50"}),
    consent_source="Plan §7.2(a)",
    single_sum_needs_consent=True,
    default_beneficiary="your spouse (§7.1(a)(i)(A)); otherwise as you designate",
    default_beneficiary_source="Plan §7.1(a)(i)",
)
