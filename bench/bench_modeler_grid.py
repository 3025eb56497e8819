"""The web modeler's grid on the one-pass path, each figure beside ``plan.grid.price`` of the same run.

    .venv/bin/python bench/bench_modeler_grid.py [--web | --web-only]

Issue 29. Every request carries the demo's market data (the §417(e)(3) segment rates and the 30-year
Treasury rate for the 25 months to the as-of date, ``bench_every_date_cli.market_data``); a second
set gives every month's rates to 20 years ahead, so that every date's relative values (the
§417(a)(3) part) are computed, not reported missing. CPU time of this process (bench/timing.py),
medians of 5; the machine is shared, so read the ratios within a run.

1. In-process, one participant, every month from the earliest date to age 70, every form:
   - baseline: ``plan.grid.price`` (monthly amounts only: no relative values, cash-outs, JSON);
   - the modeler's request now: ``calculate_request`` without traces (``grid.outputs``: every figure
     of the contract result in one pass, relative values, cash-outs and lump sums included);
   - the same request on the scalar path, untraced (``grid.outputs`` switched off for the run: each
     date priced on its own, as the modeler's untraced request was before the plan had ``outputs``);
   - before: the traced scalar path in chunks of 12 dates (the modeler job until issue 29).
   Each figure is checked to be the scalar path's result, byte for byte, before it is timed.
   Target: the modeler's request within 2× of ``plan.grid.price``.
2. Through the command line (carver-db): the CPU of the whole ``python -m benefits.engine calculate``
   process with 181 dates against the same request with one date, without traces and traced.
   Target: at most 1.5×.
3. ``--web``: a throw-away database with the demo (bench/djangobench.py); a 181-date modeler run of
   a demo participant of each grid plan: its job (``modeler_run_execute``: the request built from the database, the
   engine, the result stored) and the first view of its result page. Target: within 1 s.
"""

from __future__ import annotations

import dataclasses
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_carver_db_grid as carver  # noqa: E402
import bench_quaker_grid as quaker  # noqa: E402
from bench_every_date_cli import as_json, market_data  # noqa: E402
from timing import load_average, median_of  # noqa: E402

from benefits.engine.dates import add_months  # noqa: E402
from benefits.engine.plans import PLANS  # noqa: E402
from benefits.engine.request import calculate_request  # noqa: E402

RUNS = 5
ROOT = Path(__file__).resolve().parents[1]


def every_month_rates(as_of: date) -> dict[str, object]:
    """The demo's rates given for every month from two years back to 20 years ahead."""
    months = [add_months(date(as_of.year, as_of.month, 1), k) for k in range(-25, 241)]
    keys = [f"{m.year:04d}-{m.month:02d}" for m in months]
    thirty = {k: "4.60" for k in keys}
    return {
        "segment_rates": {k: ["4.45", "5.20", "5.85"] for k in keys},
        "treasury_30y_monthly": thirty,
        "applicable_interest_rate": thirty,
        "applicable_interest_rate_default": "4.60",
    }


def cases():
    """(plan, participant, its grid's dates, as-of, extra assumptions)."""
    cp = carver.participant(date(1971, 11, 10))  # 181 months from December 2026 to age 70
    c_dates = [r.commencement_date for r in carver.carver_db.grid.price(cp, carver.AS_OF, {}).rows]
    qp = quaker.participant(9)
    q_dates = [r.commencement_date for r in quaker.price_grid(qp, quaker.AS_OF, quaker.ASSUMPTIONS)]
    return (
        ("carver-db", carver.carver_db, cp, c_dates, carver.AS_OF, {}),
        ("quaker-cash-balance", quaker.PLAN, qp, q_dates, quaker.AS_OF, quaker.ASSUMPTIONS),
    )


def request(plan_key: str, p, dates, as_of: date, assumptions: dict, options: dict) -> dict:
    return {
        "plan": plan_key,
        "as_of": as_of.isoformat(),
        "assumptions": assumptions,
        "options": options,
        "participants": [as_json(p, dates)],
    }


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.1f} ms"


def in_process() -> None:
    print(f"1. in-process, CPU ({load_average()}; medians of {RUNS})")
    for plan_key, plan, p, dates, as_of, own in cases():
        for label, market in (
            ("demo market data", market_data(as_of)),
            ("every month's rates", every_month_rates(as_of)),
        ):
            measure(plan_key, plan, p, dates, as_of, market | own, label)


def measure(plan_key: str, plan, p, dates, as_of: date, a: dict, label: str) -> None:
    core = plan.core_result(p, as_of)
    fast_req = request(plan_key, p, dates, as_of, a, {"traces": False})
    estimates = calculate_request(fast_req)["results"][0].get("estimates") or []
    with_rv = sum(1 for e in estimates if "relative_value_basis" in e)
    cells = sum(len(e.get("forms") or {}) for e in estimates)
    grid = median_of(lambda: plan.grid.price(p, as_of, a, core), RUNS)[1]
    fast = median_of(lambda: calculate_request(fast_req), RUNS)[1]
    original = PLANS[plan_key]
    PLANS[plan_key] = dataclasses.replace(original, grid=dataclasses.replace(original.grid, outputs=None))
    try:
        scalar_out = calculate_request(fast_req)
        scalar = median_of(lambda: calculate_request(fast_req), RUNS)[1]
    finally:
        PLANS[plan_key] = original
    assert json.dumps(calculate_request(fast_req)) == json.dumps(scalar_out), "not the scalar path's result"

    def chunks() -> None:
        for i in range(0, len(dates), 12):
            calculate_request(request(plan_key, p, dates[i : i + 12], as_of, a, {}))

    before = median_of(chunks, 3)[1]
    path = "one pass" if plan.grid.outputs is not None else "scalar, untraced"
    print(
        f"  {plan_key}, {label}: {len(dates)} dates, {cells} form amounts, relative values on {with_rv} dates"
    )
    print(f"    baseline plan.grid.price                      {ms(grid)}")
    print(
        f"    modeler request now ({path:<16})      {ms(fast)}   {fast / grid:4.1f}× the grid (target ≤ 2×)"
    )
    print(f"    the same request, scalar path (untraced)      {ms(scalar)}   {scalar / grid:4.1f}× the grid")
    print(f"    before: traced, chunks of 12                  {ms(before)}   {before / grid:4.1f}× the grid")


def child_cpu(path: Path) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [sys.executable, "-m", "benefits.engine", "calculate", str(path)],
        stdout=subprocess.DEVNULL,
        check=True,
        cwd=ROOT,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def command_line() -> None:
    print(f"2. carver-db through the command line, CPU of the process ({load_average()}; medians of {RUNS})")
    plan_key, _, p, dates, as_of, _ = cases()[0]
    with tempfile.TemporaryDirectory() as tmp:
        for options in ({"traces": False}, {}):
            paths = {}
            for n, when in ((1, dates[:1]), (len(dates), dates)):
                paths[n] = Path(tmp) / f"{n}.json"
                paths[n].write_text(
                    json.dumps(request(plan_key, p, when, as_of, market_data(as_of), options))
                )
            runs: dict[int, list[float]] = {n: [] for n in paths}
            for _ in range(RUNS):  # in turn, so a slow minute falls on both
                for n, path in paths.items():
                    runs[n].append(child_cpu(path))
            one, many = (statistics.median(runs[n]) for n in paths)
            words = "no traces" if options else "traced (every figure's steps)"
            print(
                f"  {words}: one date {one:.2f} s, {len(dates)} dates {many:.2f} s: {many / one:.2f}× (target ≤ 1.5×)"
            )


def web() -> None:
    from djangobench import demo_database

    with demo_database("modeler"):
        from django.test import Client
        from django.urls import reverse
        from django.utils import timezone

        from accounts.models import User
        from benefits.models import ModelerRun, PlanMembership
        from benefits.services.modeler import modeler_run_execute

        # The demo's carver-db participant born 1970 (bench_pages.py's modeled participant) and its
        # married active Quaker cash balance member, 181 dates each; the run's page is opened by a
        # committee member (the participants have no login in the demo).
        staff = Client()
        staff.force_login(User.objects.get(email="committee@demo.test"))
        dates = [add_months(date(2027, 1, 1), i).isoformat() for i in range(181)]
        print(f"3. the web modeler, the job and the result page ({load_average()}; medians of 3)")
        for number, plan_key in (("CFS-10008", "carver-db"), ("QCB-20006", "quaker-cash-balance")):
            membership = PlanMembership.objects.get(
                participant__participant_number=number, plan__key=plan_key
            )
            walls, cpus, jobs = [], [], []
            for _ in range(3):
                w, c = time.perf_counter(), time.process_time()
                run = ModelerRun.objects.create(
                    membership=membership,
                    as_of=timezone.localdate(),
                    inputs={"mode": "dates", "commencement_dates": dates},
                    progress_total=len(dates),
                )
                modeler_run_execute(run.pk)
                jobs.append(time.process_time() - c)
                page = staff.get(reverse("benefits:modeler_run", args=[membership.participant_id, run.pk]))
                cpus.append(time.process_time() - c)
                walls.append(time.perf_counter() - w)
                run.refresh_from_db()
                assert page.status_code == 200 and run.status == ModelerRun.Status.DONE, run.error
            print(
                f"  {plan_key}, {len(run.result['estimates'])} dates: the job {statistics.median(jobs):.2f} s CPU; "
                f"job and first view of the result page {statistics.median(walls):.2f} s wall, "
                f"{statistics.median(cpus):.2f} s CPU (target ≤ 1 s)"
            )
            url = reverse(
                "benefits:modeler_estimate", args=[membership.participant_id, run.pk, len(dates) - 1]
            )
            w, c = time.perf_counter(), time.process_time()
            assert staff.get(url, {"trace": "js50"}).status_code == 200
            print(
                f"  {plan_key}, one date's steps, worked out when opened: {time.perf_counter() - w:.2f} s wall, "
                f"{time.process_time() - c:.2f} s CPU"
            )


def main() -> None:
    t = time.perf_counter()
    if "--web-only" not in sys.argv:
        in_process()
        command_line()
    if "--web" in sys.argv or "--web-only" in sys.argv:
        web()
    print(f"  ({time.perf_counter() - t:.0f} s)")


if __name__ == "__main__":
    main()
