"""Quaker City Bank Employees' Retirement Income Plan (cash balance): service, vesting, dates.

Sources: plan text §1.9, §1.20, §1.38, §1.40, §1.62, §1.63, §2.1, §5.9(a), §7.3, §8.1 and
the SPEC readings in docs/plan-notes/quaker-cash-balance/service-vesting.md (SPEC §2.4–§2.11,
§3.2, §6, §16: AMBIG-1, -2, -4, -5, -11; GAP-11, GAP-17).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from functools import cache
from typing import Literal

from ...core import CoreResult, ParticipantError
from ...dates import ONE_DAY, add_years, date_attaining_age, first_of_month_on_or_after
from ...plan_support import (
    check_history,
    eligibility_year_completed,
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

PLAN = "quaker-cash-balance"
RESTATEMENT_DATE = date(2000, 1, 1)  # §1.21; decides the 4- or 5-year early retirement test

STANDARD_SCHEDULE = cliff(5, name="five-year cliff", section="Quaker §5.9(a)")
TOP_HEAVY_SCHEDULE = graded(
    ((2, 20), (3, 40), (4, 60), (5, 100)), name="top-heavy schedule", section="Quaker §7.3"
)


@dataclass(frozen=True)
class ServiceVestingSettings:
    """GAP/AMBIG readings that change Quaker service, vesting or retirement dates."""

    full_vesting_at: Literal["nra", "nrd"] = setting(
        "nra",
        section="§5.9(a)",
        gap="AMBIG-11",
        alternative="nrd: vest on the Normal Retirement Date (first of the following month), as "
        "the text says",
        help="The law requires full vesting at Normal Retirement Age.",
    )
    vested_keep_service_after_five_breaks: bool = setting(
        True,
        section="§1.63",
        gap="AMBIG-4",
        alternative="false: five consecutive breaks disregard pre-break service even for a vested "
        "participant (for post-break benefits)",
        help="Five consecutive One-Year Breaks lose pre-break service only for a non-vested person.",
    )
    participation_date_for_rehires: Literal["original", "reemployment"] = setting(
        "original",
        section="§1.38",
        gap="AMBIG-5",
        alternative="reemployment: the 5-year participation test of the NRA restarts on re-entry",
    )
    early_retirement_requires_vesting: bool = setting(
        False,
        section="§1.20, §5.4, §5.9(a)",
        gap="AMBIG-2",
        alternative="true: a pre-2000 participant with 4 Years of Service but under 5 Years of "
        "Vesting Service has no Early Retirement Date",
    )
    top_heavy_years: tuple[int, ...] = setting(
        (),
        section="§7.1, §7.3",
        gap="GAP-17",
        alternative="the actuary's year-by-year Top-Heavy determinations",
        help="Plan Years in which the plan was Top-Heavy.",
    )
    plan_termination_date: date | None = setting(
        None, section="§8.1", alternative="a date: accrued benefits become nonforfeitable"
    )


SETTINGS_CLASSES = {"service_vesting": ServiceVestingSettings}


def hours_rules(s: ServiceVestingSettings) -> HoursRules:
    return _hours_rules(s.vested_keep_service_after_five_breaks)


@cache  # the rules depend on that one setting: made once, not for every participant of a census
def _hours_rules(vested_protects: bool) -> HoursRules:
    return HoursRules(
        year_section="Quaker §1.63(b)",
        break_section="Quaker §1.9",
        parity=ParityRule(
            "Quaker §1.63 (AMBIG-4: five consecutive breaks)",
            min_breaks=5,
            parity=False,
            vested_protects=vested_protects,
        ),
        first_year_rule="next_year_if_neither",
        first_year_section="Quaker §1.63(c)",
        parental_section="Quaker §1.9",
    )


def participation_date(p: Participant, as_of: date) -> tuple[date | None, str]:
    """§2.1(b): the first of the month on which the person is an Eligible Employee (age 21 and a
    Year of Eligibility Service, §1.23, §1.62; the year counts from the day after it ends)."""
    given = pd_date(p, "participation_date")
    if given is not None:
        return given, "participation date from the records"
    done, estimated = eligibility_year_completed(
        p.hire_date, p.hours, pd_int(p, "first_year_hours"), as_of, then_from="after_hire"
    )
    if done is None:
        return None, "no Year of Eligibility Service yet"
    entry = first_of_month_on_or_after(max(done + ONE_DAY, date_attaining_age(p.birth_date, 21)))
    note = "Year of Eligibility Service completed " + done.isoformat()
    return entry, note + (" (first-12-month hours estimated pro rata)" if estimated else "")


def core(p: Participant, as_of: date, settings: ServiceVestingSettings) -> CoreResult:
    check_history(p, as_of)
    tb = Trace()
    entry, entry_note = participation_date(p, as_of)
    if settings.participation_date_for_rehires == "reemployment" and entry is not None and len(p.periods) > 1:
        entry = max(entry, p.periods[-1].start)
        entry_note += "; restarted on reemployment (AMBIG-5)"
    tb = tb.add("Participation date", section="Quaker §2.1, §1.62", result=entry, note=entry_note)
    at65 = date_attaining_age(p.birth_date, 65)
    nra = max(at65, add_years(entry, 5)) if entry else at65
    nrd = first_of_month_on_or_after(nra)
    tb = tb.add(
        "Normal Retirement Age: later of 65 and the 5th anniversary of participation; "
        "NRD the first of the month on or after it",
        section="Quaker §1.38, §1.40",
        result=nrd,
        normal_retirement_age=nra,
    )
    term = termination(p, as_of)
    try:
        history = hours_service(
            periods=p.periods,
            birth_date=p.birth_date,
            hours=p.hours,
            as_of=as_of,
            rules=hours_rules(settings),
            is_vested=lambda n: STANDARD_SCHEDULE.percent(n) > 0,
            first_year_hours=pd_int(p, "first_year_hours"),
            prior_years=pd_int(p, "prior_service_years", 0),
            parental_leaves=pd_parental_leaves(p),
        )
    except ServiceDataError as exc:
        raise ParticipantError(exc.field, str(exc)) from None
    # Read only for the Top-Heavy Plan Years (none by default): not made without them.
    by_year = {int(r.label): r.running_total for r in history.years} if settings.top_heavy_years else {}
    th = top_heavy_status(TOP_HEAVY_SCHEDULE, settings.top_heavy_years, by_year, p.hours, as_of)
    vest_day = nra if settings.full_vesting_at == "nra" else nrd
    event = None
    if (term or as_of) >= vest_day:
        event = (
            "reached Normal Retirement " + ("Age" if settings.full_vesting_at == "nra" else "Date"),
            "Quaker §5.9(a) (AMBIG-11)",
        )
    else:
        event = plan_termination_event(
            p, as_of, term, settings.plan_termination_date, "plan termination", "Quaker §8.1"
        )
    vesting = vest(
        history.total_years,
        STANDARD_SCHEDULE,
        top_heavy=th,
        full_vesting_event=event,
        projected_date=history.projected_date,
        projection_assumption="keeps working full time (2,080 hours a year); a year is credited "
        "on its 1,000th hour (GAP-11)",
    )

    # §1.20: first of a month from 55 and 4 (pre-2000 participants) or 5 Years of Service
    # ("Years of Service" read as Years of Vesting Service, AMBIG-1), before NRD, after leaving.
    needed = 4 if entry is not None and entry < RESTATEMENT_DATE else 5
    at55 = date_attaining_age(p.birth_date, 55)
    served = (
        history.projected_date(needed)
        if history.total_years < needed
        else (history.date_years_reached(needed) or at55)
    )
    erd = None
    if served is not None and not (
        settings.early_retirement_requires_vesting and vesting.percent == 0 and term is not None
    ):
        earliest = max(at55, served, term + ONE_DAY if term else at55)
        erd = first_of_month_on_or_after(earliest)
        if erd >= nrd:
            erd = None
    tb = tb.add(
        f"Early Retirement Date: first of a month from 55 with {needed} Years of Service",
        section="Quaker §1.20, §5.4 (AMBIG-1, AMBIG-2)",
        result=erd,
    )
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
        trace=tb.extend(history.trace).extend(vesting.trace),
        extra={"normal_retirement_age": nra},
    )
