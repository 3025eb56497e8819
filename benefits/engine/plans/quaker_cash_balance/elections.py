"""Quaker City cash balance election and consent rules (SPEC §8.2, §9.2)."""

from typing import Any

from benefits.engine.beneficiaries import BeneficiaryRules
from benefits.engine.elections import ElectionRules


def _annuitant_person(person: dict[str, Any], birth_iso: str) -> None:
    """Price the joint forms on a Contingent Annuitant's life (§5.11(a)(ii)): the forms are Actuarial
    Equivalents of the life annuity on the two lives (§1.2(g)), the same whoever the survivor is."""
    person.setdefault("plan_data", {})["contingent_annuitant_birth_date"] = birth_iso
    if person.get("marital_status") == "married":
        person["spouse_birth_date"] = birth_iso


ELECTION_RULES = ElectionRules(
    period_days=90,  # §1.22: the Election Period begins 90 days before the ASD
    period_source="Plan §1.22",
    # §5.11(d): no Spousal Consent for a contingent annuitant form naming the Spouse; §5.10: the QJSA.
    consent_free_forms=frozenset({"js50", "js66", "js100"}),
    consent_source="Plan §5.10(g), §5.11(a)",
    single_sum_needs_consent=True,  # §5.11(a): every optional form, the lump sum included
    default_beneficiary="your spouse; otherwise as you designate (§5.17)",
    default_beneficiary_source="Plan §5.17",
    # §5.11(a)(ii), §1.13: a Contingent Annuitant may be any person designated under §5.17.
    annuitant_forms=frozenset({"js50", "js66", "js100"}),
    annuitant_source="Plan §5.11(a)(ii)",
    annuitant_person=_annuitant_person,
)

# SPEC §2.16, §9.2, §10.3: a Beneficiary is "a natural person properly designated" (§1.6); with no
# designation the Surviving Spouse, otherwise the heirs at law (§5.17(a)); a married Participant may
# not name anyone but the Spouse without Spousal Consent (§5.17(a), §5.10(g)), and doing so before
# retirement waives the survivor annuity (§5.12, §5.13): the age-35 waiver period applies.
BENEFICIARY_RULES = BeneficiaryRules(
    default_order=(
        "Your surviving spouse, if you are married when you die (§5.17(a)).",
        "Otherwise your heirs at law, as the administrator decides under the law of the state where you "
        "lived (§5.17(a)).",
    ),
    default_source="Plan §5.17(a)",
    spouse_default=True,
    consent_source="Plan §5.17(a), §5.13",
    waives_qpsa=True,
    natural_persons_only=True,
    natural_persons_source="Plan §1.6",
)
