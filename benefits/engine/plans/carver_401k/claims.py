"""The 401(k)'s claims article (Article X) and the notice it requires before in-service payments."""

from __future__ import annotations

from benefits.engine.claims import ELECTION_REASON, ClockRules, PlanClaimRules

CLAIM_RULES = PlanClaimRules(
    plan_key="carver-401k",
    article="Article X (§10.1–§10.8)",
    initial_decider="the Plan Administrator (§10.2)",
    review_decider="the Committee, independent of the Plan Administrator (§10.7)",
    # §10.3: 90 days, one extension to at most 180 days from receipt (A21); §10.6: 60-day appeal
    # window; §10.7–10.8: 60 days, one extension of up to 60.
    clock=ClockRules(90, (90,), 60, 60, (60,), 0, "Carver 401(k) Plan §10.3, §10.6–§10.8"),
    voting="single",  # §9.5: any one member's signature binds the Committee
    independent_review=True,  # §10.7
    payment_notice_days=10,  # §7.3, §7.4(a): ten days' prior written notice to the Committee
    election_required_types=frozenset(
        {"commencement", "withdrawal_59half", "hardship", "termination_distribution", "loan"}
    ),
    election_reason=ELECTION_REASON,
    # §10.5: no action in time and the claim is deemed denied (as 29 CFR 2560.503-1(l) provides).
    notes=("§7.2(a): spousal consent for loans, withdrawals and any form but the 50% J&S annuity",),
    sections=(
        ("after_separation", "§7.5: on Termination of Service"),
        ("payment_notice", "ten days' prior written notice to the Committee"),
        ("withdrawal", "§7.3"),
        ("withdrawal_maximum", "§7.3: your vested interest in the Net Value of your Accounts"),
        ("hardship", "§7.4(a)"),
        (
            "hardship_maximum",
            "§7.4(d)–(e): Before-Tax Contributions without earnings, Rollover, vested Matching and Discretionary",
        ),
        ("hardship_representation", "§7.4(c)(ii)"),
        ("hardship_evidence", "§7.4(c)"),
        ("claim_consent", "§7.2(a)"),
    ),
)
