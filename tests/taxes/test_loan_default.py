"""A loan not repaid (Code §72(p); Treas. Reg. §1.72(p)-1 Q&A-10; §402(c)(3)(C)) and the plan's default
rule (Carver 401(k) §8.6(a): in default 90 days after the missed payment, capped at the end of the next
calendar quarter (SPEC assumption A20); §8.6(b): foreclosed at Termination of Service while employed,
immediately otherwise). Worked example (tests/taxes/helpers.make_loan_in_arrears): $10,000 lent on
January 2, 2026; $1,000 of principal repaid on February 1 and March 1; the April 1 repayment missed.
Default date: April 1 + 90 days = June 30, 2026 (before the cap, September 30, the end of the quarter
after April–June). Outstanding on June 30: principal $10,000 − $2,000 = $8,000; accrued and unpaid
interest of the payments due April 1, May 1 and June 1: $40 + $35 + $30 = $105 (0.5% a month on
$8,000, $7,000, $6,000); in all $8,105.00 (Q&A-10: the whole outstanding balance, interest included)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from accounts.models import User
from benefits.models import AccountTransaction, AuditEvent
from taxes.loans import LoanRefused, first_missed, loan_default_declare
from taxes.models import Form1099R, LoanDistribution
from taxes.services import forms_issue
from tests.conftest import PASSWORD
from tests.factories import MembershipFactory, ParticipantFactory, PlanFactory
from tests.taxes.helpers import make_loan_in_arrears

D = Decimal
JUNE_30 = date(2026, 6, 30)


@pytest.fixture
def k401(db):
    return PlanFactory(key="carver-401k", name="Carver 401(k) Savings Plan", kind="401k")


@pytest.fixture
def admin(admin_user):
    return admin_user


def member(plan, **kw):
    return MembershipFactory(plan=plan, participant=ParticipantFactory(**kw))


def test_employed_borrower_deemed_distribution_code_1L(k401, admin):
    m = member(k401, birth_date=date(1980, 5, 1), termination_date=None)
    loan = make_loan_in_arrears(m)
    assert first_missed(loan, JUNE_30) == date(2026, 4, 1)
    with pytest.raises(LoanRefused, match="June 30, 2026"):
        loan_default_declare(loan=loan, missed_due=date(2026, 4, 1), actor=admin, on=date(2026, 6, 29))
    row = loan_default_declare(loan=loan, missed_due=date(2026, 4, 1), actor=admin, on=JUNE_30)
    assert (row.kind, row.on, row.principal, row.interest, row.amount) == (
        "deemed_distribution",
        JUNE_30,
        D("8000.00"),
        D("105.00"),
        D("8105.00"),
    )
    # Nothing leaves the accounts: the loan stays in the Loan Account (Q&A-11).
    assert not AccountTransaction.objects.filter(
        membership=m, kind__in=("loan_offset", "distribution")
    ).exists()
    assert AuditEvent.objects.filter(event_type="loan.deemed_distributed", acting_user=admin).count() == 1
    # Once per loan.
    with pytest.raises(LoanRefused):
        loan_default_declare(loan=loan, missed_due=date(2026, 4, 1), actor=admin, on=JUNE_30)
    assert LoanDistribution.objects.count() == 1
    # Form 1099-R 2026: code L with 1 (under 59½, no exception known; 2026 Instructions for Forms 1099-R
    # and 5498, box 7); box 1 and 2a the deemed amount; nothing withheld (no cash, Code §3405(e)(8)).
    forms_issue(2026, on=date(2027, 1, 5))
    form = Form1099R.objects.get(participant=m.participant, year=2026)
    assert (form.code, form.gross, form.taxable, form.withheld) == (
        "1L",
        D("8105.00"),
        D("8105.00"),
        D("0.00"),
    )


def test_borrower_who_left_has_a_qualified_loan_offset_code_2M(k401, admin):
    # Born 1970: 55 in 2025; left May 15, 2026 (in or after the year of 55: code 2), the default June 30,
    # 2026 is within 12 months of leaving: a qualified plan loan offset (§402(c)(3)(C)): 2M.
    m = member(k401, birth_date=date(1970, 5, 1), termination_date=date(2026, 5, 15))
    loan = make_loan_in_arrears(m)
    row = loan_default_declare(loan=loan, missed_due=date(2026, 4, 1), actor=admin, on=date(2026, 7, 1))
    assert (row.kind, row.qualified_offset, row.amount) == ("loan_offset", True, D("8105.00"))
    # The Loan Account's $8,000 principal is applied back to the source and distributed: the balance nets
    # to zero and the outstanding loan is gone. The $105 of accrued interest is cancelled with the note and
    # reported (box 1 $8,105.00), but the books never held it.
    moves = {t.kind: t.amount for t in AccountTransaction.objects.filter(membership=m, date=JUNE_30)}
    assert moves == {"loan_offset": D("8000.00"), "distribution": D("-8000.00")}
    m.refresh_from_db()
    assert m.plan_data["loans"]["outstanding_balance"] == "0.00"
    assert AuditEvent.objects.filter(event_type="loan.offset").count() == 1
    forms_issue(2026, on=date(2027, 1, 5))
    form = Form1099R.objects.get(participant=m.participant, year=2026)
    assert (form.code, form.gross, form.withheld) == ("2M", D("8105.00"), D("0.00"))


def test_offset_more_than_12_months_after_leaving_is_not_qualified(k401, admin):
    # Left January 31, 2025, born 1980 (no age-55 exception): offset on June 30, 2026 → code 1, no M.
    m = member(k401, birth_date=date(1980, 5, 1), termination_date=date(2025, 1, 31))
    loan = make_loan_in_arrears(m)
    row = loan_default_declare(loan=loan, missed_due=date(2026, 4, 1), actor=admin, on=JUNE_30)
    assert (row.kind, row.qualified_offset) == ("loan_offset", False)
    forms_issue(2026, on=date(2027, 1, 5))
    assert Form1099R.objects.get(participant=m.participant, year=2026).code == "1"


def test_only_an_administrator_and_only_a_missed_payment(k401, admin):
    m = member(k401, birth_date=date(1980, 5, 1))
    loan = make_loan_in_arrears(m)
    clerk = User.objects.create_user(email="p@loans.test", password=PASSWORD, role=User.Role.PARTICIPANT)
    with pytest.raises(PermissionDenied):
        loan_default_declare(loan=loan, missed_due=date(2026, 4, 1), actor=clerk, on=JUNE_30)
    with pytest.raises(LoanRefused, match="has been made"):
        loan_default_declare(loan=loan, missed_due=date(2026, 3, 1), actor=admin, on=JUNE_30)
    with pytest.raises(LoanRefused, match="not one of"):
        loan_default_declare(loan=loan, missed_due=date(2026, 4, 2), actor=admin, on=JUNE_30)
    assert (
        not LoanDistribution.objects.exists()
        and not AuditEvent.objects.filter(event_type__startswith="loan.").exists()
    )


def test_staff_page_lists_and_declares(k401, admin, staff_client):
    m = member(k401, birth_date=date(1980, 5, 1))
    loan = make_loan_in_arrears(m)
    client = staff_client(admin)
    page = client.get(reverse("taxes:loans_in_arrears"))
    assert page.status_code == 200
    assert "April 1, 2026" in page.content.decode() and "June 30, 2026" in page.content.decode()
    r = client.post(reverse("taxes:loan_default", args=[loan.pk]))
    assert r.status_code == 302
    assert LoanDistribution.objects.get(loan=loan).amount == D("8105.00")
