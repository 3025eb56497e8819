"""The one adapter between the ORM and the engine: contract requests built from rows, results stored.

The web app calls the engine through exactly the same entry point as the command line
(``benefits.engine.request.calculate_request``), so a number on a page can be reproduced from the
stored request with ``python -m benefits.engine calculate``. For what the contract result does not
carry (service rows, schedules, ledgers) ``engine_inputs`` parses the same request with the engine's
own parser, so the participant, settings and assumptions are exactly those of the numbers on the page.
Nothing else outside ``benefits/engine/`` builds an engine request or imports an engine plan.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
import types
import typing
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from benefits.engine import ENGINE_VERSION
from benefits.engine.plans import Plan as EnginePlan
from benefits.engine.plans import get_plan, settings_classes
from benefits.engine.request import RequestError, calculate_request, parse_request
from benefits.engine.settings import describe, override
from benefits.models import CalculationResult, MarketRate, Plan, PlanMembership


class CalculationError(Exception):
    """The engine could not calculate this membership; ``field`` is the JSON pointer it named."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


SEGMENT_SERIES = ("417e_segment_1", "417e_segment_2", "417e_segment_3")
# The market series the contract reads, in one query (``market_assumptions``).
_MARKET_SERIES = ("treasury_10y_november", "treasury_30y", *SEGMENT_SERIES)


def market_assumptions() -> dict:
    """Market data as administrators keep it (``MarketRate``), in the engine contract's assumption names.

    Dates past the last published rate are projections: they assume the last published rate
    continues, and the engine's trace says so for every number that uses one. One query for every
    series (the rates are the same for every plan).
    """
    by_series: dict[str, list[MarketRate]] = {s: [] for s in _MARKET_SERIES}
    for r in MarketRate.objects.filter(series__in=_MARKET_SERIES).order_by("series", "period"):
        by_series[r.series].append(r)
    assumptions: dict = {}
    november = by_series["treasury_10y_november"]
    if november:
        assumptions["treasury_10y_november"] = {str(r.period.year): str(r.percent) for r in november}
        assumptions["treasury_10y_projection"] = str(november[-1].percent)
    monthly_30y = by_series["treasury_30y"]
    if monthly_30y:
        monthly = {f"{r.period:%Y-%m}": str(r.percent) for r in monthly_30y}
        # A plan reads the 30-year Treasury rate by month as its applicable interest rate or as the
        # basis of other figures (its package says which, and cites its section).
        assumptions["applicable_interest_rate"] = monthly
        assumptions["treasury_30y_monthly"] = monthly
        assumptions["applicable_interest_rate_default"] = str(monthly_30y[-1].percent)
    # §417(e)(3) minimum present value segment rates, one series per segment; a month is given to
    # the engine only when all three are kept (docs/engine-cli.md: segment_rates).
    segments: dict[str, dict[int, str]] = {}
    for series in SEGMENT_SERIES:
        for r in by_series[series]:
            segments.setdefault(f"{r.period:%Y-%m}", {})[SEGMENT_SERIES.index(series)] = str(r.percent)
    complete = {month: [by[0], by[1], by[2]] for month, by in segments.items() if len(by) == 3}
    if complete:
        assumptions["segment_rates"] = complete
    # §417(e)(3) tables an administrator loaded (issue 24): the latest version of each year replaces
    # the shipped table for that year, and a year past the shipped ones is priced on its own table.
    # The same for the Single Life Table of Treas. Reg. §1.401(a)(9)-9.
    from benefits.imports.table_reads import loaded_assumptions

    assumptions.update(loaded_assumptions())  # one query for both
    return assumptions


def assumptions_standing_in(membership: PlanMembership, stand_ins: dict[tuple[str, date], date]) -> dict:
    """The membership's market assumptions with each (series, month) not yet published given the rate
    of its stand-in month (the latest published): a provisional explanation's figures (issue 25). A
    month of segment rates is given only with all three segments, as ``market_assumptions`` gives them."""
    assumptions = _assumptions_for(membership)
    for (series, month), source in sorted(stand_ins.items()):
        key, was = f"{month:%Y-%m}", f"{source:%Y-%m}"
        if series == "treasury_30y":
            for name in ("applicable_interest_rate", "treasury_30y_monthly"):
                table = assumptions.get(name) or {}
                if was in table:
                    table[key] = table[was]
        elif series in SEGMENT_SERIES:
            table = assumptions.get("segment_rates") or {}
            if was in table:
                table[key] = list(table[was])
    return assumptions


def result_is_current(engine_version: str) -> bool:
    """Whether a stored figure was made by this engine (its code and data: ``ENGINE_VERSION``)."""
    return engine_version == ENGINE_VERSION


def plan_assumptions(plan: Plan) -> dict:
    """The market assumptions of a plan's requests (today the same for every plan)."""
    return market_assumptions()


def _assumptions_for(membership: PlanMembership) -> dict:
    """Read the market data once per membership object (one page builds its request more than once)."""
    memo = getattr(membership, "_market_assumptions", None)
    if memo is None:
        memo = plan_assumptions(membership.plan)
        membership._market_assumptions = memo
    return copy.deepcopy(memo)


def participant_payload(membership: PlanMembership, *, commencement_dates: Iterable[date] = ()) -> dict:
    """One participant in the engine contract's JSON shape."""
    p = membership.participant
    # .all() (not .order_by) so a prefetch (``selectors.with_engine_rows``) serves it without a query
    return payload_from_rows(
        membership,
        periods=[(ep.start, ep.end) for ep in p.employment_periods.all()],
        hours=[(h.period_year, h.hours) for h in membership.hours.all()],
        compensation=[(c.year, c.amount) for c in membership.compensation.all()],
        balances=[(b.source, b.balance) for b in membership.balances.all()],
        commencement_dates=commencement_dates,
    )


def payload_from_rows(
    membership: PlanMembership,
    *,
    periods: list[tuple[date, date | None]],
    hours: list[tuple[int, int]],
    compensation: list[tuple[int, Decimal]],
    balances: list[tuple[str, Decimal]],
    commencement_dates: Iterable[date] = (),
) -> dict:
    """The contract's participant from plain rows: hours and pay by year in year order, balances in
    date order (the latest of each source wins), the person's employment periods."""
    p = membership.participant
    periods = sorted(periods, key=lambda period: period[0])
    payload: dict = {
        "id": p.participant_number,
        "birth_date": p.birth_date.isoformat(),
        "hire_date": p.hire_date.isoformat(),
        "termination_date": p.termination_date.isoformat() if p.termination_date else None,
        "marital_status": p.marital_status,
        "spouse_birth_date": p.spouse_birth_date.isoformat() if p.spouse_birth_date else None,
        "hours": {str(year): value for year, value in hours},
        "compensation": {str(year): f"{amount:.2f}" for year, amount in compensation},
        "death_date": p.death_date.isoformat() if p.death_date else None,
        "disability_date": p.disability_date.isoformat() if p.disability_date else None,
        "plan_data": dict(membership.plan_data),
    }
    if len(periods) > 1:
        payload["employment_periods"] = [
            {"start": start.isoformat(), "end": end.isoformat() if end else None} for start, end in periods
        ]
    latest = {source: f"{balance:.2f}" for source, balance in balances}
    if latest and "balances" not in payload["plan_data"]:
        payload["plan_data"]["balances"] = latest
    dates = [d.isoformat() for d in commencement_dates]
    if dates:
        payload["commencement_dates"] = dates
    return payload


def memberships_light_payloads(memberships: list[PlanMembership]) -> list[dict]:
    """The contract participants of many memberships in five queries, from plain rows (no model object
    per year of hours or pay): the light path of a batch's choice over a whole plan (issue 31)."""
    from collections import defaultdict

    from benefits.models import AccountBalance, Compensation, EmploymentPeriod, HoursOfService

    ids = [m.pk for m in memberships]
    people = {m.participant_id for m in memberships}
    periods: dict[int, list] = defaultdict(list)
    for pid, start, end in EmploymentPeriod.objects.filter(participant_id__in=people).values_list(
        "participant_id", "start", "end"
    ):
        periods[pid].append((start, end))
    hours: dict[int, list] = defaultdict(list)
    for mid, year, value in (
        HoursOfService.objects.filter(membership_id__in=ids)
        .order_by("membership_id", "period_year")
        .values_list("membership_id", "period_year", "hours")
    ):
        hours[mid].append((year, value))
    pay: dict[int, list] = defaultdict(list)
    for mid, year, amount in (
        Compensation.objects.filter(membership_id__in=ids)
        .order_by("membership_id", "year")
        .values_list("membership_id", "year", "amount")
    ):
        pay[mid].append((year, amount))
    balances: dict[int, list] = defaultdict(list)
    for mid, source, balance in (
        AccountBalance.objects.filter(membership_id__in=ids)
        .order_by("membership_id", "as_of", "source")
        .values_list("membership_id", "source", "balance")
    ):
        balances[mid].append((source, balance))
    return [
        payload_from_rows(
            m,
            periods=periods[m.participant_id],
            hours=hours[m.pk],
            compensation=pay[m.pk],
            balances=balances[m.pk],
        )
        for m in memberships
    ]


def membership_request(
    membership: PlanMembership,
    *,
    as_of: date,
    commencement_dates: Iterable[date] = (),
    detail: bool = False,
    assumptions: dict | None = None,
    traces: bool = True,
) -> dict:
    """``traces=False``: figures only (``options.traces``), priced on the plan's one-pass grid
    where it has one."""
    plan = membership.plan
    request = {
        "plan": plan.key,
        "as_of": as_of.isoformat(),
        "assumptions": copy.deepcopy(assumptions)
        if assumptions is not None
        else _assumptions_for(membership),
        "participants": [participant_payload(membership, commencement_dates=commencement_dates)],
    }
    if plan.settings:
        request["settings"] = dict(plan.settings)
    if detail:
        request["options"] = {"detail": True}
    elif not traces:
        request["options"] = {"traces": False}
    return request


def request_calculate(request: dict) -> dict:
    """The engine's result for a request of one participant built here (the modeler's what-ifs).

    A value outside its plausible window (the engine refuses the whole request) comes back as that
    participant's error, with the field's pointer, like any other data the plan cannot use."""
    try:
        return calculate_request(request)["results"][0]
    except RequestError as exc:
        return {"error": {"field": exc.pointer, "message": str(exc)}}


def _digest(request: dict) -> str:
    return hashlib.sha256(json.dumps(request, sort_keys=True).encode()).hexdigest()


def _checked(result: dict) -> dict:
    if "error" in result:
        raise CalculationError(result["error"]["field"], result["error"]["message"])
    return result


def membership_calculate(
    membership: PlanMembership,
    *,
    as_of: date,
    commencement_dates: Iterable[date] = (),
    detail: bool = False,
    assumptions: dict | None = None,
    traces: bool = True,
) -> dict:
    """The engine's contract result for this membership, stored once per request and engine version.

    Remembered on the membership object too, so a page that asks twice reads the store once.
    ``assumptions``: market data other than what is kept (``assumptions_standing_in``). ``traces=False``:
    figures only, on the plan's one-pass grid where it has one (the claim form's check)."""
    request = membership_request(
        membership,
        as_of=as_of,
        commencement_dates=commencement_dates,
        detail=detail,
        assumptions=assumptions,
        traces=traces,
    )
    digest = _digest(request)
    memo = membership.__dict__.setdefault("_calculations", {})
    key = (ENGINE_VERSION, digest)  # an engine change is a different result, even in memory
    if key not in memo:
        stored = CalculationResult.objects.filter(
            membership=membership, engine_version=ENGINE_VERSION, request_sha256=digest
        ).first()
        if stored is not None:
            memo[key] = stored.result
        else:
            try:
                memo[key] = calculate_request(request)["results"][0]
            except RequestError as exc:  # a stored value outside its plausible range: named, never a 500
                raise CalculationError(exc.pointer.removeprefix("/participants/0"), str(exc)) from None
            # One statement; if another request stored the same result first, the conflict is ignored.
            CalculationResult.objects.bulk_create(
                [
                    CalculationResult(
                        membership=membership,
                        as_of=as_of,
                        engine_version=ENGINE_VERSION,
                        request_sha256=digest,
                        request=request,
                        result=memo[key],
                    )
                ],
                ignore_conflicts=True,
            )
    return _checked(memo[key])


def memberships_calculate(
    memberships: Iterable[PlanMembership], *, as_of: date
) -> list[dict | CalculationError]:
    """Each membership's result (or its ``CalculationError``), in a fixed number of queries.

    The market data is read once, the stored results in one query, and the missing ones stored in one
    insert: the dashboard's cost does not grow with the number of plans. Memberships should come from
    ``selectors.with_engine_rows`` so building their requests needs no query."""
    memberships = list(memberships)
    if not memberships:
        return []
    assumptions = plan_assumptions(memberships[0].plan)
    requests = [membership_request(m, as_of=as_of, assumptions=assumptions) for m in memberships]
    digests = [_digest(r) for r in requests]
    stored = {
        (row.membership_id, row.request_sha256): row.result
        for row in CalculationResult.objects.filter(
            membership__in=memberships, engine_version=ENGINE_VERSION, request_sha256__in=digests
        ).only("membership_id", "request_sha256", "result")
    }
    out: list[dict | CalculationError] = []
    new_rows = []
    for m, request, digest in zip(memberships, requests, digests, strict=True):
        result = stored.get((m.pk, digest))
        if result is None:
            result = calculate_request(request)["results"][0]
            new_rows.append(
                CalculationResult(
                    membership=m,
                    as_of=as_of,
                    engine_version=ENGINE_VERSION,
                    request_sha256=digest,
                    request=request,
                    result=result,
                )
            )
        m.__dict__.setdefault("_calculations", {})[digest] = result
        m._market_assumptions = assumptions
        try:
            out.append(_checked(result))
        except CalculationError as exc:
            out.append(exc)
    if new_rows:
        CalculationResult.objects.bulk_create(new_rows, ignore_conflicts=True)
    return out


@dataclass(frozen=True)
class EngineInputs:
    module: EnginePlan  # the plan (benefits.engine.plans.base.Plan)
    participant: object
    core: object
    assumptions: dict
    settings: dict


def engine_inputs(membership, *, as_of: date) -> EngineInputs:
    """The parsed participant and the plan's core result (service, vesting) for one membership."""
    parsed = parse_request(membership_request(membership, as_of=as_of))
    item = parsed.participants[0]
    if isinstance(item, tuple):
        raise CalculationError(item[1].field, str(item[1]))
    module = get_plan(parsed.plan)
    core = module.core_result(item, as_of, parsed.settings)
    return EngineInputs(module, item, core, dict(parsed.assumptions), dict(parsed.settings))


def vesting_figures(membership, *, as_of: date) -> tuple[dict, typing.Any]:
    """The vesting page's figures: the detailed contract result (service year by year) and the core
    service/vesting result with its schedules (raises CalculationError)."""
    result = membership_calculate(membership, as_of=as_of, detail=True)
    return result, engine_inputs(membership, as_of=as_of).core


@dataclass(frozen=True)
class PlanOffers:
    """What a plan offers that a page shows or hides, through the plan protocol: the key of its
    diversification block in the contract result (None without one) and whether it takes deferrals."""

    diversification_key: str | None
    deferrals: bool


def plan_offers(plan_key: str) -> PlanOffers:
    plan = get_plan(plan_key)
    diversification = plan.diversification
    return PlanOffers(
        diversification.result_key if diversification is not None else None, plan.deferrals is not None
    )


def memberships_retirement_dates(memberships: list[PlanMembership], *, as_of: date) -> dict[int, date | None]:
    """Each membership's normal retirement date on the engine's light path: one parsed request for the
    whole list (rows read in five queries, no market data, no trace, nothing stored), the plan's core
    result alone.

    For choosing people in bulk (a notice batch over a whole plan, issue 31): the full contract result
    costs a traced calculation and a stored row per person; the date needs neither. A membership whose
    data the engine refuses maps to None (it is not chosen; its own page names the problem). The
    memberships share a plan, with their participant and plan joined."""
    if not memberships:
        return {}
    plan = memberships[0].plan
    request: dict = {
        "plan": plan.key,
        "as_of": as_of.isoformat(),
        "assumptions": {},
        "participants": memberships_light_payloads(memberships),
    }
    if plan.settings:
        request["settings"] = dict(plan.settings)
    try:
        parsed = parse_request(request)
    except RequestError:
        # One stored value outside its plausible window refuses the whole request: fall back to one
        # request per person so only that person is left out.
        if len(memberships) == 1:
            return {memberships[0].pk: None}
        out: dict[int, date | None] = {}
        for m in memberships:
            out.update(memberships_retirement_dates([m], as_of=as_of))
        return out
    module = get_plan(parsed.plan)
    out = {}
    for m, item in zip(memberships, parsed.participants, strict=True):
        if isinstance(item, tuple):
            out[m.pk] = None
            continue
        try:
            out[m.pk] = module.core_result(item, as_of, parsed.settings).normal_retirement_date
        except Exception:  # noqa: BLE001 - data the engine cannot use: this person is not chosen
            out[m.pk] = None
    return out


# ------------------------------------------------------------------ the modeler's requests

_TRACE_KEY = re.compile(r"^estimates\[(\d+)\]")


def modeler_request(membership, *, as_of: date, inputs: dict, dates: list[date]) -> dict:
    """The contract request for these dates with the participant's what-ifs applied.

    Without traces: a plan with a commencement grid prices every date in one vectorized pass
    (``Plan.grid.outputs``); the steps behind a figure are worked out when a person opens that date
    (``estimate_traces``)."""
    request = membership_request(membership, as_of=as_of, commencement_dates=dates, traces=False)
    person = request["participants"][0]
    if inputs.get("spouse_birth_date"):
        person["spouse_birth_date"] = inputs["spouse_birth_date"]
    last_year = max((d.year for d in dates), default=as_of.year)
    for key, field, fmt in (("future_pay", "compensation", str), ("future_hours", "hours", int)):
        if inputs.get(key) in (None, ""):
            continue
        values = person.setdefault(field, {})
        for year in range(as_of.year, last_year + 1):
            values.setdefault(str(year), fmt(inputs[key]))
    return request


def estimate_traces(result: dict, request: dict | None, index: int) -> dict:
    """``result`` with the steps behind estimate ``index``: a result stored with its traces (a run
    made before the one-pass path) is returned as it is; otherwise that one date is calculated again on
    the traced path from the run's own request and its traces are added, renumbered to ``index``.

    One date's estimate does not depend on the other dates of the request, so its steps are the ones
    the whole traced request would have given."""
    estimates = result.get("estimates") or []
    if result.get("traces") or not request or not 0 <= index < len(estimates):
        return result
    one = copy.deepcopy(request)
    one.pop("options", None)
    one["participants"][0]["commencement_dates"] = [estimates[index]["commencement_date"]]
    traced = request_calculate(one)
    traces = {}
    for key, steps in (traced.get("traces") or {}).items():
        m = _TRACE_KEY.match(key)
        traces[f"estimates[{index}]{key[m.end() :]}" if m else key] = steps
    return {**result, "traces": traces}


# ------------------------------------------------------------------ plan readings (engine settings)
# The engine declares every reading (``benefits.engine.settings.setting``) with its plan section, GAP
# number, default and the other reading; ``Plan.settings`` stores only the values an administrator chose.


@dataclass(frozen=True)
class Reading:
    group: str
    name: str
    type_name: str
    default: object
    value: object
    overridden: bool
    section: str
    gap: str
    alternative: str
    help: str
    required: bool
    choices: tuple[str, ...]  # for a fixed set of readings

    @property
    def unconfirmed(self) -> bool:
        return self.required and self.value is None

    @property
    def value_text(self) -> str:
        return _text(self.value)

    @property
    def default_text(self) -> str:
        return _text(self.default)


def _text(value: object) -> str:
    if value is None:
        return "not set"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Decimal | date):
        return str(value)
    if isinstance(value, tuple | list):
        return json.dumps([_plain(v) for v in value])
    return str(value)


def _plain(value: object) -> object:
    if isinstance(value, Decimal | date):
        return str(value)
    return value


def _choices(cls: type, name: str) -> tuple[str, ...]:
    hint = typing.get_type_hints(cls)[name]
    if typing.get_origin(hint) in (typing.Union, types.UnionType):  # ``Literal[...] | None``: not set yet
        (hint,) = [a for a in typing.get_args(hint) if a is not type(None)] or [hint]
    if typing.get_origin(hint) is typing.Literal:
        return tuple(str(a) for a in typing.get_args(hint))
    if hint is bool:
        return ("true", "false")
    return ()


def plan_statutory_overrides(plan: Plan) -> tuple:
    """Where the statute overrides the plan's own (pre-2006) words, as the engine applies it."""
    from benefits.engine.overrides import statutory_overrides

    return statutory_overrides(plan.key)


def plan_readings(plan: Plan) -> list[Reading]:
    rows = []
    for group, cls in settings_classes(plan.key).items():
        for row in describe(cls):
            name = row["name"]
            overridden = name in plan.settings
            value = (
                getattr(override(cls(), {name: plan.settings[name]}), name) if overridden else row["default"]
            )
            rows.append(
                Reading(
                    group=group,
                    name=name,
                    type_name=row["type"],
                    default=row["default"],
                    value=value,
                    overridden=overridden,
                    section=row.get("section", ""),
                    gap=row.get("gap", ""),
                    alternative=row.get("alternative", ""),
                    help=row.get("help", ""),
                    required=row.get("required", False),
                    choices=_choices(cls, name),
                )
            )
    return rows


def annuitant_forms(membership: PlanMembership, *, as_of: date, asd: date, annuitant_birth: date) -> dict:
    """The engine's forms on ``asd`` priced on a contingent annuitant's life rather than the spouse's
    (the plan's ``annuitant_person`` says how its request names that person); ``{}`` when the plan
    allows no such annuitant or prices none on that date."""
    from benefits.engine.elections import election_rules

    rules = election_rules(membership.plan.key)
    if rules.annuitant_person is None:
        return {}
    request = membership_request(membership, as_of=as_of, commencement_dates=[asd])
    rules.annuitant_person(request["participants"][0], annuitant_birth.isoformat())
    result = _checked(request_calculate(request))
    estimates = result.get("estimates") or []
    return dict(estimates[0].get("forms") or {}) if estimates else {}
