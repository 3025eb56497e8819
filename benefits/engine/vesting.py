"""Vesting: schedules as data, top-heavy schedules, full-vesting events, forfeiture timing.

Plan-agnostic: each plan's ``rules.py`` supplies its schedules (by account source), its top-heavy
status and its full-vesting events; this module turns years of service into a vested percentage,
the next milestone, and a trace.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from .dates import ONE_DAY, add_years
from .money import ZERO, to_decimal
from .trace import Trace, percent, recording

HUNDRED = Decimal(100)


@dataclass(frozen=True)
class Schedule:
    """A vesting schedule: ``steps`` are (at least N years, percent), ascending."""

    name: str
    section: str
    steps: tuple[tuple[int, Decimal], ...]

    def percent(self, years: int) -> Decimal:
        pct = ZERO
        for at_least, p in self.steps:
            if years >= at_least:
                pct = p
        return pct

    def next_step(self, years: int) -> tuple[int, Decimal] | None:
        """The next (years, percent) step above the percent reached with ``years``."""
        current = self.percent(years)
        for at_least, p in self.steps:
            if at_least > years and p > current:
                return at_least, p
        return None


def cliff(years: int, *, name: str, section: str) -> Schedule:
    return Schedule(name, section, ((years, HUNDRED),))


def graded(pairs: tuple[tuple[int, int | str], ...], *, name: str, section: str) -> Schedule:
    return Schedule(name, section, tuple((y, to_decimal(p)) for y, p in pairs))


ALWAYS_VESTED = Schedule("always 100% vested", "", ((0, HUNDRED),))


@dataclass(frozen=True)
class TopHeavyStatus:
    """Whether and how a top-heavy schedule applies to one participant.

    ``applies``: the participant had an Hour of Service in a Top-Heavy Plan Year. ``current``: the
    plan is Top-Heavy in the year of the calculation. When it stops being Top-Heavy the percent
    already reached is kept, and a participant with ``keep_if_years`` or more years keeps the better
    schedule (the plans' §411(a)(10) election, modelled as exercised).
    """

    schedule: Schedule
    applies: bool
    current: bool
    years_at_last_top_heavy_year: int
    keep_if_years: int = 3


@dataclass(frozen=True)
class Milestone:
    """The next step up in vesting: years needed, percent then, and the projected date."""

    years: int
    percent: Decimal
    on: date | None
    assumption: str


@dataclass(frozen=True)
class VestingResult:
    percent: Decimal
    years: int
    schedule: str
    full_vesting_event: str | None
    next_milestone: Milestone | None
    trace: Trace
    schedule_table: Schedule | None = field(default=None, compare=False)  # the schedule named above


def top_heavy_percent(status: TopHeavyStatus, years: int) -> Decimal:
    """The top-heavy floor for ``years`` of service (ZERO when the schedule does not apply)."""
    if not status.applies:
        return ZERO
    if status.current or status.years_at_last_top_heavy_year >= status.keep_if_years:
        return status.schedule.percent(years)
    # No longer Top-Heavy and under the election threshold: keep what was reached, no more.
    return status.schedule.percent(status.years_at_last_top_heavy_year)


def vest(
    years: int,
    schedule: Schedule,
    *,
    top_heavy: TopHeavyStatus | None = None,
    full_vesting_event: tuple[str, str] | None = None,
    projected_date: Callable[[int], date | None] | None = None,
    projection_assumption: str = "",
) -> VestingResult:
    """Vested percent for ``years`` of service under ``schedule`` (and top-heavy floor, events).

    ``full_vesting_event`` is (description, plan section) when an event gives 100%.
    ``projected_date(n)`` gives the date ``n`` years would be reached if the person keeps working.
    """
    pct = schedule.percent(years)
    traced = recording()  # untraced (a census): no step text worked out, the figures the same
    trace = Trace()
    if traced:
        trace = trace.add(
            f"Vesting under the {schedule.name}", section=schedule.section, result=percent(pct), years=years
        )
    used, table = schedule.name, schedule
    if top_heavy is not None and top_heavy.applies:
        th = top_heavy_percent(top_heavy, years)
        if traced:
            trace = trace.add(
                "Top-heavy minimum vesting" + ("" if top_heavy.current else " (plan no longer Top-Heavy)"),
                section=top_heavy.schedule.section,
                result=percent(th),
                years=years,
                applied=th > pct,  # a floor below the plan's own schedule did not apply
            )
        if th > pct:
            pct, used, table = th, top_heavy.schedule.name, top_heavy.schedule
    if full_vesting_event is not None:
        what, section = full_vesting_event
        if pct < HUNDRED:  # the event, not the schedule, makes the percent
            trace = trace.not_applied()
        trace = trace.add(f"Fully vested: {what}", section=section, result=percent(HUNDRED))
        return VestingResult(HUNDRED, years, used, what, None, trace, table)
    milestone = None
    candidates = [schedule]
    if (
        top_heavy is not None
        and top_heavy.applies
        and (top_heavy.current or top_heavy.years_at_last_top_heavy_year >= top_heavy.keep_if_years)
    ):
        candidates.append(top_heavy.schedule)
    nexts = [s.next_step(years) for s in candidates]
    steps = [s for s in nexts if s is not None and s[1] > pct]
    if steps:
        n, p = min(steps)
        when = projected_date(n) if projected_date else None
        milestone = Milestone(n, p, when, projection_assumption)
        trace = trace.add(
            "Next vesting milestone",
            result=percent(p),
            years_needed=n,
            projected_date=when,
            assumption=projection_assumption,
        )
    return VestingResult(pct, years, used, None, milestone, trace, table)


def vested_after_distribution(percent: Decimal, balance: Decimal, withdrawn: Decimal) -> Decimal:
    """X = P(AB + D) − D, floored at zero (Carver 401(k) §4.1(d); spec assumption A10).

    ``withdrawn`` (D) is what was previously withdrawn from the account plus loan principal drawn
    from it and still outstanding; ``balance`` (AB) is the account's current value.
    """
    x = percent / HUNDRED * (balance + withdrawn) - withdrawn
    return max(x, ZERO)


def end_of_consecutive_plan_year_breaks(first_break_year: int, breaks: int = 5) -> date:
    """The last day of ``breaks`` consecutive one-year breaks beginning with ``first_break_year``."""
    return date(first_break_year + breaks - 1, 12, 31)


def end_of_severance_periods(termination: date, periods: int = 5) -> date:
    """The last day of ``periods`` consecutive One Year Periods of Severance after ``termination``."""
    return add_years(termination + ONE_DAY, periods) - ONE_DAY


def forfeiture_date(
    *,
    timing: str,
    termination: date,
    vested_percent: Decimal,
    first_break_year: int | None = None,
    distribution_date: date | None = None,
) -> date | None:
    """When the nonvested part is forfeited, for the plan's ``timing`` rule.

    * ``"at_termination"``: forfeited when employment ends (Carver 401(k) §4.2).
    * ``"break_or_distribution"``: the earlier of payment of the whole vested interest and the end
      of the first Plan Year that is a Break; at once when 0% vested (a deemed distribution)
      (Fairport §9.5; Dec 31 of the Break year is the SPEC's assumption, GAP D1.5).
    * ``"five_breaks"``: at the end of five consecutive one-year breaks (the statutory default).
    Returns None when nothing is forfeited (fully vested) or the date is not yet known.
    """
    if vested_percent >= HUNDRED:
        return None
    if timing == "at_termination":
        return termination
    if timing == "break_or_distribution":
        if vested_percent == ZERO:
            return termination
        options = [d for d in (distribution_date,) if d is not None]
        if first_break_year is not None:
            options.append(date(first_break_year, 12, 31))
        return min(options) if options else None
    if timing == "five_breaks":
        if first_break_year is None:
            return None
        return end_of_consecutive_plan_year_breaks(first_break_year)
    raise ValueError(f"unknown forfeiture timing {timing!r}")
