"""``manage.py import_data``: exit codes 0/1/2 and the JSON last line."""

from __future__ import annotations

import json
from datetime import date

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import TestCase

from tests.benefits.imports.conftest import DOCS, snapshot

pytestmark = pytest.mark.django_db

H = "participant_number,plan,period_year,hours\n"


def _call(capsys, *args):
    code = 0
    try:
        call_command("import_data", *args)
    except SystemExit as exc:
        code = exc.code
    except CommandError as exc:
        code = exc.returncode
    out = capsys.readouterr()
    return code, out.out, out.err


def test_applied_is_0_and_json_is_the_last_line(member, tmp_path, capsys):
    f = tmp_path / "hours.csv"
    f.write_text(H + "FSB-77001,fairport-esop,2023,2080\nFSB-77001,fairport-esop,2022,2080\n")
    code, out, _ = _call(capsys, "hours", str(f), "--json")
    assert code == 0
    assert json.loads(out.strip().splitlines()[-1]) == {
        "created": 1,
        "updated": 0,
        "unchanged": 1,
        "errors": [],
    }


def test_errors_are_1_and_nothing_is_applied(member, tmp_path, capsys):
    f = tmp_path / "hours.csv"
    f.write_text(H + "FSB-77001,fairport-esop,2023,2080\nFSB-77001,fairport-esop,2024,9000\n")
    before = snapshot()
    code, out, _ = _call(capsys, "hours", str(f), "--json")
    assert code == 1 and snapshot() == before
    last = json.loads(out.strip().splitlines()[-1])
    assert last["errors"] == [
        {"row": 3, "column": "hours", "message": "hours must be between 0 and 8,784 (got 9,000)."}
    ]
    assert (last["created"], last["updated"], last["unchanged"]) == (1, 0, 0)


def test_valid_rows_only_applies_the_rest_with_0(member, tmp_path, capsys):
    from benefits.models import HoursOfService

    f = tmp_path / "hours.csv"
    f.write_text(H + "FSB-77001,fairport-esop,2023,2080\nFSB-77001,fairport-esop,2024,9000\n")
    code, out, _ = _call(capsys, "hours", str(f), "--valid-rows-only", "--json")
    assert code == 0
    assert HoursOfService.objects.filter(membership=member, period_year=2023).exists()


def test_dry_run_changes_nothing(member, tmp_path, capsys):
    f = tmp_path / "hours.csv"
    f.write_text(H + "FSB-77001,fairport-esop,2023,2080\n")
    before = snapshot()
    code, out, err = _call(capsys, "hours", str(f), "--dry-run")
    assert code == 0 and snapshot() == before
    assert "1 new" in out and "would be imported" in out


def test_bad_usage_is_2(member, tmp_path, capsys):
    assert _call(capsys, "shoe_sizes", str(DOCS / "hours.csv"))[0] == 2
    assert _call(capsys, "hours", str(tmp_path / "missing.csv"))[0] == 2


def test_errors_go_to_stderr_without_json(member, tmp_path, capsys):
    f = tmp_path / "hours.csv"
    f.write_text(H + "FSB-77001,fairport-esop,2023,abc\n")
    code, out, err = _call(capsys, "hours", str(f))
    assert code == 1 and "row 2: hours is not a whole number" in err and "Nothing was imported" in out


def test_the_command_runs_as_a_process(tmp_path):
    """Exit statuses as a shell sees them (argparse's own usage errors are 2 as well)."""
    import os
    import subprocess
    import sys

    env = {**os.environ}
    result = subprocess.run(
        [sys.executable, "manage.py", "import_data"],
        capture_output=True,
        env=env,
        timeout=120,  # noqa: S603
        cwd=DOCS.parents[1],
    )
    assert result.returncode == 2


def test_a_large_import_leaves_planner_statistics_for_the_rows_it_wrote(plans, tmp_path, capsys):
    """``import_data`` (and every import kind, the payment confirmations among them: one service) runs
    ANALYZE on the tables it filled once the file is applied (issue 31). ANALYZE of a table this small
    reads every row, so the planner's row count is the exact count, which only ANALYZE sets here: the
    test's transaction hides the rows from autovacuum."""
    from django.db import connection

    from benefits.db_stats import ANALYZE_AFTER_ROWS
    from benefits.models import HoursOfService, Participant, PlanMembership

    plan = plans["fairport-esop"]
    people = Participant.objects.bulk_create(
        Participant(
            employer=plan.employer,
            participant_number=f"FSB-9{i:04d}",
            first_name="Bo",
            last_name=f"Lane{i}",
            birth_date=date(1980, 5, 1),
            ssn_last4=f"{i:04d}",
            ssn_hash=f"{i:064d}",
            hire_date=date(2021, 1, 4),
        )
        for i in range(ANALYZE_AFTER_ROWS // 2 + 1)
    )
    PlanMembership.objects.bulk_create(PlanMembership(participant=p, plan=plan) for p in people)
    f = tmp_path / "hours.csv"
    f.write_text(
        H + "".join(f"{p.participant_number},fairport-esop,{y},2080\n" for p in people for y in (2022, 2023))
    )

    def planner_rows() -> float:
        with connection.cursor() as cursor:
            cursor.execute("SELECT reltuples FROM pg_class WHERE relname = 'benefits_hoursofservice'")
            return cursor.fetchone()[0]

    assert planner_rows() <= 0  # never analyzed (-1), or empty
    with TestCase.captureOnCommitCallbacks(execute=True):
        code, _, _ = _call(capsys, "hours", str(f), "--json")
    assert code == 0
    written = HoursOfService.objects.count()
    assert written >= ANALYZE_AFTER_ROWS and planner_rows() == written
