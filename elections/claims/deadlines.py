"""The ERISA claims clock (29 CFR 2560.503-1) and each plan's own claims article, as pure Python.

No Django here: the dates a claim is received, extended, tolled and decided go in, due dates come out,
so the arithmetic can be tested on its own and shown to the claimant exactly as it is applied.

Days are calendar days. A period of N days "after receipt" ends on receipt + N (the last day on which
the act is timely). The period runs from receipt whether or not the claim came with everything needed
(2560.503-1(f)(4)). It stops only when the plan extends it because the claimant did not submit the
information needed to decide, from the day that extension notice is sent until the claimant answers
((f)(4); (i)(4) on review): a request for information without an extension leaves the clock running.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date, timedelta

from benefits import formatting
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
class InformationRequest:
    """A request for information sent on ``start`` and answered on ``end`` (None: not yet answered).

    Only a request sent with an extension notice because the claimant did not submit information needed
    to decide the claim stops the clock (``tolls``): 2560.503-1(f)(4) for the initial decision and
    (i)(4) on review toll the period "from the date on which the notification of the extension is sent
    to the claimant until the date on which the claimant responds". Any other request leaves the clock
    running. ``respond_by`` is the answer-by date the request gave: a tolling request stops the clock no
    longer than that date (the notice says the time starts again from it)."""

    start: date
    end: date | None = None
    tolls: bool = False
    respond_by: date | None = None

    def tolled_days(self, *, today: date) -> int:
        if not self.tolls:
            return 0
        end = self.end if self.end is not None else today
        if self.respond_by is not None:
            # The claimant was given until the answer-by date: after it the time runs again.
            end = min(end, self.respond_by)
        return max(0, (end - self.start).days)


# The name the stored rows and older callers use.
Toll = InformationRequest


def tolled_days(tolls: Iterable[InformationRequest], *, today: date) -> int:
    """Days the clock stood still: only requests sent with an extension for missing information count,
    an unanswered one up to ``today`` (and never past its answer-by date)."""
    return sum(t.tolled_days(today=today) for t in tolls)


@dataclass(frozen=True)
class Clock:
    """One decision period (the initial decision or the decision on review)."""

    received: date
    base_days: int
    allowed_extensions: tuple[int, ...]
    extensions: tuple[int, ...] = ()  # days added by each extension taken
    tolls: tuple[InformationRequest, ...] = ()  # every request for information, tolling or not

    @property
    def awaiting_answer(self) -> bool:
        """A request for information is open (whether or not it stopped the clock)."""
        return any(t.end is None for t in self.tolls)

    @property
    def paused(self) -> bool:
        """The clock is stopped: an open request sent with an extension for missing information."""
        return any(t.end is None and t.tolls for t in self.tolls)

    def due(self, *, today: date) -> date:
        """The last day for the decision: the period, the extensions taken and the days tolled. While a
        tolling request is open the date moves on with each day of waiting, up to its answer-by date."""
        days = self.base_days + sum(self.extensions) + tolled_days(self.tolls, today=today)
        return self.received + timedelta(days=days)

    def outer_limit(self, *, today: date) -> date:
        """The latest the decision may ever be due: the period and every extension the rule allows,
        plus the days tolled (2560.503-1(f)(1), (f)(3), (i)(1), (i)(3), (f)(4), (i)(4))."""
        days = self.outer_limit_days + tolled_days(self.tolls, today=today)
        return self.received + timedelta(days=days)

    def days_left(self, *, on: date) -> int:
        """Days of the period left on ``on`` (what a tolling request leaves for after the answer)."""
        return max(0, (self.due(today=on) - on).days)

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
                f"The extension notice must be sent by {formatting.date_words(current_due)}, before the period ends."
            )
        return replace(self, extensions=(*self.extensions, days))

    def ask(self, *, start: date, respond_by: date | None = None, extend: bool = False) -> Clock:
        """Record a request for information sent on ``start``. With ``extend`` the request goes with an
        extension notice for the missing information: the next extension is taken (its notice, like any,
        before the running period ends) and the clock stops from ``start`` until the answer. Without it
        the clock runs on: there is no tolling inside a period without that extension."""
        if self.awaiting_answer:
            raise ValueError("The claimant has not yet answered the earlier request for information.")
        clock = self
        if extend:
            clock = self.extend(notice_sent=start, days=self.next_extension_days(), today=start)
        return replace(clock, tolls=(*clock.tolls, InformationRequest(start, None, extend, respond_by)))

    def toll(self, *, start: date, respond_by: date | None = None) -> Clock:
        """A request sent with an extension for missing information (see ``ask``)."""
        return self.ask(start=start, respond_by=respond_by, extend=True)

    def resume(self, *, on: date) -> Clock:
        """The answer came on ``on`` (or the answer-by date passed): the request is closed."""
        if not self.awaiting_answer:
            raise ValueError("No request for information is waiting for an answer.")
        open_toll = self.tolls[-1]
        if on < open_toll.start:
            raise ValueError("The answer cannot come before the request.")
        return replace(self, tolls=(*self.tolls[:-1], replace(open_toll, end=on)))


class ExtensionRefused(ValueError):
    pass


def appeal_deadline(notice_received: date, rules: ClockRules) -> date:
    """The last day to appeal: at least the window after the claimant receives the denial (A22: the day
    of electronic delivery)."""
    return notice_received + timedelta(days=rules.appeal_window_days)


def earliest_commencement_for_filing(filed: date, rules: PlanClaimRules) -> date:
    """The first benefit start date a claim filed on ``filed`` can ask for: the plan's lead time between
    filing and the start of benefits (``filing_lead_days``, cited in the plan's claim rules)."""
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
