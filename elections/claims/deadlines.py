"""The ERISA claims clock (29 CFR 2560.503-1) and each plan's own claims article, as pure Python.

No Django here: the dates a claim is received, extended, tolled and decided go in, due dates come out,
so the arithmetic can be tested on its own and shown to the claimant exactly as it is applied.

Days are calendar days. A period of N days "after receipt" ends on receipt + N (the last day on which
the act is timely). A period tolled by a request for information stops on the day the request is sent
and restarts on the day the claimant answers (2560.503-1(f)(4)): the days in between are added.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date, timedelta

from benefits.engine.claims import (  # noqa: F401 (the regulation's periods, re-exported)
    DOL_DISABILITY,
    DOL_STANDARD,
    ClockRules,
    PlanClaimRules,
    stricter,
)
from benefits.engine.plans import PLANS

DUE_SOON_DAYS = 14


# The regulation's periods and the shape of a plan's claims article live in the engine; each plan
# package states its own article (``Plan.claim_rules``).
_stricter = stricter
PLAN_CLAIM_RULES: dict[str, PlanClaimRules] = {
    key: plan.claim_rules for key, plan in PLANS.items() if plan.claim_rules is not None
}


def most_information_days(rules: ClockRules, *, review: bool) -> int:
    """The latest answer-by date a request for information may give, in days after the request: the
    whole period the regulation allows for the decision, extensions included (2560.503-1(f)(1),
    (f)(3), (i)(1), (i)(3)). A later date would hold the claim's clock stopped past any decision the
    regulation permits; never less than the least time the claimant must be given."""
    days = (
        rules.review_days + sum(rules.review_extensions)
        if review
        else rules.initial_days + sum(rules.initial_extensions)
    )
    return max(days, rules.min_information_days)


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
