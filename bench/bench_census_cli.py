"""Census through the command line (``calculate --jsonl``): participants per CPU second, beside a plain
JSON read and write of the same file measured in the same run.

Usage: ``.venv/bin/python bench/bench_census_cli.py [N] [--plans carver-db,...] [--runs 3] [--untraced]``

For each plan, writes the census of N participants (bench/census.py, default 10,000) as JSON Lines to
a temporary file, twice: with every trace (the header as generated) and with ``"options": {"traces":
false}``. Each is run as a child process, ``python -m benefits.engine calculate --jsonl FILE``, output
to /dev/null; its CPU time (user + system, ``os.wait4``), wall time and peak memory are the child's
own. The engine's bytecode is compiled first (``compileall``, as ``make install`` does), so a child
reads it rather than compiling every module at start. The floor beside it: a child Python that reads
the same file a line at a time, ``json.loads`` each line and writes ``json.dumps`` of it to /dev/null
(nothing computed). Each of ``--runs`` rounds runs the floor, then the census without traces, then
with them, one after the other, so that a round's ratio compares runs a few seconds apart (a shared
machine's slow spell lands on both sides, not on one side's runs alone); the columns are the medians
of the rounds, and the ratio judged is the median of the rounds' own ratios. ``--untraced`` leaves
the traced runs out (a quick check of the first target).

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


def medians(samples: list[tuple[float, float, float]]) -> tuple[float, float, float]:
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
    parser.add_argument("--untraced", action="store_true", help="leave out the traced runs")
    args = parser.parse_args()
    n = args.n
    compileall.compile_dir(ROOT / "benefits", quiet=1)  # what `make install` leaves: bytecode current
    print(f"census through the CLI (calculate --jsonl), {n:,} participants ({load_average()})")
    print(
        f"  {args.runs} rounds of child processes (the floor, then the census), medians; "
        "per core = participants / child CPU seconds"
    )
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
            modes = [("no traces", bare)] + ([] if args.untraced else [("traced", traced)])
            samples: dict[str, list[tuple[float, float, float]]] = {"JSON floor": []}
            samples.update({mode: [] for mode, _ in modes})
            for _ in range(args.runs):  # a round: the floor, then each mode, back to back
                samples["JSON floor"].append(run_child([sys.executable, "-c", FLOOR, str(bare)]))
                for mode, path in modes:
                    samples[mode].append(run_child([*engine, str(path)]))
            rows = {mode: medians(runs) for mode, runs in samples.items()}
            floor = rows["JSON floor"][0]
            for mode, (cpu, wall, mb) in rows.items():
                print(
                    f"  {plan:<21}{mode:<11}{cpu:>7.2f}{wall:>8.2f}{n / cpu:>12,.0f}{cpu / n * 1000:>9.3f}"
                    f"{cpu / floor:>8.1f}×{mb:>9.0f}"
                )
            ratios = [b[0] / f[0] for f, b in zip(samples["JSON floor"], samples["no traces"], strict=True)]
            ratio, bare_cpu = statistics.median(ratios), rows["no traces"][0]
            ok_rate, ok_floor = n / bare_cpu >= 1000, ratio <= 10
            verdicts.append(ok_rate and ok_floor)
            traced_note = ""
            if "traced" in rows:
                traced_cpu = rows["traced"][0]
                traced_note = (
                    f"; traces add {(traced_cpu - bare_cpu) / n * 1000:.3f} ms a participant "
                    f"({traced_cpu / bare_cpu:.1f}×)"
                )
            print(
                f"  {plan:<21}no traces: {n / bare_cpu:,.0f}/s per core "
                f"({'≥' if ok_rate else 'BELOW'} 1,000), {ratio:.1f}× the floor of its round, median "
                f"(rounds {', '.join(f'{r:.1f}×' for r in ratios)}; {'within' if ok_floor else 'OVER'} 10×)"
                f"{traced_note}"
            )
            traced.unlink()
            bare.unlink()
    print("every plan met both targets" if all(verdicts) else "NOT every plan met both targets")


if __name__ == "__main__":
    main()
