"""The administrators' audit log: human event names, old and new values, filters, pages and CSV.

Reads go through ``benefits.selectors.audit_events_filtered`` (administrators only); this turns each event's
stored data into words. Event names come from ``EVENT_NAMES``; a type nobody named yet is shown in
words built from its parts, never as its key.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from django.core.paginator import Paginator
from django.http import HttpResponse

from benefits.audit import AuditEventType
from benefits.presenters.csv_export import SafeCsvWriter
from benefits.presenters.plain import plain_text
from benefits.presenters.reading_words import reading_label

PAGE_SIZE = 50

# The one list of event types (benefits.audit) names each one; a type stored before it was listed is
# still shown in words built from its parts, never as its key.
EVENT_NAMES = dict(AuditEventType.choices)


def event_name(event_type: str) -> str:
    if event_type in EVENT_NAMES:
        return EVENT_NAMES[event_type]
    words = event_type.replace(".", " ").replace("_", " ").strip()
    return words[:1].upper() + words[1:]


def _value(value: object) -> str:
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(_value(v) for v in value) or "none"
    if isinstance(value, dict):
        return "; ".join(f"{plain_text(k)}: {_value(v)}" for k, v in value.items())
    text = str(value)
    if text == "(engine default)":
        return "the usual reading"
    return plain_text(text)


@dataclass(frozen=True)
class Row:
    event: object  # the AuditEvent
    name: str
    what: str
    changed: str  # what changed, in words ("" when nothing did)
    old: str
    new: str
    plan: str


def _changed(extra: dict) -> tuple[str, str, str]:
    if "old" in extra or "new" in extra:
        what = reading_label(extra["setting"]) if extra.get("setting") else "Value"
        return what, _value(extra.get("old")), _value(extra.get("new"))
    if "from_state" in extra or "to_state" in extra:
        return "State", _value(extra.get("from_state") or "new"), _value(extra.get("to_state"))
    return "", "", ""


def present(event) -> Row:
    extra = event.extra_data or {}
    changed, old, new = _changed(extra)
    summary = plain_text(event.summary.replace("→", "to"))
    return Row(
        event=event,
        name=event_name(event.event_type),
        what=summary,
        changed=changed,
        old=old,
        new=new,
        plan=str(extra.get("plan") or ""),
    )


@dataclass(frozen=True)
class Filters:
    who: str = ""
    what: str = ""
    plan: str = ""
    start: date | None = None
    end: date | None = None

    @classmethod
    def from_query(cls, data) -> tuple[Filters, dict[str, str]]:
        errors: dict[str, str] = {}
        dates: dict[str, date | None] = {}
        for name, label in (("start", "From"), ("end", "To")):
            raw = (data.get(name) or "").strip()
            dates[name] = None
            if raw:
                try:
                    dates[name] = date.fromisoformat(raw)
                except ValueError:
                    errors[name] = f"{label}: enter a real date, for example April 1, 2026."
        if dates["start"] and dates["end"] and dates["end"] < dates["start"]:
            errors["end"] = "To: the end date must not be before the start date."
        return (
            cls(
                who=(data.get("who") or "").strip(),
                what=(data.get("what") or "").strip(),
                plan=(data.get("plan") or "").strip(),
                start=dates["start"],
                end=dates["end"],
            ),
            errors,
        )


def event_choices(stored: Iterable[str]) -> list[tuple[str, str]]:
    """Every listed event type, and any older type still in the log, by name."""
    known = set(stored) | set(EVENT_NAMES)
    return sorted(((t, event_name(t)) for t in known), key=lambda c: c[1])


def page_of(qs, number) -> object:
    return Paginator(qs, PAGE_SIZE).get_page(number)


def csv_response(qs) -> HttpResponse:
    """Every matching event (not only one page), ISO dates as files want them."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="audit-log.csv"'
    response["Cache-Control"] = "private, no-store"
    writer = SafeCsvWriter(response)
    writer.writerow(
        ["time", "event", "event type", "by", "participant", "plan", "what", "changed", "old", "new", "ip"]
    )
    for event in qs.iterator():
        row = present(event)
        writer.writerow(
            [
                event.event_time.isoformat(),
                row.name,
                event.event_type,
                event.acting_user.email if event.acting_user else "system",
                event.participant.participant_number if event.participant else "",
                row.plan,
                row.what,
                row.changed,
                row.old,
                row.new,
                event.ip_address or "",
            ]
        )
    return response
