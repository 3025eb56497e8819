"""Each validation rule names the row, the column and the reason; a file with any error changes nothing."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.benefits.imports.conftest import csv_bytes, run, snapshot

pytestmark = pytest.mark.django_db

H = "participant_number,plan,period_year,hours"
C = "participant_number,plan,year,amount"
P = "participant_number,employer,first_name,last_name,birth_date,ssn,hire_date,termination_date,marital_status,spouse_name,spouse_birth_date"
EMP = "Fairport Savings Bank"

CASES = [
    # (kind, header, row, column, words in the message)
    ("hours", H, "FSB-77001,fairport-esop,2023,8785", "hours", "between 0 and 8,784"),
    ("hours", H, "FSB-77001,fairport-esop,2023,-1", "hours", "between 0 and 8,784"),
    ("hours", H, "FSB-77001,fairport-esop,2023,12.5", "hours", "not a whole number"),
    ("hours", H, "FSB-77001,fairport-esop,20x3,100", "period_year", "not a whole number"),
    ("hours", H, "FSB-00000,fairport-esop,2023,100", "participant_number", "no participant FSB-00000"),
    ("hours", H, "FSB-77001,no-plan,2023,100", "plan", "no plan has the key"),
    ("hours", H, "FSB-77001,carver-401k,2023,100", "plan", "not a member of carver-401k"),
    ("hours", H, "FSB-77001,fairport-esop,2023,", "hours", "is required"),
    ("compensation", C, "FSB-77001,fairport-esop,2023,-0.01", "amount", "between 0"),
    ("compensation", C, "FSB-77001,fairport-esop,2023,100.001", "amount", "more than 2 decimal places"),
    ("compensation", C, "FSB-77001,fairport-esop,2023,1e9", "amount", "not a number"),
    ("compensation", C, "FSB-77001,fairport-esop,2023,99999999999", "amount", "between 0"),
    (
        "participants",
        P,
        f"FSB-77002,{EMP},Al,Bo,1990-01-01,900-77-7002,1989-12-31,,single,,",
        "hire_date",
        "after birth_date",
    ),
    (
        "participants",
        P,
        f"FSB-77002,{EMP},Al,Bo,1970-01-01,900-77-7002,1990-01-01,1989-01-01,single,,",
        "termination_date",
        "not be before hire_date",
    ),
    (
        "participants",
        P,
        f"FSB-77002,{EMP},Al,Bo,1970-01-01,900-77-7002,1990-01-01,,married,,",
        "spouse_name",
        "required when marital_status is married",
    ),
    (
        "participants",
        P,
        f"FSB-77002,{EMP},Al,Bo,1970-01-01,900-77-7002,1990-01-01,,married,Cy Bo,",
        "spouse_birth_date",
        "required when marital_status is married",
    ),
    (
        "participants",
        P,
        f"FSB-77002,{EMP},Al,Bo,1970-01-01,900-77-7002,1990-01-01,,single,Cy Bo,",
        "spouse_name",
        "blank when marital_status is single",
    ),
    (
        "participants",
        P,
        f"FSB-77002,{EMP},Al,Bo,1970-01-01,900-77-7002,1990-01-01,,widowed,,",
        "marital_status",
        "must be one of single, married",
    ),
    (
        "participants",
        P,
        f"FSB-77002,{EMP},Al,Bo,1970-01-01,,1990-01-01,,single,,",
        "ssn",
        "required for a new participant",
    ),
    (
        "participants",
        P,
        f"FSB-77002,{EMP},Al,Bo,1970-01-01,900-77-7001,1990-01-01,,single,,",
        "ssn",
        "belongs to participant FSB-77001",
    ),
    ("participants", P, f"FSB-77002,{EMP},Al,Bo,1970-01-01,12345,1990-01-01,,single,,", "ssn", "nine digits"),
    (
        "participants",
        P,
        "FSB-77002,Nobody Bank,Al,Bo,1970-01-01,900-77-7002,1990-01-01,,single,,",
        "employer",
        "no employer",
    ),
    (
        "participants",
        P,
        f'FSB-77002,{EMP},=HYPERLINK("http://x"),Bo,1970-01-01,900-77-7002,1990-01-01,,single,,',
        "first_name",
        "formula",
    ),
    (
        "participants",
        P,
        f"FSB-77002,{EMP},Al,Bo,1970-02-30,900-77-7002,1990-01-01,,single,,",
        "birth_date",
        "not a date",
    ),
    (
        "contributions",
        "participant_number,plan,source,pay_date,type,amount",
        "FSB-77001,fairport-esop,stock_fund,2023-01-13,deferral,0",
        "amount",
        "between 0.01",
    ),
    (
        "contributions",
        "participant_number,plan,source,pay_date,type,amount",
        "FSB-77001,fairport-esop,bonus_fund,2023-01-13,deferral,5",
        "source",
        "not a source of fairport-esop",
    ),
    (
        "contributions",
        "participant_number,plan,source,pay_date,type,amount",
        "FSB-77001,fairport-esop,stock_fund,2020-01-13,deferral,5",
        "pay_date",
        "before the participant's hire date",
    ),
    (
        "contributions",
        "participant_number,plan,source,pay_date,type,amount",
        "FSB-77001,fairport-esop,stock_fund,2023-01-13,bonus,5",
        "type",
        "must be one of deferral",
    ),
    (
        "valuations",
        "participant_number,plan,source,valuation_date,balance,shares",
        "FSB-77001,fairport-esop,stock_fund,2023-12-31,-5,",
        "balance",
        "between 0",
    ),
    (
        "valuations",
        "participant_number,plan,source,valuation_date,balance,shares",
        "FSB-77001,fairport-esop,stock_fund,2023-12-31,5,-1",
        "shares",
        "between 0",
    ),
    (
        "esop",
        "participant_number,plan,source,release_date,shares,share_value",
        "FSB-77001,fairport-esop,stock_fund,2023-12-31,10,0",
        "share_value",
        "between 0.0001",
    ),
    (
        "loans",
        "participant_number,plan,source,date,type,amount",
        "FSB-77001,fairport-esop,stock_fund,2023-12-31,issued,-5",
        "amount",
        "between 0.01",
    ),
    (
        "market_rates",
        "series,month,percent,source",
        "prime_rate,2024-07,25.01,WSJ",
        "percent",
        "between 0 and 25",
    ),
    (
        "market_rates",
        "series,month,percent,source",
        "prime_rate,2024-07,-0.5,WSJ",
        "percent",
        "between 0 and 25",
    ),
    ("market_rates", "series,month,percent,source", "libor,2024-07,5,WSJ", "series", "must be one of"),
    (
        "market_rates",
        "series,month,percent,source",
        "treasury_10y_november,2024-10,4.1,H.15",
        "month",
        "November only",
    ),
    ("market_rates", "series,month,percent,source", "prime_rate,2024-07,8.5,", "source", "is required"),
]


@pytest.mark.parametrize(
    ("kind", "header", "row", "column", "words"),
    CASES,
    ids=[f"{c[0]}-{c[3]}-{i}" for i, c in enumerate(CASES)],
)
def test_rule_is_reported_with_row_column_and_reason(member, kind, header, row, column, words):
    good_rows = {
        "hours": "FSB-77001,fairport-esop,2023,2080",
        "compensation": "FSB-77001,fairport-esop,2023,50000.00",
    }
    lines = [header] + ([good_rows[kind]] if kind in good_rows else []) + [row]
    before = snapshot()
    batch, checked = run(kind, csv_bytes(*lines))
    bad_row = len(lines)
    assert any(e.row == bad_row and e.column == column and words in e.message for e in checked.errors), (
        checked.errors
    )
    assert batch.status == "previewed"
    assert snapshot() == before  # the good row was not imported either


def test_duplicate_key_is_an_error_on_the_later_row(member):
    batch, checked = run(
        "hours", csv_bytes(H, "FSB-77001,fairport-esop,2023,2080", "FSB-77001,fairport-esop,2023,1000")
    )
    assert [(e.row, e.column) for e in checked.errors] == [(3, "period_year")]
    assert "repeats row 2" in checked.errors[0].message


def test_missing_and_unknown_columns_refuse_the_file(member):
    _, checked = run(
        "hours", csv_bytes("participant_number,plan,hours,overtime", "FSB-77001,fairport-esop,10,1")
    )
    messages = {(e.row, e.column): e.message for e in checked.errors}
    assert "required column period_year is missing" in messages[(1, "period_year")]
    assert "Unknown column overtime" in messages[(1, "overtime")]


def test_every_error_of_a_row_is_listed(member):
    _, checked = run("hours", csv_bytes(H, "FSB-77001,fairport-esop,19x9,99999"))
    assert {e.column for e in checked.errors} == {"period_year", "hours"}


def test_valid_rows_only_imports_the_rest_in_one_transaction(member):
    from benefits.models import HoursOfService

    batch, checked = run(
        "hours",
        csv_bytes(H, "FSB-77001,fairport-esop,2023,2080", "FSB-77001,fairport-esop,2024,9999"),
        valid_rows_only=True,
    )
    assert batch.status == "applied" and batch.created == 1 and batch.error_count == 1
    assert HoursOfService.objects.get(membership=member, period_year=2023).hours == 2080
    assert not HoursOfService.objects.filter(membership=member, period_year=2024).exists()


def test_xlsx_is_read_and_formula_cells_are_refused(member):
    import io

    from openpyxl import Workbook

    from benefits.models import Compensation

    book = Workbook()
    sheet = book.active
    sheet.append(["Participant Number", "Plan", "Year", "Amount"])
    sheet.append(["FSB-77001", "fairport-esop", 2023, 50123.45])
    buf = io.BytesIO()
    book.save(buf)
    batch, checked = run("compensation", buf.getvalue(), file_name="pay.xlsx")
    assert not checked.errors and batch.status == "applied"
    assert Compensation.objects.get(membership=member, year=2023).amount == Decimal("50123.45")

    sheet.append(["FSB-77001", "fairport-esop", 2024, '=HYPERLINK("http://example.test","1")'])
    buf = io.BytesIO()
    book.save(buf)
    batch, checked = run("compensation", buf.getvalue(), file_name="pay.xlsx")
    assert [(e.row, e.column) for e in checked.errors] == [(3, "D")]
    assert "Formulas are not accepted" in checked.errors[0].message
    assert not Compensation.objects.filter(membership=member, year=2024).exists()


def test_a_file_that_is_not_utf8_is_refused_whole(member):
    _, checked = run("hours", (H + "\nFSB-77001,fairport-esop,2023,2080\n").encode("utf-16"))
    assert checked.errors[0].row == 0 and "not UTF-8" in checked.errors[0].message
