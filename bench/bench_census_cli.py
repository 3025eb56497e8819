"""Census through the command line (``calculate --jsonl``): participants per CPU second, beside a plain
JSON read and write of the same file measured in the same run.

Usage: ``.venv/bin/python bench/bench_census_cli.py [N] [--plans carver-db,...] [--runs 3]``

For each plan, writes the census of N participants (bench/census.py, default 10,000) as JSON Lines to
a temporary file, twice: with every trace (the header as generated) and with ``"options": {"traces":
false}``. Each is run as a child process, ``python -m benefits.engine calculate --jsonl FILE``, output
to /dev/null; its CPU time (user + system, ``os.wait4``), wall time and peak memory are the child's
own. The engine's bytecode is compiled first (``compileall``, as ``make install`` does), so a child
reads it rather than compiling every module at start. The floor beside it: a child Python that reads
the same file a line at a time, ``json.loads`` each line and writes ``json.dumps`` of it to /dev/null
(nothing computed). Medians of ``--runs``.

Targets (issue 29): without traces at least 1,000 participants a CPU second for every plan, and at most
10× the floor's CPU time; with traces the cost per participant is printed (CPU ms each, and as a
multiple of the untraced run). The machine is shared: read the CPU columns and the ratios.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

import census  # noqa: E402
from timing import load_average  # noqa: E402

PLANS = ("carver-db", "quaker-cash-balance", "carver-401k", "fairport-esop", "carver-esop")
FLOOR = (
    "import json, sys\n"
    "with open(sys.argv[1], 'rb') as fh, open('/dev/null', 'w') as out:\n"
    "    for line in fh:\n"
    "        if line.strip():\n"
    "            out.write(json.dumps(json.loads(line), ensure_ascii=False) + '\\n')\n"
)


def run_child(argv: list[str]) -> tuple[float, float, float]:
    """(CPU seconds, wall seconds, peak RSS in MB) of one child process; it must exit 0."""
    start = time.perf_counter()
    with open(os.devnull, "w") as devnull:
        proc = subprocess.Popen(argv, cwd=ROOT, stdout=devnull)
        _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)} failed")
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024


def median_run(argv: list[str], runs: int) -> tuple[float, float, float]:
    samples = [run_child(argv) for _ in range(runs)]
    return tuple(statistics.median(s[i] for s in samples) for i in range(3))  # type: ignore[return-value]


def write_census(plan: str, n: int, path: Path, options: dict[str, object]) -> None:
    with path.open("w") as out:
        header = census._header(plan) | ({"options": options} if options else {})
        out.write(json.dumps(header) + "\n")
        for p in census.participants(plan, n):
            out.write(json.dumps(p) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("n", nargs="?", type=int, default=10_000)
    parser.add_argument("--plans", default=",".join(PLANS))
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    n = args.n
    compileall.compile_dir(ROOT / "benefits", quiet=1)  # what `make install` leaves: bytecode current
    print(f"census through the CLI (calculate --jsonl), {n:,} participants ({load_average()})")
    print(f"  medians of {args.runs} child processes; per core = participants / child CPU seconds")
    print("  the engine's bytecode compiled first, as `make install` leaves it")
    print(
        f"  {'plan':<21}{'mode':<11}{'CPU s':>7}{'wall s':>8}{'per core/s':>12}{'ms each':>9}"
        f"{'× floor':>9}{'peak MB':>9}"
    )
    engine = [sys.executable, "-m", "benefits.engine", "calculate", "--jsonl"]
    verdicts = []
    with tempfile.TemporaryDirectory() as tmp:
        for plan in args.plans.split(","):
            traced, bare = Path(tmp) / f"{plan}.jsonl", Path(tmp) / f"{plan}-bare.jsonl"
            write_census(plan, n, traced, {})
            write_census(plan, n, bare, {"traces": False})
            floor, floor_wall, floor_mb = median_run([sys.executable, "-c", FLOOR, str(bare)], args.runs)
            rows = [("JSON floor", floor, floor_wall, floor_mb)]
            for mode, path in (("no traces", bare), ("traced", traced)):
                cpu, wall, mb = median_run([*engine, str(path)], args.runs)
                rows.append((mode, cpu, wall, mb))
            for mode, cpu, wall, mb in rows:
                print(
                    f"  {plan:<21}{mode:<11}{cpu:>7.2f}{wall:>8.2f}{n / cpu:>12,.0f}{cpu / n * 1000:>9.3f}"
                    f"{cpu / floor:>8.1f}×{mb:>9.0f}"
                )
            bare_cpu, traced_cpu = rows[1][1], rows[2][1]
            ok_rate, ok_floor = n / bare_cpu >= 1000, bare_cpu / floor <= 10
            verdicts.append(ok_rate and ok_floor)
            print(
                f"  {plan:<21}no traces: {n / bare_cpu:,.0f}/s per core "
                f"({'≥' if ok_rate else 'BELOW'} 1,000), {bare_cpu / floor:.1f}× the floor "
                f"({'within' if ok_floor else 'OVER'} 10×); traces add "
                f"{(traced_cpu - bare_cpu) / n * 1000:.3f} ms a participant ({traced_cpu / bare_cpu:.1f}×)"
            )
            traced.unlink()
            bare.unlink()
    print("every plan met both targets" if all(verdicts) else "NOT every plan met both targets")


if __name__ == "__main__":
    main()
