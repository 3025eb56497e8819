"""``options.traces: false`` (issue 17, project-added): the same figures without the steps behind them.

* For every plan, over generated participants at a couple of as-of dates (with commencement dates,
  so the plans that price estimates price them), the result without traces is the traced result
  with its ``traces`` key removed, key for key; so is every shipped example.
* No trace step is built while computing (``trace.traces_off``), and the switch is scoped: after a
  calculation without traces, the next one (a web request, a Celery task) records its full traces.
* A value that is not true or false, or ``traces: false`` with ``detail: true`` (the detail is the
  trace), is a malformed request: exit 2 naming ``/options/traces``.
"""

from __future__ import annotations

import importlib.util
import io
import json
import random
from datetime import date, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benefits.engine.__main__ import main
from benefits.engine.parameters import parameter, recorded_reads
from benefits.engine.request import calculate_request
from benefits.engine.trace import Trace, TraceBuilder, money, recording, traces_off

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = sorted((ROOT / "examples").glob("*.json"))
PLANS = ("carver-db", "quaker-cash-balance", "carver-401k", "fairport-esop", "carver-esop")
AS_OF = (date(2016, 12, 31), date(2026, 11, 21))
PRICED = ("carver-db", "quaker-cash-balance", "carver-401k")  # estimates priced on the §417(e)(3) basis
MONTHS = [f"{y}-{m:02d}" for y in range(2014, 2042) for m in range(1, 13)]


def _census_module():
    spec = importlib.util.spec_from_file_location("census", ROOT / "bench" / "census.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


census = _census_module()


def _without_traces(request: dict) -> dict:
    return dict(request, options=dict(request.get("options") or {}, traces=False))


def assert_same_figures(request: dict) -> dict:
    """The request's results with and without traces agree on every key but ``traces``."""
    traced = calculate_request(request)
    bare = calculate_request(_without_traces(request))
    assert {k: v for k, v in bare.items() if k != "results"} == {
        k: v for k, v in traced.items() if k != "results"
    }
    assert len(bare["results"]) == len(traced["results"])
    for with_, without in zip(traced["results"], bare["results"], strict=True):
        assert "traces" not in without
        expected = {k: v for k, v in with_.items() if k != "traces"}
        assert list(without) == list(expected)  # the same keys, in the same order
        for key in expected:
            assert without[key] == expected[key], (with_.get("id"), key)
        # byte for byte as the command line writes it
        assert json.dumps(without, ensure_ascii=False) == json.dumps(expected, ensure_ascii=False)
    return traced


@st.composite
def carver_db_accruals(draw, pid: str, as_of: date) -> dict:
    """A Carver DB participant who accrued before the plan froze (the census draws many who did not):
    pay over and under the §401(a)(17) cap, so the limits and the forms are priced."""
    birth = draw(st.dates(date(1945, 1, 1), date(1965, 12, 31)))
    hire = draw(st.dates(max(date(1975, 1, 1), date(birth.year + 18, 1, 1)), date(1995, 12, 31)))
    term = draw(st.one_of(st.none(), st.dates(hire + timedelta(days=400), date(2015, 12, 31))))
    pay = draw(st.integers(20_000, 400_000))
    p = {
        "id": pid,
        "birth_date": birth.isoformat(),
        "hire_date": hire.isoformat(),
        "marital_status": draw(st.sampled_from(["single", "married"])),
        "hours": {str(y): 2080 for y in range(hire.year, 2016)},
        "compensation": {str(y): f"{pay * 1.03 ** (y - hire.year):.2f}" for y in range(hire.year, 2016)},
        "plan_data": {"social_security_amount": f"{draw(st.integers(6000, 30000))}.00"},
    }
    if term is not None:
        p["termination_date"] = term.isoformat()
    if p["marital_status"] == "married":
        p["spouse_birth_date"] = (birth + timedelta(days=draw(st.integers(-3650, 3650)))).isoformat()
    earliest = max(as_of + timedelta(days=30), date(birth.year + 55, 1, 1))
    latest = date(birth.year + 75, 1, 1)
    if earliest < latest:  # from the earliest retirement age: priced forms, not an error
        starts = draw(st.lists(st.dates(earliest, latest), min_size=1, max_size=2, unique=True))
        p["commencement_dates"] = sorted(d.replace(day=1).isoformat() for d in starts)
    return p


@st.composite
def census_requests(draw, plan: str):
    as_of = draw(st.sampled_from(AS_OF))
    rng = random.Random(draw(st.integers(0, 2**32)))
    people = []
    for i in range(draw(st.integers(1, 3))):
        p = census.participant(plan, i, rng, as_of)
        if plan == "carver-db" and draw(st.booleans()):
            p = draw(carver_db_accruals(p["id"], as_of))
        offsets = draw(st.lists(st.integers(30, 15 * 365), max_size=2, unique=True))
        # estimates priced for dates after as_of (so after hire, and before the 100th birthday)
        if offsets and "commencement_dates" not in p:
            p["commencement_dates"] = sorted((as_of + timedelta(days=d)).isoformat() for d in offsets)
        people.append(p)
    header = census._header(plan)
    if plan in PRICED and draw(st.booleans()):  # the §417(e)(3) rates: relative values and cash-outs priced
        rates = [f"{draw(st.integers(100, 700)) / 100:.2f}" for _ in range(3)]
        header["assumptions"] = dict(header["assumptions"], segment_rates=dict.fromkeys(MONTHS, rates))
    return header | {"as_of": as_of.isoformat(), "participants": people}


@pytest.mark.parametrize("plan", PLANS)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_without_traces_every_other_key_is_the_traced_one(plan, data):
    request = data.draw(census_requests(plan))
    traced = assert_same_figures(request)
    assert any("traces" in r for r in traced["results"]) or all("error" in r for r in traced["results"])


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_gives_the_same_figures_without_traces(path):
    traced = assert_same_figures(json.loads(path.read_text()))
    assert all("traces" in r for r in traced["results"] if "error" not in r)


def test_a_census_request_gives_the_same_figures_without_traces():
    for plan in PLANS:
        assert_same_figures(census.request(plan, 15, 11))


def test_after_a_calculation_without_traces_the_next_one_records_them():
    request = json.loads((ROOT / "examples" / "carver-401k.json").read_text())
    before = calculate_request(request)
    bare = calculate_request(_without_traces(request))
    assert all("traces" not in r for r in bare["results"])
    assert recording()
    after = calculate_request(request)
    assert after == before
    assert all(r["traces"] and all(r["traces"].values()) for r in after["results"] if "error" not in r)


def test_the_switch_is_reset_when_the_block_fails():
    with pytest.raises(RuntimeError), traces_off():
        assert not recording()
        raise RuntimeError
    assert recording()
    tb = TraceBuilder()
    assert tb.step("recorded again", result=money(1)) == 1
    assert len(tb.build().steps) == 1


def test_no_step_and_no_read_is_recorded_without_traces():
    with recorded_reads() as reads:
        with traces_off():
            tb = TraceBuilder()
            assert tb.step("a step", result=money(5)) == 5  # the figure, unwrapped, all the same
            assert tb.skip("not taken", result=2) == 2
            limit = parameter("irs_415b_dollar_limit").at(date(2024, 12, 31))
            tb.include(Trace().add("included", result=limit))
            trace = Trace().add("added", result=1).skip("skipped").extend(Trace().add("more"))
            built = tb.build()
            assert built.steps == () and trace.steps == () and trace.not_applied().steps == ()
            assert built.as_list() == [] and trace.as_list() == []
        assert reads == []  # the read inside the block was not recorded
        parameter("irs_415b_dollar_limit").at(date(2023, 12, 31))
        assert len(reads) == 1  # and the outer recording goes on after it


def test_jsonl_without_traces():
    request = census.request("carver-db", 3, 5)
    header = {k: v for k, v in _without_traces(request).items() if k != "participants"}
    text = "\n".join(json.dumps(x) for x in [header, *request["participants"]]) + "\n"
    out = io.StringIO()
    assert main(["calculate", "--jsonl", "-"], stdin=io.StringIO(text), stdout=out, stderr=io.StringIO()) == 0
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    traced = calculate_request(request)["results"]
    assert lines == [{k: v for k, v in r.items() if k != "traces"} for r in traced]


def _run(request: dict) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["calculate", "-"], stdin=io.StringIO(json.dumps(request)), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    "options",
    [{"traces": "no"}, {"traces": 0}, {"traces": None}, {"traces": False, "detail": True}],
    ids=["string", "number", "null", "with-detail"],
)
def test_a_bad_traces_option_exits_2_naming_it(options):
    request = json.loads((ROOT / "examples" / "carver-esop.json").read_text()) | {"options": options}
    code, out, err = _run(request)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "malformed request at /options/traces:" in err


def test_traces_true_and_detail_are_the_default_output():
    request = json.loads((ROOT / "examples" / "fairport-esop.json").read_text())
    assert calculate_request(request | {"options": {"traces": True}}) == calculate_request(request)
    detailed = calculate_request(request | {"options": {"traces": True, "detail": True}})
    assert all("trace" in r and "traces" in r for r in detailed["results"] if "error" not in r)
