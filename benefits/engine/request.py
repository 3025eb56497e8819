"""A calculation request (docs/engine-cli.md): parse, validate, run.

``parse_request(obj)`` turns the decoded JSON into a ``Request`` or raises ``RequestError`` naming
the JSON pointer of the bad field (the command line exits 2 on it). A participant whose own data
cannot be calculated does not stop the others: ``run(request)`` gives it
``{"id", "error": {"field", "message"}}``, where ``field`` is a JSON pointer into the request.

Project additions to the contract (docs/engine-cli.md):

* ``settings``: ``{name: value}``: plan settings by name (any group of the plan's
  ``settings_classes()``), overriding the defaults for the whole request.
* ``options``: ``{"detail": true}`` adds ``service_history`` and ``trace`` to each result;
  ``{"traces": false}`` leaves out each result's ``traces`` and builds no trace step while computing
  (``trace.traces_off``): every other key is the same. ``detail`` with ``traces: false`` is refused
  (``/options/traces``): the detail is the core's trace.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from types import MappingProxyType
from typing import Any, cast

from . import input_ranges
from .core import ParticipantError
from .input_ranges import RequestError as RequestError  # its home; callers import it from here
from .parameters import recorded_reads
from .plans import Plan, UnknownPlan, get_plan, plan_keys
from .settings import SettingError, field_names, override
from .trace import traces_off_unless_off
from .types import EmploymentPeriod, Participant, participant_of

DATE_FIELDS = (
    "birth_date",
    "hire_date",
    "termination_date",
    "spouse_birth_date",
    "death_date",
    "disability_date",
)


@dataclass(frozen=True)
class Request:
    plan: str
    as_of: date
    assumptions: Mapping[str, Any]
    participants: tuple[Participant | tuple[str, ParticipantError], ...]
    settings: Mapping[str, Any]
    detail: bool = False
    traces: bool = True  # False: no ``traces`` key, and no trace step built (``options.traces``)


def _esc(key: object) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def _date(value: object, pointer: str, *, nullable: bool = True) -> date | None:
    if value is None:
        if nullable:
            return None
        raise RequestError(pointer, "a date is required")
    if not isinstance(value, str):
        raise RequestError(pointer, f"not a date: {str(value)[:40]!r}")
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise RequestError(pointer, f"not a date: {value[:40]!r}") from None


def _date_field(value: object, base: str, key: str) -> date | None:
    """``_date(value, f"{base}/{key}")``, the pointer written only for an error (a census has
    millions of dates)."""
    if value is None:
        return None
    if type(value) is str:
        try:
            return date.fromisoformat(value)
        except ValueError:
            pass
    return _date(value, f"{base}/{key}")


def _periods(raw: object, pointer: str) -> tuple[EmploymentPeriod, ...]:
    if not isinstance(raw, list):
        raise RequestError(pointer, "must be a list of {start, end}")
    out = []
    for i, item in enumerate(raw):
        if not isinstance(item, Mapping):
            raise RequestError(f"{pointer}/{i}", "must be an object with start and end")
        start = cast(date, _date(item.get("start"), f"{pointer}/{i}/start", nullable=False))
        end = _date(item.get("end"), f"{pointer}/{i}/end")
        out.append(EmploymentPeriod(start, end))
    return tuple(out)


def _usual_year_map(raw: Mapping[Any, Any], convert: Callable[[Any, str], Any]) -> dict[int, Any] | None:
    """The map when every item is the usual kind (a four-digit year key; whole hours, or pay as a
    decimal string, within their windows), else None: what ``_year_map`` gives for it, with none of
    its per-item calls (a census has millions of items): each check runs over all the items at once."""
    if convert is not _hours and convert is not _money:
        return None
    found = list(map(_YEAR_KEYS.get, raw))
    if None in found:
        return None
    years = cast(list[int], found)
    values = list(raw.values())
    if not values:
        return {}
    if convert is _hours:
        if set(map(type, values)) != {int} or min(values) < 0 or max(values) > _MAX_HOURS:
            return None
        return dict(zip(years, values, strict=True))
    # Pay as plain decimal text (digits, a point, digits: finite, not negative, under the maximum,
    # at most 40 characters) is checked by one match over all of it; anything else, item by item.
    if set(map(type, values)) != {str} or _PLAIN_PAYS.fullmatch(",".join(values)) is None:
        return None
    try:
        return dict(zip(years, map(Decimal, values), strict=True))
    except ArithmeticError:  # a value that holds the comma itself ("1,2") is no number
        return None


def _year_map(raw: object, pointer: str, convert: Callable[[Any, str], Any]) -> MappingProxyType[int, Any]:
    if raw is None:
        return MappingProxyType({})
    if not isinstance(raw, Mapping):
        raise ParticipantError(pointer, "must be an object keyed by year")
    usual = _usual_year_map(raw, convert)
    if usual is not None:
        return MappingProxyType(usual)
    out: dict[int, Any] = {}
    for k, v in raw.items():
        try:  # the usual case first, without building the item's pointer (a census has millions)
            year = int(k) if isinstance(k, str) and len(k) <= 4 else int("x")
            input_ranges.check_year(year, "")
            out[year] = convert(v, "")
            continue
        except (ParticipantError, TypeError, ValueError, ArithmeticError):
            pass  # the same checks again below, with the pointer, raise the error the caller sees
        item = f"{pointer}/{_esc(k)}"
        try:
            year = int(k) if isinstance(k, str) and len(k) <= 4 else int("x")
        except (TypeError, ValueError):
            raise ParticipantError(item, "key must be a year") from None
        input_ranges.check_year(year, item)
        try:
            out[year] = convert(v, item)
        except ParticipantError:
            raise
        except (TypeError, ValueError, ArithmeticError):
            raise ParticipantError(item, f"bad value {str(v)[:40]!r}") from None
    return MappingProxyType(out)


_EARLIEST, _LATEST = input_ranges.EARLIEST_YEAR, input_ranges.LATEST_YEAR
_MAX_HOURS, _MAX_PAY = input_ranges.MAX_HOURS_PER_YEAR, input_ranges.MAX_YEARLY_PAY
# The usual year keys: exactly the four-digit texts of the years in the window.
_YEAR_KEYS = {str(year): year for year in range(_EARLIEST, _LATEST + 1)}
# Plain pay text: fewer whole digits than the maximum has (so under it), at most 40 characters.
_PAY_DIGITS = len(str(int(_MAX_PAY))) - 1
_PLAIN_PAY = rf"[0-9]{{1,{_PAY_DIGITS}}}(?:\.[0-9]{{1,{39 - _PAY_DIGITS}}})?"
_PLAIN_PAYS = re.compile(rf"{_PLAIN_PAY}(?:,{_PLAIN_PAY})*", re.ASCII)


def _hours(v: object, pointer: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int | float) or v != v or v in (float("inf"), float("-inf")):
        raise ValueError
    if int(v) != v:
        raise ParticipantError(pointer, "hours must be a whole number")
    input_ranges.check_hours(int(v), pointer)
    return int(v)


def _money(v: object, pointer: str) -> Decimal:
    if isinstance(v, bool | float) or not isinstance(v, str | int):
        raise TypeError
    if isinstance(v, str) and len(v) > 40:
        raise ValueError
    value = Decimal(str(v)) if not isinstance(v, int) or abs(v) < 10**30 else Decimal("Infinity")
    input_ranges.check_money(value, pointer, limit=input_ranges.MAX_YEARLY_PAY, what="pay")
    return value


def parse_participant(raw: object, index: int, as_of: date | None = None) -> Participant:
    """One participant; date format errors raise RequestError, other bad data ParticipantError.

    With ``as_of``, every date, hour and amount is also checked against its plausible window
    (``input_ranges``)."""
    base = f"/participants/{index}"
    if not isinstance(raw, Mapping):
        raise RequestError(base, "each participant must be an object")
    pid = raw.get("id")
    if not isinstance(pid, str | int) or isinstance(pid, bool):
        raise RequestError(f"{base}/id", "each participant needs an id (string)")
    dates = {k: _date_field(raw.get(k), base, k) for k in DATE_FIELDS}
    periods: tuple[EmploymentPeriod, ...] = ()
    for key in ("employment_periods", "rehire_dates"):
        if raw.get(key) is not None:
            periods = _periods(raw[key], f"{base}/{key}")
    cdates = raw.get("commencement_dates") or []
    if not isinstance(cdates, list):
        raise RequestError(f"{base}/commencement_dates", "must be a list of dates")
    # The same date twice is one date (first place kept); past the maximum the request is refused.
    commencement = tuple(
        dict.fromkeys(
            cast(date, _date(v, f"{base}/commencement_dates/{i}", nullable=False))
            for i, v in enumerate(cdates)
        )
    )
    if len(commencement) > input_ranges.MAX_COMMENCEMENT_DATES:
        raise RequestError(
            f"{base}/commencement_dates",
            f"at most {input_ranges.MAX_COMMENCEMENT_DATES:,} different commencement dates a participant "
            f"(this one has {len(commencement):,})",
        )
    hire = dates["hire_date"] or (periods[0].start if periods else None)
    if dates["birth_date"] is None:
        raise ParticipantError("/birth_date", "birth_date is required")
    if hire is None:
        raise ParticipantError("/hire_date", "hire_date (or employment_periods) is required")
    marital = raw.get("marital_status", "single")
    if marital not in ("single", "married"):
        raise ParticipantError("/marital_status", 'must be "single" or "married"')
    plan_data = raw.get("plan_data") or {}
    if not isinstance(plan_data, Mapping):
        raise ParticipantError("/plan_data", "must be an object")
    if as_of is not None:
        input_ranges.check_participant_dates(
            as_of=as_of,
            birth_date=dates["birth_date"],
            hire_date=hire,
            termination_date=dates["termination_date"],
            death_date=dates["death_date"],
            disability_date=dates["disability_date"],
            spouse_birth_date=dates["spouse_birth_date"],
            commencement_dates=commencement,
        )
        for i, period in enumerate(periods):
            if period.end is not None and period.end < period.start:
                raise ParticipantError(f"/employment_periods/{i}/end", "end is before start")
    return participant_of(
        id=str(pid),
        birth_date=dates["birth_date"],
        hire_date=hire,
        termination_date=dates["termination_date"],
        employment_periods=periods,
        marital_status=marital,
        spouse_birth_date=dates["spouse_birth_date"],
        hours=_year_map(raw.get("hours"), "/hours", _hours),
        compensation=_year_map(raw.get("compensation"), "/compensation", _money),
        commencement_dates=commencement,
        death_date=dates["death_date"],
        disability_date=dates["disability_date"],
        plan_data=MappingProxyType(dict(plan_data)),
    )


def _settings(plan_module: Plan, raw: object) -> dict[str, Any]:
    classes = plan_module.settings_classes()
    resolved = {name: cls() for name, cls in classes.items()}
    if raw is None:
        return resolved
    if not isinstance(raw, Mapping):
        raise RequestError("/settings", "settings must be an object of name → value")
    by_group: dict[str, dict[str, Any]] = {}
    for name, value in raw.items():
        group = next((g for g, cls in classes.items() if name in field_names(cls)), None)
        if group is None:
            raise RequestError(f"/settings/{_esc(name)}", f"unknown setting {name!r}")
        by_group.setdefault(group, {})[name] = value
    for group, values in by_group.items():
        try:
            resolved[group] = override(resolved[group], values)
        except SettingError as exc:
            raise RequestError(f"/settings/{_esc(exc.name)}", str(exc)) from None
    return resolved


def parse_header(obj: object, *, participants: bool = True) -> Request:
    """The request without its participants (plan, as_of, assumptions, settings, options).

    ``participants=False`` is the JSON Lines form (``calculate --jsonl``): the participants follow one
    a line instead of in the object."""
    if not isinstance(obj, Mapping):
        raise RequestError("", "the request must be a JSON object")
    plan = obj.get("plan")
    if not isinstance(plan, str):
        raise RequestError("/plan", f"plan is required: one of {', '.join(plan_keys())}")
    try:
        module = get_plan(plan)
    except UnknownPlan:
        msg = f"unknown plan {plan!r}: one of {', '.join(plan_keys())}"
        raise RequestError("/plan", msg) from None
    as_of = _date(obj.get("as_of"), "/as_of", nullable=False)
    input_ranges.check_as_of(cast(date, as_of))
    assumptions = obj.get("assumptions") or {}
    if not isinstance(assumptions, Mapping):
        raise RequestError("/assumptions", "assumptions must be an object")
    if participants:
        if "participants" not in obj:
            raise RequestError("/participants", "participants is required")
        if not isinstance(obj["participants"], list):
            raise RequestError("/participants", "participants must be a list")
    elif "participants" in obj:
        raise RequestError(
            "/participants", "in JSON Lines the participants follow one a line, not in the first line"
        )
    options = obj.get("options") or {}
    if not isinstance(options, Mapping):
        raise RequestError("/options", "options must be an object")
    detail = options.get("detail", False)
    if not isinstance(detail, bool):
        raise RequestError("/options/detail", "detail must be true or false")
    traces = options.get("traces", True)
    if not isinstance(traces, bool):
        raise RequestError("/options/traces", "traces must be true or false")
    if detail and not traces:
        raise RequestError(
            "/options/traces", "traces cannot be false with detail true: the detail is the trace's steps"
        )
    settings = _settings(module, obj.get("settings"))
    return Request(plan, cast(date, as_of), MappingProxyType(dict(assumptions)), (), settings, detail, traces)


ParsedParticipant = Participant | tuple[str, ParticipantError]


def parse_one(raw: object, index: int, as_of: date | None = None) -> ParsedParticipant:
    """One participant, or its id and the error that stops it (RequestError if the request is malformed:
    with ``as_of``, a value outside its plausible window, ``input_ranges``)."""
    try:
        return parse_participant(raw, index, as_of)
    except input_ranges.ImpossibleInput as exc:
        raise RequestError(f"/participants/{index}{exc.field}", str(exc)) from None
    except ParticipantError as exc:
        return (str(raw.get("id")) if isinstance(raw, Mapping) else "", exc)


def parse_request(obj: object) -> Request:
    header = parse_header(obj)
    raw_participants = cast(Mapping[str, Any], obj)["participants"]
    if len(raw_participants) > input_ranges.MAX_PARTICIPANTS:
        raise RequestError(
            "/participants",
            f"at most {input_ranges.MAX_PARTICIPANTS:,} participants a request (this one has "
            f"{len(raw_participants):,}); split the census",
        )
    parsed = tuple(parse_one(raw, i, header.as_of) for i, raw in enumerate(raw_participants))
    return dataclasses.replace(header, participants=parsed)


def _error_result(pid: str, index: int, exc: Exception) -> dict[str, Any]:
    field = getattr(exc, "field", "")
    if not getattr(exc, "absolute", False):
        field = f"/participants/{index}{field}"
    return {"id": pid, "error": {"field": field, "message": str(exc)}}


_REQUEST_LEVEL = ("/assumptions", "/settings", "/engine")


def _absolute_missing(result: dict[str, Any], index: int) -> dict[str, Any]:
    """Point each ``missing`` field at the request: a participant's own field gets its prefix."""
    for entry in result.get("missing") or ():
        if not entry["field"].startswith(_REQUEST_LEVEL) and not entry["field"].startswith("/participants/"):
            entry["field"] = f"/participants/{index}{entry['field']}"
    return result


def result_for(request: Request, item: ParsedParticipant, index: int) -> dict[str, Any]:
    """The contract result of one parsed participant (an error result if it cannot be calculated)."""
    if isinstance(item, tuple):
        return _error_result(item[0], index, item[1])
    module = get_plan(request.plan)
    try:
        # Every regulatory value a figure reads goes into its trace; without traces nothing is recorded.
        with recorded_reads() if request.traces else traces_off_unless_off():
            if request.detail:
                result = module.calculate(
                    item, request.as_of, request.assumptions, request.settings, detail=True
                )
            else:
                result = module.calculate(item, request.as_of, request.assumptions, request.settings)
        if not request.traces:
            result.pop("traces", None)
        negative = input_ranges.negative_benefit(result)
        if negative:  # a benefit is never negative: that participant gets an error, never the number
            return _error_result(
                item.id, index, ParticipantError(negative, "cannot calculate: a benefit came out negative")
            )
        return _absolute_missing(result, index)
    except ParticipantError as exc:
        return _error_result(item.id, index, exc)
    except Exception as exc:  # noqa: BLE001
        # Whatever stops one participant (data the plan cannot use, a table that does not
        # reach the date) is reported on that participant; the others still compute.
        return _error_result(
            item.id, index, ParticipantError("", f"cannot calculate: {type(exc).__name__}: {exc}")
        )


def response_header(request: Request) -> dict[str, Any]:
    """The response's keys before ``results`` (the command line writes the results as they come)."""
    from . import ENGINE_VERSION  # worked out on first use (a JSON Lines census never writes it)

    return {"plan": request.plan, "as_of": request.as_of.isoformat(), "engine_version": ENGINE_VERSION}


def iter_results(request: Request) -> Iterator[dict[str, Any]]:
    """Each participant's result as soon as it is computed."""
    for i, item in enumerate(request.participants):
        yield result_for(request, item, i)


def run(request: Request) -> dict[str, Any]:
    """The contract response for a parsed request."""
    return response_header(request) | {"results": list(iter_results(request))}


def calculate_request(obj: object) -> dict[str, Any]:
    """Parse and run a decoded request (raises RequestError when it is malformed)."""
    return run(parse_request(obj))
