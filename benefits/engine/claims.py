"""The ERISA claims clock's periods (29 CFR 2560.503-1) and the shape of a plan's claims article.

Pure data: each plan package states its own ``PlanClaimRules`` (read from its plan document, see
docs/plan-notes/<plan>/) and the web app's claims clock (``elections``) applies them. The regulation's
periods are here because a plan's periods are only ever the stricter of the two.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class ClockRules:
    """The periods for one kind of claim. ``initial_extensions`` is a tuple: one entry per extension
    the rule allows, each the most days that extension may add."""

    initial_days: int
    initial_extensions: tuple[int, ...]
    appeal_window_days: int
    review_days: int
    review_extensions: tuple[int, ...]
    min_information_days: int  # the least time a claimant must be given to answer a request
    source: str


# 2560.503-1(f)(1), (h)(2)(i), (i)(1)(i): pension claims.
DOL_STANDARD = ClockRules(
    initial_days=90,
    initial_extensions=(90,),
    appeal_window_days=60,
    review_days=60,
    review_extensions=(60,),
    min_information_days=0,
    source="29 CFR 2560.503-1(f)(1), (h)(2)(i), (i)(1)(i)",
)

# 2560.503-1(f)(3), (h)(4), (i)(3): a claim whose decision rests on a determination of disability.
DOL_DISABILITY = ClockRules(
    initial_days=45,
    initial_extensions=(30, 30),
    appeal_window_days=180,
    review_days=45,
    review_extensions=(45,),
    min_information_days=45,
    source="29 CFR 2560.503-1(f)(3), (h)(4), (i)(3)",
)


def stricter(dol: ClockRules, plan: ClockRules | None) -> ClockRules:
    """The stricter of the regulation and the plan's own article: shorter decision periods, shorter
    extensions, fewer extensions, and the longer appeal window (the claimant's time is never cut)."""
    if plan is None:
        return dol

    def ext(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
        n = min(len(a), len(b))
        return tuple(min(x, y) for x, y in zip(a[:n], b[:n], strict=True))

    return ClockRules(
        initial_days=min(dol.initial_days, plan.initial_days),
        initial_extensions=ext(dol.initial_extensions, plan.initial_extensions),
        appeal_window_days=max(dol.appeal_window_days, plan.appeal_window_days),
        review_days=min(dol.review_days, plan.review_days),
        review_extensions=ext(dol.review_extensions, plan.review_extensions),
        min_information_days=max(dol.min_information_days, plan.min_information_days),
        source=f"{dol.source}; {plan.source}",
    )


@dataclass(frozen=True)
class PlanClaimRules:
    """One plan's claims article, read from its SPEC. ``clock`` is the plan's own periods where it sets
    any (None: the regulation alone). Voting: "single" (any one member acts for the committee) or
    "majority_of_seats" (the affirmative votes of a majority of all seats, vacancies included)."""

    plan_key: str
    article: str
    initial_decider: str
    review_decider: str
    clock: ClockRules | None = None
    voting: str = "single"
    seats: int = 1
    independent_review: bool = False
    filing_lead_days: int = 0  # a claim to start benefits must be filed this many days before the start
    # Days of prior written notice before a requested in-service payment date (0: none required).
    payment_notice_days: int = 0
    election_required_types: frozenset[str] = field(default_factory=frozenset)
    election_reason: str = ""
    notes: tuple[str, ...] = ()
    # After a payee's death (payments.deaths): the last payment due is the one for the month of death
    # ("month_of_death": the first-of-month payment of that month, made while the payee lived) or the
    # month before ("month_before"); what continues starts on the first day of the month next following
    # the death. ``death_rule_source`` cites the plan's words (or says where the plan is silent).
    death_last_payment: str = "month_of_death"
    death_rule_source: str = ""
    # The plan's own citations for the rules a claim is checked against, keyed by rule (the web app
    # prints them and names no section of its own): "after_separation", "payment_notice",
    # "withdrawal", "withdrawal_maximum", "hardship_first", "hardship_maximum",
    # "hardship_representation", "hardship_evidence", "claim_consent". Each is the section, and may
    # carry the plan's words after a colon.
    sections: tuple[tuple[str, str], ...] = ()

    def section(self, rule: str, default: str = "the plan's rules") -> str:
        return dict(self.sections).get(rule, default)

    def clock_for(self, *, disability: bool) -> ClockRules:
        return stricter(DOL_DISABILITY if disability else DOL_STANDARD, self.clock)

    @property
    def votes_needed(self) -> int:
        return self.seats // 2 + 1 if self.voting == "majority_of_seats" else 1


# The reason a claim needs a benefit election first (the §417(a)(3) explanation and spousal consent).
ELECTION_REASON = "election required: §417(a)(3) explanation and spousal consent"
