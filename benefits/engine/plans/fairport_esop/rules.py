"""Fairport Savings Bank ESOP: service (Vesting Years), vesting, retirement dates as data.

Sources: plan text §2 ("Vesting Year", "Break in Service", "Service", "Normal Retirement Date",
"Early Retirement"), §9.1–§9.4, §15.6 and the SPEC readings in docs/plan-notes/fairport-esop/service-vesting.md
(A2.2–A2.5, A5.1–A5.4, E3, E4, Part D: D1.2, D1.3, D1.23, D1.24).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from datetime import date
from typing import Literal

from ...core import CoreResult, ParticipantError
from ...dates import date_attaining_age, first_of_month_on_or_after
from ...missing import BENEFITS_BLOCKED, MissingInput
from ...plan_support import (
    check_history,
    elapsed_years_date,
    pd_int,
    pd_parental_leaves,
    pd_year_hours,
    plan_termination_event,
    termination,
)
from ...service import HoursRules, ParityRule, ServiceDataError, hours_service
from ...settings import setting
from ...trace import Trace
from ...types import Participant
from ...vesting import graded, vest

PLAN = "fairport-esop"
EFFECTIVE_YEAR = 2007  # §1.3: effective January 1, 2007

# §9.1; §15.6 gives the identical table when the plan is top-heavy, so no separate floor is needed.
SCHEDULE = graded(
    ((2, 20), (3, 40), (4, 60), (5, 80), (6, 100)),
    name="six-year graded schedule",
    section="Fairport §9.1 (same table when top-heavy, §15.6)",
)


@dataclass(frozen=True)
class ServiceVestingSettings:
    """GAP readings that change Fairport service, vesting or retirement dates."""

    pre_plan_vesting_cap_years: int | None = setting(
        None,
        section="§9.2",
        gap="D1.2",
        required=True,
        alternative="0, 3, 5, or no cap (a large number): SPEC E3c shows the effect",
        help="REQUIRED. The maximum number of pre-2007 Vesting Years is BLANK in the plan text. "
        "Until an administrator confirms it, anyone with a pre-2007 year of 1,000 hours cannot be "
        "calculated.",
    )
    early_retirement_service: Literal["elapsed", "hours_years", "vesting_years"] = setting(
        "elapsed",
        section='§2 "Early Retirement"',
        gap="D1.3",
        alternative="hours_years: Plan Years with 1,000 hours (no age or pre-plan limits); "
        "vesting_years: Vesting Years (SPEC E3b shows the effect)",
        help='"10 years of Service" read as elapsed employment (§2 "Service" is period(s) of '
        "employment). The Committee must confirm.",
    )
    plan_termination_date: date | None = setting(
        None, section="§9.4", alternative="a date: everyone affected becomes 100% vested"
    )
    change_in_control_date: date | None = setting(
        None, section="§9.3-2", alternative="a date: full vesting on a Change in Control"
    )


SETTINGS_CLASSES = {"service_vesting": ServiceVestingSettings}
NEEDS_CONFIRMATION = ("early_retirement_service",)  # defaults the Committee still has to confirm


def hours_rules(s: ServiceVestingSettings) -> HoursRules:
    return _hours_rules(s.pre_plan_vesting_cap_years)


@functools.cache  # made once for each cap, not for each participant of a census
def _hours_rules(pre_plan_vesting_cap_years: int | None) -> HoursRules:
    return HoursRules(
        year_section='Fairport §2 "Vesting Year", §9.2',
        break_section='Fairport §2 "Break in Service"',
        parity=ParityRule("Fairport §9.2-2, §9.2-3", min_breaks=5, parity=True, vested_protects=True),
        exclude_before_age=18,
        age_section="Fairport §9.2-1",
        effective_year=EFFECTIVE_YEAR,
        pre_effective_cap=pre_plan_vesting_cap_years,
        pre_effective_section="Fairport §9.2 (D1.2)",
        parental_section='Fairport §2 "Break in Service" (D1.14)',
    )


PLAIN_HOURS_RULES = HoursRules(
    year_section='Fairport §2 "Service" (years with 1,000 hours, D1.3)',
    break_section='Fairport §2 "Break in Service"',
    parity=ParityRule("Fairport §9.2-2", min_breaks=5),
)


def _has_pre_plan_year(p: Participant, hours_before_18: dict[int, int]) -> bool:
    at18 = date_attaining_age(p.birth_date, 18).year
    for y, h in p.hours.items():
        if y < EFFECTIVE_YEAR and y >= at18 and h - hours_before_18.get(y, 0) >= 1000:
            return True
    return False


def core(p: Participant, as_of: date, settings: ServiceVestingSettings) -> CoreResult:
    check_history(p, as_of)
    tb = Trace()
    before_18 = pd_year_hours(p, "hours_before_age_18")
    cap_unconfirmed = settings.pre_plan_vesting_cap_years is None and _has_pre_plan_year(p, before_18)
    counted = settings
    if cap_unconfirmed:
        # §9.2's maximum of pre-plan Vesting Years is blank (GAP D1.2). Until an administrator
        # confirms a reading, count none of them: every reading gives at least these years, so the
        # service, vesting and dates shown never overstate; the account figures wait (``missing``).
        counted = replace(settings, pre_plan_vesting_cap_years=0)
    term = termination(p, as_of)
    try:
        history = hours_service(
            periods=p.periods,
            birth_date=p.birth_date,
            hours=p.hours,
            as_of=as_of,
            rules=hours_rules(counted),
            is_vested=lambda n: SCHEDULE.percent(n) > 0,
            prior_years=pd_int(p, "prior_service_years", 0),
            hours_before_age=before_18,
            parental_leaves=pd_parental_leaves(p),
        )
    except ServiceDataError as exc:
        raise ParticipantError(exc.field, str(exc)) from None

    at55 = date_attaining_age(p.birth_date, 55)
    nrd = first_of_month_on_or_after(date_attaining_age(p.birth_date, 65))
    tb = tb.add(
        "Normal Retirement Date: first of the month on or after the 65th birthday",
        section='Fairport §2 "Normal Retirement Date"',
        result=nrd,
    )
    employed = term is None
    measure = settings.early_retirement_service
    if measure == "elapsed":
        ten = elapsed_years_date(p, 10, as_of, employed)
    elif measure == "vesting_years":
        ten = history.projected_date(10)
    else:
        plain = hours_service(
            periods=p.periods,
            birth_date=p.birth_date,
            hours=p.hours,
            as_of=as_of,
            rules=PLAIN_HOURS_RULES,
            is_vested=lambda n: n >= 2,
        )
        ten = plain.projected_date(10)
    erd = max(at55, ten) if ten is not None else None
    if erd is not None and term is not None and erd > term:
        erd = None  # left before 55 with 10 years: no Early Retirement
    if erd is not None and erd >= nrd:
        erd = None
    tb = tb.add(
        "Early Retirement: age 55 and 10 years of Service",
        section=f'Fairport §2 "Early Retirement" (D1.3: {measure})',
        result=erd,
    )

    # §9.3-1: 100% at the NRD while employed, or when Service ends by Early Retirement,
    # Disability or death; §9.3-2 Change in Control; §9.4 plan termination.
    event = None
    if as_of >= nrd and (term is None or term >= nrd):
        event = ("reached the Normal Retirement Date", "Fairport §9.3-1")
    elif p.death_date and p.death_date <= as_of and (term is None or p.death_date <= term):
        event = ("Service ended by death", "Fairport §9.3-1")
    elif term is not None and p.disability_date and p.disability_date <= term:
        event = ("Service ended by Disability", "Fairport §9.3-1")
    elif term is not None and erd is not None and term >= erd:
        event = ("Service ended by Early Retirement", "Fairport §9.3-1")
    else:
        event = plan_termination_event(
            p, as_of, term, settings.change_in_control_date, "Change in Control", "Fairport §9.3-2"
        ) or plan_termination_event(
            p, as_of, term, settings.plan_termination_date, "plan termination", "Fairport §9.4"
        )
    vesting = vest(
        history.total_years,
        SCHEDULE,
        full_vesting_event=event,
        projected_date=history.projected_date,
        projection_assumption="keeps working full time (2,080 hours a year); a Vesting Year is "
        "credited on its 1,000th hour (D1.24)",
    )
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
            f"setting {n} uses its default until the Committee confirms it" for n in NEEDS_CONFIRMATION
        )
        + ((PRE_PLAN_CAP_NOTE,) if cap_unconfirmed else ()),
        extra={BENEFITS_BLOCKED: pre_plan_cap_missing()} if cap_unconfirmed else {},
    )


PRE_PLAN_CAP_NOTE = (
    "no Vesting Year before 2007 is counted until an administrator confirms the plan's maximum of "
    "pre-plan Vesting Years (blank in §9.2, GAP D1.2): the vesting shown is the least any reading gives"
)


def pre_plan_cap_missing() -> MissingInput:
    """The missing reading that holds back the account figures of a participant with pre-2007 years
    (the vested percent they rest on may rise once the cap is confirmed)."""
    return MissingInput(
        "/settings/pre_plan_vesting_cap_years",
        "pre-2007 service needs the plan's maximum of pre-plan Vesting Years (blank in §9.2, GAP D1.2): "
        "an administrator must confirm it; vesting counts no pre-2007 year until then",
    )
