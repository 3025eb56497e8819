"""Participants per second for a 10,000-participant run per plan, through the CLI's code path.

Usage: ``.venv/bin/python bench/bench_engine_cli.py [N]``

For each plan: generate the census (bench/census.py), serialise it to JSON, then time what
``python -m benefits.engine calculate`` does in its one process: ``json.loads`` → parse and
validate → calculate every participant → ``json.dumps``. Two figures per plan: the full result
(service, vesting and the plan's benefit outputs) and the service/vesting core alone (the plan's
``outputs.plan_outputs`` stubbed out), with the count of participants that returned an error.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import census  # noqa: E402

from benefits.engine.plans import PLANS  # noqa: E402
from benefits.engine.request import calculate_request  # noqa: E402


def run_once(text: str) -> tuple[float, int]:
    t0 = time.perf_counter()
    response = calculate_request(json.loads(text))
    json.dumps(response)
    elapsed = time.perf_counter() - t0
    return elapsed, sum(1 for r in response["results"] if "error" in r)


def main(n: int = 10_000) -> None:
    print(f"{'plan':<22}{'mode':<14}{'participants':>13}{'seconds':>10}{'per second':>12}{'errors':>8}")
    for plan, original in list(PLANS.items()):
        text = json.dumps(census.request(plan, n))
        for mode in ("full", "core only"):
            if mode == "core only":
                PLANS[plan] = dataclasses.replace(original, outputs=lambda *a: {})
            try:
                elapsed, errors = run_once(text)
            finally:
                PLANS[plan] = original
            print(f"{plan:<22}{mode:<14}{n:>13}{elapsed:>10.2f}{n / elapsed:>12.0f}{errors:>8}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)
