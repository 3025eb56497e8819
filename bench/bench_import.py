"""Seconds to check and import 100,000 rows of Hours of Service (10,000 participants × 10 years).

Usage: ``.venv/bin/python bench/bench_import.py [ROWS]``

Runs in a throwaway database (PostgreSQL from DATABASE_URL, as in production; the test settings'
default otherwise) created and dropped by the bench. Four figures, each through the same service the
web app and ``import_data`` use: the preview (check only), the first import (every row new, with
before-images), the same file again (every row unchanged: nothing written), and a file changing every
row. The background recalculation an import enqueues is not timed (the broker is in memory).
"""

from __future__ import annotations

import os
import sys
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402

YEARS = 10


def main(rows: int = 100_000) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = False  # queue the recalculation, do not run it here
    from config.celery import app

    app.conf.task_always_eager = False
    app.conf.broker_url = "memory://"
    connection.settings_dict["TEST"]["NAME"] = f"bench_import_{os.getpid()}"
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        run(rows)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def run(rows: int) -> None:
    from benefits.imports.checking import check_file
    from benefits.imports.kinds import KINDS
    from benefits.imports.services import import_run
    from benefits.models import Employer, HoursOfService, Participant, Plan, PlanMembership

    people = rows // YEARS
    employer = Employer.objects.create(name="Bench Savings Bank")
    plan = Plan.objects.create(key="fairport-esop", name="Bench ESOP", kind=Plan.Kind.ESOP, employer=employer)
    Participant.objects.bulk_create(
        (
            Participant(
                employer=employer,
                participant_number=f"B-{i:06d}",
                first_name="Bench",
                last_name=f"P{i}",
                birth_date=date(1970, 1, 1),
                ssn_last4=f"{i % 10000:04d}",
                ssn_hash=f"{i:064d}",
                hire_date=date(2000, 1, 3),
            )
            for i in range(people)
        ),
        batch_size=5000,
    )
    PlanMembership.objects.bulk_create(
        (PlanMembership(participant=p, plan=plan) for p in Participant.objects.all()), batch_size=5000
    )

    def hours_file(hours: int) -> bytes:
        lines = ["participant_number,plan,period_year,hours"]
        lines += [f"B-{i:06d},fairport-esop,{2016 + y},{hours}" for i in range(people) for y in range(YEARS)]
        return ("\n".join(lines) + "\n").encode()

    first, second = hours_file(2080), hours_file(1990)
    backend = connection.vendor
    print(
        f"{rows:,} rows of hours ({people:,} participants × {YEARS} years), {len(first) / 1e6:.1f} MB, {backend}"
    )
    print(f"{'step':<34}{'seconds':>9}{'rows/s':>10}  counts (new, changed, unchanged, errors)")

    def timed(label, fn):
        t0 = time.perf_counter()
        checked = fn()
        s = time.perf_counter() - t0
        counts = (checked.created, checked.updated, checked.unchanged, len(checked.errors))
        print(f"{label:<34}{s:>9.1f}{rows / s:>10,.0f}  {counts}")
        return checked

    timed("preview (check only)", lambda: check_file(KINDS["hours"], "hours.csv", first))
    timed(
        "import, every row new",
        lambda: import_run(
            kind="hours", file_name="h.csv", content=first, dry_run=False, valid_rows_only=False
        )[1],
    )
    timed(
        "same file again (no change)",
        lambda: import_run(
            kind="hours", file_name="h.csv", content=first, dry_run=False, valid_rows_only=False
        )[1],
    )
    timed(
        "import, every row changed",
        lambda: import_run(
            kind="hours", file_name="h2.csv", content=second, dry_run=False, valid_rows_only=False
        )[1],
    )
    assert HoursOfService.objects.count() == rows


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000)
