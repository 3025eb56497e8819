"""The one pass against ``plan.grid.price``, alternated in one process: the ratio when the machine is noisy.

    .venv/bin/python bench/bench_modeler_ratio.py [--runs 15]

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
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_modeler_grid import cases, every_month_rates, market_data, request  # noqa: E402
from timing import load_average  # noqa: E402

from benefits.engine import basis_memo  # noqa: E402
from benefits.engine.request import calculate_request  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    runs = parser.parse_args().runs
    print(f"grid and one pass alternated, minimum CPU of {runs} each ({load_average()})")
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
            print(
                f"  {plan_key}, {label}, {len(dates)} dates: plan.grid.price {grid:.1f} ms, "
                f"modeler request (one pass) {one:.1f} ms: {one / grid:.2f}× (target ≤ 2×); "
                f"first request of the market data {first:.1f} ms: {first / grid:.2f}×"
            )


if __name__ == "__main__":
    main()
