"""The Quaker City plan's claims procedure (§6.6) and its committee's voting rule (§6.2)."""

from __future__ import annotations

from benefits.engine.claims import ELECTION_REASON, ClockRules, PlanClaimRules

CLAIM_RULES = PlanClaimRules(
    plan_key="quaker-cash-balance",
    article="§6.6",
    initial_decider="the claims official (§6.6(a))",
    review_decider="the review official (§6.6(e))",
    # §6.6(d) "90 days (or such longer period as may be reasonably necessary)": the regulation caps
    # it (GAP-8); §6.6(f) appeal window at least 60 days; §6.6(g) 60 days, extendable to 120.
    clock=ClockRules(90, (90,), 60, 60, (60,), 0, "Quaker City Plan §6.6(d), (f), (g)"),
    voting="majority_of_seats",  # §6.2(e): a majority of its members in office
    seats=3,  # §6.2: at least three members
    election_required_types=frozenset({"commencement", "lump_sum"}),
    election_reason=ELECTION_REASON,
    notes=("§5.11(a): spousal consent for every optional form, the lump sum included",),
    sections=(("after_separation", "§5.11(a)(iv): after Separation from Service"),),
    # §5.2, §5.5(a), §5.7(a): monthly payments "ending with the calendar month in which his death occurs";
    # §5.10(b), §5.11(a)(ii): the survivor's "beginning on the first day of the calendar month next
    # following the Participant's death"; §5.11(a)(iii): the remainder of the certain payments.
    death_last_payment="month_of_death",
    death_rule_source="§5.2, §5.10(b), §5.11(a)(ii)–(iii)",
)
