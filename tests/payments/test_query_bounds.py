"""A pay date's listing, export and confirmation make the same number of queries for 5 payments as for
25 (issue 22, item 9: no per-row round trips), for annuities and for 401(k) single sums that post by
source."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from benefits.imports import services as imports
from benefits.models import PlanMembership
from payments import presenters, selectors, services
from payments.models import Payment
from tests.payments import test_payments as tp
from tests.payments.clock import on_the_day

pytestmark = pytest.mark.django_db
admin = tp.admin
PAY_DATE = date(2027, 1, 1)


def make(n: int, start: int, pay_date: date) -> None:
    db = list(PlanMembership.objects.filter(plan__kind__in=["final_average_pay", "cash_balance"]))
    k401 = list(PlanMembership.objects.filter(plan__key="carver-401k"))
    rows = []
    for k in range(start, start + n):
        account = k % 2 == 1
        m = (k401 if account else db)[k % len(k401 if account else db)]
        rows.append(
            Payment(
                membership=m,
                participant_id=m.participant_id,
                payee_name=f"Payee {k}",
                kind="loan_disbursement" if account else "annuity",
                frequency="once" if account else "monthly",
                number_of_payments=1 if account else None,
                gross=Decimal("100.00") + k,
                first_pay_date=pay_date,
                method="direct_deposit",
                destination={"routing_number": "011000015", "account_number": f"{10_000_000 + k}"},
                destination_masked=f"Checking account ending {k:04d}",
                withholding_election={"form": "none"} if not account else {"form": "W-4R", "rate": "20"},
                posting={"section": "test", "sources": {"before_tax": f"{Decimal('100.00') + k:.2f}"}}
                if account
                else {},
            )
        )
    Payment.objects.bulk_create(rows)


def run(admin, pay_date: date) -> tuple[int, int, int]:
    with CaptureQueriesContext(connection) as listed:
        services.instalments_make_due(pay_date)
        due = selectors.due_on(admin, pay_date)
        listing = presenters.due_json(pay_date, due)
    with CaptureQueriesContext(connection) as exported:
        services.instruction_export(pay_date=pay_date, actor=admin)
    lines = ["payment,pay_date,status,date,reference,gross"]
    lines += [
        f"{r['payment']},{pay_date},paid,{pay_date},AG{r['payment']},{r['gross']}"
        for r in listing["payments"]
    ]
    with on_the_day([pay_date]), CaptureQueriesContext(connection) as confirmed:
        batch, checked = imports.import_run(
            kind="payment_confirmations",
            file_name=f"c{pay_date}.csv",
            content=("\n".join(lines) + "\n").encode(),
            dry_run=False,
            valid_rows_only=False,
            actor=admin,
        )
    assert batch.status == "applied", checked.errors[:3]
    return len(listed), len(exported), len(confirmed), listed, exported, confirmed


def test_queries_do_not_grow_with_the_number_of_payments(demo, admin):
    make(5, 0, PAY_DATE)
    small = run(admin, PAY_DATE)
    second = date(2027, 2, 1)
    make(25, 100, second)
    big = run(admin, second)
    for name, a, b, _qa, qb in zip(
        ("list", "export", "confirm"), small[:3], big[:3], small[3:], big[3:], strict=True
    ):
        if b > a:
            seen = {}
            for q in qb.captured_queries:
                key = q["sql"][:90]
                seen[key] = seen.get(key, 0) + 1
            top = sorted(seen.items(), key=lambda kv: -kv[1])[:8]
            pytest.fail(f"{name}: {a} queries for 5 payments, {b} for 25: {top}")


def test_a_large_confirmation_file_leaves_planner_statistics(demo, admin):
    """The paying agent's confirmations are an import kind: once a large file is applied, ANALYZE runs on
    the tables it wrote (issue 31). ANALYZE of a table this small reads every row, so the planner's row
    count is the exact count, which only that ANALYZE sets here: the test's transaction hides the rows
    from autovacuum."""
    from django.test import TestCase

    from benefits.db_stats import ANALYZE_AFTER_ROWS
    from payments.models import PaymentInstalment

    def planner_rows() -> float:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT reltuples FROM pg_class WHERE relname = %s", [PaymentInstalment._meta.db_table]
            )
            return cursor.fetchone()[0]

    make(ANALYZE_AFTER_ROWS + 10, 0, PAY_DATE)
    # Before: never analyzed (-1), or the figure an earlier test's committed ANALYZE left (its rows).
    assert planner_rows() != PaymentInstalment.objects.count()
    with TestCase.captureOnCommitCallbacks(execute=True):
        run(admin, PAY_DATE)
    assert planner_rows() == PaymentInstalment.objects.count() >= ANALYZE_AFTER_ROWS
