"""Issue 24: an administrator loads a §417(e)(3) table as published, through the data import; the
table is checked whole, previewed against the table in use, stored as a new version (never
overwriting), audited, put into every engine request built from the database, and the results it
changes are priced again in the background."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import numpy as np
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from benefits.engine.mortality import get_table
from tests.benefits.imports.conftest import csv_bytes

pytestmark = pytest.mark.django_db

SHIPPED_2026 = get_table("irs_417e_2026")
SOURCE = "Notice 2026-27"


def table_csv(factor: float = 0.9, *, last: str = "1") -> bytes:
    """A 2027 table for the tests: the shipped 2026 rates × ``factor`` (the published Notice 2026-27
    values are not in the repository: see docs/import/README.md), ages 15–120, q(120) = 1."""
    lines = ["age,qx"]
    for i, q in enumerate(SHIPPED_2026.qx):
        age = SHIPPED_2026.min_age + i
        lines.append(f"{age},{last if age == 120 else f'{min(1.0, q * factor):.6f}'}")
    return csv_bytes(*lines)


def load(admin, content: bytes, *, years: str = "2027", source: str = SOURCE, kind: str = "mortality_417e"):
    from benefits.imports.kinds.tables import parse_params
    from benefits.imports.services import import_apply, import_check, import_create

    batch = import_create(
        kind=kind, file_name="t.csv", content=content, actor=admin, params=parse_params(kind, years, source)
    )
    batch = import_check(batch.pk, progress=False)
    return batch, (lambda: import_apply(batch.pk, actor=admin))


# ------------------------------------------------------------------------------------ validation


def test_bad_rows_are_refused_naming_row_column_and_rule(admin_user):
    from benefits.imports.services import ImportRefused

    rows = table_csv().decode().splitlines()
    rows[5] = "19,1.5"  # q above 1
    del rows[30]  # a gap in the ages (age 44 missing)
    rows[-1] = "120,0.9"  # the last q must be 1
    batch, apply = load(admin_user, ("\n".join(rows) + "\n").encode())
    by_row = {(e["row"], e["column"]): e["message"] for e in batch.errors}
    assert by_row[(6, "qx")] == "qx must be between 0 and 1 (got 1.5)."
    assert any(col == "age" and "44 to 44 are missing" in m for (_, col), m in by_row.items())
    assert any(col == "qx" and "last age's q must be 1" in m for (_, col), m in by_row.items())
    with pytest.raises(ImportRefused):
        apply()
    from benefits.imports.models import RegulatoryTable

    assert not RegulatoryTable.objects.exists()


def test_the_year_and_source_are_required_fields():
    from benefits.imports.kinds.tables import ParamsInvalid, parse_params

    with pytest.raises(ParamsInvalid, match="Source"):
        parse_params("mortality_417e", "2027", " ")
    with pytest.raises(ParamsInvalid, match="Years"):
        parse_params("mortality_417e", "2001", SOURCE)  # before the yearly tables (Rev. Rul. 2007-67)
    assert parse_params("single_life", "2002-2021", "T.D. 8987") == {
        "year": 2002,
        "last_year": 2021,
        "source": "T.D. 8987",
    }


# ------------------------------------------------------------------------------------ preview, versions, audit


def test_preview_against_the_stand_in_then_a_version_each_load(
    admin_user, django_capture_on_commit_callbacks
):
    from benefits.imports.models import RegulatoryTable
    from benefits.imports.selectors import table_comparison
    from benefits.models import AuditEvent

    batch, apply = load(admin_user, table_csv(0.9))
    cmp = table_comparison(user=admin_user, batch=batch)
    assert "the 2026 table shipped with the calculator, which stands in for 2027" in cmp["compared_with"]
    # every age but 120 (q = 1 in both) differs; the largest difference is 10% of the largest q < 1
    assert cmp["changed"] == 105 and batch.unchanged == 1
    expected = max(Decimal(repr(float(q))) - Decimal(f"{q * 0.9:.6f}") for q in SHIPPED_2026.qx[:-1])
    assert Decimal(cmp["largest"]) == expected
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        apply()
    assert callbacks  # the background recalculation is queued on commit
    v1 = RegulatoryTable.objects.get(kind="mortality_417e", year=2027)
    assert (v1.version, v1.source, v1.loaded_by, len(v1.rows)) == (1, SOURCE, admin_user, 106)
    assert v1.rows[50] == ["65", f"{SHIPPED_2026.q(65) * 0.9:.6f}"]
    assert len(v1.sha256) == 64
    assert AuditEvent.objects.filter(
        event_type="regulatory_table.loaded", extra_data__version=1, extra_data__source=SOURCE
    ).exists()

    # A second load of the same year is version 2; version 1 stays as it was.
    batch2, apply2 = load(admin_user, table_csv(0.8), source="Notice 2026-27 (corrected)")
    assert (
        "the loaded 2027 table, Notice 2026-27, loaded"
        in table_comparison(user=admin_user, batch=batch2)["compared_with"]
    )
    with django_capture_on_commit_callbacks(execute=False):
        apply2()
    assert list(
        RegulatoryTable.objects.filter(year=2027).order_by("version").values_list("version", "source")
    ) == [
        (1, SOURCE),
        (2, "Notice 2026-27 (corrected)"),
    ]
    v1.refresh_from_db()
    assert v1.rows[50][1] == f"{SHIPPED_2026.q(65) * 0.9:.6f}"


# ------------------------------------------------------------------------------------ the engine prices on it


def _monthly_annuity_due(qx: np.ndarray, min_age: int, age: float, rate: float) -> float:
    """ä(12) at ``age`` worked from the table's q alone: l(x) from the q (nobody past the last age),
    linear between integer ages (UDD), payments of 1/12 at the start of each month."""
    q = qx.astype(float).copy()
    q[-1] = 1.0
    lx = np.concatenate(([1.0], np.cumprod(1.0 - q)))
    ages = np.arange(min_age, min_age + len(lx), dtype=float)
    t = np.arange(0, (ages[-1] - age) * 12 + 1) / 12.0
    px = np.interp(age + t, ages, lx, right=0.0) / np.interp(age, ages, lx)
    return float(np.sum(px * (1 + rate) ** -t) / 12.0)


@pytest.fixture
def quaker_member(plans):
    """A Quaker City participant separated in 2026 after 25 years, starting payments in 2027."""
    from benefits.identity import ssn_hash
    from benefits.models import Compensation, HoursOfService, MarketRate, Participant, PlanMembership

    p = Participant.objects.create(
        employer=plans["quaker-cash-balance"].employer,
        participant_number="QCB-27001",
        first_name="Ruth",
        last_name="Vale",
        birth_date=date(1962, 3, 15),
        ssn_last4="2701",
        ssn_hash=ssn_hash("900-27-2701"),
        hire_date=date(2001, 1, 8),
        termination_date=date(2026, 5, 29),
    )
    m = PlanMembership.objects.create(
        participant=p, plan=plans["quaker-cash-balance"], entry_date=date(2001, 1, 8)
    )
    HoursOfService.objects.bulk_create(
        HoursOfService(membership=m, period_year=y, hours=2080) for y in range(2001, 2027)
    )
    Compensation.objects.bulk_create(
        Compensation(membership=m, year=y, amount=60000) for y in range(2001, 2027)
    )
    MarketRate.objects.bulk_create(
        MarketRate(
            series="treasury_10y_november", period=date(y, 11, 1), percent=Decimal("4.00"), source="test"
        )
        for y in range(2000, 2026)
    )
    MarketRate.objects.create(
        series="treasury_30y", period=date(2026, 10, 1), percent=Decimal("5.00"), source="test"
    )
    return m


def test_a_2027_start_is_priced_on_the_loaded_table(
    quaker_member, admin_user, django_capture_on_commit_callbacks
):
    from benefits.engine.dates import months_between
    from benefits.engine_adapter import membership_calculate, membership_request

    asd = date(2027, 4, 1)
    before = membership_calculate(quaker_member, as_of=date(2026, 6, 30), commencement_dates=[asd])
    e0 = before["estimates"][0]
    assert "the 2026 table stands in" in e0["relative_value_basis"]["mortality"]  # until it is loaded

    _, apply = load(admin_user, table_csv(0.9))
    with django_capture_on_commit_callbacks(execute=False):
        apply()
    quaker_member = type(quaker_member).objects.get(pk=quaker_member.pk)
    request = membership_request(quaker_member, as_of=date(2026, 6, 30), commencement_dates=[asd])
    table = request["assumptions"]["mortality_417e_tables"]["2027"]
    assert (table["source"], table["version"], table["loaded"]) == (
        SOURCE,
        "1",
        timezone.localdate().isoformat(),
    )
    assert table["qx"]["65"] == f"{SHIPPED_2026.q(65) * 0.9:.6f}"  # the loaded q, as the file gave it
    after = membership_calculate(quaker_member, as_of=date(2026, 6, 30), commencement_dates=[asd])
    e1 = after["estimates"][0]
    line = e1["relative_value_basis"]["mortality"]
    assert line.startswith(
        f"2027 applicable mortality table, {SOURCE}, loaded {timezone.localdate().isoformat()}"
    )
    assert "irs_417e" not in line and "stands in" not in line
    trace = str(after.get("traces", {}).get("estimates[0].forms.life", "")) or str(after)
    assert f"2027 applicable mortality table, {SOURCE}" in trace

    # The balance buys balance ÷ (12 ä) a month (§1.2(g)) at the same age and rate, so the monthly
    # life annuity moves in the inverse ratio of the two tables' factors, worked here from the q.
    age = months_between(date(1962, 3, 15), asd) / 12.0
    loaded_q = np.array([float(r.split(",")[1]) for r in table_csv(0.9).decode().splitlines()[1:]])
    ratio = _monthly_annuity_due(SHIPPED_2026.qx, 15, age, 0.05) / _monthly_annuity_due(
        loaded_q, 15, age, 0.05
    )
    m0, m1 = Decimal(e0["forms"]["life"]["monthly"]), Decimal(e1["forms"]["life"]["monthly"])
    assert m1 < m0
    assert abs(m1 - m0 * Decimal(repr(ratio))) <= Decimal("0.02")


# ------------------------------------------------------------------------------------ the page


def test_the_page_loads_a_2027_table(admin_user, staff_client, django_capture_on_commit_callbacks):
    from benefits.imports.models import RegulatoryTable

    client = staff_client(admin_user)
    home = client.get(reverse("benefits:imports_home")).content.decode()
    assert "§417(e)(3) applicable mortality table" in home and "table_source" in home
    # Without a source the upload is refused, naming the field.
    resp = client.post(
        reverse("benefits:imports_upload"),
        {"kind": "mortality_417e", "table_years": "2027", "file": SimpleUploadedFile("t.csv", table_csv())},
    )
    assert resp.status_code == 400 and "Source: name the notice or regulation" in resp.content.decode()
    with django_capture_on_commit_callbacks(execute=True):  # the file's check is a background job
        resp = client.post(
            reverse("benefits:imports_upload"),
            {
                "kind": "mortality_417e",
                "table_years": "2027",
                "table_source": SOURCE,
                "file": SimpleUploadedFile("irs-417e-2027.csv", table_csv()),
            },
        )
    assert resp.status_code == 302
    page = client.get(resp["Location"]).content.decode()
    assert "The table for 2027 (Notice 2026-27)" in page
    assert "which stands in for 2027" in page and "Largest difference" in page
    assert "Import only the valid rows" not in page
    with django_capture_on_commit_callbacks(execute=False) as sent:
        client.post(resp["Location"] + "apply/")
    sent[0]()  # the import job (the recalculation it queues is left waiting)
    assert RegulatoryTable.objects.get(year=2027).version == 1
    page = client.get(resp["Location"]).content.decode()
    assert "Stored as the 2027 table, Notice 2026-27, loaded" in page


def test_single_life_table_load(admin_user, django_capture_on_commit_callbacks):
    from benefits.engine.life_expectancy import SINGLE_LIFE_2002
    from benefits.imports.models import RegulatoryTable

    content = csv_bytes("age,life_expectancy", *(f"{a},{v}" for a, v in enumerate(SINGLE_LIFE_2002)))
    batch, apply = load(admin_user, content, kind="single_life", years="2002-2021", source="T.D. 8987")
    assert not batch.errors and batch.unchanged == 112  # the same as the table shipped for 2002–2021
    with django_capture_on_commit_callbacks(execute=False):
        apply()
    t = RegulatoryTable.objects.get(kind="single_life")
    assert (t.year, t.last_year, t.version) == (2002, 2021, 1)


# ------------------------------------------------------------------------------------ samples, reloads, rollback


def test_the_samples_are_the_published_tables_and_a_second_load_adds_nothing(
    admin_user, django_capture_on_commit_callbacks
):
    """docs/import/mortality_417e.csv is the 2024 table as published (Notice 2023-73), equal to the
    table the calculator ships for 2024; single_life.csv the 2002–2021 Single Life Table (T.D. 8987)."""
    from benefits.imports.models import RegulatoryTable
    from tests.benefits.imports.conftest import DOCS, run

    for kind, rows in (("mortality_417e", 106), ("single_life", 112)):
        content = (DOCS / f"{kind}.csv").read_bytes()
        with django_capture_on_commit_callbacks(execute=False):
            batch, checked = run(kind, content, file_name=f"{kind}.csv")
        assert checked.errors == [] and batch.status == "applied"
        assert (checked.created, checked.updated, checked.unchanged) == (0, 0, rows), kind
        with django_capture_on_commit_callbacks(execute=False):
            again, checked = run(kind, content, file_name=f"{kind}.csv")
        assert again.status == "applied"
        assert RegulatoryTable.objects.filter(kind=kind).count() == 1  # the same file: no second version
        bad = content.rstrip(b"\n") + b"\n" + (b"121,1.0" if kind == "mortality_417e" else b"112,0") + b"\n"
        batch, checked = run(kind, bad, file_name=f"{kind}.csv")
        assert batch.status == "previewed" and checked.errors
    assert "`mortality_417e`" in (DOCS / "README.md").read_text()
    assert "`single_life`" in (DOCS / "README.md").read_text()


def test_rolling_back_a_load_removes_its_version_and_recalculates(
    admin_user, django_capture_on_commit_callbacks
):
    from benefits.imports.models import RegulatoryTable
    from benefits.imports.services import import_rollback
    from benefits.jobs.models import Job

    batch, apply = load(admin_user, table_csv(0.9))
    with django_capture_on_commit_callbacks(execute=False):
        apply()
    assert RegulatoryTable.objects.filter(year=2027).count() == 1
    with django_capture_on_commit_callbacks(execute=False):
        import_rollback(batch=batch, actor=admin_user)
    assert not RegulatoryTable.objects.filter(year=2027).exists()
    jobs = Job.objects.filter(kind="tables.recalculate").order_by("pk")
    assert [j.args for j in jobs] == [{"kind": "mortality_417e", "years": [2027]}] * 2


def test_only_administrators_load_tables(db):
    from benefits.imports.services import import_create
    from tests.factories import UserFactory

    with pytest.raises(PermissionError):
        import_create(
            kind="mortality_417e",
            file_name="t.csv",
            content=table_csv(),
            actor=UserFactory(),
            params={"year": 2027, "last_year": 2027, "source": SOURCE},
        )


# ------------------------------------------------------------------------------------ the background recalculation


def test_the_job_prices_again_results_runs_and_unsigned_explanations(
    quaker_member, admin_user, settings, tmp_path, django_capture_on_commit_callbacks
):
    from benefits.imports.services import tables_recalculate
    from benefits.models import AuditEvent, CalculationResult, ModelerRun
    from elections.benefit_elections import services as notices
    from elections.benefit_elections.models import Notice

    settings.PRIVATE_STORAGE_ROOT = tmp_path
    asd = date(2027, 4, 1)
    today = timezone.localdate()
    with django_capture_on_commit_callbacks(execute=True):
        first = notices.notice_issue(
            membership=quaker_member, kind="qjsa_explanation", asd=asd, actor=admin_user, on=today
        ).notice
    assert "the 2026 table stands in" in first.content["relative_value_basis"]["mortality"]
    from benefits.engine_adapter import modeler_request, request_calculate

    run = ModelerRun.objects.create(
        membership=quaker_member,
        as_of=today,
        inputs={"commencement_dates": [asd.isoformat()]},
        status=ModelerRun.Status.DONE,
        result=request_calculate(modeler_request(quaker_member, as_of=today, inputs={}, dates=[asd])),
        finished_at=timezone.now(),
    )
    assert "stands in" in str(run.result)

    _, apply = load(admin_user, table_csv(0.9))
    with django_capture_on_commit_callbacks(execute=False):
        apply()
    assert CalculationResult.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        out = tables_recalculate("mortality_417e", [2027])
    assert out["modeler_runs"] == 1 and out["explanations"] == 1
    # every stored result was dropped and today's recomputed with the loaded table in its request
    assert all("mortality_417e_tables" in r.request["assumptions"] for r in CalculationResult.objects.all())
    run.refresh_from_db()
    assert run.status == ModelerRun.Status.DONE and f"2027 applicable mortality table, {SOURCE}" in str(
        run.result
    )
    second = Notice.objects.get(membership=quaker_member, asd=asd, version=2)
    line = second.content["relative_value_basis"]["mortality"]
    assert line.startswith(f"2027 applicable mortality table, {SOURCE}, loaded") and "stands in" not in line
    life = lambda n: Decimal(next(f for f in n.content["forms"] if f["form"] == "life")["monthly"])  # noqa: E731
    assert life(second) < life(first)  # the 2027 table's lower q: a longer life, a smaller payment
    assert AuditEvent.objects.filter(
        event_type="notice.repriced", extra_data__replaces_notice_id=first.pk
    ).exists()
    # run twice (a redelivered job): nothing more is issued
    with django_capture_on_commit_callbacks(execute=True):
        assert tables_recalculate("mortality_417e", [2027])["explanations"] == 0


# ------------------------------------------------------------------------------------ Rev. Rul. 2001-62 from the database


def test_a_2005_start_says_the_2001_62_reading_is_unconfirmed_until_an_administrator_confirms_it(
    plans, admin_user
):
    """A Quaker City participant who left in 2004 starting in March 2005: the §417(e)(3) table is Rev.
    Rul. 2001-62's (ASDs from 12/31/2002 in plan years before 2008); until an administrator sets the
    plan's reading the unloaded one stands in and every figure says so."""
    from benefits.engine_adapter import membership_calculate
    from benefits.identity import ssn_hash
    from benefits.models import Compensation, HoursOfService, MarketRate, Participant, PlanMembership
    from benefits.services.plan_settings import plan_update_reading

    plan = plans["quaker-cash-balance"]
    p = Participant.objects.create(
        employer=plan.employer,
        participant_number="QCB-20050",
        first_name="Amos",
        last_name="Hale",
        birth_date=date(1960, 3, 15),
        ssn_last4="2005",
        ssn_hash=ssn_hash("900-20-2005"),
        hire_date=date(1985, 1, 7),
        termination_date=date(2004, 12, 31),
    )
    m = PlanMembership.objects.create(
        participant=p,
        plan=plan,
        entry_date=date(1990, 2, 1),
        plan_data={"opening_balance": "90000.00", "participation_date": "1990-02-01"},
    )
    HoursOfService.objects.bulk_create(
        HoursOfService(membership=m, period_year=y, hours=2080) for y in range(1985, 2005)
    )
    Compensation.objects.bulk_create(
        Compensation(membership=m, year=y, amount=24000) for y in range(1995, 2005)
    )
    MarketRate.objects.bulk_create(
        MarketRate(
            series="treasury_10y_november", period=date(y, 11, 1), percent=Decimal("5.00"), source="test"
        )
        for y in range(1999, 2005)
    )
    MarketRate.objects.create(
        series="treasury_30y", period=date(2004, 12, 1), percent=Decimal("4.86"), source="test"
    )
    result = membership_calculate(m, as_of=date(2004, 12, 31), commencement_dates=[date(2005, 3, 1)])
    words = str(result)
    assert "Rev. Rul. 2001-62 table (unloaded reading, standing in" in words
    assert "unconfirmed until an administrator confirms it" in words

    plan_update_reading(plan=plan, name="revrul_2001_62_reading", raw="unloaded", actor=admin_user)
    m = PlanMembership.objects.select_related("plan", "participant").get(pk=m.pk)
    words = str(membership_calculate(m, as_of=date(2004, 12, 31), commencement_dates=[date(2005, 3, 1)]))
    assert "unloaded reading, confirmed by the plan administrator" in words
    assert "unconfirmed until an administrator" not in words


def test_the_tables_page_lists_versions_and_what_stands_in(
    admin_user, staff_client, django_capture_on_commit_callbacks
):
    client = staff_client(admin_user)
    url = reverse("benefits:regulatory_tables")
    page = client.get(url).content.decode()
    assert "No table loaded yet" in page
    year = timezone.localdate().year + 1
    if year > 2026:
        assert f"stands in for {year} until its own table is loaded" in page
    _, apply = load(admin_user, table_csv(0.9), years=str(year))
    with django_capture_on_commit_callbacks(execute=False):
        apply()
    page = client.get(url).content.decode()
    assert SOURCE in page and f"The loaded {year} table, {SOURCE}, loaded" in page
    assert "irs_417e" not in page


def test_a_loaded_single_life_table_reaches_the_engine(admin_user, django_capture_on_commit_callbacks):
    """A Single Life Table loaded for 2027 on answers for 2027 distributions in place of the T.D. 9930
    table (Treas. Reg. §1.401(a)(9)-9(b)), and the trace's section names the loaded source."""
    from benefits.engine.life_expectancy import (
        loaded_single_life_tables,
        parse_loaded_single_life_tables,
        single_life_expectancy,
        single_life_source,
    )
    from benefits.engine_adapter import market_assumptions

    values = [f"{max(1.0, 90.0 - a * 0.75):.1f}" for a in range(121)]  # a made-up table for the test
    content = csv_bytes("age,life_expectancy", *(f"{a},{v}" for a, v in enumerate(values)))
    _, apply = load(admin_user, content, kind="single_life", years="2027", source="T.D. 9999 (test)")
    with django_capture_on_commit_callbacks(execute=False):
        apply()
    raw = market_assumptions()["single_life_tables"]
    assert [(t["from"], t["through"], t["source"], t["version"]) for t in raw] == [
        (2027, None, "T.D. 9999 (test)", "1")
    ]
    with loaded_single_life_tables(parse_loaded_single_life_tables(raw)):
        assert single_life_expectancy(85, date(2027, 6, 1)) == Decimal(values[85])
        assert single_life_expectancy(85, date(2026, 6, 1)) == Decimal("8.1")  # T.D. 9930 for 2026
        assert "T.D. 9999 (test), loaded" in single_life_source(date(2027, 6, 1))


def test_the_command_loads_a_table_with_its_year_and_source(
    tmp_path, capsys, django_capture_on_commit_callbacks
):
    from tests.benefits.imports.test_command import _call

    path = tmp_path / "irs-417e-2027.csv"
    path.write_bytes(table_csv())
    code, out, err = _call(capsys, "mortality_417e", str(path), "--years", "2027")
    assert code == 2  # bad usage: a table names its source
    with django_capture_on_commit_callbacks(execute=False):
        code, out, err = _call(capsys, "mortality_417e", str(path), "--years", "2027", "--source", SOURCE)
    assert code == 0, err
    from benefits.imports.models import RegulatoryTable

    t = RegulatoryTable.objects.get(year=2027)
    assert (t.version, t.source, t.loaded_by) == (1, SOURCE, None)
