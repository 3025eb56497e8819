"""A cash balance single sum closes the account (issue 22, item 5; item 3 of this task).

Quaker City plan §4.5(a): "Upon the payment or commencement of distribution of a Participant's or Former
Participant's Benefit ... such Participant's ... Cash Balance Account shall be debited with the balance of
such Cash Balance Account as of the Annuity Starting Date of the Benefit paid or distributed ... and
reduced to zero." §5.11(a)(iv): the lump sum is paid on the Annuity Starting Date elected.

The demo's QCB-20001 left in 2014 with a vested account of $42,257.07 on November 21, 2026 (no credit
posts between November 1 and the December 31 Interest Credit, §4.4, so that is also the balance on
November 1, 2026). Paid in full on the ASD November 1, 2026, the account is debited $42,257.07 that day
and shows $0.00 from then on: on the statement, in the engine's account and in what the modeler reads.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from benefits.engine_adapter import membership_calculate
from benefits.imports import services as imports
from benefits.models import PlanMembership
from benefits.presenters.statements import statement_payload
from benefits.statement_inputs import statement_figures
from payments.models import InstructionFile, Payment, PaymentInstalment
from tests.elections.conftest import AS_OF
from tests.payments.test_payments import admin, confirm  # noqa: F401 - the demo's administrator

ASD = date(2026, 11, 1)
BALANCE = Decimal("42257.07")


def _instructed_single_sum(m) -> Payment:
    p = Payment.objects.create(
        membership=m,
        participant=m.participant,
        payee_name=m.participant.full_name,
        kind="single_sum",
        frequency="once",
        number_of_payments=1,
        gross=BALANCE,
        first_pay_date=ASD,
        method="direct_rollover",
        form="lump_sum",
        form_label="Lump sum",
    )
    f = InstructionFile.objects.create(
        pay_date=ASD, sequence=1, content="(test)", sha256="0" * 64, rows=1, total_gross=BALANCE
    )
    PaymentInstalment.objects.create(
        payment=p, pay_date=ASD, gross=BALANCE, net=BALANCE, state="instructed", instruction_file=f
    )
    return p


def test_a_confirmed_cash_balance_lump_sum_closes_the_account(admin):  # noqa: F811
    m = PlanMembership.objects.get(
        participant__participant_number="QCB-20001", plan__key="quaker-cash-balance"
    )
    before = membership_calculate(m, as_of=AS_OF)["account"]
    assert Decimal(before["balance"]) == BALANCE == Decimal(before["vested_balance"])
    p = _instructed_single_sum(m)
    batch, checked = confirm(
        admin, [(p.pk, ASD.isoformat(), "paid", ASD.isoformat(), "AG-CB-1", BALANCE, "")]
    )
    assert batch.status == "applied", checked.errors
    m.refresh_from_db()
    assert m.plan_data["distributed_on"] == "2026-11-01"
    after = membership_calculate(m, as_of=AS_OF)["account"]
    assert Decimal(after["balance"]) == Decimal("0.00") and Decimal(after["vested_balance"]) == Decimal(
        "0.00"
    )
    # The 2026 statement: the year's credits, then the §4.5 debit of the whole balance on the ASD.
    st = statement_payload(statement_figures(m, today=AS_OF, year=2026))["ledger"]
    assert st["closing"] in ("0.00", "$0.00")
    [debit] = [e for e in st["entries"] if e["kind"] == "distribution"]
    assert debit["date"] == "2026-11-01" and debit["section"] == "§4.5"
    assert Decimal(debit["amount"].replace("$", "").replace(",", "")) == -BALANCE
    # Nothing more accrues after the account closed: a year later it is still zero.
    assert Decimal(membership_calculate(m, as_of=date(2027, 12, 31))["account"]["balance"]) == Decimal("0.00")


def test_rolling_back_the_confirmation_reopens_the_account(admin):  # noqa: F811
    m = PlanMembership.objects.get(
        participant__participant_number="QCB-20001", plan__key="quaker-cash-balance"
    )
    p = _instructed_single_sum(m)
    batch, _ = confirm(admin, [(p.pk, ASD.isoformat(), "paid", ASD.isoformat(), "AG-CB-2", BALANCE, "")])
    imports.import_rollback(batch=batch, actor=admin)
    m.refresh_from_db()
    assert "distributed_on" not in m.plan_data
    assert Decimal(membership_calculate(m, as_of=AS_OF)["account"]["balance"]) == BALANCE


def test_the_dashboard_shows_the_account_paid_out_and_offers_no_new_start(admin, client):  # noqa: F811
    from benefits.models import Participant
    from tests.factories import UserFactory

    m = PlanMembership.objects.get(
        participant__participant_number="QCB-20001", plan__key="quaker-cash-balance"
    )
    user = UserFactory(email="qcb20001@example.test")
    Participant.objects.filter(pk=m.participant_id).update(user=user)
    client.force_login(user)
    modeler = f"/benefits/participants/{m.participant_id}/plans/quaker-cash-balance/modeler/"
    assert modeler in client.get("/benefits/").content.decode()
    p = _instructed_single_sum(m)
    assert "Paid on" not in client.get("/benefits/").content.decode()  # instructed, not yet confirmed
    batch, checked = confirm(
        admin, [(p.pk, ASD.isoformat(), "paid", ASD.isoformat(), "AG-CB-3", BALANCE, "")]
    )
    assert batch.status == "applied", checked.errors
    page = client.get("/benefits/").content.decode()
    assert "Paid on November 1, 2026. Your account was paid out in full and is closed." in page
    assert modeler not in page
