"""The $200 rule on payment records (Treas. Reg. §31.3405(c)-1 Q&A-14): no 20% mandatory withholding
when the payee's eligible rollover distributions from the plan in the year are reasonably expected to
total less than $200 — the other records to the same payee that year count."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from taxes.services import instalment_withholding
from tests.factories import MembershipFactory, ParticipantFactory, PlanFactory
from tests.taxes.helpers import make_payment, pay

D = Decimal


@pytest.fixture
def m(db):
    plan = PlanFactory(key="carver-401k", name="Carver 401(k) Savings Plan", kind="401k")
    return MembershipFactory(
        plan=plan,
        participant=ParticipantFactory(birth_date=date(1958, 1, 1), termination_date=date(2024, 6, 30)),
    )


def test_a_small_cash_out_alone_is_withheld_at_10_percent(m):
    p = make_payment(m, gross="150.00")
    withheld, basis = instalment_withholding(p, gross=D("150.00"), pay_date=date(2026, 3, 2))
    assert withheld == D("15.00")  # §3405(b)(1) 10%, not §3405(c) 20% ($30.00)
    assert "Q&A-14" in basis["rule"]
    # $200.00: the 20% rule.
    q = make_payment(m, gross="200.00", first=date(2026, 4, 1))
    assert instalment_withholding(q, gross=D("200.00"), pay_date=date(2026, 4, 1))[0] == D("40.00")


def test_other_payments_in_the_year_count_toward_200(m):
    # $120 paid in March, then $100 in September to the same payee: $220 in the year → 20% on the second.
    first = make_payment(m, gross="120.00", first=date(2026, 3, 2))
    pay(first, date(2026, 3, 2))
    later = make_payment(m, gross="100.00", first=date(2026, 9, 1))
    assert instalment_withholding(later, gross=D("100.00"), pay_date=date(2026, 9, 1))[0] == D("20.00")
    # A returned instalment was not distributed and does not count: $80 + $100 = $180 → 10%.
    other = make_payment(m, gross="80.00", first=date(2027, 2, 1))
    pay(other, date(2027, 2, 1), state="returned")
    nxt = make_payment(m, gross="100.00", first=date(2027, 5, 3))
    assert instalment_withholding(nxt, gross=D("100.00"), pay_date=date(2027, 5, 3))[0] == D("10.00")


def test_a_series_counts_its_own_instalments_in_the_year(m):
    # Quarterly $60 installments over 3 years from March 2026: March, June, September, December = $240
    # expected in 2026 → 20% of $60 = $12.00. The same $60 once: 10% = $6.00.
    series = make_payment(m, kind="installments", frequency="quarterly", gross="60.00", number=12)
    assert instalment_withholding(series, gross=D("60.00"), pay_date=date(2026, 3, 2))[0] == D("12.00")
    once = make_payment(make_other(m), gross="60.00")
    assert instalment_withholding(once, gross=D("60.00"), pay_date=date(2026, 3, 2))[0] == D("6.00")


def make_other(m):
    return MembershipFactory(plan=m.plan, participant=ParticipantFactory(birth_date=date(1958, 1, 1)))
