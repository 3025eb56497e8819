"""Fairport ESOP election rules (SPEC A7.7–A7.8): a lump-sum plan outside §§401(a)(11) and 417."""

from benefits.engine.beneficiaries import BeneficiaryRules
from benefits.engine.elections import ElectionRules

ELECTION_RULES = ElectionRules(
    qjsa_applies=False,  # §10.10: §§401(a)(11) and 417 do not apply
    single_sum_needs_consent=False,  # A7.8 ASSUMPTION: no consent for the participant's own lump sum
    consent_source="Plan A9 (beneficiary designation only)",
    default_beneficiary="your spouse; otherwise as you designate (A9)",
)

# SPEC A9: with no designation, or no designated Beneficiary alive, "his surviving Spouse, if any, or his
# estate" (F §2 "Beneficiary"); no married Participant's designation of anyone else is valid without the
# Spouse's written, witnessed consent (§10.2-4). The plan is outside §401(a)(11) (§10.10): no QPSA, so
# no age-35 period.
BENEFICIARY_RULES = BeneficiaryRules(
    default_order=(
        "Your surviving spouse, if you are married when you die (Plan §2, “Beneficiary”).",
        "Otherwise your estate (Plan §2, “Beneficiary”).",
    ),
    default_source="Plan §2 (Beneficiary)",
    spouse_default=True,
    consent_source="Plan §10.2-4",
)
