"""The ESOP diversification transfer posted to the books (issue 22, item 5), from Fairport ESOP §6.4.

Sam (demo FSB-40001) is in the last year of his qualified election period: the 2026 window runs from
January 1, 2026 to March 31, 2027 (§6.4: the plan year and the 90 days after it), and "the Plan must
complete diversification ... within 90 days after the end of the period during which the election
could be made": by June 29, 2027. He elects 100 of his 3,150 shares. The Committee's method is §6.4-2
(other investment options inside the plan): the first pay date after the window closes, April 1, 2027,
the 100 shares leave the Stock Fund Account and their value at the plan's share value, 100 × $11.40 =
$1,140.00, goes to the Investment Fund Account (cash $845.20 + $1,140.00 = $1,985.20).
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction

from accounts.models import User
from benefits.engine_adapter import membership_calculate
from benefits.models import AccountTransaction
from benefits.presenters.account_statements import period_statement
from benefits.statement_inputs import Period, period_figures
from elections.account_elections import services as elections
from payments import services
from payments.diversification import transfers_schedule
from payments.models import Payment
from tests.elections.conftest import AS_OF, membership
from tests.payments import test_payments as tp
from tests.payments.test_payments import confirm

pytestmark = pytest.mark.django_db
admin = tp.admin
TRANSFER_DAY = date(2027, 4, 1)


@pytest.fixture
def sam(demo):
    return User.objects.get(email="sam@demo.test")


def test_the_elected_shares_move_out_of_employer_stock_once_confirmed(sam, admin):
    esop = membership(sam, "fairport-esop")
    election = elections.diversification_elect(user=sam, membership=esop, shares="100", on=AS_OF)
    assert election.complete_by == date(2027, 6, 29)
    # Before the window closes nothing is scheduled: the election may still be replaced.
    assert transfers_schedule(date(2027, 3, 1)) == 0
    services.instruction_export(pay_date=TRANSFER_DAY, actor=admin)
    payment = Payment.objects.get(kind="transfer", membership=esop)
    assert (payment.first_pay_date, payment.gross, payment.method) == (
        TRANSFER_DAY,
        Decimal("1140.00"),
        "internal",
    )
    assert payment.first_pay_date <= election.complete_by
    i = payment.instalments.get()
    assert (i.state, i.withholding) == ("instructed", Decimal("0.00"))  # nothing paid out, nothing withheld
    assert (
        AccountTransaction.objects.filter(membership=esop, kind="transfer").count() == 0
    )  # not before confirmed

    # One live transfer per election is a database rule; the run again adds nothing.
    assert transfers_schedule(date(2027, 5, 1)) == 0
    with pytest.raises(IntegrityError), transaction.atomic():
        Payment.objects.create(
            **{
                f.attname: getattr(payment, f.attname)
                for f in Payment._meta.concrete_fields
                if f.attname not in ("id", "created_at")
            }
        )

    batch, checked = confirm(admin, [(payment.pk, "2027-04-01", "paid", "2027-04-01", "TR-1", "1140.00", "")])
    assert batch.status == "applied", checked.errors
    out_of_stock = AccountTransaction.objects.get(membership=esop, kind="transfer", source="stock_fund")
    into_fund = AccountTransaction.objects.get(membership=esop, kind="transfer", source="investment_fund")
    assert (out_of_stock.shares, out_of_stock.amount) == (Decimal("-100.0000"), Decimal("-1140.00"))
    assert into_fund.amount == Decimal("1140.00")
    esop.refresh_from_db()
    assert esop.plan_data["shares"] == "3050.0000" and esop.plan_data["cash"] == "1985.20"
    payment.refresh_from_db()
    assert payment.state == "paid"

    # The engine reads the moved account: 3,050 shares × $11.40 = $34,770.00 in stock.
    by_source = membership_calculate(esop, as_of=TRANSFER_DAY)["account"]["by_source"]
    assert by_source["stock_fund"]["balance"] == "34770.00"
    assert by_source["investment_fund"]["balance"] == "1985.20"

    # Imported again: nothing moves twice.
    confirm(
        admin, [(payment.pk, "2027-04-01", "paid", "2027-04-01", "TR-1", "1140.00", "")], name="again.csv"
    )
    assert AccountTransaction.objects.filter(membership=esop, kind="transfer").count() == 2


def test_the_statement_shows_the_diversification(sam, admin):
    esop = membership(sam, "fairport-esop")
    elections.diversification_elect(user=sam, membership=esop, shares="100", on=AS_OF)
    services.instruction_export(pay_date=TRANSFER_DAY, actor=admin)
    payment = Payment.objects.get(kind="transfer", membership=esop)
    confirm(admin, [(payment.pk, "2027-04-01", "paid", "2027-04-01", "TR-1", "1140.00", "")])
    st = period_statement(period_figures(esop, Period(date(2027, 1, 1), date(2027, 4, 30))))
    step = next(t for t in st["trace"] if t["rule"] == "Diversification in the period")
    # 100 shares out of stock, $1,140.00 into other investments: the account's value does not change.
    assert dict(step["inputs"]) == {"shares": "-100", "cash": "$1,140.00"} and step["result"] == "$0.00"
    assert st["checks"] == [] and st["closing"] == "36755.20"  # 3,150 × $11.40 + $845.20
