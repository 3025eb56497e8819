"""The one pass against ``plan.grid.price``, alternated in one process: the ratio when the machine is noisy.

    .venv/bin/python bench/bench_modeler_ratio.py [--runs 15] [--processes 3]

Issue 29. The same requests as ``bench_modeler_grid.py`` part 1 (each grid plan's participant, every
date of its grid; the demo market data, then every month's rates, so that every date's relative
values are computed), but the grid and the modeler's untraced request are timed
in turn, ``--runs`` times each, and the minimum CPU time of each is printed with their ratio: a
shared machine slows one sample or another, rarely every sample of one side, so the minimums of
alternating samples are steadier than the medians of runs taken one after the other. Target: the
modeler's request within 2× of the grid.

The comparison bases of the dates are kept between requests (``basis_memo``: the next participant of
the plan under the same market data reads them), so each round also times the request once more with
them dropped first: the "first request" figure, what a worker's first modeler run of a market-data
set costs.

Whole processes run faster or slower on a shared machine (one run read the carver-db grid at 22 ms in
every one of 25 samples, the next at 13 ms), so the rounds run in ``--processes`` child processes in
turn, each printing its minimums; the figures are the median of the processes' ratios, with their
range.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_modeler_grid import cases, every_month_rates, market_data, request  # noqa: E402
from timing import load_average  # noqa: E402

from benefits.engine import basis_memo  # noqa: E402
from benefits.engine.request import calculate_request  # noqa: E402


def measure(runs: int) -> list[dict[str, object]]:
    """Each case's minimum CPU times (ms) over ``runs`` alternated rounds, in this process."""
    figures: list[dict[str, object]] = []
    for plan_key, plan, p, dates, as_of, own in cases():
        for label, market in (("demo market data", market_data), ("every month's rates", every_month_rates)):
            a = market(as_of) | own
            req = request(plan_key, p, dates, as_of, a, {"traces": False})
            core = plan.core_result(p, as_of)
            calculate_request(req)  # tables and caches warmed for both sides
            grid_s, one_s, first_s = [], [], []
            for _ in range(runs):
                start = time.process_time()
                plan.grid.price(p, as_of, a, core)
                middle = time.process_time()
                calculate_request(req)
                end = time.process_time()
                basis_memo.forget()
                again = time.process_time()
                calculate_request(req)
                grid_s.append(middle - start)
                one_s.append(end - middle)
                first_s.append(time.process_time() - again)
            grid, one, first = (min(x) * 1000 for x in (grid_s, one_s, first_s))
            case = f"{plan_key}, {label}, {len(dates)} dates"
            figures.append({"case": case, "grid": grid, "one": one, "first": first})
    return figures


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.runs)))
        return
    print(
        f"grid and one pass alternated, minimum CPU of {args.runs} each, in {args.processes} processes "
        f"in turn ({load_average()})"
    )
    argv = [sys.executable, __file__, "--child", "--runs", str(args.runs)]
    processes = [
        json.loads(subprocess.run(argv, check=True, capture_output=True, text=True).stdout)
        for _ in range(args.processes)
    ]
    for i, first_process in enumerate(processes[0]):
        rows = [figures[i] for figures in processes]
        ratio = [float(r["one"]) / float(r["grid"]) for r in rows]
        first = [float(r["first"]) / float(r["grid"]) for r in rows]
        print(
            f"  {first_process['case']}: plan.grid.price "
            f"{', '.join(f'{float(r["grid"]):.1f}' for r in rows)} ms; one pass "
            f"{', '.join(f'{float(r["one"]):.1f}' for r in rows)} ms: "
            f"{statistics.median(ratio):.2f}× (processes {', '.join(f'{x:.2f}' for x in ratio)}; target ≤ 2×); "
            f"first request of the market data {statistics.median(first):.2f}× "
            f"({', '.join(f'{x:.2f}' for x in first)})"
        )


if __name__ == "__main__":
    main()
