"""Carver Federal Savings Bank 401(k) Savings Plan: elapsed-time service, vesting by source, dates.

Sources: plan text §1.21, §1.43–§1.45, §1.48, §1.66, §4.1, §4.3, §11.1, §12.5 and
the SPEC readings in docs/plan-notes/carver-401k/service-vesting.md (SPEC §2.3–§2.6, §5.1–§5.6,
§14: GAP-8, GAP-20; assumptions A1, A2, A8).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Literal, cast

from ...core import CoreResult, ParticipantError
from ...dates import ONE_DAY, date_attaining_age, first_of_month_on_or_after
from ...plan_support import (
    check_history,
    pd_int,
    pd_parental_leaves,
    plan_termination_event,
    termination,
    top_heavy_status,
)
from ...service import ElapsedRules, ParityRule, ServiceDataError, elapsed_service
from ...settings import setting
from ...trace import Trace, recording
from ...types import Participant
from ...vesting import ALWAYS_VESTED, VestingResult, graded, vest

if TYPE_CHECKING:
    from .settings import BenefitSettings

PLAN = "carver-401k"
SCHEDULE_CHANGE_DATE = date(1998, 9, 15)  # §4.1(c)

SCHEDULE_1998 = graded(
    ((1, 20), (2, 40), (3, 60), (4, 80), (5, 100)),
    name="vesting schedule for terminations on or after 9/15/1998",
    section="Carver 401(k) §4.1(c)",
)
SCHEDULE_BEFORE_1998 = graded(
    ((3, 20), (4, 40), (5, 60), (6, 80), (7, 100)),
    name="vesting schedule for terminations before 9/15/1998",
    section="Carver 401(k) §4.1(c) (assumption A8)",
)
TOP_HEAVY_SCHEDULE = graded(
    ((2, 20), (3, 40), (4, 60), (5, 80), (6, 100)),
    name="top-heavy schedule",
    section="Carver 401(k) §12.5",
)

# The contract's sources (engine-cli.md); which of them follow the schedule comes from the benefit
# settings (sources.scheduled_sources) when that module is present.
SOURCES = (
    "before_tax",
    "matching_pre2002",
    "matching_2002",
    "rollover",
    "discretionary",
    "nonelective",
    "special",
)
DEFAULT_SCHEDULED = frozenset({"matching_pre2002", "discretionary", "nonelective"})


@dataclass(frozen=True)
class ServiceVestingSettings:
    """GAP readings that change Carver 401(k) service, vesting or retirement dates."""

    erd_after_early_termination: Literal["sixtieth_birthday", "first_of_month"] = setting(
        "sixtieth_birthday",
        section="§1.21",
        gap="GAP-20",
        alternative="first_of_month: the first of the month on or after the 60th birthday, like "
        "the first paragraph of §1.21",
        help="Terminated after a 5-year Period of Service and before 60: the ERD is the date of "
        "attaining 60 (the plan's literal words).",
    )
    old_schedule_before_1998_09_15: bool = setting(
        True,
        section="§4.1(c)",
        gap="assumption A8",
        alternative="false: the 1998 schedule for everyone",
        help="The pre-9/15/1998 schedule applies only to a Termination of Service before then.",
    )
    top_heavy_years: tuple[int, ...] = setting(
        (),
        section="§12.1, §12.5",
        alternative="the Plan Years determined Top-Heavy",
        help="Plan Years in which the plan was Top-Heavy (the 1998 schedule is never slower).",
    )
    plan_termination_date: date | None = setting(
        None, section="§11.1", alternative="a date: affected Accounts become fully vested"
    )


SETTINGS_CLASSES = {"service_vesting": ServiceVestingSettings}

ELAPSED_RULES = ElapsedRules(
    service_section="Carver 401(k) §1.48",
    severance_section="Carver 401(k) §1.45",
    parity=ParityRule("Carver 401(k) §4.3(b)", min_breaks=5, parity=True, vested_protects=True),
)


def _benefit_modules() -> tuple[type[BenefitSettings], Callable[[BenefitSettings], frozenset[str]]] | None:
    """The benefit settings and their scheduled sources, when those modules are present."""
    try:
        from .settings import BenefitSettings
        from .sources import scheduled_sources as from_benefits
    except ImportError:
        return None
    return BenefitSettings, from_benefits


_BENEFIT_MODULES = _benefit_modules()  # looked for once (the core asks for every participant)


def scheduled_sources(benefit_settings: object | None) -> frozenset[str]:
    if _BENEFIT_MODULES is None:
        return DEFAULT_SCHEDULED
    settings_class, from_benefits = _BENEFIT_MODULES
    return from_benefits(
        cast("BenefitSettings", benefit_settings) if benefit_settings is not None else settings_class()
    )


_ALWAYS_VESTED_UNTRACED: list[VestingResult] = []


def _always_vested_untraced() -> VestingResult:
    """``vest(0, ALWAYS_VESTED)`` without a trace: the same frozen result for everyone, made once."""
    if not _ALWAYS_VESTED_UNTRACED:
        _ALWAYS_VESTED_UNTRACED.append(vest(0, ALWAYS_VESTED))
    return _ALWAYS_VESTED_UNTRACED[0]


def _years_worked(p: Participant, as_of: date) -> dict[int, int]:
    """Plan Years with some employment (an Hour of Service) up to ``as_of``."""
    out: dict[int, int] = {}
    for period in p.periods:
        end = min(period.end or as_of, as_of)
        for y in range(period.start.year, end.year + 1):
            out[y] = 1
    return out


def core(
    p: Participant,
    as_of: date,
    settings: ServiceVestingSettings,
    benefit_settings: object | None = None,
) -> CoreResult:
    check_history(p, as_of)
    tb = Trace()
    term = termination(p, as_of)
    schedule = SCHEDULE_1998
    if settings.old_schedule_before_1998_09_15 and term is not None and term < SCHEDULE_CHANGE_DATE:
        schedule = SCHEDULE_BEFORE_1998
    try:
        history = elapsed_service(
            periods=p.periods,
            as_of=as_of,
            rules=ELAPSED_RULES,
            is_vested=lambda n: schedule.percent(n) > 0,
            prior_days=pd_int(p, "prior_service_days", 0),
            parental_leaves=pd_parental_leaves(p),
        )
    except ServiceDataError as exc:
        raise ParticipantError(exc.field, str(exc)) from None

    at60 = date_attaining_age(p.birth_date, 60)
    at65 = date_attaining_age(p.birth_date, 65)
    nrd = first_of_month_on_or_after(at65)
    tb = tb.add(
        "Normal Retirement Date: first of the month on or after age 65",
        section="Carver 401(k) §1.43, §1.44",
        result=nrd,
    )
    five = history.projected_date(5)  # day the 5-year Period of Service is (or would be) reached
    erd = None
    if five is not None:
        if term is None or term >= at60:
            erd = first_of_month_on_or_after(max(at60, five, term + ONE_DAY if term else at60))
        elif five <= term:
            erd = (
                at60
                if settings.erd_after_early_termination == "sixtieth_birthday"
                else first_of_month_on_or_after(at60)
            )
    if erd is not None and erd >= nrd:
        erd = None
    tb = tb.add(
        "Early Retirement Date: from 60 with a 5-year Period of Service",
        section="Carver 401(k) §1.21 (GAP-20)",
        result=erd,
    )

    ceased = term or as_of
    event = None
    if ceased >= at65:
        event = ("attained Normal Retirement Age (65)", "Carver 401(k) §4.1(b)")
    elif p.death_date and p.death_date <= as_of and (term is None or p.death_date <= term):
        event = ("termination by death", "Carver 401(k) §4.1(b)")
    elif p.disability_date and term is not None and p.disability_date <= term:
        event = ("termination by Disability", "Carver 401(k) §4.1(b), §1.18")
    elif term is not None and five is not None and five <= term and term >= at60:
        event = ("termination on or after the Retirement Date", "Carver 401(k) §4.1(b), §1.57")
    else:
        event = plan_termination_event(
            p, as_of, term, settings.plan_termination_date, "plan termination", "Carver 401(k) §11.1"
        )
    th = top_heavy_status(
        TOP_HEAVY_SCHEDULE,
        settings.top_heavy_years,
        {y: history.total_years for y in settings.top_heavy_years},
        _years_worked(p, as_of) if settings.top_heavy_years else {},  # read only for such years
        as_of,
    )
    vesting = vest(
        history.total_years,
        schedule,
        top_heavy=th,
        full_vesting_event=event,
        projected_date=history.projected_date,
        projection_assumption="keeps working without a break (elapsed time, days ÷ 365)",
    )
    scheduled = scheduled_sources(benefit_settings)
    always = vest(0, ALWAYS_VESTED) if recording() else _always_vested_untraced()
    by_source = {s: (vesting if s in scheduled else always) for s in SOURCES}
    return CoreResult(
        plan=PLAN,
        as_of=as_of,
        service=history,
        vesting=vesting,
        by_source=by_source,
        normal_retirement_date=nrd,
        earliest_retirement_date=erd,
        participation_date=None,
        settings={"service_vesting": settings},
        trace=tb.extend(history.trace).extend(vesting.trace),
        extra={"scheduled_sources": tuple(sorted(scheduled))},
    )
