"""Carver 401(k) election and consent rules (SPEC §6.4–§6.5)."""

from benefits.engine.beneficiaries import BeneficiaryRules
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

# SPEC §2.8, §6.5, §9.1: the Spouse is the Beneficiary of a married Participant unless the Spouse
# consents to another (§7.1(a)(i)(A), §7.2(a)(iv), §7.7(a)–(b)); naming another waives the
# Preretirement Death Benefit (§7.8(d)), so the age-35 waiver period applies (GAP-12: the plan is
# silent, the regulatory timing is used). No living designee and no Spouse: the estate (§7.7(f), GAP-18).
BENEFICIARY_RULES = BeneficiaryRules(
    default_order=(
        "Your spouse, if you are married when you die (§7.1(a)(i)(A), §7.8(b)(ii)).",
        "Otherwise your estate: the executor or administrator of your estate (§7.7(f)).",
    ),
    default_source="Plan §7.1(a)(i), §7.7(f)",
    spouse_default=True,
    consent_source="Plan §7.2(a)(iv), §7.7(a)–(b)",
    waives_qpsa=True,
)
