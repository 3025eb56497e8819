"""Participants per second for a census per plan, through the CLI's code path, in one process.

Usage: ``.venv/bin/python bench/bench_engine_cli.py [N]`` (default 2,000)

For each plan: generate the census (bench/census.py), serialise it to JSON, then time what
``python -m benefits.engine calculate`` does in its one process: ``json.loads`` → parse and
validate → calculate every participant → ``json.dumps`` of each result. Medians of 3; the rate per
core is participants ÷ CPU seconds of this process (bench/timing.py: the machine is shared, wall
time swings with the load). Beside it, in the same run: the service/vesting core alone (the plan's
``outputs.plan_outputs`` stubbed out), the floor under any plan's figures, and the same census with
``options.traces`` false ("no traces": every figure, no trace step built). Target (issue 17):
≥ 1,000 participants/s per core in-process for every plan, for a census: the no-traces mode, the one
a census is run in (docs/engine-cli.md); the traced rate is printed beside it.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import census  # noqa: E402
from timing import load_average, median_of  # noqa: E402

from benefits.engine.plans import PLANS  # noqa: E402
from benefits.engine.request import calculate_request  # noqa: E402

TARGET = 1000


def run_once(text: str) -> int:
    response = calculate_request(json.loads(text))
    for r in response["results"]:
        json.dumps(r)
    return sum(1 for r in response["results"] if "error" in r)


def main(n: int = 2_000) -> None:
    print(f"census in one process, {n:,} participants ({load_average()}; medians of 3)")
    print(f"  {'plan':<22}{'mode':<12}{'wall /s':>10}{'per core /s':>13}{'errors':>8}")
    for plan, original in list(PLANS.items()):
        request = census.request(plan, n)
        text = json.dumps(request)
        bare = json.dumps(request | {"options": {"traces": False}})
        for mode in ("core only", "full", "no traces"):
            if mode == "core only":
                PLANS[plan] = dataclasses.replace(original, outputs=lambda *a: {})
            errors: list[int] = []
            given = bare if mode == "no traces" else text
            try:
                wall, cpu = median_of(lambda given=given, errors=errors: errors.append(run_once(given)))
            finally:
                PLANS[plan] = original
            met = n / cpu >= TARGET
            verdict = {
                "core only": "",
                "full": "" if met else f"(below {TARGET:,}/s with every trace)",
                "no traces": "target met" if met else f"BELOW {TARGET:,}/s",
            }[mode]
            print(f"  {plan:<22}{mode:<12}{n / wall:>10,.0f}{n / cpu:>13,.0f}{errors[-1]:>8}  {verdict}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2_000)
