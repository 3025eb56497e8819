"""A confirmation cannot say a payment was paid (or returned) before that day has come: "paid" only once
it happened (the guide's rule), so the paying agent's file is refused for a date after today, naming the
row, the column and the rule; today itself is accepted."""

from __future__ import annotations

import pytest

from benefits.imports import services as imports
from benefits.models import AccountTransaction
from payments import services
from payments.models import Payment, PaymentInstalment
from tests.payments.test_payments import PAY_DATE, admin, confirmation, single_pat, withdrawal  # noqa: F401

pytestmark = pytest.mark.django_db

TODAY = "2026-12-01 12:00:00"  # noon in the plan's time zone on the pay date (America/New_York)


def imported(actor, rows, name):
    return imports.import_run(
        kind="payment_confirmations",
        file_name=name,
        content=confirmation(rows),
        dry_run=False,
        valid_rows_only=False,
        actor=actor,
    )


@pytest.fixture
def instructed(single_pat, committee, admin):  # noqa: F811
    w = Payment.objects.get(claim=withdrawal(single_pat, committee))
    services.instruction_export(pay_date=PAY_DATE, actor=admin)
    return w


def test_a_paid_date_of_tomorrow_is_refused_and_today_is_accepted(instructed, admin, time_machine):  # noqa: F811
    w = instructed
    time_machine.move_to(f"{TODAY}-05:00", tick=True)  # December 1, 2026 is today

    batch, checked = imported(
        admin, [(w.pk, "2026-12-01", "paid", "2026-12-02", "AG-1", "5000.00", "")], "a.csv"
    )
    assert batch.status == "previewed"  # refused whole
    assert [(p.row, p.column, p.message) for p in checked.errors] == [
        (
            2,
            "date",
            "date: a payment cannot be confirmed paid on a date after today "
            "(December 2, 2026 is after December 1, 2026).",
        )
    ]
    assert PaymentInstalment.objects.get(payment=w).state == "instructed"  # nothing changed
    assert not AccountTransaction.objects.filter(memo__startswith=f"Payment {w.pk},").exists()

    batch, checked = imported(
        admin, [(w.pk, "2026-12-01", "paid", "2026-12-01", "AG-1", "5000.00", "")], "b.csv"
    )
    assert batch.status == "applied", checked.errors
    i = PaymentInstalment.objects.get(payment=w)
    assert (i.state, i.paid_on) == ("paid", PAY_DATE)


def test_a_returned_date_of_tomorrow_is_refused_and_today_is_accepted(instructed, admin, time_machine):  # noqa: F811
    w = instructed
    time_machine.move_to(f"{TODAY}-05:00", tick=True)
    row = (w.pk, "2026-12-01", "returned", "2026-12-02", "AG-R", "5000.00", "account closed")

    batch, checked = imported(admin, [row], "r1.csv")
    assert batch.status == "previewed"
    assert [(p.row, p.column, p.message) for p in checked.errors] == [
        (
            2,
            "date",
            "date: a payment cannot be confirmed returned on a date after today "
            "(December 2, 2026 is after December 1, 2026).",
        )
    ]

    batch, checked = imported(admin, [row[:3] + ("2026-12-01",) + row[4:]], "r2.csv")
    assert batch.status == "applied", checked.errors
    i = PaymentInstalment.objects.get(payment=w)
    assert (i.state, i.returned_on) == ("returned", PAY_DATE)


def test_a_paid_date_next_year_is_refused_with_both_dates_in_words(instructed, admin, time_machine):  # noqa: F811
    w = instructed
    time_machine.move_to(f"{TODAY}-05:00", tick=True)
    rows = [(w.pk, "2026-12-01", "paid", "2027-01-01", "AG-1", "5000.00", "")]
    batch, checked = imported(admin, rows, "c.csv")
    assert batch.status == "previewed"
    assert [(p.row, p.column) for p in checked.errors] == [(2, "date")]
    assert "(January 1, 2027 is after December 1, 2026)" in checked.errors[0].message
    assert PaymentInstalment.objects.get(payment=w).state == "instructed"
