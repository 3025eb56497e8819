"""Where a census participant's time goes, in process: decoding, parsing, computing and writing beside
a plain JSON read and write of the same lines, and, with ``--stage``, the time inside named functions.

    .venv/bin/python bench/bench_census_phases.py [PLAN] [N] [--rounds 3] [--stage MODULE:NAME ...]

Issue 29, item 5. ``bench_census_cli.py`` times the command line whole (start-up included); this
times its per-participant phases without the start-up, on the first N lines (default 3,000) of the
same generated census (``bench/census.py``, untraced): each phase is run over every line in turn,
``--rounds`` times, and the minimum CPU time of each is printed in microseconds a participant. The
floor is ``json.dumps(json.loads(line))`` of the same lines. ``--stage`` wraps a function (a
module's function, or a class's method as ``module:Class.method``) with a timer for one more
computing pass: the wall time inside each, in microseconds a participant (a stage called inside
another is counted in both). With no ``--stage``, Quaker's census is broken down by its usual stages.
"""

from __future__ import annotations

import argparse
import collections
import functools
import importlib
import io
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import census  # noqa: E402

from benefits.engine import streaming  # noqa: E402
from benefits.engine.json_input import decode  # noqa: E402
from benefits.engine.request import parse_header, parse_one, result_for  # noqa: E402

Q = "benefits.engine.plans.quaker_cash_balance"
QUAKER_STAGES = [
    "benefits.engine.plans.base:PackagePlan._core",
    f"{Q}.rules:hours_service",
    f"{Q}.rules:participation_date",
    f"{Q}.dates:grid_benefits",
    f"{Q}.results:participant_ledger",
    f"{Q}.results:account_inputs",
    f"{Q}.results:accrued_benefit",
    f"{Q}.results:interest_only_balance",
    f"{Q}.results:balance_to_life_annuity",
    f"{Q}.results:cash_out",
]


def _wrap(spent: collections.Counter[str], name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            spent[name] += time.perf_counter() - start

    return timed


def _time_stages(stages: list[str], run: Callable[[], None]) -> collections.Counter[str]:
    spent: collections.Counter[str] = collections.Counter()
    for stage in stages:
        module_name, _, attr = stage.partition(":")
        owner: Any = importlib.import_module(module_name)
        *path, name = attr.split(".")
        for part in path:
            owner = getattr(owner, part)
        setattr(owner, name, _wrap(spent, stage, getattr(owner, name)))
    run()
    return spent


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("plan", nargs="?", default="quaker-cash-balance")
    parser.add_argument("n", nargs="?", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--stage", action="append", default=[])
    args = parser.parse_args()
    header = census._header(args.plan) | {"options": {"traces": False}}
    lines = [json.dumps(p).encode() for p in census.participants(args.plan, args.n)]
    request = parse_header(json.loads(json.dumps(header)), participants=False)
    best: dict[str, float] = {}

    def clock(name: str, work: Callable[[], Any]) -> Any:
        start = time.process_time()
        out = work()
        best[name] = min(best.get(name, float("inf")), time.process_time() - start)
        return out

    def floor() -> None:
        out = io.StringIO()
        for line in lines:
            out.write(json.dumps(json.loads(line), ensure_ascii=False) + "\n")

    def write(results: list[dict[str, Any]]) -> None:
        out = io.StringIO()
        for result in results:
            streaming.write_result(result, out)
            out.write("\n")

    def decode_all() -> list[object]:
        return [decode(line, line=i + 2) for i, line in enumerate(lines)]

    def parse_all(objs: list[object]) -> list[Any]:
        return [parse_one(o, index=i, as_of=request.as_of) for i, o in enumerate(objs)]

    def compute_all(parsed: list[Any]) -> list[dict[str, Any]]:
        return [result_for(request, p, i) for i, p in enumerate(parsed)]

    parsed: list[Any] = []
    with streaming.traces_off():
        for _ in range(args.rounds):
            clock("floor", floor)
            objs = clock("decode", decode_all)
            parsed = clock("parse", functools.partial(parse_all, objs))
            results = clock("compute", functools.partial(compute_all, parsed))
            clock("write", functools.partial(write, results))
        stages = args.stage or (QUAKER_STAGES if args.plan == "quaker-cash-balance" else [])
        spent = _time_stages(stages, functools.partial(compute_all, parsed))
    n = len(lines)
    us = {name: seconds / n * 1e6 for name, seconds in best.items()}
    total = us["decode"] + us["parse"] + us["compute"] + us["write"]
    print(f"{args.plan}: {n:,} participants, minimum CPU of {args.rounds} rounds, µs a participant")
    print(
        "  "
        + ", ".join(f"{name} {us[name]:.0f}" for name in ("floor", "decode", "parse", "compute", "write"))
    )
    print(f"  the four phases {total:.0f} µs: {total / us['floor']:.1f}× the floor (the start-up left out)")
    for stage, seconds in spent.most_common():
        print(f"  inside {stage}: {seconds / n * 1e6:.1f} µs")


if __name__ == "__main__":
    main()
