"""Issue 12 item 7: every regulatory value a participant's figures read is in a trace, for every plan,
whichever helper built the trace (``Trace.add`` chains as well as ``TraceBuilder``)."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from benefits.engine.parameters import parameter, recorded_reads
from benefits.engine.request import calculate_request
from benefits.engine.trace import Trace, TraceBuilder

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def _steps(node: object):
    """Every trace step anywhere in a result (``traces`` maps and ``trace`` lists alike)."""
    if isinstance(node, dict):
        if "rule" in node and "section" in node and "result" in node:
            yield node
        for v in node.values():
            yield from _steps(v)
    elif isinstance(node, list):
        for v in node:
            yield from _steps(v)


def _participants(path: Path):
    request = json.loads(path.read_text())
    for p in request["participants"]:
        yield request, p


CASES = [
    pytest.param(request, p, id=f"{path.stem}:{p['id']}")
    for path in sorted(EXAMPLES.glob("*.json"))
    for request, p in _participants(path)
]


@pytest.mark.parametrize(("request_", "participant"), CASES)
def test_every_parameter_read_is_in_a_trace_with_its_date_and_source(request_, participant):
    one = dict(request_, participants=[participant])
    with recorded_reads() as reads:
        (result,) = calculate_request(one)["results"]
    assert "error" not in result, result.get("error")
    traced = {
        (s["inputs"]["parameter"], s["inputs"]["for_date"]): s
        for s in _steps(result)
        if isinstance(s.get("inputs"), dict) and "parameter" in s["inputs"]
    }
    read = {(r.name, r.on.isoformat()) for r in reads}
    assert read <= set(traced), sorted(read - set(traced))
    for (name, on), s in traced.items():
        assert s["inputs"]["source"], name
        assert s["inputs"]["in_force_from"] <= on or s["inputs"]["estimate"], (name, on)


PLANS = {p.stem.split("-cash-out")[0] for p in EXAMPLES.glob("*.json")}


def test_the_examples_cover_every_plan():
    assert {"carver-db", "quaker-cash-balance", "carver-401k", "fairport-esop", "carver-esop"} <= PLANS


def test_a_trace_built_by_add_picks_up_the_reads_made_while_it_was_built():
    with recorded_reads():
        trace = Trace().add("start", result=1)
        limit = parameter("irs_415b_dollar_limit").at(date(2024, 12, 31))
        trace = trace.add("capped at the limit", result=limit)
        trace = trace.extend(Trace().add("again", result=2))  # no read here: nothing more
    rules = [s.rule for s in trace.steps]
    assert len(rules) == 4, rules
    read = trace.steps[1]
    assert dict(read.inputs)["parameter"] == "irs_415b_dollar_limit"
    assert dict(read.inputs)["for_date"] == "2024-12-31"
    assert read.result == "275000" and read.result_kind is not None and read.result_kind.kind == "money"
    assert rules[2] == "capped at the limit"  # the read comes before the step that used it


def test_reads_before_a_trace_was_started_are_not_its_own():
    with recorded_reads():
        parameter("irs_415b_dollar_limit").at(date(2023, 12, 31))
        trace = Trace().add("a figure that read nothing", result=1)
        tb = TraceBuilder()
        tb.step("nothing read", result=2)
    assert len(trace.steps) == 1
    assert len(tb.build().steps) == 1


ESOPS = ("fairport-esop", "carver-esop")


def _census(plan: str, n: int) -> dict:
    import importlib.util

    spec = importlib.util.spec_from_file_location("census", EXAMPLES.parent / "bench" / "census.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.request(plan, n, 7)


@pytest.mark.parametrize(
    "plan", ["carver-db", "quaker-cash-balance", "carver-401k", "fairport-esop", "carver-esop"]
)
def test_every_read_is_traced_across_a_varied_census(plan):
    seen: set[str] = set()
    request = _census(plan, 25)
    for i, participant in enumerate(request["participants"]):
        if plan == "carver-db":  # pay over the §401(a)(17) cap and an estimate under §415(b)
            participant["compensation"] = {str(y): str(150000 + 10000 * i) for y in range(1985, 2001)}
            participant["commencement_dates"] = ["2027-01-01", "2031-06-01"]
        with recorded_reads() as reads:
            (result,) = calculate_request(dict(request, participants=[participant]))["results"]
        if "error" in result:
            continue
        traced = {
            (s["inputs"]["parameter"], s["inputs"]["for_date"])
            for s in _steps(result)
            if isinstance(s.get("inputs"), dict) and "parameter" in s["inputs"]
        }
        read = {(r.name, r.on.isoformat()) for r in reads}
        assert read <= traced, (participant["id"], sorted(read - traced))
        seen |= {name for name, _ in read}
    assert seen or plan in ESOPS  # the ESOPs' cash-out thresholds are the plan's own dollar amounts
