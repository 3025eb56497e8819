"""Census through the command line: participants per second and peak memory, JSON vs JSON Lines.

Usage: ``.venv/bin/python bench/bench_census_cli.py [N] [--plans carver-db,...] [--modes json,jsonl]``

For each plan, writes the census of N participants (bench/census.py) to a temporary file and runs
``python -m benefits.engine calculate FILE`` and ``... calculate --jsonl FILE`` as child processes,
output to /dev/null. Peak memory is the child's maximum resident set size (``os.wait4``). The target
(issue 17): under 300 MB at 50,000 participants for every plan with ``--jsonl``, flat in N; the
baseline beside it is the same census as one JSON request (the whole file decoded at once).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

import census  # noqa: E402

PLANS = ("carver-db", "quaker-cash-balance", "carver-401k", "fairport-esop", "carver-esop")


def run_child(args: list[str]) -> tuple[float, float, int]:
    """Seconds, peak RSS (MB) and exit code of one CLI run."""
    t = time.perf_counter()
    with open(os.devnull, "w") as devnull:
        proc = subprocess.Popen([sys.executable, "-m", "benefits.engine", *args], cwd=ROOT, stdout=devnull)
        _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return time.perf_counter() - t, usage.ru_maxrss / 1024, proc.returncode


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("n", nargs="?", type=int, default=10_000)
    parser.add_argument("--plans", default=",".join(PLANS))
    parser.add_argument("--modes", default="json,jsonl")
    args = parser.parse_args()
    modes = args.modes.split(",")
    print(f"census through the CLI, {args.n:,} participants (child process; peak RSS)")
    print(f"  {'plan':<22}{'input':<8}{'seconds':>9}{'per second':>12}{'peak MB':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        for plan in args.plans.split(","):
            jsonl = Path(tmp) / f"{plan}.jsonl"
            with jsonl.open("w") as out:
                census.write_jsonl(plan, args.n, out)
            if "json" in modes:
                whole = Path(tmp) / f"{plan}.json"
                import json

                whole.write_text(json.dumps(census.request(plan, args.n)))
                seconds, peak, code = run_child(["calculate", str(whole)])
                print(
                    f"  {plan:<22}{'json':<8}{seconds:>9.1f}{args.n / seconds:>12,.0f}{peak:>9.0f}  (baseline)"
                )
                whole.unlink()
            if "jsonl" in modes:
                seconds, peak, code = run_child(["calculate", "--jsonl", str(jsonl)])
                verdict = "ok" if peak < 300 else "OVER 300 MB"
                print(
                    f"  {plan:<22}{'jsonl':<8}{seconds:>9.1f}{args.n / seconds:>12,.0f}{peak:>9.0f}  {verdict}"
                )
            jsonl.unlink()


if __name__ == "__main__":
    main()
