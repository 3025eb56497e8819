"""Helpers the plan packages share: reading ``plan_data`` (JSON-pointer errors), history checks,
service dates.

Plan-agnostic: plans pass in their own rules, sections and settings classes.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from decimal import Decimal
from typing import Any, overload

from .core import ParticipantError
from .dates import ONE_DAY, add_years, days_inclusive
from .service import ParentalLeave, estimate_first_year_hours
from .types import Participant
from .vesting import Schedule, TopHeavyStatus

# ---------------------------------------------------------------------------- plan_data readers


@overload
def pd_int(p: Participant, key: str, default: int) -> int: ...


@overload
def pd_int(p: Participant, key: str, default: None = None) -> int | None: ...


def pd_int(p: Participant, key: str, default: int | None = None) -> int | None:
    raw = p.plan_data.get(key)
    if raw is None:
        return default
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise ParticipantError(f"/plan_data/{key}", f"{key} must be a whole number")
    if raw < 0:
        raise ParticipantError(f"/plan_data/{key}", f"{key} cannot be negative")
    return raw


def pd_bool(p: Participant, key: str, default: bool = False) -> bool:
    raw = p.plan_data.get(key, default)
    if not isinstance(raw, bool):
        raise ParticipantError(f"/plan_data/{key}", f"{key} must be true or false")
    return raw


def pd_date(p: Participant, key: str) -> date | None:
    raw = p.plan_data.get(key)
    if raw is None:
        return None
    if isinstance(raw, date):
        return raw
    try:
        return date.fromisoformat(raw)
    except (TypeError, ValueError):
        raise ParticipantError(f"/plan_data/{key}", f"{key} is not an ISO date") from None


def pd_decimal(
    p: Participant, key: str, default: Decimal | None = None, *, blank_is_missing: bool = False
) -> Decimal | None:
    """``plan_data[key]`` as an exact Decimal read through its text (``"12.50"``, 12, 12.5); missing
    (or ``""`` when ``blank_is_missing``) gives ``default``."""
    raw = p.plan_data.get(key)
    if raw is None or (blank_is_missing and raw == ""):
        return default
    try:
        return Decimal(str(raw))
    except ArithmeticError:
        raise ParticipantError(f"/plan_data/{key}", f"{key} must be a decimal string") from None


def pd_text_date(p: Participant, key: str, *, rule: str = "must be an ISO date") -> date | None:
    """``plan_data[key]`` as a date: a date, or its ISO text; the error message ends with ``rule``."""
    raw = p.plan_data.get(key)
    if raw is None or isinstance(raw, date):
        return raw
    try:
        return date.fromisoformat(str(raw))
    except ValueError:
        raise ParticipantError(f"/plan_data/{key}", f"{key} {rule}") from None


def pd_year_hours(p: Participant, key: str) -> dict[int, int]:
    raw = p.plan_data.get(key) or {}
    if not isinstance(raw, Mapping):
        raise ParticipantError(f"/plan_data/{key}", f"{key} must be an object keyed by year")
    out = {}
    for k, v in raw.items():
        try:
            y = int(k)
        except (TypeError, ValueError):
            raise ParticipantError(f"/plan_data/{key}/{k}", "key must be a year") from None
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ParticipantError(f"/plan_data/{key}/{k}", "hours must be a whole number ≥ 0")
        out[y] = v
    return out


def pd_parental_leaves(p: Participant) -> tuple[ParentalLeave, ...]:
    """``plan_data.parental_leave``: [{"start", "end", "hours"?}] maternity/paternity absences."""
    raw = p.plan_data.get("parental_leave") or []
    if not isinstance(raw, list | tuple):
        raise ParticipantError("/plan_data/parental_leave", "parental_leave must be a list")
    out = []
    for i, item in enumerate(raw):
        ptr = f"/plan_data/parental_leave/{i}"
        if not isinstance(item, Mapping):
            raise ParticipantError(ptr, "each leave is an object with start and end")
        try:
            start = _as_date(item.get("start"))
            end = _as_date(item.get("end"))
        except (TypeError, ValueError):
            raise ParticipantError(ptr, "start and end must be ISO dates") from None
        if end < start:
            raise ParticipantError(f"{ptr}/end", "leave ends before it starts")
        hours = item.get("hours")
        if hours is not None and (isinstance(hours, bool) or not isinstance(hours, int)):
            raise ParticipantError(f"{ptr}/hours", "hours must be a whole number")
        out.append(ParentalLeave(start, end, hours))
    return tuple(out)


def _as_date(v: Any) -> date:
    return v if isinstance(v, date) else date.fromisoformat(v)


def check_history(p: Participant, as_of: date) -> None:
    """Basic consistency of a participant's dates; raises ParticipantError."""
    if p.hire_date < p.birth_date:
        raise ParticipantError("/hire_date", "hire date is before the birth date")
    prev_end = None
    for i, period in enumerate(p.periods):
        ptr = f"/employment_periods/{i}" if p.employment_periods else "/termination_date"
        if period.end is not None and period.end < period.start:
            raise ParticipantError(ptr, "employment ends before it starts")
        if prev_end is not None and period.start <= prev_end:
            raise ParticipantError(ptr, "employment periods overlap or are out of order")
        if prev_end is None and i > 0:
            raise ParticipantError(ptr, "only the last employment period may be open")
        prev_end = period.end
    if p.hire_date > as_of:
        raise ParticipantError("/hire_date", "hired after the calculation date")


def termination(p: Participant, as_of: date) -> date | None:
    """The last Termination of Employment on or before ``as_of`` (None while employed)."""
    last = [x for x in p.periods if x.start <= as_of][-1]
    if last.end is None or last.end >= as_of:
        return None
    return last.end


def top_heavy_status(
    schedule: Schedule,
    top_heavy_years: tuple[int, ...],
    years_by_year: Mapping[int, int],
    hours: Mapping[int, int],
    as_of: date,
    keep_if_years: int = 3,
) -> TopHeavyStatus | None:
    """Top-heavy status for one participant from the plan's Top-Heavy Plan Years (a setting)."""
    if not top_heavy_years:
        return None
    worked = [y for y in top_heavy_years if hours.get(y, 0) > 0 and y <= as_of.year]
    if not worked:
        return TopHeavyStatus(schedule, False, False, 0, keep_if_years)
    last_th = max(y for y in top_heavy_years if y <= as_of.year)
    at_last = years_by_year.get(last_th, 0)
    return TopHeavyStatus(schedule, True, as_of.year in top_heavy_years, at_last, keep_if_years)


def elapsed_years_date(p: Participant, years: int, as_of: date, employed: bool) -> date | None:
    """The day total employment (all periods, elapsed time) reaches ``years`` × 365.25 days.

    Projects forward when the person is still employed; None if never reached.
    """
    need = -(-years * 36525 // 100)  # ceil(years × 365.25)
    total = 0
    for period in p.periods:
        if period.start > as_of:
            break
        if period.end is None:
            when = period.start + (need - total - 1) * ONE_DAY
            return when if (when <= as_of or employed) else None
        days = days_inclusive(period.start, period.end)
        if total + days >= need:
            return period.start + (need - total - 1) * ONE_DAY
        total += days
    return None


def eligibility_year_completed(
    hire: date,
    hours: Mapping[int, int],
    first_year_hours: int | None,
    as_of: date,
    *,
    then_from: str,
    threshold: int = 1000,
) -> tuple[date | None, bool]:
    """When the first Year of Eligibility Service was completed, and whether hours were estimated.

    The 12 months from ``hire`` first (completed on their last day: the SPECs' DEFAULT); if that
    fails, Plan Years tested one at a time, starting with the one containing the end of those 12
    months (``then_from="containing_end"``, Carver DB §1.1(OO)) or the one after the hire year
    (``"after_hire"``, Quaker §1.62). A Plan Year is completed on December 31.
    """
    estimated = first_year_hours is None
    fy = estimate_first_year_hours(hire, hours) if first_year_hours is None else first_year_hours
    window_end = add_years(hire, 1) - ONE_DAY
    if fy >= threshold and window_end <= as_of:
        return window_end, estimated
    y = window_end.year if then_from == "containing_end" else hire.year + 1
    while y <= as_of.year:
        if hours.get(y, 0) >= threshold and date(y, 12, 31) <= as_of:
            return date(y, 12, 31), estimated
        y += 1
    return None, estimated


def plan_termination_event(
    p: Participant, as_of: date, term: date | None, when: date | None, what: str, section: str
) -> tuple[str, str] | None:
    """A full-vesting event on ``when`` (plan termination, change in control) if it applies to
    someone employed on that date."""
    if when is None or when > as_of or p.hire_date > when:
        return None
    if term is not None and term < when:
        return None
    return (what, section)
