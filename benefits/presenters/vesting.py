"""The vesting page: service year by year, breaks and what they did, the schedule and where one stands."""

from __future__ import annotations

from benefits.engine.money import percent_str

from .labels import source_label
from .traces import presented


def _schedule_rows(vesting_result) -> dict | None:
    schedule = vesting_result.schedule_table
    if schedule is None:
        return None
    years = vesting_result.years
    current = schedule.percent(years)
    rows = [
        {"years": at_least, "percent": percent_str(p), "reached": years >= at_least, "current": p == current}
        for at_least, p in schedule.steps
    ]
    first = schedule.steps[0][0] if schedule.steps else 0
    if first > 0:  # the years before the first step vest nothing: show that row too
        rows.insert(
            0, {"years": 0, "fewer_than": first, "percent": "0", "reached": True, "current": current == 0}
        )
    return {"name": schedule.name, "section": schedule.section, "rows": rows}


def _break_event(e: dict) -> dict:
    if e.get("lost"):
        what = f"The {e.get('pre_break_years')} years before the breaks were lost (not vested, and the breaks reached the rule of parity)."
    elif e.get("account_frozen"):
        what = "Years before the breaks still count, but vesting in the account built before the breaks stopped growing."
    else:
        what = f"The {e.get('pre_break_years')} years before the breaks were kept."
    return {
        "first_break_year": e.get("first_break_year"),
        "breaks": e.get("breaks"),
        "vested_at_break": e.get("vested_at_break"),
        "what": what,
        "section": e.get("section", ""),
    }


def vesting_page(result: dict, core) -> dict:
    """Everything the vesting page shows, from the engine's detailed ``result`` and its core
    service/vesting result (``engine_adapter.vesting_figures``)."""
    history = result.get("service_history") or {}
    rows = history.get("rows") or []
    elapsed = bool(rows) and "days" in rows[0]
    by_source = []
    for source, vr in (core.by_source or {}).items():
        by_source.append(
            {
                "source": source,
                "label": source_label(source),
                "percent": percent_str(vr.percent),
                "schedule": _schedule_rows(vr) or {"name": vr.schedule, "rows": []},
                "event": vr.full_vesting_event,
            }
        )
    vesting = result.get("vesting") or {}
    return {
        "result": result,
        "years": vesting.get("years_of_vesting_service"),
        "vested_percent": vesting.get("vested_percent"),
        "next_milestone": vesting.get("next_milestone"),
        "milestone_assumption": core.vesting.next_milestone.assumption if core.vesting.next_milestone else "",
        "full_vesting_event": core.vesting.full_vesting_event,
        "schedule": _schedule_rows(core.vesting),
        "schedule_name": core.vesting.schedule,
        "by_source": by_source,
        "elapsed": elapsed,
        "rows": rows,
        "breaks": [_break_event(e) for e in history.get("events") or []],
        "has_break_rows": any(r.get("is_break") for r in rows),
        "trace": presented(result.get("trace") or []),
        "normal_retirement_date": result.get("normal_retirement_date"),
        "earliest_retirement_date": result.get("earliest_retirement_date"),
        "notes": result.get("notes") or [],
    }
