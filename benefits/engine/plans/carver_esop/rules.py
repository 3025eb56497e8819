"""Carver Bancorp, Inc. ESOP: service, vesting and dates, from settings (the base plan is missing).

The only document is the Sixth Amendment (replacing §10.6, cash-outs). The base plan's service,
vesting, Normal Retirement Age and early retirement terms are UNKNOWN (Fairport SPEC Part B, B4–B6,
D2.1). Every such term is therefore a setting with a documented assumed default that an
administrator must confirm; nothing is borrowed from the Fairport plan except the statute's minimums.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import date
from typing import Literal

from ...core import CoreResult, ParticipantError
from ...dates import date_attaining_age, first_of_month_on_or_after
from ...plan_support import check_history, pd_int, pd_parental_leaves, termination
from ...service import HoursRules, ParityRule, ServiceDataError, hours_service
from ...settings import setting
from ...trace import Trace
from ...types import Participant
from ...vesting import ALWAYS_VESTED, cliff, graded, vest

PLAN = "carver-esop"

SCHEDULES = {
    # Code §411(a)(2)(B): the slowest graded schedule allowed for plan years after 2006.
    "six_year_graded": graded(
        ((2, 20), (3, 40), (4, 60), (5, 80), (6, 100)),
        name="six-year graded schedule (statutory minimum, assumed until the base plan is confirmed)",
        section="Code §411(a)(2)(B)(ii) (Carver ESOP base plan unknown, D2.1)",
    ),
    "three_year_cliff": cliff(
        3,
        name="three-year cliff (statutory minimum, assumed until the base plan is confirmed)",
        section="Code §411(a)(2)(B)(i) (Carver ESOP base plan unknown, D2.1)",
    ),
    "immediate": ALWAYS_VESTED,
}


@dataclass(frozen=True)
class ServiceVestingSettings:
    """Placeholders for the Carver ESOP base plan's unknown service/vesting terms (D2.1)."""

    normal_retirement_age: int = setting(
        65,
        section="base plan (unknown); §10.6(b)(ix), (c)",
        gap="D2.1, D2.14; SPEC E9 assumption",
        alternative="the base plan's NRA; plan_data.normal_retirement_age overrides per person",
        help="§10.6(c) mentions age 65; the NRA itself is defined in the missing base plan.",
    )
    nrd_first_of_following_month: bool = setting(
        True,
        section="base plan (unknown)",
        gap="D2.1",
        alternative="false: the NRD is the day the NRA is attained",
    )
    vesting_schedule: Literal["six_year_graded", "three_year_cliff", "immediate"] = setting(
        "six_year_graded",
        section="base plan (unknown)",
        gap="D2.1",
        alternative="three_year_cliff, or immediate; the base plan's own schedule once obtained",
        help="Placeholder: the slowest schedule the Code allows (§411(a)(2)(B)).",
    )
    year_of_service_hours: int = setting(
        1000,
        section="base plan (unknown)",
        gap="D2.1",
        alternative="the base plan's rule (e.g. elapsed time)",
        help="Placeholder: 1,000 Hours of Service in a calendar Plan Year (Code §411(a)(5)).",
    )
    break_at_most_hours: int = setting(
        500,
        section="base plan (unknown)",
        gap="D2.1",
        alternative="the base plan's break rule",
        help="Placeholder: a Plan Year with 500 or fewer hours is a one-year break.",
    )
    early_retirement_age: int | None = setting(
        None,
        section="base plan (unknown)",
        gap="D2.1, D2.7",
        alternative="an age (with early_retirement_years)",
        help="No early retirement is known: earliest_retirement_date is null.",
    )
    early_retirement_years: int = setting(
        0,
        section="base plan (unknown)",
        gap="D2.1",
        alternative="years of service required with early_retirement_age",
    )
    full_vesting_on_death_or_disability: bool = setting(
        False,
        section="base plan (unknown)",
        gap="D2.1, D2.7",
        alternative="true: death or Total Disability in service vests fully",
    )
    plan_termination_date: date | None = setting(
        None, section="Code §411(d)(3)", alternative="a date: affected accounts vest fully"
    )


SETTINGS_CLASSES = {"service_vesting": ServiceVestingSettings}
NEEDS_CONFIRMATION = (
    "normal_retirement_age",
    "vesting_schedule",
    "year_of_service_hours",
    "break_at_most_hours",
    "early_retirement_age",
)


@functools.cache  # made once for each setting, not for each participant of a census
def _hours_rules(year_of_service_hours: int, break_at_most_hours: int) -> HoursRules:
    return HoursRules(
        year_section="Carver ESOP (assumed: 1,000-hour Plan Years)",
        break_section="Carver ESOP (assumed)",
        parity=ParityRule("Code §411(a)(6)(D) (assumed)", min_breaks=5),
        year_of_service_hours=year_of_service_hours,
        break_at_most_hours=break_at_most_hours,
    )


def core(p: Participant, as_of: date, settings: ServiceVestingSettings) -> CoreResult:
    check_history(p, as_of)
    tb = Trace().add(
        "Carver ESOP base plan not available: service and vesting use assumed settings (the statutory minimums) until an administrator confirms them",
        section="Sixth Amendment only (Fairport SPEC Part B, D2.1)",
        result=settings.vesting_schedule,
    )
    nra_age = pd_int(p, "normal_retirement_age", settings.normal_retirement_age)
    nra = date_attaining_age(p.birth_date, nra_age)
    nrd = first_of_month_on_or_after(nra) if settings.nrd_first_of_following_month else nra
    tb = tb.add(
        "Normal Retirement Date",
        section="base plan (unknown; setting)",
        result=nrd,
        normal_retirement_age=nra_age,
    )
    term = termination(p, as_of)
    rules = _hours_rules(settings.year_of_service_hours, settings.break_at_most_hours)
    schedule = SCHEDULES[settings.vesting_schedule]
    try:
        history = hours_service(
            periods=p.periods,
            birth_date=p.birth_date,
            hours=p.hours,
            as_of=as_of,
            rules=rules,
            is_vested=lambda n: schedule.percent(n) > 0,
            prior_years=pd_int(p, "prior_service_years", 0),
            parental_leaves=pd_parental_leaves(p),
        )
    except ServiceDataError as exc:
        raise ParticipantError(exc.field, str(exc)) from None
    event = None
    if (term or as_of) >= nra:
        event = ("attained Normal Retirement Age", "Code §411(a) (NRA from settings)")
    elif settings.full_vesting_on_death_or_disability and (
        (p.death_date and p.death_date <= as_of) or (p.disability_date and p.disability_date <= as_of)
    ):
        event = ("death or Total Disability", "base plan (setting)")
    elif (
        settings.plan_termination_date
        and settings.plan_termination_date <= as_of
        and (term is None or term >= settings.plan_termination_date)
    ):
        event = ("plan termination", "Code §411(d)(3)")
    vesting = vest(
        history.total_years,
        schedule,
        full_vesting_event=event,
        projected_date=history.projected_date,
        projection_assumption="keeps working full time (2,080 hours a year)",
    )
    erd = None
    if settings.early_retirement_age is not None:
        at = date_attaining_age(p.birth_date, settings.early_retirement_age)
        served = (
            history.projected_date(settings.early_retirement_years)
            if (settings.early_retirement_years)
            else at
        )
        if served is not None:
            erd = max(at, served)
            if (term is not None and erd > term) or erd >= nrd:
                erd = None
    return CoreResult(
        plan=PLAN,
        as_of=as_of,
        service=history,
        vesting=vesting,
        by_source={},
        normal_retirement_date=nrd,
        earliest_retirement_date=erd,
        participation_date=None,
        settings={"service_vesting": settings},
        trace=tb.extend(history.trace).extend(vesting.trace),
        notes=tuple(
            f"setting {n} is an assumed default until the base plan is obtained" for n in NEEDS_CONFIRMATION
        ),
    )
