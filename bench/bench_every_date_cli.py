"""Every modeler date through the command line: one participant, every month from the earliest
commencement date to age 70 as ``commencement_dates``, one ``python -m benefits.engine calculate``
process per run.

    .venv/bin/python bench/bench_every_date_cli.py

The participants and dates are the grid benchmarks' (bench_carver_db_grid.py: 174 dates;
bench_quaker_grid.py: 372 dates). For each plan, the CPU time (user + system) of the whole child
process, medians of 9 rounds, for three kinds of request: as sent with no options (every figure with
its trace, the command line's default), with ``options.detail`` (the service history and the core's
trace as well), and with ``options.traces`` false (every figure, no trace). Beside each, in the same
run, its baseline: the same kind of request on the same participant with one date (interpreter start,
imports, tables loaded). Target (issue 17): ≤ 1 s through the command line. A round runs every request
once, one after the other; beside each figure, its ratio to its own one-date baseline: the median of
the rounds' own ratios, with their range (as bench_census_cli.py and bench_factors.py judge theirs).
Issue 29's target for carver-db: every date at most 1.5× one date's CPU. Each mode's runs are printed
under its median.

Every request carries the market data a participant's modeler request carries on the demo (issue 29:
without it every relative value, the §417(a)(3) part, is reported missing instead of computed): the
§417(e)(3) segment rates and the 30-year Treasury rate for the 25 months to the as-of date, at the
demo's values (benefits/demo/loader.py, DEMO ONLY figures), and each plan's own series. As on the
web modeler, a date whose look-back month is not published yet has no §417(e)(3) segment rates: the
engine reports that date's relative values missing (carver-db) or gives them on the plan's own rate
(Quaker), and the benchmark prints, from the every-date response itself, on how many dates the
relative values were computed and on which basis.
"""

from __future__ import annotations

import json
import resource
import statistics
import subprocess
import sys
import tempfile
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_carver_db_grid as carver  # noqa: E402
import bench_quaker_grid as quaker  # noqa: E402
from market import market_data  # noqa: E402
from timing import load_average  # noqa: E402

from benefits.engine.types import Participant  # noqa: E402

TARGET = 1.0
RATIO_TARGET = 1.5  # issue 29: carver-db's every date with market data, against one date
RUNS = 9


def as_json(p: Participant, dates: list[date]) -> dict[str, object]:
    out: dict[str, object] = {
        "id": p.id,
        "birth_date": p.birth_date.isoformat(),
        "hire_date": p.hire_date.isoformat(),
        "marital_status": p.marital_status,
        "hours": {str(y): h for y, h in p.hours.items()},
        "compensation": {str(y): str(c) for y, c in p.compensation.items()},
        "commencement_dates": [d.isoformat() for d in dates],
        "plan_data": dict(p.plan_data or {}),
    }
    if p.spouse_birth_date:
        out["spouse_birth_date"] = p.spouse_birth_date.isoformat()
    return out


def requests() -> dict[str, tuple[dict[str, object], list[date]]]:
    """plan → (the request without options or dates, the grid's dates)."""
    qp = quaker.participant(9)
    q_dates = [r.commencement_date for r in quaker.price_grid(qp, quaker.AS_OF, quaker.ASSUMPTIONS)]
    cp = carver.participant(date(1971, 4, 10))
    c_dates = [r.commencement_date for r in carver.carver_db.grid.price(cp, carver.AS_OF, {}).rows]
    return {
        "carver-db": (
            {
                "plan": "carver-db",
                "as_of": carver.AS_OF.isoformat(),
                "assumptions": market_data(carver.AS_OF),
                "participant": cp,
            },
            c_dates,
        ),
        "quaker-cash-balance": (
            {
                "plan": "quaker-cash-balance",
                "as_of": quaker.AS_OF.isoformat(),
                "assumptions": market_data(quaker.AS_OF) | quaker.ASSUMPTIONS,
                "participant": qp,
            },
            q_dates,
        ),
    }


def child_cpu(path: Path) -> float:
    """CPU seconds (user + system) of one command-line run on ``path``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [sys.executable, "-m", "benefits.engine", "calculate", str(path)],
        stdout=subprocess.DEVNULL,
        check=True,
        cwd=Path(__file__).resolve().parents[1],
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def coverage(path: Path) -> str:
    """On how many of the request's dates the response gives relative values, and on which basis:
    what the timed requests computed (read from one run's output, not assumed)."""
    out = subprocess.run(
        [sys.executable, "-m", "benefits.engine", "calculate", str(path)],
        capture_output=True,
        check=True,
        cwd=Path(__file__).resolve().parents[1],
    ).stdout
    (result,) = json.loads(out)["results"]
    estimates = result["estimates"]
    valued = sum(1 for e in estimates if any("relative_value" in f for f in e["forms"].values()))
    fallback = {b.split("/")[2] for m in result.get("missing", []) for b in m.get("fallback", [])}
    on_law = valued - len(fallback)
    return (
        f"relative values on {valued} of {len(estimates)} dates ({on_law} on the §417(e)(3) basis, "
        f"{len(fallback)} on the plan's own rate for want of the month's segment rates), "
        f"{len(estimates) - valued} reported missing"
    )


def main() -> None:
    print(f"every date through the command line ({load_average()}; CPU of the process, medians of {RUNS})")
    print("  each request carries the demo's market data (segment rates and 30-year Treasury, 25 months)")
    with tempfile.TemporaryDirectory() as tmp:
        for plan, (base, dates) in requests().items():
            p = base.pop("participant")
            paths: dict[str, Path] = {}
            kinds = (
                ("as sent", {}),
                ("detail", {"detail": True}),
                ("no traces", {"traces": False}),
            )
            # (mode, its one-date baseline or None, options, dates)
            modes = []
            for kind, options in kinds:
                modes.append((f"{kind}, one date", None, options, dates[:1]))
                modes.append((f"{kind}, every date", f"{kind}, one date", options, dates))
            for n, (mode, _, options, when) in enumerate(modes):
                paths[mode] = Path(tmp) / f"{plan}-{n}.json"
                paths[mode].write_text(
                    json.dumps(base | {"options": options, "participants": [as_json(p, when)]})
                )
            print(f"  {plan}: {coverage(paths['as sent, every date'])}")
            # The modes take turns, so that a slow minute on the shared machine falls on all of them.
            runs: dict[str, list[float]] = {mode: [] for mode in paths}
            for _ in range(RUNS):
                for mode, path in paths.items():
                    runs[mode].append(child_cpu(path))
            figures = {mode: statistics.median(seconds) for mode, seconds in runs.items()}
            for mode, baseline, _, when in modes:
                cpu = figures[mode]
                verdict = ""
                if baseline is not None:
                    verdict = "target met" if cpu <= TARGET else "OVER 1 s"
                    # Each round's own ratio (its every-date run against its one-date run, seconds
                    # apart), and the median of those: a slow spell of the shared machine lands on
                    # both sides of a round's ratio, where it can land on one side of two medians.
                    rounds = [a / b for a, b in zip(runs[mode], runs[baseline], strict=True)]
                    ratio = statistics.median(rounds)
                    verdict += f"; {ratio:.2f}× one date (rounds {min(rounds):.2f}–{max(rounds):.2f}×)"
                    if plan == "carver-db":  # issue 29: at most 1.5× the CPU of one date
                        verdict += " (≤ 1.5×: met)" if ratio <= RATIO_TARGET else " (≤ 1.5×: NOT met)"
                print(f"  {plan:<22}{mode:<24}{len(when):>5} dates {cpu:6.2f} s  {verdict}")
                print(f"      the {RUNS} runs: {', '.join(f'{x:.2f}' for x in runs[mode])}")


if __name__ == "__main__":
    main()
