"""Loans not repaid, the pure rules (benefits/engine/taxes/loans.py), worked by hand."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from benefits.engine.plans import get_plan
from benefits.engine.taxes.loans import outstanding, treatment

D = Decimal
SCHEDULE = [
    {"due": "2026-02-01", "interest": "50.00", "principal": "1000.00"},
    {"due": "2026-03-01", "interest": "45.00", "principal": "1000.00"},
    {"due": "2026-04-01", "interest": "40.00", "principal": "1000.00"},
    {"due": "2026-05-01", "interest": "35.00", "principal": "1000.00"},
]


def test_outstanding_is_principal_and_the_interest_of_payments_missed():
    # $4,000 lent, $1,000 repaid: $3,000 of principal. The repayment covers February's payment; March's
    # ($45 interest) and April's ($40) were due by April 15 and not made: $85 accrued (Q&A-10).
    o = outstanding(
        principal=D("4000.00"), schedule=SCHEDULE, principal_repaid=D("1000.00"), on=date(2026, 4, 15)
    )
    assert (o.principal, o.interest, o.total) == (D("3000.00"), D("85.00"), D("3085.00"))


def test_deemed_while_employed_offset_after_leaving_qualified_within_12_months():
    assert treatment(default_date=date(2026, 6, 30), separation_date=None).kind == "deemed_distribution"
    # Leaving after the default date: still employed on it.
    assert (
        treatment(default_date=date(2026, 6, 30), separation_date=date(2026, 7, 1)).kind
        == "deemed_distribution"
    )
    # Left June 30, 2025: an offset on June 30, 2026 is within 12 months (qualified, §402(c)(3)(C));
    # on July 1, 2026 it is not (Treas. Reg. §1.402(c)-3(b)).
    on_anniversary = treatment(default_date=date(2026, 6, 30), separation_date=date(2025, 6, 30))
    assert (on_anniversary.kind, on_anniversary.qualified_offset) == ("loan_offset", True)
    assert not treatment(default_date=date(2026, 7, 1), separation_date=date(2025, 6, 30)).qualified_offset


def test_the_plans_cure_period_is_capped_at_the_next_quarter_end():
    # Carver 401(k) §8.6(a): 90 days after the missed payment; SPEC A20 / Treas. Reg. §1.72(p)-1 Q&A-10:
    # never after the last day of the calendar quarter after the quarter of the missed payment.
    loans = get_plan("carver-401k").loans
    assert loans.default(date(2026, 4, 1), employed=True).default_date == date(2026, 6, 30)  # 90 days
    # Missed December 31, 2026 (4th quarter): 90 days is March 31, 2027 (2027 is not a leap year), which is
    # also the cap (the last day of the 1st quarter); missed January 1, 2027: 90 days is April 1, 2027,
    # well before that quarter's cap of June 30, 2027.
    assert loans.default(date(2026, 12, 31), employed=True).default_date == date(2027, 3, 31)
    assert loans.default(date(2027, 1, 1), employed=True).default_date == date(2027, 4, 1)
