"""Form 1099-R from confirmed paid instalments: boxes, codes, totals, exactly-once issuance, corrections,
the payer file and the command (2026 Instructions for Forms 1099-R and 5498)."""

from __future__ import annotations

import csv
import io
import json
import random
import threading
from datetime import date
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.db import connection

from benefits.models import AuditEvent, GeneratedDocument
from taxes.models import Form1099R
from taxes.services import forms_issue, instalment_withholding
from tests.factories import MembershipFactory, ParticipantFactory, PlanFactory
from tests.taxes.helpers import make_payment, pay

D = Decimal


@pytest.fixture
def k401(db):
    return PlanFactory(key="carver-401k", name="Carver 401(k) Savings Plan", kind="401k")


def member(plan, **kw):
    return MembershipFactory(plan=plan, participant=ParticipantFactory(**kw))


def test_withholding_stored_on_the_instalment(k401):
    m = member(k401, birth_date=date(1960, 1, 1))
    lump = make_payment(m, withholding={"form": "W-4R", "w4r_rate": "25"})
    amount, basis = instalment_withholding(lump, gross=lump.gross, pay_date=date(2026, 3, 2))
    assert amount == D("2500.00") and basis["form"] == "W-4R"  # the payee's 25% (at least 20%, §3405(c))
    roll = make_payment(m, method="direct_rollover", first=date(2026, 4, 1))
    assert instalment_withholding(roll, gross=roll.gross, pay_date=date(2026, 4, 1))[0] == D("0")
    loan = make_payment(m, kind="loan_disbursement", first=date(2026, 5, 1))
    assert instalment_withholding(loan, gross=loan.gross, pay_date=date(2026, 5, 1))[0] == D("0")


def test_one_form_per_payee_and_code_with_the_right_boxes(k401):
    # Born June 1, 1970: under 59½ all of 2026; left in 2024 at 54 → no age-55 exception → code 1.
    young = member(k401, birth_date=date(1970, 6, 1), termination_date=date(2024, 3, 1))
    p1 = make_payment(young)  # $10,000 paid to the participant, 20% withheld
    pay(p1, date(2026, 3, 2))
    split = make_payment(
        young, method="split", destination={"rollover_amount": "6000.00"}, first=date(2026, 9, 1)
    )
    pay(split, date(2026, 9, 1))  # $6,000 rolled over (G), $4,000 paid with $800 withheld (1)
    report = forms_issue(2026, on=date(2027, 1, 15))
    assert report.as_json() == {"issued": 2, "already_issued": 0, "failed": []}
    forms = {f.code: f for f in Form1099R.objects.filter(participant=young.participant)}
    assert (forms["1"].gross, forms["1"].taxable, forms["1"].withheld) == (
        D("14000.00"),
        D("14000.00"),
        D("2800.00"),
    )
    assert (forms["G"].gross, forms["G"].taxable, forms["G"].withheld) == (D("6000.00"), D("0.00"), D("0.00"))
    assert AuditEvent.objects.filter(event_type="tax_form.issued").count() == 2
    assert GeneratedDocument.objects.filter(kind="form_1099r", participant=young.participant).count() == 2


def test_not_paid_and_other_years_are_left_out(k401):
    m = member(k401, birth_date=date(1950, 1, 1))
    p = make_payment(
        m, kind="installments", frequency="monthly", number=24, gross="1000.00", first=date(2025, 12, 1)
    )
    pay(p, date(2025, 12, 1))
    pay(p, date(2026, 1, 2), sequence=2)
    pay(p, date(2026, 2, 2), sequence=3, state="instructed")  # sent, not confirmed: not paid
    forms_issue(2026)
    (form,) = Form1099R.objects.filter(year=2026)
    assert (form.code, form.gross, form.withheld) == (
        "7",
        D("1000.00"),
        D("200.00"),
    )  # 24 months < 10 years: ERD


def test_reversal_gives_a_corrected_form(k401):
    m = member(k401, birth_date=date(1950, 1, 1))
    p = make_payment(m, gross="5000.00")
    inst = pay(p, date(2026, 5, 1))
    other = make_payment(m, gross="1000.00", first=date(2026, 6, 1))
    pay(other, date(2026, 6, 1))
    forms_issue(2026)
    assert Form1099R.objects.get(year=2026).gross == D("6000.00")
    inst.state, inst.returned_on = "returned", date(2026, 5, 20)
    inst.save()
    report = forms_issue(2026)
    assert report.issued == 1 and len(report.corrected) == 1
    v2 = Form1099R.objects.get(year=2026, version=2)
    assert v2.corrected and (v2.gross, v2.withheld) == (D("1000.00"), D("200.00"))
    assert AuditEvent.objects.filter(event_type="tax_form.corrected").count() == 1
    assert forms_issue(2026).as_json() == {"issued": 0, "already_issued": 1, "failed": []}


def test_totals_equal_the_years_posted_payments(k401):
    """A generated population: the forms' boxes 1 and 4 equal the year's confirmed paid instalments."""
    rng = random.Random(27)
    plans = [
        k401,
        PlanFactory(key="quaker-cash-balance", name="Quaker City Cash Balance Plan", kind="cash_balance"),
    ]
    for i in range(40):
        m = member(
            plans[i % 2],
            birth_date=date(rng.randint(1950, 1985), rng.randint(1, 12), 1),
            termination_date=rng.choice([None, date(2020, 6, 30), date(2025, 12, 31)]),
        )
        for j in range(rng.randint(1, 3)):
            method = rng.choice(["direct_deposit", "direct_rollover", "split"])
            gross = D(rng.randint(1000, 90000)) + D("0.37")
            dest = {"rollover_amount": str((gross / 3).quantize(D("0.01")))} if method == "split" else {}
            p = make_payment(
                m,
                gross=str(gross),
                method=method,
                destination=dest,
                first=date(2026, 1 + j * 4, 2),
                withholding={"form": "W-4R", "w4r_rate": str(rng.choice([20, 25, 30]))},
            )
            pay(p, p.first_pay_date, state=rng.choice(["paid", "paid", "paid", "returned"]))
        if i % 5 == 0:
            # An annuity in pay from March with a full Form W-4P (Steps 2 to 4; Pub. 15-T (2026) Worksheet 1B).
            w4p = {
                "form": "W-4P",
                "w4p": rng.choice(["single", "married", "head_of_household"]),
                "w4p_step2_jobs": str(rng.choice([0, 25000])),
                "w4p_step3": str(rng.choice([0, 2000])),
                "w4p_step4a": "1200.00",
                "w4p_step4b": "0",
                "w4p_extra": "15.00",
            }
            a = make_payment(
                m,
                kind="annuity",
                frequency="monthly",
                gross=str(D(rng.randint(800, 4000)) + D("0.25")),
                first=date(2026, 3, 1),
                withholding=w4p,
            )
            for k, month in enumerate(range(3, 13)):
                pay(a, date(2026, month, 1), sequence=k + 1)
    out = io.StringIO()
    call_command("forms_1099r", "2026", "--json", stdout=out)
    report = json.loads(out.getvalue().strip().splitlines()[-1])
    assert report["failed"] == []
    from payments.models import PaymentInstalment

    paid = PaymentInstalment.objects.filter(state="paid", paid_on__year=2026).select_related("payment")
    forms = Form1099R.objects.filter(year=2026)
    assert sum(f.gross for f in forms) == sum(i.gross for i in paid)
    assert sum(f.withheld for f in forms) == sum(i.withholding for i in paid)
    # Per payee: box 1 and box 4 equal that payee's confirmed paid instalments of the year.
    posted: dict[tuple, list[D]] = {}
    for i in paid:
        key = (i.payment.membership.plan_id, i.payment.participant_id, i.payment.payee_name)
        b = posted.setdefault(key, [D("0"), D("0")])
        b[0] += i.gross
        b[1] += i.withholding
    reported: dict[tuple, list[D]] = {}
    for f in forms:
        b = reported.setdefault((f.plan_id, f.participant_id, f.payee_name), [D("0"), D("0")])
        b[0] += f.gross
        b[1] += f.withheld
    assert reported == posted
    # One form per payee, plan and code.
    keys = [(f.plan_id, f.participant_id, f.payee_name, f.code) for f in forms]
    assert len(keys) == len(set(keys)) == report["issued"]


def test_command_issues_once_and_writes_the_payer_file(k401, tmp_path):
    m = member(k401, birth_date=date(1950, 1, 1))
    pay(make_payment(m), date(2026, 3, 2))
    out = io.StringIO()
    path = tmp_path / "payer.csv"
    call_command("forms_1099r", "2026", "--json", "--csv", str(path), stdout=out)
    assert json.loads(out.getvalue().strip().splitlines()[-1]) == {
        "issued": 1,
        "already_issued": 0,
        "failed": [],
    }
    out = io.StringIO()
    call_command("forms_1099r", "2026", "--json", stdout=out)
    assert json.loads(out.getvalue().strip().splitlines()[-1]) == {
        "issued": 0,
        "already_issued": 1,
        "failed": [],
    }
    (row,) = list(csv.DictReader(path.open()))
    assert (
        row["box_1_gross_distribution"],
        row["box_4_federal_income_tax_withheld"],
        row["box_7_distribution_codes"],
    ) == (
        "10000.00",
        "2000.00",
        "7",
    )
    assert row["box_2a_taxable_amount"] == "10000.00" and row["box_5_employee_contributions"] == "0.00"


@pytest.mark.django_db(transaction=True)
def test_two_runs_at_once_issue_each_form_once():
    plan = PlanFactory(key="carver-401k", name="Carver 401(k) Savings Plan", kind="401k")
    for _ in range(6):
        m = member(plan, birth_date=date(1950, 1, 1))
        pay(make_payment(m), date(2026, 3, 2))
    reports = []
    barrier = threading.Barrier(2)

    def run():
        try:
            barrier.wait()
            reports.append(forms_issue(2026))
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert Form1099R.objects.filter(year=2026).count() == 6
    assert sum(r.issued for r in reports) == 6
    assert sum(r.issued + r.already_issued for r in reports) == 12


def test_recipient_copy_is_rendered_and_listed_on_the_documents_page(k401, client, settings, tmp_path):
    from django.test import TestCase
    from django.urls import reverse

    from tests.factories import UserFactory

    settings.PRIVATE_STORAGE_ROOT = tmp_path
    m = member(k401, birth_date=date(1950, 1, 1))
    pay(make_payment(m, method="direct_rollover"), date(2026, 3, 2))
    with TestCase.captureOnCommitCallbacks(execute=True):
        forms_issue(2026)
    form = Form1099R.objects.get()
    doc = GeneratedDocument.objects.get(pk=form.document_id)
    assert doc.status == "done" and doc.payload["box_7"] == "G" and doc.payload["box_2a"] == "$0.00"
    user = UserFactory()
    m.participant.user = user
    m.participant.save(update_fields=["user"])
    client.force_login(user)
    page = client.get(reverse("elections:documents", args=[m.participant.pk])).content.decode()
    assert "Form 1099-R for 2026" in page
