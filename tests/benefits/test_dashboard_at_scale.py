"""The dashboard at 100,000 memberships (issue 31): after a bulk load and the loaders' ANALYZE, every read
of the large tables goes through an index, and a request makes as many queries as at 1,000 memberships.

The population is written by INSERT ... SELECT generate_series (``tests/bulk_population.py``), beside
the demo's people.
"""

from __future__ import annotations

from datetime import date

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from benefits.models import Plan, PlanMembership
from tests.bulk_population import bulk_people

pytestmark = pytest.mark.django_db(transaction=True)

BIG = {
    "benefits_participant",
    "benefits_planmembership",
    "benefits_hoursofservice",
    "benefits_compensation",
    "benefits_accountbalance",
    "benefits_employmentperiod",
}


def _dashboard_queries(client) -> list[str]:
    """The SQL of one dashboard request (after a first one, which may store engine results)."""
    assert client.get("/benefits/").status_code == 200
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/benefits/").status_code == 200
    return [q["sql"] for q in queries.captured_queries]


def _plan_nodes(plan: dict):
    yield plan
    for child in plan.get("Plans", ()):
        yield from _plan_nodes(child)


def _sequential_scans(sqls: list[str]) -> list[tuple[str, str]]:
    """(table, query) for each sequential scan of a large table in the queries' plans."""
    scans = []
    with connection.cursor() as cur:
        for sql in sqls:
            if not sql.lstrip().upper().startswith("SELECT"):
                continue
            cur.execute("EXPLAIN (FORMAT JSON) " + sql)
            (document,) = cur.fetchone()
            for node in _plan_nodes(document[0]["Plan"]):
                if node["Node Type"] == "Seq Scan" and node.get("Relation Name") in BIG:
                    scans.append((node["Relation Name"], sql[:400]))
    return scans


def test_the_dashboard_at_100000_memberships_reads_through_indexes(client, settings, tmp_path):
    from accounts.models import User

    settings.PRIVATE_STORAGE_ROOT = tmp_path
    call_command("load_demo", as_of=date(2026, 11, 2), verbosity=0)
    client.force_login(User.objects.get(email="pat@demo.test"))
    plans = Plan.objects.count()

    bulk_people(1, 1_000 // plans)
    assert 1_000 <= PlanMembership.objects.count() < 1_100
    small = _dashboard_queries(client)  # (a scan of a table this small is the cheaper plan)

    bulk_people(1_000 // plans + 1, 100_000 // plans)
    assert PlanMembership.objects.count() >= 100_000
    large = _dashboard_queries(client)
    assert _sequential_scans(large) == []
    # The same reads at either size: nothing per membership of the plan, only per plan of the person.
    assert len(large) == len(small), (len(small), len(large))
