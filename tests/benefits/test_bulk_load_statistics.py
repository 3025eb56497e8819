"""Bulk loaders leave the planner statistics (issue 31: after generate_population the dashboard's history
reads scanned every membership until someone ran ANALYZE)."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from benefits.demo.population import generate_population

pytestmark = pytest.mark.django_db(transaction=True)

BIG = (
    "benefits_participant",
    "benefits_planmembership",
    "benefits_hoursofservice",
    "benefits_compensation",
    "benefits_accountbalance",
    "benefits_employmentperiod",
)


def _analyzed(table: str):
    with connection.cursor() as cursor:
        cursor.execute("SELECT last_analyze, n_live_tup FROM pg_stat_user_tables WHERE relname = %s", [table])
        return cursor.fetchone()


def test_generate_population_analyzes_what_it_filled():
    generate_population(300, as_of=date(2026, 11, 21), seed=31)
    for table in BIG:
        last_analyze, _ = _analyzed(table)
        assert last_analyze is not None, table


def test_the_dashboards_reads_use_their_indexes_after_a_bulk_load(client, password):
    """At a scale where a scan of every row costs (the population below), each query the participant's
    dashboard makes reads the large tables through an index."""
    from accounts.models import User

    generate_population(4000, as_of=date(2026, 11, 21), seed=31)
    pat = User.objects.get(email="pat@demo.test")
    client.force_login(pat)
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/benefits/").status_code == 200
    scans = []
    with connection.cursor() as cursor:
        for q in queries.captured_queries:
            sql = q["sql"]
            if not sql.lstrip().upper().startswith("SELECT") or not any(t in sql for t in BIG):
                continue
            cursor.execute("EXPLAIN " + sql)
            plan = "\n".join(row[0] for row in cursor.fetchall())
            scans += [(t, sql[:300], plan) for t in re.findall(r"Seq Scan on (\w+)", plan) if t in BIG]
    assert scans == []
