"""A loan offset on the account statement: the Loan Account's principal comes back to the source and
leaves as a distribution (taxes.loans; AccountTransaction kind ``loan_offset``) — the statement still
adds up and the loan closes at zero."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.core.management import call_command

from benefits.models import AccountTransaction, PlanMembership
from benefits.presenters.statements import statement_payload
from benefits.services import today
from benefits.statement_inputs import statement_figures


@pytest.fixture
def demo(db, settings, tmp_path):
    settings.PRIVATE_STORAGE_ROOT = tmp_path
    call_command("load_demo", verbosity=0)


def test_offset_closes_the_loan_on_the_statement(demo):
    grace = PlanMembership.objects.get(participant__participant_number="CFS-10007", plan__key="carver-401k")
    outstanding = Decimal(grace.plan_data["loans"]["outstanding_balance"])
    assert outstanding > 0
    issued = grace.transactions.get(kind="loan_issued")
    on = max(t.date for t in grace.transactions.all()) + timedelta(days=1)
    on = min(on, today())
    for kind, amount in (("loan_offset", outstanding), ("distribution", -outstanding)):
        AccountTransaction.objects.create(
            membership=grace, source=issued.source, date=on, kind=kind, amount=amount, memo="loan offset"
        )
    a = statement_payload(statement_figures(grace, today=today(), period_data={"year": str(on.year)}))[
        "activity"
    ]
    # The loan closes at zero (the payload leaves the loan out when it opens and closes at zero).
    assert (a["loan"] or {"closing": "0.00"})["closing"] == "0.00"
    # The source is unchanged by the offset: back in, then out.
    assert a["closing"] == statement_closing_without(grace, on)


def statement_closing_without(m, on: date) -> str:
    AccountTransaction.objects.filter(membership=m, date=on, memo="loan offset").delete()
    return statement_payload(statement_figures(m, today=today(), period_data={"year": str(on.year)}))[
        "activity"
    ]["closing"]
