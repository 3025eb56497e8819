"""Results know their engine (issue 12 item 6) and list the regulatory values they used (item 7)."""

from __future__ import annotations

import json
import shutil
from datetime import date

from benefits.engine import ENGINE_FINGERPRINT, ENGINE_VERSION, RELEASE, engine_fingerprint
from benefits.engine.parameters import parameter, recorded_reads
from benefits.engine.request import calculate_request
from benefits.engine.trace import TraceBuilder


def test_version_carries_the_fingerprint():
    assert f"{RELEASE}+{ENGINE_FINGERPRINT}" == ENGINE_VERSION
    assert len(ENGINE_FINGERPRINT) == 12 and int(ENGINE_FINGERPRINT, 16) >= 0
    assert len(ENGINE_VERSION) <= 20  # fits the stored engine_version columns


def test_fingerprint_changes_with_code_or_data_and_ignores_caches(tmp_path):
    import benefits.engine as engine

    root = tmp_path / "engine"
    shutil.copytree(engine._ROOT, root, ignore=shutil.ignore_patterns("__pycache__"))
    before = engine_fingerprint(root)
    assert before == ENGINE_FINGERPRINT
    (root / "__pycache__").mkdir(exist_ok=True)
    (root / "__pycache__" / "x.pyc").write_bytes(b"cache")
    assert engine_fingerprint(root) == before
    data = root / "parameters" / "data" / "irs_415b_dollar_limit.json"
    raw = json.loads(data.read_text())
    raw["values"][-1]["value"] = "295000"
    data.write_text(json.dumps(raw))
    assert engine_fingerprint(root) != before
    data.write_text(json.dumps(raw | {"values": raw["values"][:-1]}))
    assert engine_fingerprint(root) != before


def test_the_cli_response_carries_it():
    r = calculate_request({"plan": "carver-db", "as_of": "2026-01-01", "participants": []})
    assert r["engine_version"] == ENGINE_VERSION


def test_reads_inside_a_figure_are_in_its_trace_once():
    with recorded_reads():
        tb = TraceBuilder()
        tb.step("a figure", section="§X", result=1)
        parameter("irs_402g_elective_deferral_limit").at(date(1990, 6, 30))
        inner = TraceBuilder()
        parameter("irs_415b_dollar_limit").at(date(1983, 12, 31))
        tb.include(inner.build())
        steps = tb.build().steps
    rules = [s.rule for s in steps]
    assert len(steps) == 3, rules
    by_param = {dict(s.inputs).get("parameter"): s for s in steps[1:]}
    s415 = by_param["irs_415b_dollar_limit"]
    assert s415.result == "90000" and dict(s415.inputs)["for_date"] == "1983-12-31"
    assert "TEFRA" in dict(s415.inputs)["source"] and s415.section.startswith("26 U.S.C. §415(b)")
    assert by_param["irs_402g_elective_deferral_limit"].result == "7979"


def test_no_recording_outside_a_calculation():
    tb = TraceBuilder()
    parameter("irs_415b_dollar_limit").at(date(2024, 12, 31))
    assert tb.build().steps == ()
