"""The forms the Carver ESOP offers for a Former Participant's distribution (Sixth Amendment §10.6(a)).

§10.6(a): a vested account of $5,000 or less is paid as a lump sum "in cash (unless the Participant elects
to receive such payment in shares of Qualifying Employer Securities)", to the Participant or by direct
rollover as he elects; above $5,000 the base plan's forms are unknown, so nothing is offered.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from benefits.engine.plans.carver_esop.cash_out import cash_out_decision
from benefits.engine.plans.carver_esop.distribution_forms import offer

D = Decimal
LEFT, AS_OF = date(2019, 11, 15), date(2026, 11, 21)


def carver(vested: str, shares: str = "380", cash: str = "55.00", as_of: date = AS_OF):
    decision = cash_out_decision(
        vested_value=D(vested),
        distribution_date=as_of,
        birth_date=date(1987, 12, 8),
        normal_retirement_age=65,
    )
    return offer(
        vested=D(vested),
        shares=D(shares),
        cash=D(cash),
        share_value=D("7.85"),
        termination_date=LEFT,
        as_of=as_of,
        decision=decision,
    )


def test_cbi_50002_cash_by_default_or_387_shares_on_election():
    # 380 shares × $7.85 = $2,983.00 + $55.00 = $3,038.00, all vested, under $5,000: a §10.6(a) cash-out.
    o = carver("3038.00")
    cash, shares = o.forms
    assert (cash.key, cash.default, cash.cash, cash.shares) == ("lump_sum_cash", True, D("3038.00"), 0)
    assert [(p.source, p.amount, p.shares, p.cash) for p in cash.postings] == [
        ("stock_fund", D("-2983.00"), D("-380.0000"), D("2983.00")),  # the shares sold for cash
        ("investment_fund", D("-55.00"), None, D("55.00")),
    ]
    # In shares: $3,038.00 ÷ $7.85 = 387.0063 → 387 whole shares ($3,037.95) and $0.05 in cash.
    assert (shares.key, shares.shares, shares.shares_value, shares.cash) == (
        "lump_sum_shares",
        387,
        D("3037.95"),
        D("0.05"),
    )
    assert sum(p.cash for p in shares.postings) == D("0.05")
    assert cash.plan_data_after == {"vested_account_value": "0.00"}


def test_the_threshold_is_inclusive_and_nothing_is_offered_above_it():
    # §10.6(a): "$5,000 ... or less": exactly $5,000.00 is cashed out; $5,000.01 is not.
    assert carver("5000.00", shares="630", cash="54.50").forms  # 630 × 7.85 = 4,945.50 + 54.50
    above = carver("5000.01", shares="630", cash="54.51")
    assert above.forms == () and "§10.6(c)" in above.unavailable


def test_nothing_is_offered_before_employment_ends():
    o = carver("3038.00", as_of=date(2019, 11, 14))
    assert o.forms == () and "after employment ends" in o.unavailable
