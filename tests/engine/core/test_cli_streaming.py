"""The command line writes each result as it is computed, and reads/writes JSON Lines censuses
(``calculate --jsonl``, docs/engine-cli.md *Large censuses*)."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from benefits.engine.__main__ import main
from benefits.engine.request import calculate_request, parse_request
from benefits.engine.streaming import write_response, write_result

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = sorted((ROOT / "examples").glob("*.json"))


def _jsonl(request: dict) -> str:
    header = {k: v for k, v in request.items() if k != "participants"}
    return "\n".join(json.dumps(x) for x in [header, *request["participants"]]) + "\n"


def _run(argv, stdin=""):
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_streamed_output_is_the_same_json_byte_for_byte(path):
    """Writing result by result gives exactly what ``json.dump`` of the whole response gave."""
    request = json.loads(path.read_text())
    whole = json.dumps(calculate_request(request), ensure_ascii=False) + "\n"
    out = io.StringIO()
    write_response(parse_request(request), out)
    assert out.getvalue() == whole


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_jsonl_gives_the_same_results_one_a_line(path, tmp_path):
    request = json.loads(path.read_text())
    expected = calculate_request(request)["results"]
    census = tmp_path / "census.jsonl"
    census.write_text(_jsonl(request))
    for argv, stdin in (
        (["calculate", "--jsonl", str(census)], ""),
        (["calculate", "--jsonl", "-"], census.read_text()),
    ):
        code, out, err = _run(argv, stdin)
        assert (code, err) == (0, "")
        lines = out.splitlines()
        assert [json.loads(line) for line in lines] == expected
        assert len(lines) == len(request["participants"])


def test_each_result_is_written_before_the_next_is_computed():
    """The writer receives a result before the next participant is calculated (nothing is held)."""
    events = []

    class Out(io.StringIO):
        def write(self, text):
            if text.startswith('{"id"'):
                events.append("write")
            return super().write(text)

    def results():
        for i in range(3):
            events.append("computed")
            yield {"id": f"P-{i}"}

    request = parse_request(json.loads(EXAMPLES[0].read_text()))
    out = Out()
    write_response(request, out, results())
    assert events == ["computed", "write"] * 3
    assert [r["id"] for r in json.loads(out.getvalue())["results"]] == ["P-0", "P-1", "P-2"]


def test_jsonl_writes_each_line_as_it_is_computed(tmp_path, monkeypatch):
    import benefits.engine.streaming as streaming

    request = json.loads((ROOT / "examples" / "carver-db.json").read_text())
    census = tmp_path / "c.jsonl"
    census.write_text(_jsonl(request))
    seen = []
    real = streaming.result_for

    class Out(io.StringIO):
        pass

    out = Out()

    def spy(req, item, index):
        seen.append(out.getvalue().count("\n"))  # lines already written when participant ``index`` starts
        return real(req, item, index)

    monkeypatch.setattr(streaming, "result_for", spy)
    with census.open() as fh:
        streaming.write_jsonl(fh, out)
    assert seen == list(range(len(request["participants"])))


def test_jsonl_blank_lines_are_skipped(tmp_path):
    request = json.loads((ROOT / "examples" / "carver-esop.json").read_text())
    census = tmp_path / "c.jsonl"
    census.write_text(_jsonl(request).replace("\n", "\n\n"))
    code, out, _ = _run(["calculate", "--jsonl", str(census)])
    assert code == 0 and len(out.splitlines()) == len(request["participants"])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "malformed request at /: the first line must be the request"),
        ('{"plan": "acme", "as_of": "2026-11-21"}\n', "malformed request at /plan: unknown plan 'acme'"),
        (
            '{"plan": "carver-db", "as_of": "2026-11-21", "participants": []}\n',
            "malformed request at /participants: in JSON Lines the participants follow one a line",
        ),
        (
            '{"plan": "carver-db", "as_of": "2026-11-21"}\n{"id": "A", "birth_date": "1960-01-01", "hire_date": "1990-01-01"}\n{"id": "B", "birth_date": "05/05/1970"}\n',
            "malformed request at /participants/1/birth_date: not a date",
        ),
        (
            '{"plan": "carver-db", "as_of": "2026-11-21"}\n{"id": "A", "birth_date": "1960-01-01", "hire_date": "1990-01-01"}\n{"id": \n',
            "malformed request at /participants/1: not JSON",
        ),
    ],
)
def test_a_malformed_census_exits_2_and_writes_no_result(tmp_path, text, message):
    """The whole file is checked before the first result: no partial output on a bad line 3."""
    census = tmp_path / "bad.jsonl"
    census.write_text(text)
    for argv, stdin in ((["calculate", "--jsonl", str(census)], ""), (["calculate", "--jsonl", "-"], text)):
        code, out, err = _run(argv, stdin)
        assert code == 2 and out == ""
        assert err.startswith(message), err
        assert len(err.strip().splitlines()) == 1


def test_a_participant_that_cannot_be_calculated_is_a_result_line(tmp_path):
    census = tmp_path / "c.jsonl"
    census.write_text(
        '{"plan": "carver-db", "as_of": "2026-11-21"}\n'
        '{"id": "NO-BIRTH", "hire_date": "1990-01-01"}\n'
        '{"id": "OK", "birth_date": "1960-01-01", "hire_date": "1990-01-01", "hours": {"1990": 2000}, "plan_data": {"social_security_amount": "12000.00"}}\n'
    )
    code, out, _ = _run(["calculate", "--jsonl", str(census)])
    first, second = (json.loads(line) for line in out.splitlines())
    assert code == 0
    assert first == {
        "id": "NO-BIRTH",
        "error": {"field": "/participants/0/birth_date", "message": "birth_date is required"},
    }
    assert second["id"] == "OK" and "error" not in second


def test_missing_file_exits_2():
    code, out, err = _run(["calculate", "--jsonl", "/nonexistent/census.jsonl"])
    assert code == 2 and out == "" and err.startswith("cannot read /nonexistent/census.jsonl")


def test_jsonl_through_a_real_process(tmp_path):
    request = json.loads((ROOT / "examples" / "quaker-cash-balance.json").read_text())
    census = tmp_path / "c.jsonl"
    census.write_text(_jsonl(request))
    proc = subprocess.run(
        [sys.executable, "-m", "benefits.engine", "calculate", "--jsonl", str(census)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert [json.loads(line) for line in proc.stdout.splitlines()] == calculate_request(request)["results"]


HEADER = b'{"plan": "carver-db", "as_of": "2026-11-21"}\n'
GOOD = b'{"id": "A", "birth_date": "1960-01-01", "hire_date": "1990-01-01"}\n'


@pytest.mark.parametrize(
    ("name", "data", "pointer", "rule", "line"),
    [
        ("non-UTF-8 bytes", HEADER + GOOD + b'{"id": "\xff\xfe"}\n', "/participants/1", "not UTF-8 text", 3),
        (
            "deep nesting",
            HEADER + b'{"id": "A", "x": ' + b"[" * 5000 + b"]" * 5000 + b"}\n",
            "/participants/0",
            "nested deeper than 64 levels",
            2,
        ),
        (
            "4,301-digit integer",
            HEADER + GOOD + b'{"id": ' + b"9" * 4301 + b"}\n",
            "/participants/1",
            "a number is too long",
            3,
        ),
        (
            "NaN",
            HEADER + b'{"id": "A", "birth_date": "1960-01-01", "compensation": {"2000": NaN}}\n',
            "/participants/0",
            "NaN is not a number JSON allows",
            2,
        ),
        (
            "Infinity",
            HEADER + GOOD + GOOD + b'{"id": "A", "hours": {"2000": -Infinity}}\n',
            "/participants/2",
            "-Infinity is not a number JSON allows",
            4,
        ),
        (
            "a list, not an object",
            HEADER + GOOD + b"[1, 2]\n",
            "/participants/1",
            "each participant must be an object",
            3,
        ),
        (
            "a string, not an object",
            HEADER + b'"A"\n',
            "/participants/0",
            "each participant must be an object",
            2,
        ),
        (
            "a number, not an object",
            HEADER + b"\n\n7\n",
            "/participants/0",
            "each participant must be an object",
            4,
        ),
        ("header not an object", b"[]\n" + GOOD, "/", "the request must be a JSON object", 1),
        ("header not UTF-8", b'{"plan": "\xff"}\n' + GOOD, "/", "not UTF-8 text", 1),
        ("header NaN", b'{"plan": "carver-db", "as_of": NaN}\n', "/", "NaN is not a number JSON allows", 1),
        ("header deep", b"{" * 100 + b"\n", "/", "nested deeper than 64 levels", 1),
        (
            "a birth in 1800",
            HEADER + b'{"id": "A", "birth_date": "1800-01-01", "hire_date": "1990-01-01"}\n',
            "/participants/0/birth_date",
            "",
            2,
        ),
        (
            "negative pay",
            HEADER
            + b'{"id": "A", "birth_date": "1960-01-01", "hire_date": "1990-01-01", "compensation": {"2000": "-5"}}\n',
            "/participants/0/compensation/2000",
            "",
            2,
        ),
        (
            "1e30 hours",
            HEADER
            + b'{"id": "A", "birth_date": "1960-01-01", "hire_date": "1990-01-01", "hours": {"2000": 1e30}}\n',
            "/participants/0/hours/2000",
            "",
            2,
        ),
    ],
    ids=lambda v: v if isinstance(v, str) and len(v) < 40 else None,
)
def test_every_malformed_census_line_exits_2_with_one_line_naming_it(
    tmp_path, name, data, pointer, rule, line
):
    """Issue 15: each JSON Lines line goes through the same hardened decoder as a whole request; the
    answer is exit 2, nothing on standard output, and one line naming the pointer, the rule and the
    line of the file (a file on disk, and raw bytes on standard input)."""
    census = tmp_path / "bad.jsonl"
    census.write_bytes(data)
    stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")  # .buffer: the raw bytes, as sys.stdin
    for argv, source in (
        (["calculate", "--jsonl", str(census)], io.StringIO("")),
        (["calculate", "--jsonl", "-"], stdin),
    ):
        out, err = io.StringIO(), io.StringIO()
        code = main(argv, stdin=source, stdout=out, stderr=err)
        message = err.getvalue()
        assert code == 2 and out.getvalue() == "", (name, message)
        assert len(message.strip().splitlines()) == 1, message
        assert message.startswith(f"malformed request at {pointer}"), message
        assert rule in message and f"line {line}" in message, message
        assert "Traceback" not in message


def _written(result: dict) -> str:
    out = io.StringIO()
    write_result(result, out)
    return out.getvalue()


def test_a_traced_result_written_a_piece_at_a_time_is_json_dumps_byte_for_byte():
    """Issue 29: a step one result lists in many traces is encoded once (``write_result``); the text
    is ``json.dumps`` of the result, whatever shape its traces take."""
    request = json.loads((ROOT / "examples" / "carver-db.json").read_text())
    for result in calculate_request(request)["results"]:
        assert result.get("traces")
        assert _written(result) == json.dumps(result, ensure_ascii=False)
    step = {"rule": "Ünïcode §", "result": "1.5"}
    odd = [
        {"id": "A", "traces": {}},
        {"id": "B", "traces": {"x": [step, step], "y": [], "z": "not a list"}, "after": [1, 2.5, None]},
        {"id": "C", "traces": {1: [step]}},  # a key JSON turns into a string: the plain encoder
        {"id": "D", "traces": None},
        {"traces": {"x": [step]}},
    ]
    for result in odd:
        assert _written(result) == json.dumps(result, ensure_ascii=False)


def _written_bytes(result: dict, encoding: str = "utf-8", errors: str = "strict") -> bytes:
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding=encoding, errors=errors, newline="")
    out.write("[")  # text written before the result stays before it
    write_result(result, out)
    out.write("]")
    out.flush()
    return raw.getvalue()


def test_a_traced_result_written_to_a_byte_stream_is_json_dumps_in_its_encoding():
    """Issue 29: on a UTF-8 stream with a byte buffer (standard output, the census spool) each
    distinct step's text is turned into bytes once; the bytes are still those of ``json.dumps``
    written as text, and text written around the result keeps its place. Another encoding takes
    the text path."""
    request = json.loads((ROOT / "examples" / "carver-db.json").read_text())
    step = {"rule": "Ünïcode § — ×", "result": "1.5"}
    results = [
        *calculate_request(request)["results"],
        {"id": "B", "traces": {"x": [step, step], "y": [], "z": "not a list"}, "after": [1, 2.5, None]},
        {"id": "A", "traces": {}},
        {"traces": {"x": [step]}},
    ]
    for result in results:
        text = "[" + json.dumps(result, ensure_ascii=False) + "]"
        assert _written_bytes(result) == text.encode("utf-8")
        assert _written_bytes(result, "latin-1", "replace") == text.encode("latin-1", "replace")
    # a character standard output carries under the POSIX locale's error handler
    odd = {"id": "S", "traces": {"x": [{"rule": "\udcff", "result": None}]}}
    expected = ("[" + json.dumps(odd, ensure_ascii=False) + "]").encode("utf-8", "surrogateescape")
    assert _written_bytes(odd, errors="surrogateescape") == expected
    with pytest.raises(UnicodeEncodeError):
        _written_bytes(odd)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_jsonl_to_a_byte_stream_gives_the_text_results_in_utf8(path, tmp_path):
    """The census spool is copied to a UTF-8 standard output as bytes: the same output as text."""
    request = json.loads(path.read_text())
    census = tmp_path / "census.jsonl"
    census.write_text(_jsonl(request))
    code, text, _ = _run(["calculate", "--jsonl", str(census)])
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="utf-8", newline="")
    assert main(["calculate", "--jsonl", str(census)], stdout=out, stderr=io.StringIO()) == code == 0
    out.flush()
    assert raw.getvalue() == text.encode("utf-8")


def test_the_step_encoder_writes_what_json_dumps_writes():
    """``streaming._ENCODE_STEP`` (the C encoder made once) gives ``json.dumps(…, ensure_ascii=False)``."""
    from benefits.engine.streaming import _ENCODE_STEP

    values = [
        {"rule": "Ünïcode § — ×", "inputs": {"a": 0.1, "b": -0.0, "c": 1e-07, "d": 10**30, "e": None}},
        {"result": [True, False, 1.5, 'x\n"y"'], "input_types": {"k": {"kind": "money", "places": 2}}},
        "a bare string",
        2.5,
        [],
        {},
        {"nested": {"deeper": [{"x": float("inf")}]}},
    ]
    for value in values:
        assert _ENCODE_STEP(value) == json.dumps(value, ensure_ascii=False)
