"""The Fairport ESOP's claims procedure (Section 11) and its committee's voting rule (§12.6)."""

from __future__ import annotations

from benefits.engine.claims import ClockRules, PlanClaimRules

CLAIM_RULES = PlanClaimRules(
    plan_key="fairport-esop",
    article="Section 11 (§11.1–§11.3)",
    initial_decider="the Committee (§11.2, §12.1)",
    review_decider="the Committee (§11.3)",
    clock=ClockRules(90, (90,), 60, 60, (60,), 0, "Fairport ESOP §11.2, §11.3"),
    voting="majority_of_seats",  # §12.6: majority of all members appointed, vacancies included
    seats=3,  # §12.2: at least three individuals
    # §12.12: a Committee member who is a Participant takes no part in a determination on his own
    # benefits (the web app bars it for every plan).
    filing_lead_days=30,  # §11.1: filed at least 30 days before benefits are to begin
    # §10.1, §10.6: the Participant elects the payment date and whether all is paid in Stock, and the
    # direct rollover and withholding (§10.9; Code §3405). A7.8: no spousal consent to his own lump sum.
    election_required_types=frozenset({"esop_distribution"}),
    election_reason="election required: the distribution's form, rollover and withholding",
)
