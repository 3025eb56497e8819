"""Fairport ESOP election rules (SPEC A7.7–A7.8): a lump-sum plan outside §§401(a)(11) and 417."""

from benefits.engine.elections import ElectionRules

ELECTION_RULES = ElectionRules(
    qjsa_applies=False,  # §10.10: §§401(a)(11) and 417 do not apply
    single_sum_needs_consent=False,  # A7.8 ASSUMPTION: no consent for the participant's own lump sum
    consent_source="Plan A9 (beneficiary designation only)",
    default_beneficiary="your spouse; otherwise as you designate (A9)",
)
