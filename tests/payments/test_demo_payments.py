"""load_demo's payments (issue 22 "Done when"): pat's age-59½ withdrawal and loan are filed, decided
by the committee, consented to by his spouse and scheduled for the January 1, 2027 pay date; nothing is
paid before the paying agent confirms it; loading again adds nothing."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from django.core.management import call_command

from elections.models import Claim, ClaimState
from payments.models import Payment
from tests.elections.conftest import AS_OF

pytestmark = pytest.mark.django_db


def test_load_demo_schedules_pats_withdrawal_and_loan_for_january_1_2027(settings, tmp_path):
    settings.PRIVATE_STORAGE_ROOT = tmp_path
    settings.DEMO_PAYMENTS = True
    call_command("load_demo", as_of=AS_OF)
    claims = Claim.objects.filter(membership__participant__user__email="pat@demo.test").exclude(
        claim_type="commencement"
    )
    assert {c.claim_type: c.state for c in claims} == {
        "withdrawal_59half": ClaimState.PAYMENT_SCHEDULED,
        "loan": ClaimState.PAYMENT_SCHEDULED,
    }
    payments = {p.kind: p for p in Payment.objects.filter(claim__in=claims)}
    assert set(payments) == {"single_sum", "loan_disbursement"}
    for p in payments.values():
        assert p.state == "scheduled" and p.first_pay_date == date(2027, 1, 1)
    assert payments["single_sum"].gross == Decimal("10000.00")
    # Form W-4R: 20% at least on an eligible rollover distribution paid to the payee (Code §3405(c)(1)).
    assert payments["single_sum"].withholding_election == {"form": "W-4R", "w4r_rate": "20"}
    assert payments["loan_disbursement"].loan.principal == Decimal("20000.00")
    # The §402(f) notice (Treas. Reg. §1.402(f)-1 Q&A-2): issued on filing's approval, 41 days before.
    from elections.benefit_elections.models import Notice

    notice = Notice.objects.get(kind="rollover_402f", participant__user__email="pat@demo.test")
    assert (date(2027, 1, 1) - notice.issued_on).days >= 30

    call_command("load_demo", as_of=AS_OF)
    assert Payment.objects.filter(claim__in=claims).count() == 2
