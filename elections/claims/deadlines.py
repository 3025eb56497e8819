"""The ERISA claims clock (29 CFR 2560.503-1) and each plan's own claims article, as pure Python.

No Django here: the dates a claim is received, extended, tolled and decided go in, due dates come out,
so the arithmetic can be tested on its own and shown to the claimant exactly as it is applied.

Days are calendar days. A period of N days "after receipt" ends on receipt + N (the last day on which
the act is timely). A period tolled by a request for information stops on the day the request is sent
and restarts on the day the claimant answers (2560.503-1(f)(4)): the days in between are added.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import date, timedelta

DUE_SOON_DAYS = 14


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


def _stricter(dol: ClockRules, plan: ClockRules | None) -> ClockRules:
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
    election_required_types: frozenset[str] = field(default_factory=frozenset)
    election_reason: str = ""
    notes: tuple[str, ...] = ()

    def clock_for(self, *, disability: bool) -> ClockRules:
        return _stricter(DOL_DISABILITY if disability else DOL_STANDARD, self.clock)

    @property
    def votes_needed(self) -> int:
        return self.seats // 2 + 1 if self.voting == "majority_of_seats" else 1


_ELECTION_REASON = "election required: §417(a)(3) explanation and spousal consent"

# Keyed by the engine's plan key. Every entry cites the SPEC section it was read from.
PLAN_CLAIM_RULES: dict[str, PlanClaimRules] = {
    "carver-401k": PlanClaimRules(
        plan_key="carver-401k",
        article="Article X (§10.1–§10.8)",
        initial_decider="the Plan Administrator (§10.2)",
        review_decider="the Committee, independent of the Plan Administrator (§10.7)",
        # §10.3: 90 days, one extension to at most 180 days from receipt (A21); §10.6: 60-day appeal
        # window; §10.7–10.8: 60 days, one extension of up to 60.
        clock=ClockRules(90, (90,), 60, 60, (60,), 0, "Carver 401(k) Plan §10.3, §10.6–§10.8"),
        voting="single",  # §9.5: any one member's signature binds the Committee
        independent_review=True,  # §10.7
        election_required_types=frozenset(
            {"commencement", "withdrawal_59half", "hardship", "termination_distribution", "loan"}
        ),
        election_reason=_ELECTION_REASON,
        notes=("§7.2(a): spousal consent for loans, withdrawals and any form but the 50% J&S annuity",),
    ),
    "carver-db": PlanClaimRules(
        plan_key="carver-db",
        article="§13.7(A)–(B)",
        initial_decider="the Plan Administrator (§13.7(A))",
        review_decider="the Plan Administrator (§13.7(B))",
        clock=None,  # GAP-15: the plan states no deadlines; the regulation applies
        election_required_types=frozenset({"commencement"}),
        election_reason=_ELECTION_REASON,
    ),
    "quaker-cash-balance": PlanClaimRules(
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
        election_reason=_ELECTION_REASON,
        notes=("§5.11(a): spousal consent for every optional form, the lump sum included",),
    ),
    "fairport-esop": PlanClaimRules(
        plan_key="fairport-esop",
        article="Section 11 (§11.1–§11.3)",
        initial_decider="the Committee (§11.2, §12.1)",
        review_decider="the Committee (§11.3)",
        clock=ClockRules(90, (90,), 60, 60, (60,), 0, "Fairport ESOP §11.2, §11.3"),
        voting="majority_of_seats",  # §12.6: majority of all members appointed, vacancies included
        seats=3,  # §12.2: at least three individuals
        filing_lead_days=30,  # §11.1: filed at least 30 days before benefits are to begin
        election_required_types=frozenset(),  # A7.8: no spousal consent for a participant's own lump sum
    ),
    "carver-esop": PlanClaimRules(
        plan_key="carver-esop",
        article="the base plan's claims article (not provided: SPEC D2.1)",
        initial_decider="the Committee",
        review_decider="the Committee",
        clock=None,  # unknown plan terms: the regulation applies
    ),
}


def plan_rules(plan_key: str) -> PlanClaimRules:
    """The plan's claims rules; a plan not listed gets the regulation and a single decider."""
    return PLAN_CLAIM_RULES.get(
        plan_key,
        PlanClaimRules(
            plan_key=plan_key,
            article="the plan's claims procedure",
            initial_decider="the Committee",
            review_decider="the Committee",
        ),
    )


# ------------------------------------------------------------------------------------------ periods


@dataclass(frozen=True)
class Toll:
    """A request for information: the clock stops on ``start`` and restarts on ``end`` (the answer)."""

    start: date
    end: date | None = None


def tolled_days(tolls: Iterable[Toll], *, today: date) -> int:
    """Days the clock stood still. An open request counts up to ``today``."""
    total = 0
    for t in tolls:
        end = t.end if t.end is not None else today
        total += max(0, (end - t.start).days)
    return total


@dataclass(frozen=True)
class Clock:
    """One decision period (the initial decision or the decision on review)."""

    received: date
    base_days: int
    allowed_extensions: tuple[int, ...]
    extensions: tuple[int, ...] = ()  # days added by each extension taken
    tolls: tuple[Toll, ...] = ()

    @property
    def paused(self) -> bool:
        return any(t.end is None for t in self.tolls)

    def due(self, *, today: date) -> date:
        """The last day for the decision. While paused, the due date moves on with each day of waiting."""
        days = self.base_days + sum(self.extensions) + tolled_days(self.tolls, today=today)
        return self.received + timedelta(days=days)

    @property
    def outer_limit_days(self) -> int:
        return self.base_days + sum(self.allowed_extensions)

    def can_extend(self) -> bool:
        return len(self.extensions) < len(self.allowed_extensions)

    def next_extension_days(self) -> int:
        if not self.can_extend():
            raise ExtensionRefused("No further extension is allowed for this decision.")
        return self.allowed_extensions[len(self.extensions)]

    def extend(self, *, notice_sent: date, days: int, today: date) -> Clock:
        """Take an extension. The notice must be sent before the period running now ends, and no
        extension may add more than the rule allows (2560.503-1(f)(1), (f)(3), (i)(1))."""
        if not self.can_extend():
            raise ExtensionRefused("No further extension is allowed for this decision.")
        most = self.next_extension_days()
        if not 0 < days <= most:
            raise ExtensionRefused(f"This extension may add at most {most} days.")
        current_due = self.due(today=notice_sent)
        if notice_sent > current_due:
            raise ExtensionRefused(
                f"The extension notice must be sent by {current_due:%B %-d, %Y}, before the period ends."
            )
        return replace(self, extensions=(*self.extensions, days))

    def toll(self, *, start: date) -> Clock:
        if self.paused:
            raise ValueError("The clock is already stopped for a request for information.")
        return replace(self, tolls=(*self.tolls, Toll(start)))

    def resume(self, *, on: date) -> Clock:
        if not self.paused:
            raise ValueError("The clock is running.")
        open_toll = self.tolls[-1]
        if on < open_toll.start:
            raise ValueError("The answer cannot come before the request.")
        return replace(self, tolls=(*self.tolls[:-1], Toll(open_toll.start, on)))


class ExtensionRefused(ValueError):
    pass


def appeal_deadline(notice_received: date, rules: ClockRules) -> date:
    """The last day to appeal: at least the window after the claimant receives the denial (A22: the day
    of electronic delivery)."""
    return notice_received + timedelta(days=rules.appeal_window_days)


def earliest_commencement_for_filing(filed: date, rules: PlanClaimRules) -> date:
    """The first benefit start date a claim filed on ``filed`` can ask for (Fairport §11.1: 30 days)."""
    return filed + timedelta(days=rules.filing_lead_days)


def flag(due: date | None, *, today: date) -> str:
    """ "overdue", "due_soon" (within 14 days) or "" for a clock; "" when there is no clock."""
    if due is None:
        return ""
    if today > due:
        return "overdue"
    if (due - today).days <= DUE_SOON_DAYS:
        return "due_soon"
    return ""
