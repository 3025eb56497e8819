"""Service crediting shared by every plan: hours-counting years and elapsed time.

Nothing here names a plan. A plan's ``rules.py`` describes its rules with ``HoursRules`` /
``ElapsedRules`` (thresholds, first-year rule, break rule, parity, age and effective-date
exclusions, caps) and its section numbers; these functions apply them to one person's history and
return a frozen, year-by-year breakdown with a trace (the participant's vesting page shows it).

Projection assumption (used for "next milestone" dates): a person still employed keeps working
full time, 2,080 Hours of Service a year spread evenly (40 a week), and a Year of Service is
credited on the day the 1,000th hour of the computation period is reached. Elapsed time: every
further day of employment counts.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, Literal, overload

from .dates import ONE_DAY, add_years, days_inclusive, months_between
from .trace import Trace, recording
from .types import EmploymentPeriod

FULL_TIME_HOURS = 2080
FULL_TIME_ASSUMPTION = (
    "keeps working full time (2,080 hours a year, 40 a week, spread evenly); a year is credited on "
    "the day its 1,000th hour is reached"
)
ELAPSED_ASSUMPTION = "keeps working without a break; every further day of employment counts"


class ServiceDataError(ValueError):
    """A participant's history cannot be used; ``field`` is the JSON pointer (relative)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class ParityRule:
    """When service before a run of consecutive breaks is lost for good.

    Lost only if the breaks number at least ``min_breaks``, and (when ``vested_protects``) the person
    had no vested interest when the breaks began, and (when ``parity``) the breaks also number at
    least the pre-break years (the rule of parity, ERISA §203(b)(3)(D)).
    """

    section: str
    min_breaks: int = 5
    parity: bool = True
    vested_protects: bool = True

    def loses(self, breaks: int, pre_break_years: int, vested: bool) -> bool:
        if breaks < self.min_breaks:
            return False
        if self.vested_protects and vested:
            return False
        return not (self.parity and breaks < pre_break_years)


FirstYearRule = Literal["none", "employment_year_for_hire_year", "next_year_if_neither"]


@dataclass(frozen=True)
class HoursRules:
    """A plan's hours-counting service rules (computation period = the calendar Plan Year)."""

    year_section: str  # e.g. "Carver DB §1.1(HH)(2)"
    break_section: str
    parity: ParityRule
    year_of_service_hours: int = 1000
    break_at_most_hours: int = 500  # a Plan Year with this many hours or fewer is a break
    first_year_rule: FirstYearRule = "none"
    first_year_section: str = ""
    exclude_before_age: int | None = None
    age_section: str = ""
    effective_year: int | None = None  # Plan Years before it are "pre-plan" years
    pre_effective_cap: int | None = None  # at most this many pre-plan years (None: no cap)
    pre_effective_section: str = ""
    max_years: int | None = None
    parental_leave_cap: int = 501
    parental_hours_per_day: int = 8
    parental_section: str = ""


@dataclass(frozen=True)
class ParentalLeave:
    start: date
    end: date
    hours: int | None = None  # None: 8 hours a day of absence


@dataclass(frozen=True)
class ServiceYear:
    """One computation period of the breakdown."""

    label: str
    start: date
    end: date
    hours: int
    hours_counted: int  # toward the Year of Service (after age/pre-plan exclusions)
    credited: bool
    is_break: bool
    running_total: int  # years counted after this period (after any loss)
    credited_on: date | None  # estimated day the 1,000th hour was reached
    note: str = ""


@dataclass(frozen=True)
class BreakEvent:
    """What a run of consecutive breaks did when the person came back."""

    first_break_year: int
    breaks: int
    pre_break_years: int
    vested_at_break: bool
    lost: bool
    account_frozen: bool  # vested and 5+ breaks: pre-break account vesting stops growing
    section: str


YearSummary = tuple[int, bool, int]  # a row's Plan Year, whether it was credited, the running total


class LazyYears(Sequence[ServiceYear]):
    """The breakdown's rows, built the first time they are read: an untraced census reads only the
    totals (``hours_service``'s usual path), a vesting page or a plan that wants the rows builds them
    then. ``summary`` gives each row's year, credit and running total without building the rows;
    ``reached(n)`` the day ``n`` years were reached (``date_years_reached``), building only the
    rows it looks at. Equal to (and hashed as) the tuple of its rows; copied or pickled as that tuple."""

    __slots__ = ("_build", "_rows", "reached", "summary")

    def __init__(
        self,
        build: Callable[[], tuple[ServiceYear, ...]],
        summary: Callable[[], list[YearSummary]],
        reached: Callable[[int], date | None],
    ) -> None:
        self._build: Callable[[], tuple[ServiceYear, ...]] | None = build
        self._rows: tuple[ServiceYear, ...] | None = None
        self.summary = summary
        self.reached = reached

    def rows(self) -> tuple[ServiceYear, ...]:
        if self._rows is None:
            assert self._build is not None
            self._rows, self._build = self._build(), None
        return self._rows

    @overload
    def __getitem__(self, index: int) -> ServiceYear: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[ServiceYear, ...]: ...

    def __getitem__(self, index: int | slice) -> ServiceYear | tuple[ServiceYear, ...]:
        return self.rows()[index]

    def __len__(self) -> int:
        return len(self.rows())

    def __iter__(self) -> Iterator[ServiceYear]:
        return iter(self.rows())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyYears):
            other = other.rows()
        return self.rows() == other

    def __hash__(self) -> int:
        return hash(self.rows())

    def __repr__(self) -> str:
        return repr(self.rows())

    def __reduce__(self) -> tuple[Any, ...]:
        return (tuple, (self.rows(),))


@dataclass(frozen=True)
class ServiceHistory:
    """Hours-counting service: the breakdown, the total, what breaks did, and a trace."""

    years: tuple[ServiceYear, ...] | LazyYears
    total_years: int
    prior_years: int
    lost_years: int
    events: tuple[BreakEvent, ...]
    consecutive_breaks_now: int
    first_break_year_now: int | None
    employed: bool
    as_of: date
    trace: Trace
    hours_so_far_this_year: int = 0
    credited_this_year: bool = False

    def year_summary(self) -> list[YearSummary]:
        """(Plan Year, credited, running total) of each row, without building the rows."""
        if isinstance(self.years, LazyYears):
            return self.years.summary()
        return [(int(r.label), r.credited, r.running_total) for r in self.years]

    def projected_date(self, n: int) -> date | None:
        """The day ``n`` years are reached if the person keeps working full time (or None)."""
        if n <= self.total_years:
            return self.date_years_reached(n)
        if not self.employed:
            return None
        need = n - self.total_years
        year = self.as_of.year
        if not self.credited_this_year:
            remaining = 1000 - self.hours_so_far_this_year
            when = self.as_of + timedelta(days=math.ceil(remaining * 365 / FULL_TIME_HOURS))
            if when.year == year:
                need -= 1
                if need == 0:
                    return when
        year += need
        return date(year, 1, 1) + timedelta(days=math.ceil(1000 * 365 / FULL_TIME_HOURS) - 1)

    def date_years_reached(self, n: int) -> date | None:
        """The (estimated) day ``n`` years were reached in the current service segment."""
        if n <= 0:
            return None
        if isinstance(self.years, LazyYears):
            return self.years.reached(n)
        for row in self.years:
            if (
                row.credited
                and row.credited_on is not None
                and row.running_total - 1 < n <= (row.running_total)
            ):
                return row.credited_on
        return None


def _employed_days(periods: tuple[EmploymentPeriod, ...], start: date, end: date) -> int:
    total = 0
    for p in periods:
        s = max(p.start, start)
        e = min(p.end or end, end)
        total += days_inclusive(s, e)
    return total


def _employment_in(periods: tuple[EmploymentPeriod, ...], start: date, end: date) -> tuple[date, int]:
    """First day employed within [start, end] and the number of days employed there."""
    first, total = start, 0
    for p in periods:
        if p.start > end or (p.end is not None and p.end < start):
            continue
        s = p.start if p.start > start else start
        e = end if p.end is None or p.end > end else p.end
        if total == 0:
            first = s
        total += (e - s).days + 1
    return first, total


def _thousandth_hour(first_day: date, days: int, hours: int, threshold: int) -> date | None:
    if hours < threshold or days <= 0:
        return None
    return first_day + timedelta(days=math.ceil(threshold * days / hours) - 1)


def estimate_first_year_hours(hire: date, hours: Mapping[int, int]) -> int:
    """Hours in the 12 months from ``hire``: hire-year hours plus the next year's, pro rata by days."""
    window_end = add_years(hire, 1) - ONE_DAY
    nxt = window_end.year
    if nxt == hire.year:
        return hours.get(hire.year, 0)
    days_next = (window_end - date(nxt, 1, 1)).days + 1
    days_year = (date(nxt + 1, 1, 1) - date(nxt, 1, 1)).days
    return hours.get(hire.year, 0) + hours.get(nxt, 0) * days_next // days_year


def _usual_hours_service(
    periods: tuple[EmploymentPeriod, ...],
    birth_date: date,
    hours: Mapping[int, int],
    as_of: date,
    rules: HoursRules,
    is_vested: Callable[[int], bool],
    first_year_hours: int | None,
    prior_years: int,
) -> ServiceHistory | None:
    """``hours_service`` without a trace, for the usual history: no parental leave, and no Plan Year
    whose hours an age exclusion cuts (the age is reached before the hire year). None otherwise.

    The same year-by-year rules as the general loop below, on the hours alone: each year's row
    (its dates, the day its 1,000th hour was reached) is built only when the rows are read
    (``LazyYears``). A census without traces reads only the totals: the rows are most of the cost.
    Held equal to the general loop by tests/engine/core/test_service_fast_path.py."""
    hire = periods[0].start
    if (
        rules.exclude_before_age is not None
        and add_years(birth_date, rules.exclude_before_age).year >= hire.year
    ):
        return None
    threshold, most_for_break = rules.year_of_service_hours, rules.break_at_most_hours
    first_year_rule, effective_year, cap = (
        rules.first_year_rule,
        rules.effective_year,
        rules.pre_effective_cap,
    )
    fy_hours, fy_estimated = first_year_hours, False
    if first_year_rule != "none" and fy_hours is None:
        fy_hours, fy_estimated = estimate_first_year_hours(hire, hours), True
    last = periods[-1]
    employed = last.end is None or last.end >= as_of
    final_year = as_of.year
    final_complete = as_of.month == 12 and as_of.day == 31  # every earlier Plan Year is complete
    # (hours, credited, is_break, running total, note) a year; the first-year rule's credit dates
    compact: list[tuple[int, bool, bool, int, str]] = []
    first_year_on: dict[int, date] = {}
    events: list[BreakEvent] = []
    running, lost, pre_effective, breaks = prior_years, 0, 0, 0
    first_break: int | None = None
    hire_year_credited = False
    get, append = hours.get, compact.append
    # The first-year rule can only touch the hire year and the next; no Plan Year is pre-plan at 0.
    first_year_until = hire.year + 1 if first_year_rule != "none" else 0
    pre_plan_before = effective_year if effective_year is not None else 0
    # From this year on, with no break pending, a year credited on its own hours is all its row says
    # (no first-year rule, not pre-plan, no break: over the break hours): such runs go at once.
    plain_from = max(first_year_until, hire.year) + 1
    if pre_plan_before > plain_from:
        plain_from = pre_plan_before
    if threshold <= most_for_break:
        plain_from = final_year + 1
    y = hire.year - 1
    while y < final_year:
        y += 1
        h = get(y, 0)
        if h >= threshold and not breaks and y >= plain_from:
            while True:
                running += 1
                append((h, True, False, running, ""))
                if y == final_year:
                    break
                h = get(y + 1, 0)
                if h < threshold:
                    break
                y += 1
            continue
        credited = h >= threshold
        note = ""
        if not credited and y <= first_year_until:
            if (
                y == hire.year
                and first_year_rule == "employment_year_for_hire_year"
                and fy_hours is not None
                and fy_hours >= threshold
            ):
                credited = True
                on = _thousandth_hour(hire, 365, fy_hours, threshold)
                if on is not None:
                    first_year_on[y] = on
                note = (
                    f"{fy_hours} hours in the 12 months from the employment date"
                    + (" (estimated pro rata)" if fy_estimated else "")
                    + ": first-year rule"
                )
            elif (
                y == hire.year + 1
                and first_year_rule == "next_year_if_neither"
                and not hire_year_credited
                and fy_hours is not None
                and fy_hours >= threshold
            ):
                credited = True
                first_year_on[y] = min(date(y, 12, 31), as_of)
                note = (
                    f"{fy_hours} hours in the 12 months from the employment date"
                    + (" (estimated pro rata)" if fy_estimated else "")
                    + " but no Year in the first two Plan Years: first-year rule"
                )
        if y == hire.year:
            hire_year_credited = credited
        complete = y < final_year or final_complete
        is_break = complete and h <= most_for_break
        if is_break:
            if breaks == 0:
                first_break = y
            breaks += 1
            note = note or (f"{h} hours: a one-year break" if h else "no hours: a one-year break")
        elif breaks and h > 0:
            vested = is_vested(running)
            loses = rules.parity.loses(breaks, running, vested)
            frozen = (not loses) and vested and breaks >= rules.parity.min_breaks
            events.append(
                BreakEvent(first_break or y, breaks, running, vested, loses, frozen, rules.parity.section)
            )
            if loses:
                msg = f"after {breaks} consecutive breaks the {running} earlier years no longer count"
                lost += running
                running = 0
            else:
                msg = f"after {breaks} consecutive breaks the {running} earlier years still count"
                if frozen:
                    msg += " (vesting of the account built before the breaks stops growing)"
            note = (note + "; " if note else "") + msg
            breaks = 0
            first_break = None
        if credited:
            if y < pre_plan_before:
                pre_effective += 1
                if cap is not None and pre_effective > cap:
                    credited = False
                    note = (note + "; " if note else "") + f"pre-plan year over the cap of {cap}"
            if credited:
                running += 1
        elif not note:
            if complete or not employed:
                note = f"{h} hours: no Year of Service" + ("" if is_break else ", not a break")
            else:
                note = f"{h} hours so far: year in progress"
        append((h, credited, is_break, running, note))

    total = running
    if rules.max_years is not None and total > rules.max_years:
        total = rules.max_years

    def credited_on(y: int, h: int) -> date | None:
        if h >= threshold:  # credited on its own hours (the first-year rule never applies then)
            first_day, days = _employment_in(periods, date(y, 1, 1), min(date(y, 12, 31), as_of))
            return _thousandth_hour(first_day, days, h, threshold)
        return first_year_on.get(y)

    def rows() -> tuple[ServiceYear, ...]:
        out = []
        for y, (h, credited, is_break, running, note) in enumerate(compact, start=hire.year):
            out.append(
                ServiceYear(
                    str(y), date(y, 1, 1), date(y, 12, 31), h, h, credited, is_break, running,
                    credited_on(y, h), note,
                )
            )  # fmt: skip
        return tuple(out)

    def reached(n: int) -> date | None:
        # ``date_years_reached`` over the rows: the first credited row whose running total is n
        # (after a loss the total restarts, so a later row may match), only those rows' days.
        for y, (h, credited, _, running, _) in enumerate(compact, start=hire.year):
            if credited and running - 1 < n <= running:
                on = credited_on(y, h)
                if on is not None:
                    return on
        return None

    def summary() -> list[YearSummary]:
        return [(y, row[1], row[3]) for y, row in enumerate(compact, start=hire.year)]

    return ServiceHistory(
        years=LazyYears(rows, summary, reached),
        total_years=total,
        prior_years=prior_years,
        lost_years=lost,
        events=tuple(events),
        consecutive_breaks_now=breaks,
        first_break_year_now=first_break,
        employed=employed,
        as_of=as_of,
        trace=Trace(),
        hours_so_far_this_year=get(final_year, 0),
        credited_this_year=compact[-1][1],
    )


def hours_service(
    *,
    periods: tuple[EmploymentPeriod, ...],
    birth_date: date,
    hours: Mapping[int, int],
    as_of: date,
    rules: HoursRules,
    is_vested: Callable[[int], bool],
    first_year_hours: int | None = None,
    prior_years: int = 0,
    hours_before_age: Mapping[int, int] | None = None,
    parental_leaves: tuple[ParentalLeave, ...] = (),
) -> ServiceHistory:
    """Years of Service counted in 1,000-hour Plan Years, with breaks, parity and exclusions."""
    periods = tuple(p for p in periods if p.start <= as_of)
    if not periods:
        raise ServiceDataError("/hire_date", "no employment on or before the calculation date")
    if not parental_leaves and not recording():
        usual = _usual_hours_service(
            periods, birth_date, hours, as_of, rules, is_vested, first_year_hours, prior_years
        )
        if usual is not None:
            return usual
    hire = periods[0].start
    last = periods[-1]
    employed = last.end is None or last.end >= as_of
    threshold = rules.year_of_service_hours
    trace = Trace()

    # Hours credited only to prevent a break (maternity/paternity leave).
    break_credit: dict[int, int] = {}
    for leave in parental_leaves:
        credit = leave.hours
        if credit is None:
            credit = rules.parental_hours_per_day * days_inclusive(leave.start, leave.end)
        credit = min(credit, rules.parental_leave_cap)
        y = leave.start.year
        if hours.get(y, 0) <= rules.break_at_most_hours < hours.get(y, 0) + credit:
            break_credit[y] = break_credit.get(y, 0) + credit
        else:
            break_credit[y + 1] = break_credit.get(y + 1, 0) + credit
        trace = trace.add(
            "Maternity/paternity leave hours credited to prevent a break",
            section=rules.parental_section,
            result=credit,
            leave_start=leave.start,
        )

    age_year = None
    if rules.exclude_before_age is not None:
        age_day = add_years(birth_date, rules.exclude_before_age)
        age_year = age_day.year

    fy_hours = first_year_hours
    fy_estimated = False
    if rules.first_year_rule != "none" and fy_hours is None:
        fy_hours = estimate_first_year_hours(hire, hours)
        fy_estimated = True

    rows: list[ServiceYear] = []
    events: list[BreakEvent] = []
    running = prior_years
    lost = 0
    pre_effective = 0
    breaks = 0
    first_break: int | None = None
    hire_year_credited = False
    if prior_years:
        trace = trace.add("Service credited before the hours records", result=prior_years)

    for y in range(hire.year, as_of.year + 1):
        start, end = date(y, 1, 1), date(y, 12, 31)
        complete = end <= as_of
        h = hours.get(y, 0)
        counted = h
        note = ""
        if age_year is not None:
            if y < age_year:
                counted, note = 0, f"hours before age {rules.exclude_before_age} not counted"
            elif y == age_year:
                before = (hours_before_age or {}).get(y)
                if before is None:
                    worked = _employed_days(periods, start, min(end, as_of))
                    after = _employed_days(periods, age_day, min(end, as_of))
                    before = h - (h * after // worked if worked else 0)
                counted = max(0, h - before)
                note = f"only hours from the {rules.exclude_before_age}th birthday count"
        credited = counted >= threshold
        credited_on = None
        if credited:
            span_start = age_day if age_year == y else start
            first_day, days = _employment_in(periods, span_start, min(end, as_of))
            credited_on = _thousandth_hour(first_day, days, counted, threshold)

        # First-year rules, measured on the 12 months from the employment date.
        if (
            y == hire.year
            and rules.first_year_rule == "employment_year_for_hire_year"
            and not credited
            and fy_hours is not None
            and fy_hours >= threshold
        ):
            credited = True
            credited_on = _thousandth_hour(hire, 365, fy_hours, threshold)
            note = (
                f"{fy_hours} hours in the 12 months from the employment date"
                + (" (estimated pro rata)" if fy_estimated else "")
                + ": first-year rule"
            )
        if y == hire.year:
            hire_year_credited = credited
        if (
            y == hire.year + 1
            and rules.first_year_rule == "next_year_if_neither"
            and not credited
            and not hire_year_credited
            and fy_hours is not None
            and fy_hours >= threshold
        ):
            credited = True
            credited_on = min(end, as_of)
            note = (
                f"{fy_hours} hours in the 12 months from the employment date"
                + (" (estimated pro rata)" if fy_estimated else "")
                + " but no Year in the first two Plan Years: first-year rule"
            )

        for_break = h + break_credit.get(y, 0)
        is_break = complete and for_break <= rules.break_at_most_hours
        if is_break:
            if breaks == 0:
                first_break = y
            breaks += 1
            note = note or (f"{h} hours: a one-year break" if h else "no hours: a one-year break")
            if break_credit.get(y):
                note += " (leave hours did not prevent it)"
        else:
            if break_credit.get(y) and h <= rules.break_at_most_hours and complete:
                note = note or "leave hours prevent a break"
            if breaks and h > 0:
                vested = is_vested(running)
                loses = rules.parity.loses(breaks, running, vested)
                frozen = (not loses) and vested and breaks >= rules.parity.min_breaks
                events.append(
                    BreakEvent(first_break or y, breaks, running, vested, loses, frozen, rules.parity.section)
                )
                if loses:
                    msg = f"after {breaks} consecutive breaks the {running} earlier years no longer count"
                    lost += running
                    running = 0
                else:
                    msg = f"after {breaks} consecutive breaks the {running} earlier years still count"
                    if frozen:
                        msg += " (vesting of the account built before the breaks stops growing)"
                trace = trace.add(
                    "Return after breaks in service",
                    section=rules.parity.section,
                    result="lost" if loses else "kept",
                    breaks=breaks,
                    pre_break_years=running if not loses else lost,
                    vested_at_break=vested,
                )
                note = (note + "; " if note else "") + msg
                breaks = 0
                first_break = None
        if credited:
            if rules.effective_year is not None and y < rules.effective_year:
                pre_effective += 1
                if rules.pre_effective_cap is not None and pre_effective > rules.pre_effective_cap:
                    credited = False
                    note = (note + "; " if note else "") + (
                        f"pre-plan year over the cap of {rules.pre_effective_cap}"
                    )
            if credited:
                running += 1
        elif not note:
            if complete or not employed:
                note = f"{h} hours: no Year of Service" + ("" if is_break else ", not a break")
            else:
                note = f"{h} hours so far: year in progress"
        rows.append(
            ServiceYear(str(y), start, end, h, counted, credited, is_break, running, credited_on, note)
        )

    total = running
    if rules.max_years is not None and total > rules.max_years:
        trace = trace.add("Service capped", result=rules.max_years, years=total)
        total = rules.max_years
    trace = trace.add(
        "Years of Service: Plan Years with at least "
        f"{threshold} Hours of Service; a year with {rules.break_at_most_hours} or fewer is a break",
        section=rules.year_section,
        result=total,
        lost_to_breaks=lost,
    )
    this_year = hours.get(as_of.year, 0)
    return ServiceHistory(
        years=tuple(rows),
        total_years=total,
        prior_years=prior_years,
        lost_years=lost,
        events=tuple(events),
        consecutive_breaks_now=breaks,
        first_break_year_now=first_break,
        employed=employed,
        as_of=as_of,
        trace=trace,
        hours_so_far_this_year=this_year,
        credited_this_year=bool(rows and rows[-1].credited and rows[-1].start.year == as_of.year),
    )


# ---------------------------------------------------------------------------- elapsed time


@dataclass(frozen=True)
class ElapsedRules:
    """A plan's elapsed-time rules (Period of Service / Period of Severance)."""

    service_section: str
    severance_section: str
    parity: ParityRule
    span_years: int = 1  # a rehire within this many years of the Termination of Service spans the gap
    divisor: int = 365
    parental_section: str = ""


@dataclass(frozen=True)
class ServicePeriod:
    """One row of an elapsed-time breakdown: a period of employment, a spanned gap, or severance."""

    kind: Literal["prior", "employment", "spanned gap", "severance"]
    start: date
    end: date
    days: int  # days counted as service (0 for severance)
    running_days: int
    severance_periods: int = 0
    note: str = ""


@dataclass(frozen=True)
class ElapsedServiceHistory:
    periods: tuple[ServicePeriod, ...]
    total_days: int
    total_years: int
    lost_days: int
    events: tuple[BreakEvent, ...]
    employed: bool
    as_of: date
    divisor: int
    trace: Trace

    def projected_date(self, n: int) -> date | None:
        """The day ``n`` years (n × 365 days) are reached if employment continues."""
        if n <= self.total_years:
            return self.date_years_reached(n)
        if not self.employed:
            return None
        return self.as_of + timedelta(days=n * self.divisor - self.total_days)

    def date_years_reached(self, n: int) -> date | None:
        need = n * self.divisor
        for row in self.periods:
            if row.days and row.running_days >= need > row.running_days - row.days:
                if row.kind == "prior":
                    return row.end
                return row.start + timedelta(days=need - (row.running_days - row.days) - 1)
        return None


def _overlap_days(a0: date, a1: date, b0: date, b1: date) -> int:
    return days_inclusive(max(a0, b0), min(a1, b1))


def elapsed_service(
    *,
    periods: tuple[EmploymentPeriod, ...],
    as_of: date,
    rules: ElapsedRules,
    is_vested: Callable[[int], bool],
    prior_days: int = 0,
    parental_leaves: tuple[ParentalLeave, ...] = (),
) -> ElapsedServiceHistory:
    """Period of Service: days in all periods (gaps spanned when rehired within a year) ÷ 365."""
    periods = tuple(p for p in periods if p.start <= as_of)
    if not periods:
        raise ServiceDataError("/hire_date", "no employment on or before the calculation date")
    d = rules.divisor
    rows: list[ServicePeriod] = []
    events: list[BreakEvent] = []
    trace = Trace()
    total = prior_days
    lost = 0
    if prior_days:
        rows.append(
            ServicePeriod(
                "prior",
                periods[0].start,
                periods[0].start,
                prior_days,
                total,
                note="service credited from the records (e.g. predecessor)",
            )
        )
    # The second year of a maternity/paternity absence is not service (e.g. 401(k) §1.48).
    excluded = [
        (add_years(lv.start, 1), min(lv.end, add_years(lv.start, 2) - ONE_DAY))
        for lv in parental_leaves
        if lv.end >= add_years(lv.start, 1)
    ]
    prev_end: date | None = None
    for p in periods:
        end = min(p.end or as_of, as_of)
        if prev_end is not None:
            if p.start <= add_years(prev_end, rules.span_years):
                gap = (p.start - prev_end).days - 1
                total += gap
                rows.append(
                    ServicePeriod(
                        "spanned gap",
                        prev_end + ONE_DAY,
                        p.start - ONE_DAY,
                        gap,
                        total,
                        note="rehired within a year: the gap counts",
                    )
                )
                trace = trace.add(
                    "Service spanning: the gap counts",
                    section=rules.service_section,
                    result=gap,
                    termination=prev_end,
                    rehire=p.start,
                )
            else:
                sev = months_between(prev_end + ONE_DAY, p.start) // 12
                pre_years = total // d
                vested = is_vested(pre_years)
                loses = rules.parity.loses(sev, pre_years, vested)
                frozen = (not loses) and vested and sev >= rules.parity.min_breaks
                events.append(
                    BreakEvent(prev_end.year, sev, pre_years, vested, loses, frozen, rules.parity.section)
                )
                note = f"{sev} One Year Period(s) of Severance; "
                if loses:
                    note += f"the {pre_years} earlier years no longer count"
                    lost += total
                    total = 0
                else:
                    note += "earlier service still counts"
                    if frozen:
                        note += " (vesting of the pre-break accounts stops growing)"
                rows.append(
                    ServicePeriod("severance", prev_end + ONE_DAY, p.start - ONE_DAY, 0, total, sev, note)
                )
                trace = trace.add(
                    "Return after a Period of Severance",
                    section=rules.parity.section,
                    result="lost" if loses else "kept",
                    severance_periods=sev,
                    pre_break_years=pre_years,
                    vested_at_break=vested,
                )
        days = days_inclusive(p.start, end)
        minus = sum(_overlap_days(p.start, end, a, b) for a, b in excluded)
        total += days - minus
        rows.append(
            ServicePeriod(
                "employment",
                p.start,
                end,
                days - minus,
                total,
                note=("second year of parental absence excluded" if minus else ""),
            )
        )
        prev_end = p.end
    employed = periods[-1].end is None or periods[-1].end >= as_of
    if not employed and prev_end is not None and prev_end < as_of:
        sev = months_between(prev_end + ONE_DAY, as_of + ONE_DAY) // 12
        rows.append(
            ServicePeriod(
                "severance",
                prev_end + ONE_DAY,
                as_of,
                0,
                total,
                sev,
                note=f"{sev} One Year Period(s) of Severance so far",
            )
        )
    years = total // d
    trace = trace.add(
        f"Period of Service: {total} days ÷ {d}, fractions dropped",
        section=rules.service_section,
        result=years,
        days=total,
        lost_days=lost,
    )
    return ElapsedServiceHistory(tuple(rows), total, years, lost, tuple(events), employed, as_of, d, trace)
