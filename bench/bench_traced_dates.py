"""A traced many-date request, its calculation and its writing timed apart, optionally beside another
checkout of the code (a before/after of a change to the traced path).

    .venv/bin/python bench/bench_traced_dates.py [--runs 15] [--before OTHER_CHECKOUT]

The requests are bench_every_date_cli.py's as sent (every figure with its trace, the demo's market
data): carver-db's participant with its 174 modeler dates and with one, Quaker's with its 372. Each
run is a fresh child process (nothing warm from an earlier run) that decodes and parses the request,
then measures its own CPU time (``time.process_time``) for the results (``iter_results``: the
calculation and the contract JSON with its traces) and for writing them (``streaming.write_result``
to /dev/null), and prints both; the engine's bytecode is compiled first in each checkout; the start-up and imports are left out, so the per-date work is what
is compared. With ``--before``, the same child runs from that checkout, in turn with this one, on
the same request file. Printed: the minimum and the median of the runs of each (on a shared machine
a slow spell only adds time, so the minimum is the steadier figure; both are shown).
"""

from __future__ import annotations

import argparse
import compileall
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_every_date_cli as every_date  # noqa: E402
from timing import load_average  # noqa: E402

# Runs in the child, from the checkout being timed (its directory first on the path).
CHILD = """
import os, sys, time
sys.path.insert(0, os.getcwd())
from benefits.engine.json_input import decode
from benefits.engine.request import parse_request
from benefits.engine.streaming import iter_results, write_result
request = parse_request(decode(open(sys.argv[1], "rb").read()))
start = time.process_time()
results = list(iter_results(request))
calculated = time.process_time()
with open(os.devnull, "w", encoding="utf-8") as out:
    for result in results:
        write_result(result, out)
    out.flush()
print(calculated - start, time.process_time() - calculated)
"""


def child(root: Path, path: Path) -> tuple[float, float]:
    """(calculation CPU seconds, writing CPU seconds) of one fresh process in ``root``."""
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(path)], cwd=root, capture_output=True, text=True, check=True
    ).stdout.split()
    return float(out[0]), float(out[1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--before", type=Path, help="another checkout, run in turn with this one")
    args = parser.parse_args()
    roots = {"this checkout": ROOT} | ({"before": args.before.resolve()} if args.before else {})
    for root in roots.values():  # bytecode current in each, as `make install` leaves it
        compileall.compile_dir(root / "benefits", quiet=1)
    print(f"a traced request's calculation and writing, CPU ms of a fresh process ({load_average()})")
    print(f"  {args.runs} runs of each, in turn; min / median")
    with tempfile.TemporaryDirectory() as tmp:
        requests = []
        for plan, (base, dates) in every_date.requests().items():
            p = base.pop("participant")
            kinds = [("every date", dates)] + ([("one date", dates[:1])] if plan == "carver-db" else [])
            for kind, when in kinds:
                path = Path(tmp) / f"{plan}-{len(when)}.json"
                path.write_text(json.dumps(base | {"participants": [every_date.as_json(p, when)]}))
                requests.append((f"{plan}, {kind} ({len(when)})", path))
        for label, path in requests:
            runs: dict[str, list[tuple[float, float]]] = {name: [] for name in roots}
            for _ in range(args.runs):
                for name, root in roots.items():
                    runs[name].append(child(root, path))
            for name, samples in runs.items():
                calc = [c * 1000 for c, _ in samples]
                write = [w * 1000 for _, w in samples]
                both = [c + w for c, w in zip(calc, write, strict=True)]
                print(
                    f"  {label:<40}{name:<15}calculation {min(calc):5.0f} / {statistics.median(calc):5.0f}"
                    f"   writing {min(write):4.0f} / {statistics.median(write):4.0f}"
                    f"   both {min(both):5.0f} / {statistics.median(both):5.0f}"
                )


if __name__ == "__main__":
    main()
