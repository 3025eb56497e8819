"""The command line (docs/engine-cli.md): subprocess and in-process."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from benefits.engine import ENGINE_VERSION
from benefits.engine.__main__ import main

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = sorted((ROOT / "examples").glob("*.json"))


def run_inproc(request: object | str):
    text = request if isinstance(request, str) else json.dumps(request)
    out, err = io.StringIO(), io.StringIO()
    code = main(["calculate", "-"], stdin=io.StringIO(text), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def run_subprocess(path_or_dash: str, stdin: str | None = None):
    proc = subprocess.run(
        [sys.executable, "-m", "benefits.engine", "calculate", path_or_dash],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    return proc.returncode, proc.stdout, proc.stderr


def _person(pid="P-1", **kw):
    return {
        "id": pid,
        "birth_date": "1970-05-05",
        "hire_date": "2001-02-01",
        "hours": {str(y): 2000 for y in range(2001, 2006)},
        **kw,
    }


def test_examples_exist_for_every_plan():
    names = {p.stem for p in EXAMPLES}
    assert {"carver-db", "quaker-cash-balance", "carver-401k", "fairport-esop", "carver-esop"} <= names


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_runs_in_a_subprocess(path):
    code, out, err = run_subprocess(str(path))
    assert code == 0, err
    response = json.loads(out)
    request = json.loads(path.read_text())
    assert response["plan"] == request["plan"]
    assert response["as_of"] == request["as_of"]
    assert response["engine_version"] == ENGINE_VERSION
    assert len(response["results"]) == len(request["participants"])
    for r in response["results"]:
        assert "error" not in r, r
        v = r["vesting"]
        assert isinstance(v["years_of_vesting_service"], int)
        assert 0 <= float(v["vested_percent"]) <= 100
        assert r["normal_retirement_date"]
        assert "earliest_retirement_date" in r


@pytest.fixture
def core_only(monkeypatch):
    """Stub the plans' benefit outputs so these tests exercise the core path alone."""
    import dataclasses

    from benefits.engine.plans import PLANS

    for key, plan in list(PLANS.items()):
        monkeypatch.setitem(PLANS, key, dataclasses.replace(plan, outputs=lambda *a: {}))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_in_process(path):
    code, out, err = run_inproc(path.read_text())
    assert code == 0 and err == ""
    results = json.loads(out)["results"]
    assert [r["id"] for r in results] == [p["id"] for p in json.loads(path.read_text())["participants"]]
    assert all("error" not in r for r in results)


@pytest.mark.parametrize(
    "plan", ["carver-db", "quaker-cash-balance", "carver-401k", "fairport-esop", "carver-esop"]
)
def test_valid_request_every_plan_core_keys(plan, core_only):
    settings = {"pre_plan_vesting_cap_years": 5} if plan == "fairport-esop" else {}
    code, out, err = run_inproc(
        {
            "plan": plan,
            "as_of": "2005-12-31",
            "settings": settings,
            "participants": [_person(hire_date="2001-01-02")],
            "options": {"detail": True},
        }
    )
    assert code == 0 and err == ""
    r = json.loads(out)["results"][0]
    assert r["id"] == "P-1"
    assert r["vesting"]["years_of_vesting_service"] in (4, 5)  # elapsed time: 4.99 years (401(k))
    assert r["service_history"]["rows"]
    assert r["trace"] and all("rule" in step for step in r["trace"])


def test_stdin_via_subprocess():
    text = (ROOT / "examples" / "carver-esop.json").read_text()
    code, out, _ = run_subprocess("-", text)
    assert code == 0
    assert json.loads(out)["results"][2]["vesting"]["vested_percent"] == "40"


@pytest.mark.parametrize(
    ("request_text", "pointer"),
    [
        ("{not json", "/"),
        (json.dumps({"plan": "acme-pension", "as_of": "2020-01-01", "participants": []}), "/plan"),
        (json.dumps({"plan": "carver-db", "as_of": "2020-01-01"}), "/participants"),
        (json.dumps({"plan": "carver-db", "as_of": "2020-02-30", "participants": []}), "/as_of"),
        (
            json.dumps(
                {
                    "plan": "carver-db",
                    "as_of": "2020-01-01",
                    "participants": [_person(birth_date="05/05/1970")],
                }
            ),
            "/participants/0/birth_date",
        ),
        (
            json.dumps(
                {
                    "plan": "carver-db",
                    "as_of": "2020-01-01",
                    "participants": [_person(employment_periods=[{"start": "2001-02-01", "end": "soon"}])],
                }
            ),
            "/participants/0/employment_periods/0/end",
        ),
        (
            json.dumps(
                {
                    "plan": "fairport-esop",
                    "as_of": "2020-01-01",
                    "participants": [],
                    "settings": {"no_such": 1},
                }
            ),
            "/settings/no_such",
        ),
        (json.dumps([1, 2]), "/"),
    ],
)
def test_malformed_requests_exit_2_with_pointer(request_text, pointer):
    for code, out, err in (run_inproc(request_text), run_subprocess("-", request_text)):
        assert code == 2
        assert out == ""
        assert err.count("\n") == 1 and err.endswith("\n")
        assert f"at {pointer}:" in err


def test_per_participant_error_leaves_the_others(core_only):
    req = {
        "plan": "carver-esop",
        "as_of": "2005-12-31",
        "participants": [
            _person("A"),
            {"id": "B", "hire_date": "2001-02-01"},
            _person("C", hours={"2001": "many"}),
        ],
    }
    code, out, _ = run_inproc(req)
    assert code == 0
    res = {r["id"]: r for r in json.loads(out)["results"]}
    assert res["A"]["vesting"]["vested_percent"] == "80"
    assert res["B"]["error"]["field"] == "/participants/1/birth_date"
    assert res["C"]["error"]["field"] == "/participants/2/hours/2001"
    assert all(r["error"]["message"] for k, r in res.items() if k != "A")


def test_settings_override_and_required_setting_error(core_only):
    people = [_person("V", hire_date="1995-01-03", hours={str(y): 2080 for y in range(1995, 2010)})]
    code, out, _ = run_inproc({"plan": "fairport-esop", "as_of": "2007-12-31", "participants": people})
    r = json.loads(out)["results"][0]
    # Issue 24: the unconfirmed reading blocks the benefit figures, not vesting and dates.
    assert "error" not in r and r["vesting"]["vested_percent"] and r["normal_retirement_date"]
    (m,) = r["missing"]
    assert m["field"] == "/settings/pre_plan_vesting_cap_years"
    assert m["blocks"] == ["/account", "/statement", "/diversification", "/cash_out"]
    code, out, _ = run_inproc(
        {
            "plan": "fairport-esop",
            "as_of": "2007-12-31",
            "participants": people,
            "settings": {"pre_plan_vesting_cap_years": 3},
        }
    )
    r = json.loads(out)["results"][0]
    assert r["vesting"]["years_of_vesting_service"] == 4  # SPEC E3c: cap 3 → 4 years
    code, _, err = run_inproc(
        {
            "plan": "fairport-esop",
            "as_of": "2007-12-31",
            "participants": people,
            "settings": {"pre_plan_vesting_cap_years": "x"},
        }
    )
    assert code == 2 and "/settings/pre_plan_vesting_cap_years" in err


def test_usage_error_is_exit_2():
    err = io.StringIO()
    assert main(["price"], stdout=io.StringIO(), stderr=err) == 2
    assert main(["calculate", "/no/such/file.json"], stdout=io.StringIO(), stderr=err) == 2
