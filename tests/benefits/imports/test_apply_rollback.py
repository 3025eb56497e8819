"""Applying is whole or nothing and recorded; rollback restores exactly what an import changed."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from tests.benefits.imports.conftest import DOCS, csv_bytes, run, snapshot

pytestmark = pytest.mark.django_db

H = "participant_number,plan,period_year,hours"


def test_preview_counts_and_diffs_without_writing(member):
    from benefits.imports.checking import check_file
    from benefits.imports.kinds import KINDS

    before = snapshot()
    checked = check_file(
        KINDS["hours"],
        "h.csv",
        csv_bytes(
            H,
            "FSB-77001,fairport-esop,2021,2080",
            "FSB-77001,fairport-esop,2022,1500",
            "FSB-77001,fairport-esop,2023,2080",
        ),
    )
    assert (checked.created, checked.updated, checked.unchanged) == (1, 1, 1)
    assert checked.diffs() == [
        {"row": 3, "key": "FSB-77001 fairport-esop 2022", "changes": {"hours": ["2080", "1500"]}}
    ]
    assert snapshot() == before


def test_apply_records_who_when_hash_counts_and_audits(member, admin_user):
    import hashlib

    from django.test import TestCase

    from benefits.imports import services
    from benefits.models import AuditEvent

    content = csv_bytes(H, "FSB-77001,fairport-esop,2022,1500", "FSB-77001,fairport-esop,2023,2080")
    batch = services.import_create(
        kind="hours", file_name="hours-2023.csv", content=content, actor=admin_user
    )
    services.import_check(batch.pk)
    with TestCase.captureOnCommitCallbacks(execute=True):
        batch = services.import_request_apply(batch=batch, actor=admin_user, valid_rows_only=False)
        assert batch.status == "applying"  # the request hands the write to a job (issue 26)
    batch.refresh_from_db()
    assert batch.status == "applied" and batch.applied_by == admin_user and batch.applied_at is not None
    assert batch.uploaded_by == admin_user and batch.sha256 == hashlib.sha256(content).hexdigest()
    assert (batch.created, batch.updated, batch.unchanged, batch.error_count) == (1, 1, 0, 0)
    event = AuditEvent.objects.get(event_type="import.applied")
    assert event.acting_user == admin_user and event.extra_data["sha256"] == batch.sha256
    assert event.extra_data["file_name"] == "hours-2023.csv" and event.extra_data["created"] == 1
    assert AuditEvent.objects.filter(event_type="import.uploaded", acting_user=admin_user).exists()


def test_a_failure_while_writing_leaves_nothing(member, monkeypatch):
    """Atomicity beyond validation: a database error part-way through rolls the whole import back."""
    from benefits.imports import bulk

    def boom(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(bulk, "bulk_update", boom)  # the new row is written first, then this fails
    before = snapshot()
    with pytest.raises(RuntimeError):
        run("hours", csv_bytes(H, "FSB-77001,fairport-esop,2023,2080", "FSB-77001,fairport-esop,2022,100"))
    assert snapshot() == before


def test_rollback_restores_exactly_what_changed(member, admin_user):
    from benefits.imports import services
    from benefits.models import AuditEvent, HoursOfService

    before = snapshot()
    batch, _ = run(
        "hours", csv_bytes(H, "FSB-77001,fairport-esop,2022,1500", "FSB-77001,fairport-esop,2023,2080")
    )
    assert HoursOfService.objects.get(membership=member, period_year=2022).hours == 1500
    services.import_rollback(batch=batch, actor=admin_user)
    assert snapshot() == before
    batch.refresh_from_db()
    assert batch.status == "rolled_back" and batch.rolled_back_by == admin_user
    assert AuditEvent.objects.filter(event_type="import.rolled_back", acting_user=admin_user).count() == 1
    with pytest.raises(services.RollbackRefused):
        services.import_rollback(batch=batch, actor=admin_user)


def test_rollback_of_every_sample_in_reverse_restores_the_start(plans, admin_user):
    from benefits.imports import services
    from tests.benefits.imports.conftest import SAMPLE_ORDER

    start = snapshot()
    batches = []
    for name in SAMPLE_ORDER:
        batch, checked = run(name, (DOCS / f"{name}.csv").read_bytes())
        assert not checked.errors
        batches.append(batch)
    for batch in reversed(batches):
        services.import_rollback(batch=batch, actor=admin_user)
    assert snapshot() == start


def test_rollback_is_refused_when_a_row_changed_since(member, admin_user):
    from benefits.imports import services
    from benefits.models import HoursOfService

    first, _ = run("hours", csv_bytes(H, "FSB-77001,fairport-esop,2023,2080"))
    second, _ = run("hours", csv_bytes(H, "FSB-77001,fairport-esop,2023,1999"))
    with pytest.raises(services.RollbackRefused, match="changed the same rows later"):
        services.import_rollback(batch=first, actor=admin_user)
    services.import_rollback(batch=second, actor=admin_user)
    HoursOfService.objects.filter(membership=member, period_year=2023).update(hours=5)  # a change by hand
    with pytest.raises(services.RollbackRefused, match="changed since"):
        services.import_rollback(batch=first, actor=admin_user)
    assert HoursOfService.objects.get(membership=member, period_year=2023).hours == 5


def test_rollback_is_refused_when_later_rows_depend_on_added_rows(plans, admin_user):
    from benefits.imports import services
    from benefits.models import HoursOfService, PlanMembership

    people, _ = run("participants", (DOCS / "participants.csv").read_bytes())
    m = PlanMembership.objects.get(participant__participant_number="FSB-60001")
    HoursOfService.objects.create(membership=m, period_year=2020, hours=100)  # entered by hand since
    with pytest.raises(services.RollbackRefused, match="depend on rows this import added"):
        services.import_rollback(batch=people, actor=admin_user)


def test_participant_update_clears_the_spouse_when_single_and_keeps_columns_left_out(plans):
    from benefits.models import Participant

    run("participants", (DOCS / "participants.csv").read_bytes())
    header = "participant_number,employer,first_name,last_name,birth_date,ssn,hire_date,marital_status"
    batch, checked = run(
        "participants",
        csv_bytes(header, "CFS-60001,Carver Federal Savings Bank,Renee,Okafor,1979-08-22,,2019-03-04,single"),
    )
    assert not checked.errors and (checked.created, checked.updated) == (0, 1)
    p = Participant.objects.get(participant_number="CFS-60001")
    assert (p.marital_status, p.spouse_name, p.spouse_birth_date) == ("single", "", None)
    assert p.email == "renee.okafor@example.test"  # not in the file: left as it was
    assert checked.diffs()[0]["changes"]["marital_status"] == ["married", "single"]


def test_loans_set_outstanding_and_highest_balance(plans, time_machine):
    """Carver 401(k) §8.2 limits a new loan by the highest balance of the last 12 months (contract keys)."""
    from benefits.models import PlanMembership

    time_machine.move_to("2025-10-15 12:00:00")
    run("participants", (DOCS / "participants.csv").read_bytes())
    run("loans", (DOCS / "loans.csv").read_bytes())
    m = PlanMembership.objects.get(participant__participant_number="CFS-60001", plan__key="carver-401k")
    # 6,000.00 lent 2025-03-03, 740.12 and 751.25 repaid: 4,508.63 outstanding; the highest was 6,000.00.
    assert m.plan_data["loans"] == {
        "outstanding_balance": "4508.63",
        "highest_balance_last_12_months": "6000.00",
    }


def test_loan_balances_windows():
    from benefits.imports.kinds.loans import loan_balances

    d = date
    moves = [
        (d(2024, 1, 10), Decimal("5000.00")),
        (d(2024, 6, 1), Decimal("-1000.00")),
        (d(2025, 2, 1), Decimal("-500.00")),
    ]
    # Twelve months before 2025-03-01 is 2024-03-01: 5,000.00 was carried into the window.
    assert loan_balances(moves, d(2025, 3, 1)) == (Decimal("3500.00"), Decimal("5000.00"))
    # Twelve months before 2025-07-01 is 2024-07-01: 4,000.00 was carried in, 3,500.00 is owed now.
    assert loan_balances(moves, d(2025, 7, 1)) == (Decimal("3500.00"), Decimal("4000.00"))
    assert loan_balances(moves, d(2024, 6, 1)) == (Decimal("4000.00"), Decimal("5000.00"))
    assert loan_balances(moves, d(2023, 1, 1)) == (Decimal("0.00"), Decimal("0.00"))


def test_esop_release_adds_shares_once_and_sets_share_value(plans):
    from benefits.models import AccountTransaction, PlanMembership

    run("participants", (DOCS / "participants.csv").read_bytes())
    run("esop", (DOCS / "esop.csv").read_bytes())
    run("esop", (DOCS / "esop.csv").read_bytes())  # again: no more shares
    m = PlanMembership.objects.get(participant__participant_number="FSB-60001")
    assert m.plan_data == {"shares": "301.0000", "share_value": "16.0250"}  # 148.25 + 152.75; latest value
    t = AccountTransaction.objects.get(membership=m, date=date(2025, 12, 31))
    assert (t.kind, t.shares, t.amount) == (
        "employer",
        Decimal("152.7500"),
        Decimal("2447.82"),
    )  # 152.75 × 16.025


def test_import_invalidates_and_recomputes_stored_results(member, django_capture_on_commit_callbacks):
    """Fairport §9.1: 2 Vesting Years give 20%; three more years of ≥1,000 hours (§2) give 5 → 80%."""
    from benefits.engine_adapter import membership_calculate
    from benefits.models import CalculationResult

    as_of = date(2026, 1, 15)
    result = membership_calculate(member, as_of=as_of)
    assert result["vesting"]["years_of_vesting_service"] == 2 and result["vesting"]["vested_percent"] == "20"
    old = CalculationResult.objects.get(membership=member)
    with django_capture_on_commit_callbacks(execute=True):
        run(
            "hours",
            csv_bytes(
                H,
                "FSB-77001,fairport-esop,2023,2080",
                "FSB-77001,fairport-esop,2024,999",
                "FSB-77001,fairport-esop,2025,1000",
            ),
        )
    assert not CalculationResult.objects.filter(pk=old.pk).exists()
    assert CalculationResult.objects.filter(membership=member).exists()  # recomputed by the job
    from benefits.imports.tasks import recalculate_results
    from benefits.jobs.models import Job

    recalculation = Job.objects.get(kind=recalculate_results.name)  # its own row, run on commit
    assert recalculation.status == Job.Status.DONE and recalculation.args == {"membership_ids": [member.pk]}
    result = membership_calculate(member, as_of=as_of)
    # 2024's 999 hours are not a Vesting Year ("at least 1,000 Hours of Service"): 2021, 2022, 2023, 2025.
    assert result["vesting"]["years_of_vesting_service"] == 4 and result["vesting"]["vested_percent"] == "60"


def test_reimport_keeps_stored_results(member, django_capture_on_commit_callbacks):
    """Importing the same file again changes nothing, not even the stored results."""
    from benefits.engine_adapter import membership_calculate
    from benefits.models import CalculationResult

    content = csv_bytes(H, "FSB-77001,fairport-esop,2023,2080")
    run("hours", content)
    membership_calculate(member, as_of=date(2026, 1, 15))
    kept = set(CalculationResult.objects.values_list("pk", flat=True))
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        run("hours", content)
    assert callbacks == [] and set(CalculationResult.objects.values_list("pk", flat=True)) == kept
