"""The Carver ESOP's claims procedure: the base plan's article was not provided (SPEC D2.1)."""

from __future__ import annotations

from benefits.engine.claims import PlanClaimRules

CLAIM_RULES = PlanClaimRules(
    plan_key="carver-esop",
    article="the base plan's claims article (not provided: SPEC D2.1)",
    initial_decider="the Committee",
    review_decider="the Committee",
    clock=None,  # unknown plan terms: the regulation applies
    # §10.6(a) (Sixth Amendment): on a form the Plan Administrator prescribes, cash or shares, paid
    # directly or by direct rollover; the distribution waits for that election.
    election_required_types=frozenset({"esop_distribution"}),
    election_reason="election required: the distribution's form, rollover and withholding",
)
