"""Carver Federal Savings Bank Retirement Income Plan: service, vesting and retirement dates as data.

Sources: plan text §1.1(HH), (NN), (OO), (W), (N), §2.1, §4.3, §5.2, §6.2(C), §14.3–§14.4, and
the SPEC readings in docs/plan-notes/carver-db/service-vesting.md (SPEC §2.4–§2.9, §3, §6, §13.2,
§16: GAP-17, -20, -21).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import date
from typing import Literal

from ...core import CoreResult, ParticipantError
from ...dates import ONE_DAY, add_years, date_attaining_age, first_of_month_on_or_after
from ...plan_support import (
    check_history,
    eligibility_year_completed,
    pd_bool,
    pd_date,
    pd_int,
    pd_parental_leaves,
    plan_termination_event,
    termination,
    top_heavy_status,
)
from ...service import HoursRules, ParityRule, ServiceDataError, hours_service
from ...settings import setting
from ...trace import Trace
from ...types import Participant
from ...vesting import cliff, graded, vest

PLAN = "carver-db"
PLAN_FREEZE_DATE = date(2000, 12, 31)  # Foreword, §1.1(PP)
LAST_ENTRY_DATE = date(2000, 7, 1)  # §2.1/§2.2: no participation on or after the freeze
NRD_FIVE_YEAR_RULE_FROM = date(1992, 1, 1)  # §1.1(W)(1)

STANDARD_SCHEDULE = cliff(5, name="five-year cliff schedule", section="Carver DB §1.1(NN)")
TOP_HEAVY_SCHEDULE = graded(
    ((2, 20), (3, 40), (4, 60), (5, 80), (6, 100)),
    name="top-heavy schedule",
    section="Carver DB §6.2(C)",
)
NORMAL_RETIREMENT_AGE = 65  # §1.1(W)(1)
EARLY_RETIREMENT_AGE = 55  # §4.3, §5.2
PRIOR_PLAN_FULL_VESTING_AGE = 60  # §1.1(NN)


@dataclass(frozen=True)
class ServiceVestingSettings:
    """GAP readings that change Carver DB service, vesting or retirement dates."""

    first_year_overlap_counts: bool = setting(
        True,
        section="§1.1(HH)(2)",
        gap="GAP-21",
        alternative="false: the first 12 months and the next Plan Year overlap, so credit at most "
        "one of them (Example 2 gives 12 years instead of 13)",
        help="Literal reading: the 12 months from the employment date replace a short hire year "
        "and the next Plan Year is counted as well.",
    )
    parity_rule: Literal["erisa_parity", "five_breaks_only"] = setting(
        "erisa_parity",
        section="§1.1(HH)(4)",
        gap="GAP-20",
        alternative="five_breaks_only: pre-break Service of a non-vested person is lost after 5 "
        "consecutive breaks, whatever the pre-break years",
        help="The garbled text reconstructed as ERISA §203(b)(3)(D): lost only if not vested and "
        "the consecutive breaks reach the greater of 5 and the pre-break years.",
    )
    top_heavy_years: tuple[int, ...] = setting(
        (),
        section="§6.2",
        gap="GAP-17",
        alternative="the actuary's year-by-year Top-Heavy determinations",
        help="Plan Years in which the plan was Top-Heavy (none known: the plan is treated as never "
        "Top-Heavy).",
    )
    plan_termination_date: date | None = setting(
        None,
        section="§14.3, §14.4",
        alternative="a date: everyone employed then becomes 100% vested",
        help="Date of a (partial) plan termination, if any.",
    )


SETTINGS_CLASSES = {"service_vesting": ServiceVestingSettings}


def hours_rules(s: ServiceVestingSettings) -> HoursRules:
    return _hours_rules(s.parity_rule == "erisa_parity", s.first_year_overlap_counts)


@functools.cache  # made once for each reading, not for each participant of a census
def _hours_rules(parity: bool, first_year_overlap_counts: bool) -> HoursRules:
    return HoursRules(
        year_section="Carver DB §1.1(HH)(2)",
        break_section="Carver DB §1.1(HH)(2)",
        parity=ParityRule(
            "Carver DB §1.1(HH)(4) (GAP-20)",
            min_breaks=5,
            parity=parity,
        ),
        year_of_service_hours=1000,
        break_at_most_hours=500,
        first_year_rule=(
            "employment_year_for_hire_year" if first_year_overlap_counts else "next_year_if_neither"
        ),
        first_year_section="Carver DB §1.1(HH)(2) (GAP-21)",
        parental_section="Carver DB §1.1(HH)(2)",
    )


def participation_date(p: Participant, as_of: date) -> tuple[date | None, str]:
    """Entry Date (§2.1, §1.1(N)): Jan 1/Jul 1 on or after the later of age 18 and the Year of
    Eligibility Service (§1.1(OO)); none on or after the Plan Freeze Date."""
    given = pd_date(p, "participation_date")
    if given is not None:
        return given, "participation date from the records"
    done, estimated = eligibility_year_completed(
        p.hire_date, p.hours, pd_int(p, "first_year_hours"), as_of, then_from="containing_end"
    )
    if done is None:
        return None, "no Year of Eligibility Service yet"
    ready = max(done, date_attaining_age(p.birth_date, 18))
    if ready.month == 1 and ready.day == 1 or ready.month == 7 and ready.day == 1:
        entry = ready
    elif ready.month < 7:
        entry = date(ready.year, 7, 1)
    else:
        entry = date(ready.year + 1, 1, 1)
    if entry > LAST_ENTRY_DATE:
        return None, "eligible only after the last Entry Date before the Plan Freeze (7/1/2000)"
    note = "Year of Eligibility Service completed " + done.isoformat()
    return entry, note + (" (first-12-month hours estimated pro rata)" if estimated else "")


def nrd_vesting(p: Participant, participation: date | None) -> date:
    """§1.1(W)(1): age 65, or for participation from 1/1/1992 the later of 65 and 5 years of it."""
    at65 = date_attaining_age(p.birth_date, NORMAL_RETIREMENT_AGE)
    if participation is not None and participation >= NRD_FIVE_YEAR_RULE_FROM:
        return max(at65, add_years(participation, 5))
    return at65


def core(p: Participant, as_of: date, settings: ServiceVestingSettings) -> CoreResult:
    check_history(p, as_of)
    tb = Trace()
    entry, entry_note = participation_date(p, as_of)
    tb = tb.add(
        "Participation (Entry Date)",
        section="Carver DB §2.1, §1.1(N), §1.1(OO)",
        result=entry,
        note=entry_note,
    )
    nrd_v = nrd_vesting(p, entry)
    nrd = first_of_month_on_or_after(nrd_v)
    tb = tb.add(
        "Normal Retirement Date: first of the month on or after age 65 (or the 5th "
        "anniversary of participation when it began on or after 1/1/1992)",
        section="Carver DB §1.1(W)",
        result=nrd,
        nrd_vesting=nrd_v,
    )
    term = termination(p, as_of)
    schedule_fn = STANDARD_SCHEDULE.percent
    try:
        history = hours_service(
            periods=p.periods,
            birth_date=p.birth_date,
            hours=p.hours,
            as_of=as_of,
            rules=hours_rules(settings),
            is_vested=lambda n: schedule_fn(n) > 0,
            first_year_hours=pd_int(p, "first_year_hours"),
            prior_years=pd_int(p, "prior_service_years", 0),
            parental_leaves=pd_parental_leaves(p),
        )
    except ServiceDataError as exc:
        raise ParticipantError(exc.field, str(exc)) from None

    by_year = {y: running for y, _, running in history.year_summary()} if settings.top_heavy_years else {}
    th = top_heavy_status(TOP_HEAVY_SCHEDULE, settings.top_heavy_years, by_year, p.hours, as_of)
    ceased = term or as_of
    event = None
    if ceased >= nrd_v:
        event = ("Service ceases on or after Normal Retirement Date", "Carver DB §1.1(NN), (W)(1)")
    elif pd_bool(p, "prior_plan_participant") and ceased >= date_attaining_age(
        p.birth_date, PRIOR_PLAN_FULL_VESTING_AGE
    ):
        event = ("Prior Plan Participant whose Service ceases at or after 60", "Carver DB §1.1(NN)")
    else:
        event = plan_termination_event(
            p, as_of, term, settings.plan_termination_date, "plan termination", "Carver DB §14.3, §14.4"
        )
    vesting = vest(
        history.total_years,
        STANDARD_SCHEDULE,
        top_heavy=th,
        full_vesting_event=event,
        projected_date=history.projected_date,
        projection_assumption="service: keeps working full time (2,080 hours a year)",
    )

    # Early retirement (§4.3, §5.2): from 55, if vested; first of a month; after leaving.
    at55 = date_attaining_age(p.birth_date, EARLY_RETIREMENT_AGE)
    erd = None
    if vesting.percent > 0:
        erd = first_of_month_on_or_after(max(at55, term + ONE_DAY) if term else at55)
    elif term is None and vesting.next_milestone and vesting.next_milestone.on:
        erd = first_of_month_on_or_after(max(at55, vesting.next_milestone.on))
    if erd is not None and erd >= nrd:
        erd = None
    tb = tb.add(
        "Earliest early retirement date: first of a month from age 55, vested, after leaving",
        section="Carver DB §4.3, §5.2",
        result=erd,
    )
    trace = tb.extend(history.trace).extend(vesting.trace)
    return CoreResult(
        plan=PLAN,
        as_of=as_of,
        service=history,
        vesting=vesting,
        by_source={},
        normal_retirement_date=nrd,
        earliest_retirement_date=erd,
        participation_date=entry,
        settings={"service_vesting": settings},
        trace=trace,
        extra={"nrd_vesting": nrd_v},
    )
