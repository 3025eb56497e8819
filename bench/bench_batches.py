"""The afternoon of notices (issue 31): choosing who gets a §417(a)(3) explanation, and issuing them with
every process the machine has.

Usage: ``.venv/bin/python bench/bench_batches.py [N] [PROCESSES] [ISSUE_SECONDS]``
(defaults: 10,000 participants, the machine's cores, 60 s of issuing per measurement)

Runs in a throw-away PostgreSQL database with the demo loaded (``djangobench.demo_database``), as the
worker does: the batch service functions, the engine, WeasyPrint (each notice's PDF is rendered in the
issuing process, in-process tasks), the private files in a temporary folder.

1. Selection: ``generate_population`` adds 1,000 participants, then the rest up to N. For each plan with
   an explanation, a batch of "annuity starting date in the next 90 days" chooses its people
   (``batch_select``: the light path, chunks committed as chosen) at 1,000 and at N participants; it
   prints the time per participant and the peak memory the choice allocated (tracemalloc) at each size.
2. Issuing: one process issues carver-db explanations back to back for ISSUE_SECONDS (the single
   process rate); then PROCESSES processes run the same batch at once, as the fan-out's runs do (each
   takes the next item no other holds), for ISSUE_SECONDS; the same for annual statements, as the
   statement batch's chunk jobs render them. For each run it prints documents a second, each worker's
   CPU time and its wait for a CPU (``/proc/<pid>/schedstat``: the shared machine's load), the CPU of
   its PostgreSQL backend, peak resident memory, the load average, and the ratio to PROCESSES times the
   single rate (target: at least 0.8) three ways: by wall time; by worker CPU time (is a document's
   work the same when several run at once?); by wall time less the wait for a CPU (what is left idle
   is the batch's own doing: locks, queueing, the database).
3. The plan: worker processes (and machines, and database cores, and file storage) for an explanation
   and a statement for each of 100,000 participants in four hours, at the measured rates.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import resource
import sys
import time
import tracemalloc
from datetime import date
from pathlib import Path

from djangobench import demo_database
from timing import load_average

TICK = os.sysconf("SC_CLK_TCK")


def _proc_times(pid: int | str = "self") -> tuple[float, float] | None:
    """(CPU seconds, seconds spent waiting for a CPU) of a process, from /proc; None where unreadable
    (the database on another machine). The wait is the machine's load, not the batch's design."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        waited = int(Path(f"/proc/{pid}/schedstat").read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return None
    return (int(fields[11]) + int(fields[12])) / TICK, waited


def _backend_pid() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


class Meter:
    """One worker process's account of a run: its CPU, its wait for a CPU, and its database backend's."""

    def __init__(self) -> None:
        self.backend = _backend_pid()
        self.wall = time.perf_counter()
        self.own = _proc_times()
        self.db = _proc_times(self.backend)

    def result(self, done: int) -> dict:
        own, db = _proc_times(), _proc_times(self.backend)

        def delta(a, b, i):
            return (b[i] - a[i]) if a and b else 0.0

        return {
            "done": done,
            "wall": time.perf_counter() - self.wall,
            "cpu": delta(self.own, own, 0),
            "waited": delta(self.own, own, 1),
            "db_cpu": delta(self.db, db, 0),
            "db_waited": delta(self.db, db, 1),
            "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        }


def summary(results: list[dict]) -> dict:
    """A run of several processes: documents, the run's wall time, and each resource summed."""
    total = {k: sum(r[k] for r in results) for k in ("done", "cpu", "waited", "db_cpu", "db_waited")}
    total["wall"] = max(r["wall"] for r in results)
    total["rss"] = [r["rss"] for r in results]
    total["processes"] = len(results)
    return total


def describe(label: str, what: str, run: dict) -> str:
    n, done, wall = run["processes"], run["done"], run["wall"]
    busy = run["cpu"] / (n * wall) if wall else 0.0
    return (
        f"  {label}: {done:>5} {what} in {wall:5.1f} s = {done / wall:.2f}/s; worker CPU {run['cpu']:.1f} s "
        f"({1000 * run['cpu'] / max(1, done):.0f} ms a document, busy {busy:.0%} of the wall time, "
        f"{run['waited']:.1f} s waiting for a CPU), database CPU {1000 * run['db_cpu'] / max(1, done):.0f} ms a "
        f"document; peak RSS {', '.join(f'{r / 1024:.0f}' for r in run['rss'])} MB"
    )


def ratios(single: dict, many: dict) -> tuple[float, float, float]:
    """(wall, CPU, wall less the wait for a CPU) ratio of the parallel rate to N x the single rate.

    CPU: documents per worker-CPU-second in parallel against one process's (is a document's work the
    same when N run at once?). Less the wait: each process's wall time minus the time it waited for a
    CPU that the shared machine's other work held (what is left idle is the batch's own doing: locks,
    queueing, the database)."""
    n = many["processes"]
    wall = (many["done"] / many["wall"]) / (n * single["done"] / single["wall"])
    cpu = (
        (many["done"] / many["cpu"]) / (single["done"] / single["cpu"])
        if many["cpu"] and single["cpu"]
        else 0.0
    )
    one = single["done"] / (single["wall"] - single["waited"])
    own = many["done"] / (n * many["wall"] - many["waited"])
    return wall, cpu, own / one


AS_OF = date(2026, 11, 2)
PLANS = ("carver-db", "quaker-cash-balance", "carver-401k")


def select(within_days: int = 90) -> tuple[float, int, int, int, float]:
    """Choose each plan's people once; (seconds, people read, items chosen, peak bytes allocated, CPU
    seconds of this process)."""
    from benefits.models import Plan, PlanMembership
    from elections.benefit_elections import services
    from elections.benefit_elections.models import BatchRule, NoticeBatch

    tracemalloc.start()
    started, cpu = time.perf_counter(), time.process_time()
    chosen = 0
    for key in PLANS:
        plan = Plan.objects.get(key=key)
        batch = NoticeBatch.objects.create(
            plan=plan, rule=BatchRule.ASD_WITHIN, within_days=within_days, as_of=AS_OF
        )
        chosen += services.batch_select(batch)
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    people = PlanMembership.objects.filter(plan__key__in=PLANS).count()
    return elapsed, people, chosen, peak, cpu


def _issue_for(batch_id: int, seconds: float, out) -> None:
    """One worker process: issue the batch's next items until the time is up."""
    from django.db import connections

    from elections.benefit_elections import services

    connections.close_all()  # a connection of its own, never the parent's
    meter = Meter()
    done = 0
    until = time.monotonic() + seconds
    while time.monotonic() < until and services.batch_item_run_next(batch_id) is not None:
        done += 1
    out.put(meter.result(done))
    connections.close_all()


def issue(batch_id: int, processes: int, seconds: float) -> dict:
    from django.db import connections

    connections.close_all()
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    workers = [ctx.Process(target=_issue_for, args=(batch_id, seconds, out)) for _ in range(processes)]
    for w in workers:
        w.start()
    results = [out.get() for _ in workers]
    for w in workers:
        w.join()
    return summary(results)


def _render_chunks(batch_id: int, chunks, seconds: float, out) -> None:
    """One pdf worker process: take the next chunk of statements (as a chunk job does) and render it."""
    import queue as queue_module

    from django.db import connections

    from benefits.batches.models import StatementBatch
    from benefits.batches.services import batch_item_render

    connections.close_all()
    meter = Meter()
    batch = StatementBatch.objects.select_related("plan", "plan__employer").get(pk=batch_id)
    done = 0
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        try:
            chunk = chunks.get_nowait()
        except queue_module.Empty:
            break
        for item_id in chunk:
            if time.monotonic() >= until:
                break
            batch_item_render(batch, item_id)
            done += 1
    out.put(meter.result(done))
    connections.close_all()


def render_statements(batch_id: int, item_ids: list[int], processes: int, seconds: float, size: int):
    from django.db import connections

    connections.close_all()
    ctx = multiprocessing.get_context("fork")
    chunks, out = ctx.Queue(), ctx.Queue()
    for offset in range(0, len(item_ids), size):
        chunks.put(item_ids[offset : offset + size])
    workers = [
        ctx.Process(target=_render_chunks, args=(batch_id, chunks, seconds, out)) for _ in range(processes)
    ]
    for w in workers:
        w.start()
    results = [out.get() for _ in workers]
    for w in workers:
        w.join()
    return summary(results)


def compare(what: str, single: dict, many: dict) -> dict:
    print(f"  (before: {load_average()})")
    print(describe("1 process ", what, single))
    print(describe(f"{many['processes']} processes", what, many))
    wall, cpu, own = ratios(single, many)
    print(
        f"  {many['processes']} processes against {many['processes']} x one process's back-to-back rate "
        f"(target >= 0.8): {wall:.2f}x by wall time, {cpu:.2f}x by worker CPU time, {own:.2f}x by wall time "
        f"less the wait for a CPU; {load_average()}"
    )
    return {"single": single, "many": many, "wall": wall, "cpu": cpu, "own": own}


def statements(processes: int, seconds: float) -> dict:
    """Annual statements of the carver-db plan, as the statement batch's chunk jobs render them."""
    from django.conf import settings

    from benefits.batches.models import StatementBatch, StatementBatchItem
    from benefits.models import Plan, PlanMembership

    plan = Plan.objects.get(key="carver-db")
    batch = StatementBatch.objects.create(plan=plan, year=2025, as_of=date(2025, 12, 31))
    StatementBatchItem.objects.bulk_create(
        StatementBatchItem(batch=batch, membership_id=m)
        for m in PlanMembership.objects.filter(plan=plan).values_list("pk", flat=True)
    )
    ids = list(batch.items.order_by("pk").values_list("pk", flat=True))
    size = settings.STATEMENT_BATCH_CHUNK_SIZE
    print(f"\nrendering carver-db annual statements ({len(ids):,} in the batch, chunks of {size}):")
    single = render_statements(batch.pk, ids, 1, seconds, size)
    left = list(
        batch.items.filter(status=StatementBatchItem.Status.PENDING)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    if len(left) < processes * single["done"]:
        print(f"  ({len(left)} left: too few for the parallel run, raise N)")
    many = render_statements(batch.pk, left, processes, seconds, size)
    return compare("statements", single, many)


def issuing_batch(processes: int, seconds: float):
    """The carver-db explanations due in 90 days (the large run's batch); where those are too few for
    both runs, a batch of the year ahead (said so)."""
    from elections.benefit_elections import services
    from elections.benefit_elections.models import BatchRule, NoticeBatch, NoticeBatchItem

    batch = (
        NoticeBatch.objects.filter(plan__key="carver-db", rule=BatchRule.ASD_WITHIN).order_by("-pk").first()
    )
    waiting = batch.items.filter(state=NoticeBatchItem.State.PENDING).count()
    needed = int((1 + processes) * seconds * 2.5)  # up to 2.5 notices a second a process
    if waiting < needed:
        batch = NoticeBatch.objects.create(
            plan=batch.plan, rule=BatchRule.ASD_WITHIN, within_days=366, as_of=AS_OF
        )
        services.batch_select(batch)
        print(
            f"  ({waiting} due in 90 days: too few for both runs, so the batch of the year ahead, "
            f"{batch.items.count():,} notices)"
        )
    return batch


def main(n: int, processes: int, seconds: float) -> None:
    from benefits.demo.population import generate_population
    from benefits.models import GeneratedDocument
    from elections.benefit_elections.models import NoticeBatchItem

    print(f"bench_batches: {n:,} participants, {processes} processes, {seconds:.0f} s of issuing each run")
    print(f"  {load_average()}")
    t = time.perf_counter()
    generate_population(1_000, as_of=AS_OF)
    print(f"generated 1,000 participants: {time.perf_counter() - t:.1f} s")
    small = select()
    t = time.perf_counter()
    generate_population(max(0, n - 1_000), as_of=AS_OF)
    print(f"generated {max(0, n - 1_000):,} more: {time.perf_counter() - t:.1f} s")
    large = select()
    print("\nselection (three plans, annuity starting dates in the next 90 days):")
    print(
        f"{'participants':>12} {'memberships':>11} {'chosen':>7} {'seconds':>8} {'ms/member':>9} {'CPU ms/m':>8} {'peak MB':>8} {'KB/member':>9}"
    )
    for label, (secs, people, chosen, peak, cpu) in (("1,000", small), (f"{n:,}", large)):
        print(
            f"{label:>12} {people:>11,} {chosen:>7,} {secs:>8.1f} {1000 * secs / people:>9.2f} "
            f"{1000 * cpu / people:>8.2f} "
            f"{peak / 1e6:>8.1f} {peak / 1024 / people:>9.2f}"
        )

    # Issuing: carver-db explanations (a §417(a)(3) table and a PDF each), then annual statements.
    print("\nissuing carver-db explanations:")
    batch = issuing_batch(processes, seconds)
    print(f"  {batch.items.filter(state=NoticeBatchItem.State.PENDING).count():,} waiting in the batch")
    single = issue(batch.pk, 1, seconds)
    many = issue(batch.pk, processes, seconds)
    notices = compare("notices", single, many)
    statement = statements(processes, seconds)
    pdf_bytes = GeneratedDocument.objects.filter(size__gt=0).values_list("size", flat=True)
    average_pdf = sum(pdf_bytes) / max(1, len(pdf_bytes))
    if not (notices["many"]["done"] and statement["many"]["done"]):
        # One process issued everything there was: a quiet machine needs a larger N (10,000).
        print("\nno plan for 100,000: the parallel runs had nothing left to issue; run again with a larger N")
        return
    plan_for(100_000, 4 * 3600, notices, statement, large, average_pdf)


def plan_for(people: int, window: float, notices: dict, statement: dict, large, average_pdf: float) -> None:
    """Processes (and machines) for an explanation and a statement for every one of ``people`` within
    ``window`` seconds, at the rates measured above."""

    def per_document(run: dict) -> tuple[float, float, float]:
        """(wall, worker CPU, database CPU) seconds a document in the parallel run, per process."""
        m = run["many"]
        return m["wall"] * m["processes"] / m["done"], m["cpu"] / m["done"], m["db_cpu"] / m["done"]

    nw, nc, nd = per_document(notices)
    sw, sc, sd = per_document(statement)
    hours = window / 3600
    by_wall = people * (nw + sw) / window
    by_cpu = people * (nc + sc) / window
    db_cores = people * (nd + sd) / window
    selection, selection_cpu = large[0] / large[1], large[4] / large[1]  # a membership, one process
    print(f"\nplan for {people:,} participants in {hours:.0f} hours (an explanation and a statement each):")
    print(
        f"  at the measured parallel rates a process takes {nw:.2f} s an explanation and {sw:.2f} s a "
        f"statement (wall time on this loaded machine): {people * (nw + sw) / 3600:,.1f} process-hours "
        f"-> {by_wall:.1f} worker processes"
    )
    print(
        f"  by worker CPU ({nc:.2f} s + {sc:.2f} s a participant; a worker with a core of its own): "
        f"{people * (nc + sc) / 3600:,.1f} CPU-hours -> {by_cpu:.1f} worker processes (cores)"
    )
    print(
        f"  the database: {1000 * nd:.0f} + {1000 * sd:.0f} ms of CPU a participant -> {db_cores:.2f} cores of "
        f"one PostgreSQL kept busy"
    )
    print(
        f"  the shared file storage: {2 * people:,} PDFs of {average_pdf / 1024:.0f} KB on average = "
        f"{2 * people * average_pdf / 1e9:.1f} GB, {2 * people * average_pdf / window / 1e3:.0f} KB/s written"
    )
    print(
        f"  choosing the people first: {1000 * selection:.2f} ms a membership here ({1000 * selection_cpu:.2f} "
        f"ms of CPU) -> {people * selection / 60:.1f} minutes for {people:,} in one process at this "
        f"machine's wall rate, {people * selection_cpu / 60:.1f} with a core of its own (plans side by side)"
    )
    for cores in (2, 4, 8, 16):
        machines = -(-by_cpu // cores)
        print(
            f"  machines of {cores:>2} cores (one worker process a core, by CPU): {by_cpu:.2f} / {cores} "
            f"-> {machines:.0f} machine(s); by this machine's wall rates {-(-by_wall // cores):.0f}"
        )


if __name__ == "__main__":
    logging.disable(logging.WARNING)  # the in-process tasks' log lines would bury the figures
    args = sys.argv[1:]
    n = int(args[0]) if args else 10_000
    procs = int(args[1]) if len(args) > 1 else (os.cpu_count() or 2)
    secs = float(args[2]) if len(args) > 2 else 60.0
    with demo_database("batches", NOTICE_BATCH_RUNNERS=1):
        main(n, procs, secs)
