"""The Carver DB plan's claims procedure (§13.7)."""

from __future__ import annotations

from benefits.engine.claims import ELECTION_REASON, PlanClaimRules

CLAIM_RULES = PlanClaimRules(
    plan_key="carver-db",
    article="§13.7(A)–(B)",
    initial_decider="the Plan Administrator (§13.7(A))",
    review_decider="the Plan Administrator (§13.7(B))",
    clock=None,  # GAP-15: the plan states no deadlines; the regulation applies
    election_required_types=frozenset({"commencement"}),
    election_reason=ELECTION_REASON,
    # The plan pays "in a level amount during his lifetime and ... after his death, no further payment"
    # (§7.2) and starts a survivor's or beneficiary's payments "on the first day of the month next
    # following the Participant's death" (§8.1, §8.2); it does not say whether the month of death is paid.
    # Read as the month of death (its first-of-month payment fell due while the payee lived), as Quaker's
    # §5.2 states outright: docs/plan-notes/carver-db/payments-after-death.md.
    death_last_payment="month_of_death",
    death_rule_source="§7.2, §8.1, §8.2; the plan is silent on the month of death, read as paid",
)
