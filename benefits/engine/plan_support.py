"""Helpers the plan packages share: reading ``plan_data``, settings groups, the calculate runner.

Plan-agnostic: plans pass in their own rules, sections and settings classes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from datetime import date
from typing import Any

from .core import CoreResult, ParticipantError
from .dates import ONE_DAY, add_years, days_inclusive
from .service import ParentalLeave
from .types import Participant
from .vesting import Schedule, TopHeavyStatus

# ---------------------------------------------------------------------------- plan_data readers


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


# ---------------------------------------------------------------------------- calculate runner


def resolve_settings(classes: Mapping[str, type], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """Default instances for each settings group, replaced by any given instance."""
    out = {name: cls() for name, cls in classes.items()}
    for name, value in (given or {}).items():
        if name not in out:
            raise KeyError(f"unknown settings group {name!r}")
        if not isinstance(value, classes[name]):
            raise TypeError(f"settings group {name!r} must be a {classes[name].__name__}")
        out[name] = value
    return out


def compute_core(
    core_fn: Callable[..., CoreResult], participant: Participant, as_of: date, settings: Mapping[str, Any]
) -> CoreResult:
    """A plan's service/vesting core with its resolved settings groups attached."""
    extra = {}
    if getattr(core_fn, "uses_benefit_settings", False):
        extra["benefit_settings"] = settings.get("benefits")
    core = core_fn(participant, as_of, settings["service_vesting"], **extra)
    return dataclasses.replace(core, settings=dict(settings))


def run_calculate(
    participant: Participant,
    as_of: date,
    assumptions: Mapping[str, Any],
    settings: Mapping[str, Any],
    core_fn: Callable[[Participant, date, Any], CoreResult],
    outputs_fn: Callable[..., dict],
    *,
    detail: bool = False,
) -> dict:
    core = compute_core(core_fn, participant, as_of, settings)
    result = {"id": participant.id}
    result.update(core.contract())
    try:
        result.update(outputs_fn(participant, as_of, assumptions, core))
    except Exception as exc:
        # A missing input (a market rate, a limit or table the engine lacks for the date) blocks the
        # benefit figures, not the participant: vesting and dates stay (issue 12, partial results).
        from .missing import whole_plan_blocked

        entry = whole_plan_blocked(getattr(outputs_fn, "__module__", ""), exc)
        if entry is None:
            raise
        result["missing"] = [entry]
    if detail:
        from .request import history_dict

        result["service_history"] = history_dict(core)
        result["trace"] = core.trace.as_list()
        if core.notes:
            result["notes"] = list(core.notes)
    return result


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
    from .service import estimate_first_year_hours

    estimated = first_year_hours is None
    fy = estimate_first_year_hours(hire, hours) if estimated else first_year_hours
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


# ---------------------------------------------------------------------------- a plan package's API


@dataclasses.dataclass(frozen=True)
class PlanAPI:
    """What every plan package exposes, built the same way for each: settings groups and ``calculate``.

    ``service_vesting`` is the plan's ``rules.ServiceVestingSettings``; a ``BenefitSettings`` class in the
    package's ``settings`` module, when there is one, becomes the ``benefits`` group.
    """

    package: str
    core: Callable[..., CoreResult]
    service_vesting: type

    def settings_classes(self) -> dict[str, type]:
        import importlib

        classes: dict[str, type] = {"service_vesting": self.service_vesting}
        try:
            benefit = importlib.import_module(f"{self.package}.settings")
        except ImportError:
            return classes
        if (cls := getattr(benefit, "BenefitSettings", None)) is not None:
            classes["benefits"] = cls
        return classes

    def default_settings(self) -> dict[str, Any]:
        return resolve_settings(self.settings_classes(), None)

    def core_result(
        self, participant: Participant, as_of: date, settings: Mapping[str, Any] | None = None
    ) -> CoreResult:
        """Service, vesting and retirement dates alone (the web app's vesting and statement pages)."""
        return compute_core(
            self.core, participant, as_of, resolve_settings(self.settings_classes(), settings)
        )

    def calculate(
        self,
        participant: Participant,
        as_of: date,
        assumptions: Mapping[str, Any],
        settings: Mapping[str, Any] | None = None,
        *,
        detail: bool = False,
    ) -> dict:
        """The contract result for one participant (engine-cli.md).

        ``settings`` maps a group name of ``settings_classes()`` to an instance; missing groups take
        their defaults. ``detail`` adds the service breakdown and the trace.
        """
        import importlib

        plan_outputs = importlib.import_module(f"{self.package}.outputs").plan_outputs
        resolved = resolve_settings(self.settings_classes(), settings)
        return run_calculate(
            participant, as_of, assumptions, resolved, self.core, plan_outputs, detail=detail
        )
