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
2. Issuing: one process issues the explanations of a batch back to back for ISSUE_SECONDS (the single
   process rate); then PROCESSES processes run the same batch at once, as the fan-out's runs do (each
   takes the next item no other holds), for ISSUE_SECONDS; it prints notices a second, the ratio to
   PROCESSES times the single rate (target: at least 0.8), and each process's peak resident memory.
3. The plan: worker processes needed for every participant's explanation... at the measured rate,
   for 100,000 participants in four hours, and the arithmetic for more machines.
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

from djangobench import demo_database

AS_OF = date(2026, 11, 2)
PLANS = ("carver-db", "quaker-cash-balance", "carver-401k")


def select(within_days: int = 90) -> tuple[float, int, int, int]:
    """Choose each plan's people once; (seconds, people read, items chosen, peak bytes allocated)."""
    from benefits.models import Plan, PlanMembership
    from elections.benefit_elections import services
    from elections.benefit_elections.models import BatchRule, NoticeBatch

    tracemalloc.start()
    started = time.perf_counter()
    chosen = 0
    for key in PLANS:
        plan = Plan.objects.get(key=key)
        batch = NoticeBatch.objects.create(
            plan=plan, rule=BatchRule.ASD_WITHIN, within_days=within_days, as_of=AS_OF
        )
        chosen += services.batch_select(batch)
    elapsed = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    people = PlanMembership.objects.filter(plan__key__in=PLANS).count()
    return elapsed, people, chosen, peak


def _issue_for(batch_id: int, seconds: float, out) -> None:
    """One worker process: issue the batch's next items until the time is up."""
    from django.db import connections

    from elections.benefit_elections import services

    connections.close_all()  # a connection of its own, never the parent's
    done = 0
    until = time.monotonic() + seconds
    started = time.perf_counter()
    while time.monotonic() < until and services.batch_item_run_next(batch_id) is not None:
        done += 1
    elapsed = time.perf_counter() - started
    out.put((done, elapsed, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))
    connections.close_all()


def issue(batch_id: int, processes: int, seconds: float) -> tuple[int, float, list[int]]:
    from django.db import connections

    connections.close_all()
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    workers = [ctx.Process(target=_issue_for, args=(batch_id, seconds, out)) for _ in range(processes)]
    started = time.perf_counter()
    for w in workers:
        w.start()
    results = [out.get() for _ in workers]
    for w in workers:
        w.join()
    elapsed = time.perf_counter() - started
    return sum(r[0] for r in results), elapsed, [r[2] for r in results]


def _render_chunks(batch_id: int, chunks, seconds: float, out) -> None:
    """One pdf worker process: take the next chunk of statements (as a chunk job does) and render it."""
    import queue as queue_module

    from django.db import connections

    from benefits.batches.models import StatementBatch
    from benefits.batches.services import batch_item_render

    connections.close_all()
    batch = StatementBatch.objects.select_related("plan", "plan__employer").get(pk=batch_id)
    done = 0
    until = time.monotonic() + seconds
    started = time.perf_counter()
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
    out.put((done, time.perf_counter() - started, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))
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
    elapsed = max(r[1] for r in results)
    return sum(r[0] for r in results), elapsed, [r[2] for r in results]


def statements(processes: int, seconds: float) -> float:
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
    one, one_secs, one_rss = render_statements(batch.pk, ids, 1, seconds, size)
    single = one / one_secs
    print(
        f"  1 process:  {one:>5} statements in {one_secs:5.1f} s = {single:.2f}/s; peak RSS {one_rss[0] / 1024:.0f} MB"
    )
    left = list(
        batch.items.filter(status=StatementBatchItem.Status.PENDING)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    many, many_secs, rss = render_statements(batch.pk, left, processes, seconds, size)
    rate = many / many_secs
    print(
        f"  {processes} processes: {many:>5} statements in {many_secs:5.1f} s = {rate:.2f}/s; "
        f"{rate / (processes * single):.2f}x of {processes} x the single rate (target >= 0.8); "
        f"peak RSS per process {', '.join(f'{r / 1024:.0f}' for r in rss)} MB"
    )
    return rate / processes


def main(n: int, processes: int, seconds: float) -> None:
    from benefits.demo.population import generate_population
    from benefits.models import Plan
    from elections.benefit_elections.models import BatchRule, NoticeBatch, NoticeBatchItem

    print(f"bench_batches: {n:,} participants, {processes} processes, {seconds:.0f} s of issuing each run")
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
        f"{'participants':>12} {'memberships':>11} {'chosen':>7} {'seconds':>8} {'ms/member':>9} {'peak MB':>8} {'KB/member':>9}"
    )
    for label, (secs, people, chosen, peak) in (("1,000", small), (f"{n:,}", large)):
        print(
            f"{label:>12} {people:>11,} {chosen:>7,} {secs:>8.1f} {1000 * secs / people:>9.2f} "
            f"{peak / 1e6:>8.1f} {peak / 1024 / people:>9.2f}"
        )

    # Issuing: the carver-db batch of the large run (explanations with a §417(a)(3) table and a PDF).
    batch = (
        NoticeBatch.objects.filter(plan__key="carver-db", rule=BatchRule.ASD_WITHIN).order_by("-pk").first()
    )
    waiting = batch.items.filter(state=NoticeBatchItem.State.PENDING).count()
    print(f"\nissuing carver-db explanations ({waiting:,} waiting in the batch):")
    one, one_secs, one_rss = issue(batch.pk, 1, seconds)
    single = one / one_secs
    print(
        f"  1 process:  {one:>5} notices in {one_secs:5.1f} s = {single:.2f}/s; peak RSS {one_rss[0] / 1024:.0f} MB"
    )
    if batch.items.filter(state=NoticeBatchItem.State.PENDING).count() < processes * max(1, one):
        print("  (too few left for the parallel run: raise N)")
        return
    many, many_secs, rss = issue(batch.pk, processes, seconds)
    rate = many / many_secs
    ideal = processes * single
    print(
        f"  {processes} processes: {many:>5} notices in {many_secs:5.1f} s = {rate:.2f}/s; "
        f"{rate / ideal:.2f}x of {processes} x the single rate (target >= 0.8); "
        f"peak RSS per process {', '.join(f'{r / 1024:.0f}' for r in rss)} MB"
    )
    statement_rate = statements(processes, seconds)
    share = large[2] / max(1, large[1])
    per_process = rate / processes
    seconds_of_work = 100_000 / per_process + 100_000 / statement_rate
    needed = seconds_of_work / (4 * 3600)
    print("\nplan for 100,000 participants in four hours:")
    print(
        f"  an explanation for every participant (the worst case; {share:.1%} were due in 90 days here) at "
        f"{per_process:.2f}/s a process, and an annual statement for every participant at "
        f"{statement_rate:.2f}/s a process: {seconds_of_work / 3600:,.1f} process-hours -> {needed:.1f} worker processes"
    )
    print(
        f"  selection at the measured {1000 * large[0] / large[1]:.2f} ms a membership: "
        f"{100_000 * large[0] / large[1] / 60:.1f} minutes for 100,000 (one process; plans run side by side)"
    )
    print(
        "  more machines: Celery workers on each, one PostgreSQL, the shared file storage; processes "
        f"needed / cores per machine = machines (e.g. {needed:.0f} / 8 = {max(1, -(-int(needed) // 8))} eight-core machines)"
    )
    print(f"  counted plans: {', '.join(Plan.objects.filter(key__in=PLANS).values_list('key', flat=True))}")


if __name__ == "__main__":
    logging.disable(logging.WARNING)  # the in-process tasks' log lines would bury the figures
    args = sys.argv[1:]
    n = int(args[0]) if args else 10_000
    procs = int(args[1]) if len(args) > 1 else (os.cpu_count() or 2)
    secs = float(args[2]) if len(args) > 2 else 60.0
    with demo_database("batches", NOTICE_BATCH_RUNNERS=1):
        main(n, procs, secs)
