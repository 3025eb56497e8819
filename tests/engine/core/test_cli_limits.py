"""The command line's limits (issue 26, docs/engine-cli.md "Limits"): a string it could not write
back, an input past its size, too many commencement dates or participants exit 2 with one line naming
the pointer and nothing on standard output; a reader that goes away ends the run quietly."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from benefits.engine.__main__ import main
from benefits.engine.input_ranges import MAX_COMMENCEMENT_DATES, MAX_PARTICIPANTS
from benefits.engine.json_input import MAX_REQUEST_BYTES, lone_surrogate_pointer

ROOT = Path(__file__).resolve().parents[3]


def _request(**person) -> dict:
    base = {"id": "P-1", "birth_date": "1970-05-05", "hire_date": "2001-02-01"}
    return {"plan": "carver-db", "as_of": "2026-01-01", "participants": [{**base, **person}]}


def _run(text: str, *args: str):
    out, err = io.StringIO(), io.StringIO()
    code = main(["calculate", *args, "-"], stdin=io.StringIO(text), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def _subprocess(args: list[str], stdin: bytes | None = None, **kw):
    return subprocess.run(
        [sys.executable, "-m", "benefits.engine", "calculate", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=120,
        **kw,
    )


def test_a_lone_surrogate_exits_2_naming_its_pointer_with_nothing_on_stdout():
    """The reproduction: ``"id": "\\ud800"`` exited 1 with a traceback and half a JSON document."""
    text = json.dumps(_request()).replace('"P-1"', '"\\ud800"')
    proc = _subprocess(["-"], text.encode())
    assert proc.returncode == 2 and proc.stdout == b""
    lines = proc.stderr.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith("malformed request at /participants/0/id: ")


@pytest.mark.parametrize(
    ("where", "pointer"),
    [
        ('{"plan": "carver-db", "x": {"\\udc00": 1}}', "/x/\\udc00"),
        ('{"plan": "carver-db", "a/b": ["ok", "\\ud83d"]}', "/a~1b/1"),
    ],
)
def test_a_lone_surrogate_in_a_key_or_a_list_is_named(where, pointer):
    code, out, err = _run(where)
    assert code == 2 and out == ""
    assert err.startswith(f"malformed request at {pointer}: ")


def test_a_surrogate_pair_is_a_real_character_and_passes():
    assert lone_surrogate_pointer(json.loads('{"id": "\\ud83d\\ude00"}')) is None
    code, out, _ = _run(json.dumps(_request(id="\U0001f600"), ensure_ascii=True))
    assert code == 0 and "\U0001f600" in out


def test_the_same_date_given_200000_times_is_one_date():
    """The reproduction: the same date 200,000 times (2.8 MB) computed for over an hour."""
    code, out, err = _run(json.dumps(_request(commencement_dates=["2035-06-01"] * 200_000)))
    assert code == 0, err
    [result] = json.loads(out)["results"]
    assert result["id"] == "P-1"


def test_more_different_commencement_dates_than_the_maximum_exit_2():
    from datetime import date, timedelta

    dates = [(date(2027, 1, 1) + timedelta(days=i)).isoformat() for i in range(MAX_COMMENCEMENT_DATES + 1)]
    code, out, err = _run(json.dumps(_request(commencement_dates=dates)))
    assert code == 2 and out == ""
    assert err.startswith("malformed request at /participants/0/commencement_dates: at most 1,200")
    code, _, err = _run(json.dumps(_request(commencement_dates=dates[:MAX_COMMENCEMENT_DATES])))
    assert code == 0, err


def test_more_participants_than_the_maximum_exit_2_in_json_and_json_lines():
    person = {"id": "P", "birth_date": "1970-05-05", "hire_date": "2001-02-01"}
    request = {"plan": "carver-db", "as_of": "2026-01-01", "participants": [person] * (MAX_PARTICIPANTS + 1)}
    code, out, err = _run(json.dumps(request))
    assert code == 2 and out == "" and err.startswith("malformed request at /participants: at most 100,000")
    header = json.dumps({"plan": "carver-db", "as_of": "2026-01-01"})
    lines = "\n".join([header, *[json.dumps(person)] * (MAX_PARTICIPANTS + 1)])
    code, out, err = _run(lines, "--jsonl")
    assert code == 2 and out == "" and "at most 100,000" in err


def test_an_endless_input_is_refused_while_reading():
    """The reproduction: /dev/zero ended in a MemoryError traceback; /dev/urandom never answered."""
    for args in (["/dev/zero"], ["-"]):
        with open("/dev/zero", "rb") as zero:
            proc = subprocess.run(
                [sys.executable, "-m", "benefits.engine", "calculate", *args],
                stdin=zero,
                capture_output=True,
                cwd=ROOT,
                timeout=120,
            )
        assert proc.returncode == 2 and proc.stdout == b""
        assert (
            proc.stderr.decode().strip()
            == f"malformed request at /: larger than {MAX_REQUEST_BYTES >> 20} MB"
        )
    with open("/dev/urandom", "rb") as noise:
        proc = subprocess.run(
            [sys.executable, "-m", "benefits.engine", "calculate", "--jsonl", "-"],
            stdin=noise,
            capture_output=True,
            cwd=ROOT,
            timeout=120,
        )
    assert proc.returncode == 2 and proc.stdout == b"" and len(proc.stderr.decode().splitlines()) == 1


def test_a_reader_that_goes_away_ends_the_run_quietly(tmp_path):
    person = {"birth_date": "1970-05-05", "hire_date": "2001-02-01"}
    request = {
        "plan": "carver-db",
        "as_of": "2026-01-01",
        "participants": [{"id": f"P-{i}", **person} for i in range(2000)],
    }
    path = tmp_path / "census.json"
    path.write_text(json.dumps(request))
    proc = subprocess.Popen(
        [sys.executable, "-m", "benefits.engine", "calculate", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(10)
    proc.stdout.close()  # the reader goes away, as `| head -c 10` does
    err = proc.stderr.read()
    proc.wait(timeout=120)
    assert proc.returncode == 141
    assert b"Traceback" not in err and b"BrokenPipeError" not in err
