"""Account-plan statements for any period, built from the dated transactions (issue 6, item 3).

The numbers are the engine's statement functions on the stored opening balances and transactions;
opening + activity = closing to the cent by source; the PDF holds them; bad periods are refused with
the field named; a disagreement between stored balances and transactions is shown, never hidden.
"""

from __future__ import annotations

import io
import json
from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.db import IntegrityError, transaction
from django.urls import reverse
from pypdf import PdfReader

from accounts.models import User
from benefits.engine.plans import get_plan
from benefits.engine_adapter import engine_inputs, membership_calculate
from benefits.models import AccountBalance, AccountTransaction, AuditEvent, GeneratedDocument, PlanMembership
from benefits.presenters.account_statements import shares_str
from benefits.presenters.statements import statement_payload
from benefits.services import today
from benefits.services.documents import document_bytes
from benefits.statement_inputs import statement_figures
from tests.conftest import token

pytestmark = pytest.mark.django_db(transaction=True)

# The engine's statement functions, asked through the plan protocol as the portal asks them.
K401 = get_plan("carver-401k").source_accounts
ESOP = get_plan("fairport-esop").share_accounts

OUT = {"forfeiture", "distribution", "withdrawal", "loan_issued", "fee"}
KIND_401K = {
    "deferral": K401.kinds.CONTRIBUTION,
    "match": K401.kinds.CONTRIBUTION,
    "employer": K401.kinds.CONTRIBUTION,
    "rollover": K401.kinds.CONTRIBUTION,
    "earnings": K401.kinds.EARNINGS,
    "dividend": K401.kinds.EARNINGS,
    "forfeiture": K401.kinds.FORFEITURE,
    "distribution": K401.kinds.DISTRIBUTION,
    "withdrawal": K401.kinds.WITHDRAWAL,
    "loan_issued": K401.kinds.LOAN_ISSUED,
    "loan_repayment": K401.kinds.LOAN_REPAID,
    "fee": K401.kinds.FEE,
}


@pytest.fixture
def demo(settings, tmp_path):
    settings.PRIVATE_STORAGE_ROOT = tmp_path
    call_command("load_demo", verbosity=0)
    return User.objects.get(email="pat@demo.test")


@pytest.fixture
def pat_client(client, demo):
    client.force_login(demo)
    return client


def _membership(number: str, plan: str) -> PlanMembership:
    return PlanMembership.objects.get(participant__participant_number=number, plan__key=plan)


def _url(m: PlanMembership, pdf: bool = False) -> str:
    name = "benefits:plan_statement_pdf" if pdf else "benefits:plan_statement"
    return reverse(name, args=[m.participant_id, m.plan.key])


def _money(value) -> str:
    d = Decimal(str(value))
    return f"\u2212${-d:,.2f}" if d < 0 else f"${d:,.2f}"


def _last_year() -> int:
    return today().year - 1


def _opening(m: PlanMembership, year: int) -> dict[str, Decimal]:
    rows = AccountBalance.objects.filter(membership=m, as_of=date(year - 1, 12, 31))
    assert rows.exists(), "the demo stores a balance on every December 31 of its window"
    return {b.source: b.balance for b in rows}


def _pdf_text(document) -> str:
    document.refresh_from_db()
    assert document.status == GeneratedDocument.Status.DONE, document.error
    reader = PdfReader(io.BytesIO(document_bytes(document)))
    return "\n".join(page.extract_text() for page in reader.pages)


# ------------------------------------------------------------------ the engine's numbers


def test_401k_plan_year_is_the_engines_account_statement_on_the_stored_inputs(demo):
    year = _last_year()
    m = _membership("CFS-30001", "carver-401k")  # Leo Fischer: deferrals, match, earnings, a loan
    start, end = date(year, 1, 1), date(year, 12, 31)
    txs = [
        K401.transaction(t.date, t.source, KIND_401K[t.kind], -t.amount if t.kind in OUT else t.amount)
        for t in m.transactions.all()
    ]
    core = engine_inputs(m, as_of=end).core
    loaned = sum(
        (t.amount for t in txs if t.on < start and t.kind is K401.kinds.LOAN_ISSUED), Decimal("0")
    ) - sum((t.amount for t in txs if t.on < start and t.kind is K401.kinds.LOAN_REPAID), Decimal("0"))
    expected = K401.statement(
        start=start,
        end=end,
        opening=_opening(m, year),
        transactions=txs,
        scheduled_percent=core.vesting.percent,
        loan_opening=loaned,
        loaned_out_before={"before_tax": loaned} if loaned else None,
        settings=core.settings["benefits"],
    )
    a = statement_payload(statement_figures(m, today=today(), period_data={"year": str(year)}))["activity"]
    assert a["closing"] == f"{expected.closing:.2f}"
    assert a["vested_balance"] == f"{expected.vested_balance:.2f}"
    by_source = {line["source"]: line for line in a["lines"]}
    for line in expected.lines:
        shown = by_source[line.source]["values"]
        assert shown[0] == f"{line.opening:.2f}" and shown[-1] == f"{line.closing:.2f}"
        assert f"{line.contributions:.2f}" in shown and f"{line.earnings:.2f}" in shown
    # The stored balance on December 31 is the engine's closing balance, source by source.
    for b in AccountBalance.objects.filter(membership=m, as_of=end):
        assert next(line for line in expected.lines if line.source == b.source).closing == b.balance
    assert a["consistent"] and not a["checks"]
    assert any("Loan Account" in step["rule"] for step in a["trace"])


def test_esop_plan_year_is_the_engines_ledger_statement(demo):
    year = _last_year()
    m = _membership("FSB-40001", "fairport-esop")  # Sam Ortiz: an allocation, a dividend, earnings
    start, end = date(year, 1, 1), date(year, 12, 31)
    stock0 = AccountBalance.objects.get(membership=m, source="stock_fund", as_of=start - timedelta(days=1))
    cash0 = AccountBalance.objects.get(
        membership=m, source="investment_fund", as_of=start - timedelta(days=1)
    )
    stock1 = AccountBalance.objects.get(membership=m, source="stock_fund", as_of=end)
    entries = [
        ESOP.entry(
            t.date,
            {"employer": "allocation", "dividend": "dividend", "earnings": "earnings"}[t.kind],
            shares=t.shares or Decimal("0"),
            cash=Decimal("0") if t.source == "stock_fund" else t.amount,
        )
        for t in m.transactions.all()
    ]
    kinds = {e.kind for e in entries if e.on.year == year}
    assert {"allocation", "dividend", "earnings"} <= kinds
    expected = ESOP.statement(
        period_start=start,
        period_end=end,
        opening_shares=stock0.shares,
        opening_cash=cash0.balance,
        opening_share_value=stock0.balance / stock0.shares,
        closing_share_value=stock1.balance / stock1.shares,
        entries=entries,
        vested_percent=engine_inputs(m, as_of=end).core.vesting.percent,
    )
    a = statement_payload(statement_figures(m, today=today(), period_data={"year": str(year)}))["activity"]
    assert a["closing"] == f"{expected.closing.value:.2f}"
    assert a["vested_balance"] == f"{expected.vested_balance:.2f}"
    rows = {r["label"]: r for r in a["rows"]}
    assert expected.closing.shares == stock1.shares
    assert rows["Closing balance"]["shares"] == shares_str(stock1.shares)  # the decimals that matter
    assert rows["Closing balance"]["cash"] == f"{expected.closing.cash:.2f}"
    assert rows["Shares allocated"]["value"] == f"{expected.movements['allocation'].value:.2f}"
    assert rows["Dividends"]["cash"] == f"{expected.movements['dividend'].cash:.2f}"
    assert rows["Change in the value of Stock held"]["value"] == f"{expected.stock_value_change:.2f}"
    assert a["consistent"]


def test_opening_plus_activity_is_closing_to_the_cent_for_every_account_and_year(demo):
    account_members = PlanMembership.objects.filter(transactions__isnull=False).distinct()
    assert account_members.count() >= 12
    for m in account_members:
        valuation = m.balances.latest("as_of").as_of
        # The stored closing balance is the stored opening plus every transaction, by source.
        first = m.balances.earliest("as_of").as_of
        for b in m.balances.filter(as_of=valuation):
            opening = m.balances.get(as_of=first, source=b.source)
            moved = sum(
                (
                    t.amount
                    for t in m.transactions.filter(source=b.source, date__gt=first, date__lte=valuation)
                ),
                Decimal("0"),
            )
            if b.source == "stock_fund":
                shares = sum(
                    (t.shares or 0 for t in m.transactions.filter(source="stock_fund")), Decimal("0")
                )
                assert opening.shares + shares == b.shares, m
            else:
                assert opening.balance + moved == b.balance, (m, b.source)
        for year in range(first.year + 1, valuation.year + 1):
            a = statement_payload(statement_figures(m, today=today(), period_data={"year": str(year)}))[
                "activity"
            ]
            assert a["consistent"], (m, year, a["checks"])
            if a["layout"] == "by_source":
                for line in a["lines"]:
                    values = [Decimal(v) for v in line["values"]]
                    assert values[0] + sum(values[1:-1]) == values[-1], (m, year, line)
                assert sum(Decimal(line["values"][-1]) for line in a["lines"]) == Decimal(a["closing"])
            else:
                values = [Decimal(r["value"]) for r in a["rows"]]
                assert values[0] + sum(values[1:-1]) == values[-1], (m, year)


def test_the_latest_period_ends_on_the_engines_valuation_figures(demo):
    for number in ("CFS-10001", "CFS-30001", "CFS-10007", "CFS-30003"):
        m = _membership(number, "carver-401k")
        valuation = m.balances.latest("as_of").as_of
        p = statement_payload(statement_figures(m, today=today()))
        result = membership_calculate(m, as_of=valuation)
        assert p["activity"]["end"] == valuation.isoformat()
        assert p["activity"]["closing"] == result["account"]["balance"]
        assert p["activity"]["vested_balance"] == result["account"]["vested_balance"]


# ------------------------------------------------------------------ page and PDF


def test_page_and_pdf_show_every_number_of_the_period(pat_client, demo):
    year = _last_year()
    m = _membership("CFS-10001", "carver-401k")
    html = pat_client.get(_url(m), {"year": year}).content.decode()
    payload = statement_payload(statement_figures(m, today=today(), period_data={"year": str(year)}))
    a = payload["activity"]
    assert f"Plan year {year}" in html
    response = pat_client.post(_url(m, pdf=True), {"year": year, "submission_token": token()})
    assert response.status_code == 302 and f"year={year}" in response["Location"]
    document = GeneratedDocument.objects.filter(kind="statement").latest("pk")
    # The payload holds every number the PDF shows (as JSON: tuples are stored as lists).
    assert document.payload["activity"] == json.loads(json.dumps(a))
    text = _pdf_text(document)
    for line in a["lines"]:
        for value in [*line["values"], line["vested_balance"]]:
            assert _money(value) in html, value
            assert _money(value) in text, value
    for value in a["totals"]:
        assert _money(value) in html and _money(value) in text
    for _source, _kind, amount in a["contribution_rows"]:
        assert _money(amount) in text
    assert f"Plan year {year}" in text
    listing = pat_client.get(_url(m)).content.decode()
    assert reverse("benefits:document_download", args=[document.pk]) in listing


def test_esop_pdf_holds_shares_cash_and_values(pat_client, demo):
    year = _last_year()
    m = _membership("CFS-10001", "carver-esop")
    a = statement_payload(statement_figures(m, today=today(), period_data={"year": str(year)}))["activity"]
    pat_client.post(_url(m, pdf=True), {"year": year, "submission_token": token()})
    text = _pdf_text(GeneratedDocument.objects.filter(kind="statement").latest("pk"))
    for row in a["rows"]:
        assert _money(row["value"]) in text
        if row["shares"]:
            assert row["shares"] in text


def test_a_custom_period_with_no_activity(pat_client, demo):
    year = _last_year()
    m = _membership("CFS-10001", "carver-401k")
    # Payroll and earnings are posted at month and quarter ends: the 1st to the 30th of March has none.
    data = {"start": f"{year}-03-01", "end": f"{year}-03-30"}
    a = statement_payload(statement_figures(m, today=today(), period_data=data))["activity"]
    assert a["transaction_count"] == 0 and a["year"] is None
    for line in a["lines"]:
        assert line["values"][0] == line["values"][-1]
    assert a["columns"] == ["Opening balance", "Closing balance"]
    html = pat_client.get(_url(m), data).content.decode()
    assert "No transactions are recorded in this period" in html
    assert f'value="{year}-03-01"' in html and f'value="{year}-03-30"' in html


@pytest.mark.parametrize(
    "data, field, words",
    [
        ({"start": "2025-02-30", "end": "2025-03-31"}, "start", "Start date must be a real date"),
        (
            {"start": "2025-03-31", "end": "2025-03-01"},
            "start",
            "Start date must be on or before the end date",
        ),
        ({"start": "2025-01-01", "end": ""}, "end", "End date is required"),
        ({"start": "1999-01-01", "end": "2025-01-31"}, "start", "Start date cannot be before"),
        ({"start": "2025-01-01", "end": "2099-01-01"}, "end", "End date cannot be after"),
        ({"year": "1990"}, "year", "Plan year must be one of the years with records"),
        ({"year": "next"}, "year", "Plan year must be one of the years with records"),
    ],
)
def test_a_bad_period_is_refused_with_the_field_named(pat_client, demo, data, field, words):
    m = _membership("CFS-10001", "carver-401k")
    response = pat_client.get(_url(m), data)
    assert response.status_code == 200
    html = response.content.decode()
    assert f'id="id_period_{field}-error"' in html and words in html
    assert "Your accounts in this period" not in html  # nothing is shown for a period that was refused
    before = GeneratedDocument.objects.count()
    response = pat_client.post(_url(m, pdf=True), {**data, "submission_token": token()}, follow=True)
    assert GeneratedDocument.objects.count() == before
    assert words in response.content.decode()


def test_stored_balances_that_disagree_with_the_transactions_are_reported(pat_client, demo):
    year = _last_year()
    m = _membership("CFS-10001", "carver-401k")
    row = AccountBalance.objects.get(membership=m, source="rollover", as_of=date(year, 12, 31))
    row.balance += Decimal("125.00")
    row.save()
    a = statement_payload(statement_figures(m, today=today(), period_data={"year": str(year)}))["activity"]
    assert not a["consistent"]
    assert any("Rollover" in c and "$125.00" in c for c in a["checks"])
    html = pat_client.get(_url(m), {"year": year}).content.decode()
    assert "do not agree" in html and "a difference of $125.00" in html


def test_a_forfeiture_and_a_loan_appear_in_their_periods(demo):
    m = _membership("FSB-40003", "fairport-esop")  # Quinn Adams: 0% vested, terminated 2024
    forfeiture = m.transactions.get(kind="forfeiture")
    a = statement_payload(
        statement_figures(m, today=today(), period_data={"year": str(forfeiture.date.year)})
    )["activity"]
    rows = {r["label"]: r for r in a["rows"]}
    assert rows["Forfeitures"]["shares"] == shares_str(forfeiture.shares)
    assert rows["Closing balance"]["value"] == "0.00"
    grace = _membership("CFS-10007", "carver-401k")
    issued = grace.transactions.get(kind="loan_issued")
    a = statement_payload(
        statement_figures(grace, today=today(), period_data={"year": str(issued.date.year)})
    )["activity"]
    assert a["loan"]["closing"] == grace.plan_data["loans"]["outstanding_balance"]
    assert "Loans (repaid less lent)" in a["columns"]


# ------------------------------------------------------------------ access


def test_another_participant_gets_404(client, demo, other_participant):
    m = _membership("CFS-10001", "carver-401k")
    client.force_login(other_participant.user)  # a participant with plans of their own
    assert client.get(_url(m), {"year": _last_year()}).status_code == 404
    assert (
        client.post(_url(m, pdf=True), {"year": _last_year(), "submission_token": token()}).status_code == 404
    )
    assert not GeneratedDocument.objects.filter(kind__in=["statement", "quote"]).exists()


def test_anonymous_is_sent_to_login(client, demo):
    m = _membership("CFS-10001", "carver-401k")
    response = client.get(_url(m), {"year": _last_year()})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_staff_see_the_period_read_only_and_audited(demo, committee_user, staff_client):
    m = _membership("CFS-10001", "carver-401k")
    staff = staff_client(committee_user)
    before = AuditEvent.objects.filter(event_type="participant.viewed_by_staff").count()
    html = staff.get(_url(m), {"year": _last_year()}).content.decode()
    assert "Your accounts in this period" in html and "Read-only view" in html
    assert "Create a PDF of this statement" not in html
    assert AuditEvent.objects.filter(event_type="participant.viewed_by_staff").count() == before + 1
    assert (
        staff.post(_url(m, pdf=True), {"year": _last_year(), "submission_token": token()}).status_code == 403
    )
    assert not GeneratedDocument.objects.filter(kind__in=["statement", "quote"]).exists()


# ------------------------------------------------------------------ the model


def test_transaction_signs_are_enforced_by_the_database(demo):
    m = _membership("CFS-10001", "carver-401k")
    bad = [
        {"kind": "deferral", "amount": Decimal("-10.00")},
        {"kind": "distribution", "amount": Decimal("10.00")},
        {"kind": "earnings", "amount": Decimal("0.00")},
        {"kind": "bonus", "amount": Decimal("10.00")},
    ]
    for fields in bad:
        with pytest.raises(IntegrityError), transaction.atomic():
            AccountTransaction.objects.create(
                membership=m, source="before_tax", date=date(2025, 1, 1), **fields
            )
    AccountTransaction.objects.create(
        membership=m, source="before_tax", date=date(2025, 1, 1), kind="earnings", amount=Decimal("-3.20")
    )


def test_load_demo_twice_keeps_the_same_transactions(demo):
    def snapshot():
        return sorted(
            AccountTransaction.objects.values_list(
                "membership__participant__participant_number", "source", "date", "kind", "amount"
            )
        )

    first = snapshot()
    assert first
    call_command("load_demo", verbosity=0)
    assert snapshot() == first
