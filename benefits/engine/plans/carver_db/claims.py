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
)
