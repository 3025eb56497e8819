"""The dashboard at 100,000 memberships (issue 31): after a bulk load and the loaders' ANALYZE, every read
of the large tables goes through an index, and a request makes as many queries as at 1,000 memberships.

The population is written by INSERT ... SELECT generate_series (seconds, not the minutes a generator
takes): demo-free rows with the columns the dashboard's reads filter and join on (participant, plan,
membership, a year of hours and pay, a balance, an employment period), beside the demo's people.
"""

from __future__ import annotations

from datetime import date

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from benefits.db_stats import analyze
from benefits.models import (
    AccountBalance,
    Compensation,
    EmploymentPeriod,
    HoursOfService,
    Participant,
    Plan,
    PlanMembership,
)

pytestmark = pytest.mark.django_db(transaction=True)

BIG = {
    "benefits_participant",
    "benefits_planmembership",
    "benefits_hoursofservice",
    "benefits_compensation",
    "benefits_accountbalance",
    "benefits_employmentperiod",
}


def _bulk_people(first: int, last: int) -> None:
    """Participants ``first``..``last`` (numbered SCALE-n), each a member of every plan, with history."""
    employer = Plan.objects.order_by("pk").values_list("employer_id", flat=True).first()
    after = Participant.objects.order_by("-pk").values_list("pk", flat=True).first()
    statements = (
        """INSERT INTO benefits_participant (employer_id, participant_number, first_name, last_name,
               birth_date, ssn_last4, ssn_hash, hire_date, marital_status, spouse_name, email, phone, address)
           SELECT %(employer)s, 'SCALE-' || g, 'Sam', 'Scale' || g, date '1960-01-01' + (g %% 7000),
               lpad((g %% 10000)::text, 4, '0'), md5('scale' || g) || md5('ssn' || g),
               date '1985-01-01' + (g %% 9000), 'single', '', '', '', ''
           FROM generate_series(%(first)s, %(last)s) AS g""",
        """INSERT INTO benefits_employmentperiod (participant_id, start, "end")
           SELECT p.id, p.hire_date, NULL FROM benefits_participant p WHERE p.id > %(after)s""",
        """INSERT INTO benefits_planmembership (participant_id, plan_id, entry_date, plan_data)
           SELECT p.id, pl.id, p.hire_date, '{}'::jsonb
           FROM benefits_participant p CROSS JOIN benefits_plan pl WHERE p.id > %(after)s""",
        """INSERT INTO benefits_hoursofservice (membership_id, period_year, hours)
           SELECT m.id, 2025, 2080 FROM benefits_planmembership m WHERE m.participant_id > %(after)s""",
        """INSERT INTO benefits_compensation (membership_id, year, amount)
           SELECT m.id, 2025, 60000 FROM benefits_planmembership m WHERE m.participant_id > %(after)s""",
        """INSERT INTO benefits_accountbalance (membership_id, source, as_of, balance)
           SELECT m.id, 'employer', date '2025-12-31', 1000
           FROM benefits_planmembership m WHERE m.participant_id > %(after)s""",
    )
    with connection.cursor() as cur:
        for sql in statements:
            cur.execute(sql, {"employer": employer, "first": first, "last": last, "after": after})
    # As the bulk loaders do (generate_population, import_data, the payment confirmations).
    analyze([Participant, EmploymentPeriod, PlanMembership, HoursOfService, Compensation, AccountBalance])


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

    _bulk_people(1, 1_000 // plans)
    assert 1_000 <= PlanMembership.objects.count() < 1_100
    small = _dashboard_queries(client)  # (a scan of a table this small is the cheaper plan)

    _bulk_people(1_000 // plans + 1, 100_000 // plans)
    assert PlanMembership.objects.count() >= 100_000
    large = _dashboard_queries(client)
    assert _sequential_scans(large) == []
    # The same reads at either size: nothing per membership of the plan, only per plan of the person.
    assert len(large) == len(small), (len(small), len(large))
