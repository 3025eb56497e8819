"""A payment whose §402(f) notice timing fails is not instructed (Treas. Reg. §1.402(f)-1 Q&A-2): a Quaker
City lump sum by direct rollover waits for a notice given at least 30 and at most 180 days before it."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from django.test import TestCase

from benefits.models import GeneratedDocument, PlanMembership
from elections.benefit_elections.models import Notice
from payments.models import PaymentInstalment
from payments.services import instruction_export
from taxes.services import notice_check, payment_notice_issue
from tests.elections.conftest import AS_OF
from tests.taxes.helpers import make_payment

PAY = AS_OF + timedelta(days=40)  # December 31, 2026


def quaker(n: int) -> PlanMembership:
    return PlanMembership.objects.filter(plan__key="quaker-cash-balance").order_by("pk")[n]


def lump(m, first=PAY):
    return make_payment(
        m,
        gross="25000.00",
        first=first,
        method="direct_rollover",
        destination={
            "rollover_type": "traditional_ira",
            "institution": "Example Trust",
            "account": "99887766",
        },
    )


def state_after_export(payment) -> str:
    instruction_export(pay_date=payment.first_pay_date, actor=None)
    return PaymentInstalment.objects.get(payment=payment).state


def test_no_notice_means_not_instructed(demo):
    p = lump(quaker(0))
    assert not notice_check(PaymentInstalment(payment=p, pay_date=PAY, gross=p.gross, sequence=1)).ok
    assert state_after_export(p) == "scheduled"


def test_notice_29_days_before_holds_30_days_before_instructs(demo):
    early = lump(quaker(0))
    with TestCase.captureOnCommitCallbacks(execute=True):
        outcome = payment_notice_issue(early, on=PAY - timedelta(days=29))
    assert outcome.created and outcome.notice.content["amount"] == "25000.00"
    assert GeneratedDocument.objects.get(pk=outcome.notice.document_id).status == "done"
    assert state_after_export(early) == "scheduled"

    ok = lump(quaker(1))
    payment_notice_issue(ok, on=PAY - timedelta(days=30))
    assert state_after_export(ok) == "instructed"
    # Exactly once: issuing again returns the same notice.
    again = payment_notice_issue(ok, on=PAY - timedelta(days=10))
    assert (
        not again.created
        and Notice.objects.filter(participant=ok.participant, kind="rollover_402f").count() == 1
    )


def test_notice_more_than_180_days_before_is_stale(demo):
    stale = lump(quaker(2))
    payment_notice_issue(stale, on=PAY - timedelta(days=181))
    assert state_after_export(stale) == "scheduled"
    fresh = lump(quaker(3))
    payment_notice_issue(fresh, on=PAY - timedelta(days=180))
    assert state_after_export(fresh) == "instructed"


def test_annuities_need_no_notice(demo):
    m = quaker(0)
    annuity = make_payment(m, kind="annuity", frequency="monthly", gross="900.00", first=date(2027, 1, 1))
    inst = PaymentInstalment(
        payment=annuity, pay_date=annuity.first_pay_date, gross=Decimal("900.00"), sequence=1
    )
    assert notice_check(inst) is None  # not an eligible rollover distribution (Code §402(c)(4)(A))


def test_the_notice_is_issued_when_the_payment_is_scheduled(demo):
    """``payment_due`` (an election in effect, a withdrawal approved): once the payment record exists,
    its §402(f) notice is issued, once."""
    from elections.models import Claim
    from elections.signals import payment_due
    from tests.elections.conftest import demo_claim_ids

    claim = Claim.objects.get(pk=demo_claim_ids()[0])
    p = make_payment(claim.membership, claim=claim, gross="41000.00", first=PAY)
    for _ in range(2):
        payment_due.send(sender=Claim, claim=claim, election=None, actor=None, on=AS_OF, request=None)
    (notice,) = Notice.objects.filter(participant=p.participant, kind="rollover_402f", asd=PAY)
    assert notice.issued_on == AS_OF and notice.content["amount"] == "41000.00"
    assert notice_check(PaymentInstalment(payment=p, pay_date=PAY, gross=p.gross, sequence=1)).ok  # 40 days


def test_an_explanation_offering_a_single_sum_brings_the_rollover_notice(demo):
    """Issued together, so a waiver signed with the election follows both notices."""
    from elections.benefit_elections.services import notice_issue

    m = quaker(0)
    asd = date(2027, 1, 1)
    explanation = notice_issue(membership=m, kind="qjsa_explanation", asd=asd, on=AS_OF).notice
    single = next(r for r in explanation.content["forms"] if r["form"] == "lump_sum")
    rollover = Notice.objects.get(participant=m.participant, kind="rollover_402f", asd=asd)
    assert rollover.issued_on == AS_OF and rollover.content["amount"] == str(single["lump_sum"])


def test_a_withdrawal_claims_waiver_allows_payment_sooner(demo):
    """Shown the notice on the claim page, the participant may choose to be paid sooner (Q&A-2)."""
    from elections.models import Claim
    from tests.elections.conftest import demo_claim_ids

    claim = Claim.objects.get(pk=demo_claim_ids()[0])
    soon = claim.received_on + timedelta(days=10)
    p = make_payment(claim.membership, claim=claim, gross="5000.00", first=soon)
    payment_notice_issue(p, on=claim.received_on)
    inst = PaymentInstalment(payment=p, pay_date=soon, gross=p.gross, sequence=1)
    assert not notice_check(inst).ok  # 10 days, no waiver
    claim.details = {**claim.details, "waive_30_days": "True"}
    claim.save(update_fields=["details"])
    p.refresh_from_db()
    assert notice_check(PaymentInstalment(payment=p, pay_date=soon, gross=p.gross, sequence=1)).ok
