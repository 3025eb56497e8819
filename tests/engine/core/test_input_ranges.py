"""Issue 15: every engine input has a plausible window; the command line answers every malformed
request with exit 2 and one line naming the JSON pointer, and no benefit ever comes out negative."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benefits.engine.input_ranges import MAX_HOURS_PER_YEAR, negative_benefit
from benefits.engine.request import RequestError, calculate_request

ROOT = Path(__file__).resolve().parents[3]
CARVER_DB = json.loads((ROOT / "examples" / "carver-db.json").read_text())


def _request(**changes) -> dict:
    req = json.loads(json.dumps(CARVER_DB))
    person = {**req["participants"][0], **changes}
    req["participants"] = [person]
    return req


def _cli(data: bytes) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "benefits.engine", "calculate", "-"],
        input=data,
        capture_output=True,
        cwd=ROOT,
        timeout=120,
    )


def _assert_refused(proc: subprocess.CompletedProcess, pointer: str) -> None:
    err = proc.stderr.decode()
    assert proc.returncode == 2, err
    assert proc.stdout == b""
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(f"malformed request at {pointer}"), err


@pytest.mark.parametrize(
    ("name", "data", "pointer"),
    [
        ("non-UTF-8 bytes", b'{"plan": "\xff\xfe carver-db"}', "/:"),
        ("deep nesting", b"[" * 200_000 + b"]" * 200_000, "/:"),
        ("4,301-digit integer", b'{"plan": "carver-db", "as_of": ' + b"9" * 4301 + b"}", "/:"),
        ("NaN literal", b'{"plan": "carver-db", "as_of": NaN}', "/:"),
    ],
)
def test_undecodable_requests_exit_2_with_one_line(name, data, pointer):
    _assert_refused(_cli(data), pointer)


@pytest.mark.parametrize(
    ("changes", "pointer"),
    [
        ({"compensation": {"2000": "NaN"}}, "/participants/0/compensation/2000"),
        ({"compensation": {"2000": "-1.00"}}, "/participants/0/compensation/2000"),
        ({"compensation": {"2000": "Infinity"}}, "/participants/0/compensation/2000"),
        ({"hours": {"2000": 1e30}}, "/participants/0/hours/2000"),
        ({"hours": {"2000": MAX_HOURS_PER_YEAR + 1}}, "/participants/0/hours/2000"),
        ({"hours": {"1066": 2080}}, "/participants/0/hours/1066"),
        ({"birth_date": "1800-01-01"}, "/participants/0/birth_date"),
        # Born 1958: a hire before the 15th birthday is impossible.
        ({"hire_date": "1972-01-01"}, "/participants/0/hire_date"),
        ({"commencement_dates": ["2200-01-01"]}, "/participants/0/commencement_dates/0"),
        (
            {"marital_status": "married", "spouse_birth_date": "2200-01-01"},
            "/participants/0/spouse_birth_date",
        ),
    ],
)
def test_impossible_values_refuse_the_request(changes, pointer):
    _assert_refused(_cli(json.dumps(_request(**changes)).encode()), pointer)
    with pytest.raises(RequestError) as exc:
        calculate_request(_request(**changes))
    assert exc.value.pointer == pointer


def test_window_edges_are_accepted():
    """The boundaries themselves are plausible: 8,784 hours (a leap year's), a commencement on the
    100th birthday's month, a spouse born the day before the as-of date."""
    req = _request(
        hours={**CARVER_DB["participants"][0]["hours"], "2000": MAX_HOURS_PER_YEAR},
        marital_status="married",
        spouse_birth_date="2026-11-20",
        commencement_dates=["2058-04-01"],
    )
    result = calculate_request(req)["results"][0]
    assert "error" not in result or "spouse" not in result["error"]["field"]


def test_spouse_born_2200_never_gives_a_negative_joint_and_survivor():
    """The issue's reproduction: a spouse born in 2200 made the 50% J&S -$2,439.88 a month."""
    req = _request(
        marital_status="married", spouse_birth_date="2200-01-01", commencement_dates=["2027-01-01"]
    )
    proc = _cli(json.dumps(req).encode())
    _assert_refused(proc, "/participants/0/spouse_birth_date")
    assert b"-2439.88" not in proc.stdout


def test_a_negative_amount_in_an_estimate_is_found():
    result = {"estimates": [{"forms": {"life": {"monthly": "10.00"}, "js50": {"monthly": "-1.00"}}}]}
    assert negative_benefit(result) == "/estimates/0/forms/js50/monthly"
    assert negative_benefit({"estimates": [{"forms": {"life": {"monthly": "0.00"}}}]}) is None


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    spouse=st.dates(min_value=date(1900, 1, 1), max_value=date(2199, 12, 31)),
    start=st.dates(min_value=date(2023, 5, 1), max_value=date(2060, 12, 1)).map(lambda d: d.replace(day=1)),
)
def test_no_spouse_birth_date_or_start_gives_a_negative_benefit(spouse, start):
    req = _request(
        marital_status="married", spouse_birth_date=spouse.isoformat(), commencement_dates=[start.isoformat()]
    )
    try:
        result = calculate_request(req)["results"][0]
    except RequestError as exc:
        assert exc.pointer.startswith("/participants/0/")
        return
    for estimate in result.get("estimates") or []:
        for form in estimate["forms"].values():
            for key in ("monthly", "survivor_monthly"):
                if key in form:
                    assert float(form[key]) >= 0, (spouse, start, form)
