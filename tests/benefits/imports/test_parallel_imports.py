"""The same import run twice at once (issue 30), with real parallel commands: threads with their own
PostgreSQL connections. Before the fix both runs checked the file before either wrote, both created
every row, and docs/import/contributions.csv ($5,226.99 over 6 rows) was stored as 12 rows ($10,453.98).

Two things stop it: imports of one kind take turns (an advisory lock held by the apply transaction,
so the second checks the file again after the first committed), and the database keeps one row per
natural key (``transaction_unique_imported_key`` and the other kinds' unique constraints)."""

from __future__ import annotations

import io
import json
from datetime import date
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.db import IntegrityError, transaction

from benefits.audit import AuditEventType
from benefits.imports.models import ImportBatch, ImportChange
from benefits.models import AccountTransaction, AuditEvent, PlanMembership
from tests.benefits.imports.conftest import DOCS, SAMPLE_ORDER, run, snapshot
from tests.parallel import run_together

pytestmark = pytest.mark.django_db(transaction=True)

CONTRIBUTION_KINDS = ("deferral", "match", "employer", "rollover")


def _import(kind: str):
    def call():
        out = io.StringIO()
        call_command("import_data", kind, str(DOCS / f"{kind}.csv"), "--json", stdout=out)
        return json.loads(out.getvalue().strip().splitlines()[-1])

    return call


def _load_before(kind: str) -> None:
    """The samples a kind's file names (participants first), loaded one after another."""
    for name in SAMPLE_ORDER[: SAMPLE_ORDER.index(kind)]:
        batch, checked = run(name, (DOCS / f"{name}.csv").read_bytes(), file_name=f"{name}.csv")
        assert batch.status == "applied", (name, checked.errors)


def test_two_parallel_imports_of_the_sample_contributions_leave_its_6_rows(plans):
    _load_before("contributions")
    results = run_together(_import("contributions"), _import("contributions"))
    for r in results:
        assert not isinstance(r, BaseException), r
    # One run created the 6 rows; the other found them there.
    assert sorted((r["created"], r["unchanged"]) for r in results) == [(0, 6), (6, 0)]
    rows = AccountTransaction.objects.filter(kind__in=CONTRIBUTION_KINDS)
    assert rows.count() == 6
    # The file's total: 314.95 + 157.48 + 314.95 + 157.48 + 82.13 + 4,200.00 = $5,226.99.
    assert sum(r.amount for r in rows) == Decimal("5226.99")
    assert rows.filter(kind="rollover", amount=Decimal("4200.00")).count() == 1
    batches = ImportBatch.objects.filter(kind="contributions")
    assert sorted(batches.values_list("status", flat=True)) == ["applied", "applied"]
    assert ImportChange.objects.filter(batch__in=batches).count() == 6
    applied = AuditEvent.objects.filter(
        event_type=AuditEventType.IMPORT_APPLIED, extra_data__kind="contributions"
    )
    assert sorted(applied.values_list("extra_data__created", flat=True)) == [0, 6]
    # A third run calls every row unchanged and writes nothing.
    before = snapshot()
    assert _import("contributions")() == {"created": 0, "updated": 0, "unchanged": 6, "errors": []}
    assert snapshot() == before


@pytest.mark.parametrize("kind", SAMPLE_ORDER)
def test_every_kind_imported_twice_at_once_writes_each_row_once(plans, kind):
    _load_before(kind)
    rows = len((DOCS / f"{kind}.csv").read_text().strip().splitlines()) - 1
    first, second = run_together(_import(kind), _import(kind))
    assert not isinstance(first, BaseException), first
    assert not isinstance(second, BaseException), second
    assert sorted([first["created"], second["created"]]) == [0, rows]
    assert first["errors"] == second["errors"] == []
    after = snapshot()
    # Importing it once more on a quiet system changes nothing: the parallel pair left exactly the file.
    assert _import(kind)()["unchanged"] == rows
    assert snapshot() == after
    changes = ImportChange.objects.filter(batch__kind=kind, action=ImportChange.Action.CREATED)
    assert changes.values("batch").distinct().count() == 1  # every new row came from one of the two
    assert (
        AuditEvent.objects.filter(event_type=AuditEventType.IMPORT_APPLIED, extra_data__kind=kind).count()
        == 3
    )


def test_the_database_refuses_a_second_imported_movement_with_the_same_key(plans):
    _load_before("contributions")
    run("contributions", (DOCS / "contributions.csv").read_bytes(), file_name="contributions.csv")
    m = PlanMembership.objects.get(participant__participant_number="CFS-60002", plan__key="carver-401k")
    with pytest.raises(IntegrityError), transaction.atomic():
        AccountTransaction.objects.create(
            membership=m, source="rollover", date=date(2025, 8, 1), kind="rollover", amount=Decimal("4200.00")
        )
    # Movements imports never write (earnings, fees) keep their freedom: two on one day are allowed.
    for amount in ("1.25", "-0.40"):
        AccountTransaction.objects.create(
            membership=m, source="rollover", date=date(2025, 8, 31), kind="earnings", amount=Decimal(amount)
        )
