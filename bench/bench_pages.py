"""Page times and query counts, each beside a baseline measured in the same run.

Usage: ``.venv/bin/python bench/bench_pages.py [--participants 100000]``

Needs PostgreSQL (``DATABASE_URL``, as for the tests). Creates a throw-away database
``<name>_bench``, loads the demo, prices a 181-date modeler run and then times, through Django's test
client (every middleware, the session, the login, the templates):

- a minimal view on the same stack (``HttpResponse`` behind ``login_required``): the floor;
- the dashboard of a 3-plan participant, the vesting and statement pages;
- the modeler result page of the 181-date run (target: within 2× of the dashboard);
- the staff participant list (page 1 and a search) at the demo's 27 participants and again after
  adding participants up to ``--participants`` (target: flat).

Each time is the median of 3 samples; each sample is the mean of several requests. The query count of
each page is printed beside it (the tests in ``tests/benefits/test_query_bounds.py`` hold the bounds).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import types
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from django.contrib.auth.decorators import login_required  # noqa: E402
from django.http import HttpResponse  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import path, reverse  # noqa: E402
from django.utils import timezone  # noqa: E402
from djangobench import connection, demo_database  # noqa: E402  (sets Django up)

SAMPLES = 3


@login_required
def minimal(request):
    return HttpResponse("ok")


def _urlconf() -> str:
    from config import urls

    module = types.ModuleType("bench_pages_urls")
    module.urlpatterns = [*urls.urlpatterns, path("bench-minimal/", minimal, name="bench_minimal")]
    sys.modules[module.__name__] = module
    return module.__name__


def timed(client: Client, url: str, per_sample: int) -> tuple[float, int]:
    """Median over SAMPLES of the mean time of ``per_sample`` GETs (ms), and the query count of one."""
    response = client.get(url)  # warm: stored results, template loading
    assert response.status_code == 200, (url, response.status_code)
    samples = []
    for _ in range(SAMPLES):
        t = time.perf_counter()
        for _ in range(per_sample):
            client.get(url)
        samples.append((time.perf_counter() - t) / per_sample * 1000)
    with CaptureQueriesContext(connection) as ctx:
        client.get(url)
    return statistics.median(samples), len(ctx.captured_queries)


def row(label: str, ms: float, queries: int, baseline: str = "") -> None:
    print(f"  {label:<52}{ms:>9.1f} ms{queries:>6} queries   {baseline}")


def modeler_run(participant_number: str, plan_key: str, n_dates: int):
    from benefits.models import ModelerRun, PlanMembership
    from benefits.services.modeler import modeler_run_execute

    membership = PlanMembership.objects.get(
        participant__participant_number=participant_number, plan__key=plan_key
    )
    dates = [date(2027 + (i // 12), 1 + i % 12, 1).isoformat() for i in range(n_dates)]
    run = ModelerRun.objects.create(
        membership=membership,
        requested_by=None,
        as_of=timezone.localdate(),
        inputs={"commencement_dates": dates},
        progress_total=n_dates,
    )
    t = time.perf_counter()
    modeler_run_execute(run.pk)
    run.refresh_from_db()
    return run, time.perf_counter() - t


def add_participants(total: int) -> float:
    from benefits.identity import ssn_hash
    from benefits.models import Employer, Participant

    have = Participant.objects.count()
    employer = Employer.objects.first()
    t = time.perf_counter()
    batch = []
    for i in range(total - have):
        batch.append(
            Participant(
                employer=employer,
                participant_number=f"B-{i:07d}",
                first_name=("Alex", "Sam", "Jordan", "Robin", "Casey")[i % 5],
                last_name=f"Bench{i:07d}",
                birth_date=date(1960 + i % 40, 1 + i % 12, 1 + i % 28),
                ssn_last4=f"{i % 10000:04d}",
                ssn_hash=ssn_hash(f"899-{i // 10000:02d}-{i % 10000:04d}"),
                hire_date=date(1990 + i % 30, 1, 2),
            )
        )
        if len(batch) == 5000:
            Participant.objects.bulk_create(batch)
            batch = []
    Participant.objects.bulk_create(batch)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE benefits_participant")
    return time.perf_counter() - t


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--participants", type=int, default=100_000)
    parser.add_argument("--dates", type=int, default=181)
    args = parser.parse_args()

    with demo_database("pages", ROOT_URLCONF=_urlconf()):
        run_pages(args)


def run_pages(args) -> None:
    from accounts.models import User

    pat = User.objects.get(email="pat@demo.test")
    staff = User.objects.get(email="committee@demo.test")
    participant = pat.participant
    pid = participant.pk

    run, seconds = modeler_run("CFS-10008", "carver-db", args.dates)
    rows = len(run.result.get("estimates") or [])
    forms = len({k for e in run.result.get("estimates") or [] for k in (e.get("forms") or {})})
    print(f"pages (Django test client, every middleware; median of {SAMPLES} samples)")
    print(f"  modeler run priced: {rows} dates × {forms} forms in {seconds:.2f} s (in-process, eager)")

    client = Client()
    client.force_login(pat)
    floor, fq = timed(client, reverse("bench_minimal"), 20)
    row("minimal view (baseline: the stack's floor)", floor, fq)
    dash, dq = timed(client, reverse("benefits:dashboard"), 10)
    row("dashboard, 3 plans", dash, dq, f"{dash / floor:4.1f}× the floor")
    for plan in ("carver-db", "carver-401k", "carver-esop"):
        ms, q = timed(client, reverse("benefits:plan_vesting", args=[pid, plan]), 5)
        row(f"vesting, {plan}", ms, q, f"{ms / dash:4.1f}× the dashboard")
        ms, q = timed(client, reverse("benefits:plan_statement", args=[pid, plan]), 5)
        row(f"statement, {plan}", ms, q, f"{ms / dash:4.1f}× the dashboard")

    client.force_login(staff)
    owner = run.membership.participant.pk
    from django.core.cache import cache

    run_url = reverse("benefits:modeler_run", args=[owner, run.pk])
    staff_dash, sq = timed(client, reverse("benefits:participant_dashboard", args=[owner]), 5)
    row("dashboard, staff view of the modeled participant", staff_dash, sq, "baseline for the modeler page")
    first = []
    for _ in range(SAMPLES):
        cache.clear()
        t = time.perf_counter()
        client.get(run_url)
        first.append((time.perf_counter() - t) * 1000)
    row(
        f"modeler result, {rows} dates, first view (renders)",
        statistics.median(first),
        0,
        f"{statistics.median(first) / staff_dash:4.2f}× the dashboard",
    )
    ms, q = timed(client, run_url, 5)
    row(
        f"modeler result, {rows} dates, finished grid cached",
        ms,
        q,
        f"{ms / staff_dash:4.2f}× the dashboard (target ≤ 2×)",
    )

    url = reverse("benefits:staff_participants")
    from benefits.models import Participant

    small = Participant.objects.count()
    at_small = [timed(client, u, 5) for u in (url, f"{url}?q=bench0004", f"{url}?q=CFS-10008")]
    if args.participants <= small:
        return
    added = add_participants(args.participants)
    big = Participant.objects.count()
    print(f"  (added {big - small:,} participants in {added:.1f} s)")
    at_big = [timed(client, u, 5) for u in (url, f"{url}?q=bench0004", f"{url}?q=CFS-10008")]
    for label, (s_ms, s_q), (b_ms, b_q) in zip(
        ("staff list, page 1", "staff list, name search", "staff list, number search"),
        at_small,
        at_big,
        strict=True,
    ):
        row(f"{label} at {small:,}", s_ms, s_q)
        row(f"{label} at {big:,}", b_ms, b_q, f"{b_ms / s_ms:4.2f}× at {small:,} (target: flat)")


if __name__ == "__main__":
    main()
