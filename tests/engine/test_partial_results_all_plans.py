"""Partial results for every plan (issue 24 item 2): removing any one optional input never removes
vesting, service or the retirement dates, and never turns the participant into an error.

The requests are the repository's examples (examples/<plan>.json); every input that can be left out is
removed in turn (exhaustively, not sampled): a ``plan_data`` key of one participant, an
``assumptions`` key or a ``settings`` key.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from benefits.engine.request import calculate_request

ROOT = Path(__file__).resolve().parents[2]
PLANS = ("carver-401k", "carver-db", "carver-esop", "fairport-esop", "quaker-cash-balance")
REQUESTS = {plan: json.loads((ROOT / "examples" / f"{plan}.json").read_text()) for plan in PLANS}


def _removals(plan: str) -> list[tuple[str, ...]]:
    req = REQUESTS[plan]
    out: list[tuple[str, ...]] = []
    for i, p in enumerate(req["participants"]):
        out.extend(("plan_data", str(i), k) for k in p.get("plan_data", {}))
    out.extend(("assumptions", k) for k in req.get("assumptions") or {})
    out.extend(("settings", k) for k in req.get("settings") or {})
    return out


CASES = [(plan, r) for plan in PLANS for r in _removals(plan)]


def _without(plan: str, removal: tuple[str, ...]) -> dict:
    req = copy.deepcopy(REQUESTS[plan])
    if removal[0] == "plan_data":
        del req["participants"][int(removal[1])]["plan_data"][removal[2]]
    else:
        del req[removal[0]][removal[1]]
    return req


def _core(result: dict) -> tuple:
    return (result["vesting"], result["normal_retirement_date"], result.get("earliest_retirement_date"))


@pytest.mark.parametrize(("plan", "removal"), CASES, ids=lambda c: c if isinstance(c, str) else ".".join(c))
def test_removing_one_optional_input_keeps_vesting_service_and_dates(plan, removal):
    full = {r["id"]: r for r in calculate_request(copy.deepcopy(REQUESTS[plan]))["results"]}
    for r in calculate_request(_without(plan, removal))["results"]:
        assert "error" not in r, (removal, r)
        assert r["vesting"]["vested_percent"] is not None and r["normal_retirement_date"]
        # vesting, service and dates depend on no optional benefit input; the one exception is the
        # Fairport pre-plan cap, whose absence counts no pre-plan year (the least any reading gives)
        if removal != ("settings", "pre_plan_vesting_cap_years"):
            assert _core(r) == _core(full[r["id"]]), removal


def test_every_plan_has_inputs_to_remove():
    assert {plan for plan, _ in CASES} == set(PLANS)
