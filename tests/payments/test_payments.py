"""Payment records (issue 22): scheduled → instructed → paid, posted to the books, exactly once.

The demo's pat (Carver 401(k)) files an age 59½ withdrawal and a loan; unmarried here, so neither waits
for a spouse's consent and both are scheduled on approval. AS_OF is November 21, 2026: the plan's ten
days' prior notice (§7.3, §7.4(a)) ends December 1, 2026, the first pay date on or after it.
"""

from __future__ import annotations

import json
import threading
from datetime import date
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection

from benefits.engine.payment_order import PaymentOrder, split_in_order, split_withholding
from benefits.engine_adapter import membership_calculate
from benefits.imports import services as imports
from benefits.models import AccountTransaction, AuditEvent, Participant
from elections.claims import services as claims
from elections.models import ClaimState
from payments import services
from payments.models import InstructionFile, Payment, PaymentInstalment
from tests.elections.conftest import AS_OF, membership
from tests.elections.test_beneficiary_designations import _prime, approve
from tests.payments.clock import on_the_day

PAY_DATE = date(2026, 12, 1)


@pytest.fixture
def admin(demo):
    from accounts.models import User

    return User.objects.get(email="admin@demo.test")


@pytest.fixture
def single_pat(pat):
    Participant.objects.filter(user=pat).update(
        marital_status="single", spouse_name="", spouse_birth_date=None
    )
    return pat


def withdrawal(pat, committee, amount="5000"):
    claim = claims.claim_file(
        filer=pat,
        membership=membership(pat, "carver-401k"),
        claim_type="withdrawal_59half",
        details={"amount": Decimal(amount), "payment_date": PAY_DATE, "waive_30_days": True},
        on=AS_OF,
    )
    return approve(claim, committee)


def loan(pat, committee, amount="10000"):
    _prime()
    claim = claims.claim_file(
        filer=pat,
        membership=membership(pat, "carver-401k"),
        claim_type="loan",
        details={"amount": Decimal(amount), "term_months": 24, "principal_residence": False},
        on=AS_OF,
    )
    return approve(claim, committee)


def confirmation(rows) -> bytes:
    lines = ["payment,pay_date,status,date,reference,gross,reason"]
    lines += [",".join(str(x) for x in r) for r in rows]
    return ("\n".join(lines) + "\n").encode()


def confirm(admin, rows, name="confirm.csv"):
    """Imported on the day of its latest paid or returned date when that is ahead of today (tests.payments.clock)."""
    with on_the_day(r[3] for r in rows):
        return imports.import_run(
            kind="payment_confirmations",
            file_name=name,
            content=confirmation(rows),
            dry_run=False,
            valid_rows_only=False,
            actor=admin,
        )


# ------------------------------------------------------------------------------ the engine's split


def test_split_takes_the_groups_in_order_and_pro_rata_inside_a_group():
    # §7.3(a): Before-Tax first, then Rollover, then the Matching parts pro rata (A24).
    order = PaymentOrder((("before_tax",), ("rollover",), ("matching_pre2002", "matching_2002")), "§7.3(a)")
    available = {
        "before_tax": Decimal("3000"),
        "rollover": Decimal("1000"),
        "matching_pre2002": Decimal("1000"),
        "matching_2002": Decimal("3000"),
    }
    # $6,000: 3,000 + 1,000 from the first two groups; the last 2,000 split 1:3 → 500 and 1,500.
    assert split_in_order("6000", available, order) == {
        "before_tax": Decimal("3000.00"),
        "rollover": Decimal("1000.00"),
        "matching_pre2002": Decimal("500.00"),
        "matching_2002": Decimal("1500.00"),
    }
    # 20% of $6,000 withheld (Code §3405(c)(1)) = $1,200, in proportion to each source's part.
    assert split_withholding(split_in_order("6000", available, order), "1200") == {
        "before_tax": Decimal("600.00"),
        "rollover": Decimal("200.00"),
        "matching_pre2002": Decimal("100.00"),
        "matching_2002": Decimal("300.00"),
    }


# ------------------------------------------------------------------------------ the whole path


def test_a_withdrawal_reads_paid_only_after_the_agent_confirms_it_and_posts_by_source(
    single_pat, committee, admin
):
    claim = withdrawal(single_pat, committee)
    assert claim.state == ClaimState.PAYMENT_SCHEDULED
    assert claim.next_step == "Scheduled for December 1, 2026: Age 59½ withdrawal (401(k)), $5,000.00."
    payment = Payment.objects.get(claim=claim)
    assert payment.state == "scheduled" and payment.first_pay_date == PAY_DATE
    m = membership(single_pat, "carver-401k")
    before_tax = Decimal(
        membership_calculate(m, as_of=AS_OF)["account"]["by_source"]["before_tax"]["vested_balance"]
    )
    assert before_tax >= Decimal("5000")  # so §7.3(a) takes it all from the Before-Tax Account
    assert payment.posting == {"section": "Plan §7.3(a)", "sources": {"before_tax": "5000.00"}}

    files = services.instruction_export(pay_date=PAY_DATE, actor=admin)
    i = PaymentInstalment.objects.get(payment=payment)
    # 20% federal withholding on an eligible rollover distribution paid to the participant (§3405(c)(1)).
    assert (i.state, i.gross, i.withholding, i.net) == (
        "instructed",
        Decimal("5000.00"),
        Decimal("1000.00"),
        Decimal("4000.00"),
    )
    assert f"{payment.pk},{i.pk},2026-12-01," in files[0].content
    claim.refresh_from_db()
    assert claim.state == ClaimState.PAYMENT_SCHEDULED  # instructed is not paid

    batch, checked = confirm(admin, [(payment.pk, "2026-12-01", "paid", "2026-12-01", "AG-1", "5000.00", "")])
    assert batch.status == "applied", checked.errors
    claim.refresh_from_db()
    payment.refresh_from_db()
    i.refresh_from_db()
    assert claim.state == ClaimState.PAID and claim.next_step == "Paid on December 1, 2026."
    assert (payment.state, i.state, i.paid_on, i.agent_reference) == ("paid", "paid", PAY_DATE, "AG-1")
    lines = AccountTransaction.objects.filter(membership=m, memo__startswith=f"Payment {payment.pk},")
    assert sorted((t.source, t.kind, t.amount) for t in lines) == [
        ("before_tax", "withdrawal", Decimal("-4000.00")),  # paid to you
        ("before_tax", "withdrawal", Decimal("-1000.00")),  # federal income tax withheld, its own line
    ]
    after = Decimal(
        membership_calculate(m, as_of=PAY_DATE)["account"]["by_source"]["before_tax"]["vested_balance"]
    )
    assert after == before_tax - Decimal("5000.00")
    assert AuditEvent.objects.filter(event_type="claim.payment_confirmed").exists()
    changed = AuditEvent.objects.filter(event_type="payment.state_changed", extra_data__payment_id=payment.pk)
    assert {
        (e.extra_data["record"], e.extra_data["old_state"], e.extra_data["new_state"]) for e in changed
    } == {
        ("paymentinstalment", "instructed", "paid"),
        ("payment", "scheduled", "paid"),
    }

    # The same file again changes nothing (idempotent).
    again, checked = confirm(
        admin, [(payment.pk, "2026-12-01", "paid", "2026-12-01", "AG-1", "5000.00", "")], "again.csv"
    )
    assert again.status == "applied" and again.created == 0 and again.updated == 0
    assert lines.count() == 2


def test_a_loan_is_made_when_its_disbursement_is_confirmed_and_the_limit_moves(single_pat, committee, admin):
    claim = loan(single_pat, committee)
    assert claim.state == ClaimState.PAYMENT_SCHEDULED
    m = membership(single_pat, "carver-401k")
    before = Decimal(membership_calculate(m, as_of=PAY_DATE)["loan"]["maximum_new_loan"])
    payment = Payment.objects.get(claim=claim)
    assert payment.loan.principal == Decimal("10000.00") and payment.posting["section"] == "Plan §8.4(b)"
    services.instruction_export(pay_date=PAY_DATE, actor=admin)
    batch, checked = confirm(
        admin, [(payment.pk, "2026-12-01", "paid", "2026-12-01", "AG-L", "10000.00", "")]
    )
    assert batch.status == "applied", checked.errors
    claim.refresh_from_db()
    m.refresh_from_db()
    assert claim.state == ClaimState.LOAN_IN_EFFECT
    assert m.plan_data["loans"]["outstanding_balance"] == "10000.00"
    assert AccountTransaction.objects.filter(
        membership=m, kind="loan_issued", amount=Decimal("-10000.00")
    ).exists()
    # §8.2: the $50,000 cap is reduced by the highest outstanding balance of the last 12 months.
    after = Decimal(membership_calculate(m, as_of=PAY_DATE)["loan"]["maximum_new_loan"])
    assert after <= min(before, Decimal("50000.00") - Decimal("10000.00"))


def test_export_and_payments_due_are_idempotent(single_pat, committee, admin):
    claim = withdrawal(single_pat, committee)
    payment = Payment.objects.get(claim=claim)
    out1, out2 = StringIO(), StringIO()
    call_command("payments_due", "2026-12-01", "--json", stdout=out1)
    call_command("payments_due", "2026-12-01", "--json", stdout=out2)
    last = out1.getvalue().strip().splitlines()[-1]
    assert last == out2.getvalue().strip().splitlines()[-1]
    assert json.loads(last) == {
        "pay_date": "2026-12-01",
        "payments": [
            {
                "payment": payment.pk,
                "payee": payment.payee_name,
                "plan": payment.membership.plan.name,
                "kind": "single_sum",
                "gross": "5000.00",
                "withholding": "1000.00",
                "net": "4000.00",
                "method": "check",
                "state": "scheduled",
            }
        ],
    }
    first = services.instruction_content(services.instruction_export(pay_date=PAY_DATE, actor=admin))
    second = services.instruction_content(services.instruction_export(pay_date=PAY_DATE, actor=admin))
    assert first == second and InstructionFile.objects.filter(pay_date=PAY_DATE).count() == 1
    assert PaymentInstalment.objects.filter(payment=payment).count() == 1


def test_a_confirmation_file_with_one_bad_row_is_refused_whole(single_pat, committee, admin):
    w = Payment.objects.get(claim=withdrawal(single_pat, committee))
    services.instruction_export(pay_date=PAY_DATE, actor=admin)
    batch, checked = confirm(
        admin,
        [
            (w.pk, "2026-12-01", "paid", "2026-12-01", "AG-1", "5000.00", ""),
            (w.pk + 999, "2026-12-01", "paid", "2026-12-01", "AG-2", "10.00", ""),
        ],
    )
    assert batch.status == "previewed"
    assert [(p.row, p.column) for p in checked.errors] == [(3, "payment")]
    assert "no payment" in checked.errors[0].message
    assert PaymentInstalment.objects.get(payment=w).state == "instructed"  # nothing changed
    assert not AccountTransaction.objects.filter(memo__startswith=f"Payment {w.pk},").exists()
    # An amount that differs is named by its column.
    _, checked = confirm(admin, [(w.pk, "2026-12-01", "paid", "2026-12-01", "AG-1", "4999.99", "")], "b.csv")
    assert [(p.row, p.column) for p in checked.errors] == [(2, "gross")]
    # Paid, then "paid" again with another reference: refused.
    confirm(admin, [(w.pk, "2026-12-01", "paid", "2026-12-01", "AG-1", "5000.00", "")], "c.csv")
    _, checked = confirm(admin, [(w.pk, "2026-12-01", "paid", "2026-12-02", "AG-9", "5000.00", "")], "d.csv")
    assert [(p.row, p.column) for p in checked.errors] == [(2, "reference")]


def test_a_returned_payment_waits_for_a_new_bank_account(single_pat, committee, admin):
    claim = withdrawal(single_pat, committee)
    w = Payment.objects.get(claim=claim)
    services.instruction_export(pay_date=PAY_DATE, actor=admin)
    batch, checked = confirm(
        admin, [(w.pk, "2026-12-01", "returned", "2026-12-03", "AG-R", "5000.00", "account closed")]
    )
    assert batch.status == "applied", checked.errors
    w.refresh_from_db()
    claim.refresh_from_db()
    assert w.state == "returned" and claim.state == ClaimState.PAYMENT_SCHEDULED
    assert not services.instruction_export(pay_date=date(2027, 1, 1), actor=admin)  # not instructed again
    services.destination_correct(
        payment=w,
        user=single_pat,
        destination={
            "routing_number": "011000015",
            "account_number": "123456789",
            "account_type": "checking",
        },
        masked="Checking account ending 6789",
        on=date(2026, 12, 5),
    )
    files = services.instruction_export(pay_date=date(2027, 1, 1), actor=admin)
    assert len(files) == 1 and files[0].rows == 1 and ",123456789," in files[0].content
    assert AuditEvent.objects.filter(event_type="payment.destination_corrected").exists()


@pytest.mark.django_db(transaction=True)
def test_parallel_exports_instruct_each_payment_once(settings, tmp_path):
    settings.PRIVATE_STORAGE_ROOT = tmp_path
    call_command("load_demo", as_of=AS_OF)
    from accounts.models import User

    pat = User.objects.get(email="pat@demo.test")
    committee = User.objects.get(email="committee@demo.test")
    admin = User.objects.get(email="admin@demo.test")
    Participant.objects.filter(user=pat).update(
        marital_status="single", spouse_name="", spouse_birth_date=None
    )
    withdrawal(pat, committee)
    loan(pat, committee)
    barrier = threading.Barrier(4)
    errors = []

    def run():
        try:
            barrier.wait()
            services.instruction_export(pay_date=PAY_DATE, actor=admin)
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert InstructionFile.objects.filter(pay_date=PAY_DATE).count() == 1
    f = InstructionFile.objects.get(pay_date=PAY_DATE)
    assert f.rows == 2 and PaymentInstalment.objects.filter(pay_date=PAY_DATE).count() == 2


def test_a_db_benefit_in_pay_reads_in_pay_since_on_the_dashboard(pat, admin, client):
    m = membership(pat, "carver-db")
    p = Payment.objects.create(
        membership=m,
        participant=m.participant,
        payee_name="Pat Morgan",
        kind="annuity",
        frequency="monthly",
        gross=Decimal("1234.56"),
        first_pay_date=date(2027, 1, 1),
        method="direct_deposit",
        destination={
            "routing_number": "011000015",
            "account_number": "123456789",
            "account_type": "checking",
        },
        destination_masked="Checking account ending 6789",
        form_label="Single life annuity",
    )
    client.force_login(pat)
    page = client.get("/benefits/").content.decode()
    assert "Scheduled for January 1, 2027: Single life annuity, $1,234.56 a month." in page
    assert "In pay" not in page and "123456789" not in page
    services.instruction_export(pay_date=date(2027, 1, 1), actor=admin)
    batch, checked = confirm(admin, [(p.pk, "2027-01-01", "paid", "2027-01-01", "AG-DB", "1234.56", "")])
    assert batch.status == "applied", checked.errors
    page = client.get("/benefits/").content.decode()
    assert "In pay since January 1, 2027, $1,234.56 a month." in page
    assert f"/benefits/participants/{m.participant_id}/plans/carver-db/modeler/" not in page
    mine = client.get("/payments/").content.decode()
    assert "Checking account ending 6789" in mine and "$1,234.56" in mine and "123456789" not in mine
    # The next month's payment is due on February 1 (a stream): made due once, however often it is asked.
    assert services.instalments_make_due(date(2027, 2, 1)) == 1
    assert services.instalments_make_due(date(2027, 2, 1)) == 0


def test_paid_needs_the_agents_date_and_reference_in_the_database(single_pat, committee, admin):
    from django.db import IntegrityError, transaction

    w = Payment.objects.get(claim=withdrawal(single_pat, committee))
    services.instruction_export(pay_date=PAY_DATE, actor=admin)
    with pytest.raises(IntegrityError), transaction.atomic():
        PaymentInstalment.objects.filter(payment=w).update(state="paid")  # no paid date, no reference
    with pytest.raises(IntegrityError), transaction.atomic():  # a second instalment on the same pay date
        PaymentInstalment.objects.create(payment=w, pay_date=PAY_DATE, gross=w.gross, net=w.gross)


def test_rolling_back_a_confirmation_unposts_it_and_the_statement_follows(
    single_pat, committee, admin, client
):
    claim = loan(single_pat, committee)
    p = Payment.objects.get(claim=claim)
    m = membership(single_pat, "carver-401k")
    services.instruction_export(pay_date=PAY_DATE, actor=admin)
    batch, _ = confirm(admin, [(p.pk, "2026-12-01", "paid", "2026-12-01", "AG-L", "10000.00", "")])
    client.force_login(single_pat)
    url = f"/benefits/participants/{m.participant_id}/plans/carver-401k/statement/"
    page = client.get(url).content.decode()
    assert "Loan outstanding: $10,000.00" in page
    imports.import_rollback(batch=batch, actor=admin)
    claim.refresh_from_db()
    p.refresh_from_db()
    m.refresh_from_db()
    assert claim.state == ClaimState.PAYMENT_SCHEDULED and claim.next_step.startswith(
        "Scheduled for December 1, 2026"
    )
    assert p.state == "scheduled" and p.instalments.get().state == "instructed"
    assert not AccountTransaction.objects.filter(memo__startswith=f"Payment {p.pk},").exists()
    assert AuditEvent.objects.filter(event_type="claim.payment_unconfirmed").exists()


def test_the_participant_gets_the_payments_as_a_pdf(single_pat, committee, admin, client):
    from django.test import TestCase

    from benefits.models import GeneratedDocument

    withdrawal(single_pat, committee)
    client.force_login(single_pat)
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert client.post("/payments/pdf/").status_code == 302
    doc = GeneratedDocument.objects.get(kind="payments", participant__user=single_pat)
    assert doc.status == "done", doc.error
    assert doc.payload["next"] == {
        "date": "December 1, 2026",
        "gross": "$5,000.00",
        "what": "Age 59½ withdrawal (401(k))",
    }


def test_a_payment_listed_by_name_says_its_date_and_amount_once(single_pat, committee, client):
    """The payments page and the dashboard list each payment as "plan, form: status": the status does
    not name the form again ("Age 59½ withdrawal (401(k)): Scheduled for …: Age 59½ withdrawal …")."""
    withdrawal(single_pat, committee)
    client.force_login(single_pat)
    line = "Age 59½ withdrawal (401(k)): Scheduled for December 1, 2026: $5,000.00."
    for url in ("/payments/", "/benefits/"):
        page = client.get(url).content.decode()
        assert line in page, url
        assert "(401(k)): Scheduled for December 1, 2026: Age 59½ withdrawal" not in page, url
