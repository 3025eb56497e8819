"""401(k) installments posted to the books (issue 22, item 5), from the Carver 401(k)'s §5.3.

The terminated demo participant CFS-30005 takes her account in monthly installments of $1,000.00. A
distribution reduces the Units of the accounts "pro rata according to their respective values" (§5.3),
so each instalment takes each source's share of the vested balance, to the cent, the last source
taking the rounding; the federal income tax withheld (20%, Code §3405(c)(1): an installment over fewer
than ten years is an eligible rollover distribution, §402(c)(4)(A)) is its own line, from the sources
in proportion. Nothing posts before the paying agent confirms the instalment.
"""

from __future__ import annotations

from datetime import date
from decimal import ROUND_HALF_UP, Decimal

import pytest

from benefits.engine_adapter import membership_calculate
from benefits.models import AccountTransaction, Participant, PlanMembership
from payments import services
from payments.models import Payment
from payments.schedule import account_split
from taxes.services import payment_notice_issue
from tests.elections.conftest import AS_OF
from tests.payments import test_payments as tp
from tests.payments.test_payments import confirm

pytestmark = pytest.mark.django_db
admin = tp.admin
FIRST, SECOND = date(2026, 12, 1), date(2027, 1, 1)


def by_hand(vested: dict[str, Decimal], amount: Decimal) -> dict[str, Decimal]:
    total = sum(vested.values())
    items = [(s, v) for s, v in vested.items() if v > 0]
    out, left = {}, amount
    for k, (s, v) in enumerate(items):
        share = left if k == len(items) - 1 else (amount * v / total).quantize(Decimal("0.01"), ROUND_HALF_UP)
        share = share if k == len(items) - 1 else min(share, v)
        out[s] = share
        left -= share
    return out


def test_each_confirmed_instalment_posts_its_sources_pro_rata_and_its_withholding(demo, admin):
    p = Participant.objects.get(participant_number="CFS-30005")
    m = PlanMembership.objects.get(participant=p, plan__key="carver-401k")
    result = membership_calculate(m, as_of=AS_OF)
    vested = {s: Decimal(v["vested_balance"]) for s, v in result["account"]["by_source"].items()}
    payment = Payment.objects.create(
        membership=m,
        participant=p,
        payee_name=p.full_name,
        kind="installments",
        frequency="monthly",
        gross=Decimal("1000.00"),
        first_pay_date=FIRST,
        number_of_payments=3,
        method="direct_deposit",
        destination={
            "routing_number": "011000015",
            "account_number": "123456789",
            "account_type": "checking",
        },
        destination_masked="Checking account ending 6789",
        withholding_election={"form": "W-4R", "rate": "20"},
        posting={
            **account_split(m, Decimal("1000.00"), "termination_distribution", AS_OF),
            "per_instalment": True,
        },
    )
    assert payment.posting["section"] == "Plan §5.3 (pro rata)"
    payment_notice_issue(payment, actor=admin, on=date(2026, 10, 1))  # §402(f): 30+ days before
    for n, day in enumerate((FIRST, SECOND), start=1):
        services.instruction_export(pay_date=day, actor=admin)
        i = payment.instalments.get(pay_date=day)
        assert i.state == "instructed"
        assert i.withholding == Decimal("200.00")  # 20% of $1,000.00
        assert not AccountTransaction.objects.filter(
            membership=m, memo__startswith=f"Payment {payment.pk}, instalment {i.pk}"
        )
        batch, checked = confirm(
            admin,
            [(payment.pk, day.isoformat(), "paid", day.isoformat(), f"AG-{n}", "1000.00", "")],
            name=f"c{n}.csv",
        )
        assert batch.status == "applied", checked.errors
        rows = AccountTransaction.objects.filter(
            membership=m, memo__startswith=f"Payment {payment.pk}, instalment {i.pk}:"
        )
        assert {t.kind for t in rows} == {"distribution"}
        taken: dict[str, Decimal] = {}
        for t in rows:
            taken[t.source] = taken.get(t.source, Decimal("0")) - t.amount
        assert taken == by_hand(vested, Decimal("1000.00"))
        withheld = [t for t in rows if "federal income tax withheld" in t.memo]
        assert -sum(t.amount for t in withheld) == Decimal("200.00")
    payment.refresh_from_db()
    assert payment.state == "in_pay"  # two of three paid
