"""Carver DB election and consent rules (SPEC §9.2–§9.3)."""

from typing import Any

from benefits.engine.elections import ElectionRules


def _annuitant_person(person: dict[str, Any], birth_iso: str) -> None:
    """Price the joint forms on a Contingent Pensioner's life (§8.1). Table A prices the J&S form and
    the Contingent Pensioner Option with the same factors (SPEC §8), so for a married participant the
    annuitant's birth date simply stands in for the spouse's."""
    person.setdefault("plan_data", {})["contingent_pensioner_birth_date"] = birth_iso
    if person.get("marital_status") == "married":
        person["spouse_birth_date"] = birth_iso


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
    # §8.1: 100%, 66-2/3% or 50% continues to a non-Spouse Contingent Pensioner.
    annuitant_forms=frozenset({"js50", "js66", "js100"}),
    annuitant_source="Plan §8.1",
    annuitant_person=_annuitant_person,
)
