"""Loans: Article VIII (SPEC §8, Example 7)."""

from datetime import date
from decimal import Decimal as D

import pytest

from benefits.engine.plans.carver_401k.accounts import vest_accounts
from benefits.engine.plans.carver_401k.loans import (
    amortization_schedule,
    check_term,
    first_payroll_deduction,
    loan_default,
    loan_rate,
    loan_sources,
    maximum_new_loan,
    outstanding_by_source,
)
from benefits.engine.plans.carver_401k.settings import BenefitSettings

EX7 = {
    "before_tax": "38000.00",
    "rollover": "6000.00",
    "matching_pre2002": "9000.00",
    "matching_2002": "3500.00",
    "discretionary": "2500.00",
    "nonelective": "1000.00",
}


def test_example7_maximum_is_28750():
    # §8.2: base 57,500; min(28,750, 50,000 − 14,200 = 35,800).
    m = maximum_new_loan(vest_accounts(EX7, D(80)), highest_balance_last_12_months="14200")
    assert m.base == D("57500.00")
    assert m.amount == D("28750.00") and m.eligible


def test_example7_literal_nonelective_reading_is_28850():
    s = BenefitSettings(loan_base_nonelective_vested=False)
    m = maximum_new_loan(
        vest_accounts(EX7, D(80), settings=s), highest_balance_last_12_months="14200", settings=s
    )
    assert m.amount == D("28850.00")


def test_example7b_outstanding_loan_blocks_then_prepayment_allows_30250():
    # §8.4(f): one loan at a time → 0; after prepaying 3,000 to Before-Tax: base 60,500 → 30,250.
    m = maximum_new_loan(
        vest_accounts(EX7, D(80)), highest_balance_last_12_months="14200", outstanding_balance="3000"
    )
    assert m.amount == D(0) and not m.eligible
    after = dict(EX7, before_tax="41000.00")
    assert maximum_new_loan(vest_accounts(after, D(80)), highest_balance_last_12_months="14200").amount == D(
        "30250.00"
    )


def test_example7c_capped_at_50000():
    m = maximum_new_loan(vest_accounts({"before_tax": "140000"}, D(0)))
    assert m.amount == D("50000.00")


def test_minimum_1000():
    # §8.2: 50% × 1,999.98 = 999.99 < 1,000 → no loan; 2,000 → 1,000 allowed.
    assert maximum_new_loan(vest_accounts({"before_tax": "1999.98"}, D(0))).amount == D(0)
    assert maximum_new_loan(vest_accounts({"before_tax": "2000"}, D(0))).amount == D("1000.00")


def test_not_while_in_installment_pay():
    # §8.1(a)(i)
    m = maximum_new_loan(vest_accounts(EX7, D(80)), in_installment_or_annuity_pay=True)
    assert m.amount == D(0)


def test_example7_sources_all_from_before_tax():
    # §8.4(b): 28,750 ≤ 38,000 → all Before-Tax; Before-Tax then 9,250.
    drawn, _ = loan_sources("28750", vest_accounts(EX7, D(80)))
    assert drawn == {"before_tax": D("28750.00")}
    assert D("38000.00") - drawn["before_tax"] == D("9250.00")


def test_sources_order_and_repayment_crediting():
    # §8.4(b): Before-Tax 1,000, Rollover 500, then vested match (pro rata 800 : 200), §8.5(c) back in order.
    v = vest_accounts(
        {
            "before_tax": "1000",
            "rollover": "500",
            "matching_pre2002": "1000",
            "matching_2002": "200",
            "discretionary": "1000",
        },
        D(80),
    )
    drawn, _ = loan_sources("2000", v)
    assert drawn == {
        "before_tax": D("1000.00"),
        "rollover": D("500.00"),
        "matching_pre2002": D("400.00"),
        "matching_2002": D("100.00"),
    }
    out = outstanding_by_source(drawn, "1200")
    assert out == {
        "before_tax": D(0),
        "rollover": D("300.00"),
        "matching_pre2002": D("400.00"),
        "matching_2002": D("100.00"),
    }


@pytest.mark.parametrize(
    "prime,rate",
    [
        ("4.00", "5.00"),
        ("4.10", "5.00"),
        ("4.125", "5.25"),
        ("4.13", "5.25"),
        ("7.875", "9.00"),
        ("3.25", "4.25"),
    ],
)
def test_rate_prime_plus_one_nearest_quarter(prime, rate):
    # §8.3, A18 (ties up)
    assert loan_rate(prime)[0] == D(rate)


def test_rate_tie_down_setting():
    assert loan_rate("4.125", BenefitSettings(loan_rate_tie_rounds_up=False))[0] == D("5.00")


def test_example7_biweekly_schedule():
    # A19: 28,750 at 5%/26 over 130 payments: 250.16, last 250.21; principal sums to the loan.
    s = amortization_schedule("28750", "5", 130, first_due=date(2003, 10, 3))
    assert s.level_payment == D("250.16")
    assert s.payments[-1].payment == D("250.21")
    assert sum(p.principal for p in s.payments) == D("28750.00")
    assert s.payments[-1].balance == D(0)
    assert s.payments[1].due == date(2003, 10, 17)


def test_example7_monthly_payment_if_not_on_payroll():
    # §8.5(a): equal monthly installments, 60 at 5%/12 → 542.55.
    s = amortization_schedule("28750", "5", 60, first_due=date(2003, 10, 1), periods_per_year=12)
    assert s.level_payment == D("542.55")
    assert s.payments[1].due == date(2003, 11, 1)


def test_term_limits():
    # §8.3: 5 years; 15 for a principal residence.
    check_term(60)
    check_term(180, principal_residence=True)
    with pytest.raises(ValueError):
        check_term(61)
    with pytest.raises(ValueError):
        check_term(181, principal_residence=True)


def test_first_payroll_deduction_within_three_weeks():
    # §8.5(a)
    assert first_payroll_deduction(date(2003, 9, 10), [date(2003, 9, 5), date(2003, 9, 19)]) == date(
        2003, 9, 19
    )
    with pytest.raises(ValueError):
        first_payroll_deduction(date(2003, 9, 10), [date(2003, 10, 2)])


def test_default_90_days_and_quarter_cap():
    # §8.6(a): missed 2003-05-15 → 2003-08-13 (inside Q3 cap).
    assert loan_default(date(2003, 5, 15), employed=True).default_date == date(2003, 8, 13)
    # A20: counted from the missed due date, 2002-12-31 + 90 days = 2003-03-31, exactly the
    # Treas. Reg. §1.72(p)-1 Q&A-10 limit (the SPEC's one-day overrun arises only counting from Jan 1).
    assert loan_default(date(2002, 12, 31), employed=False).default_date == date(2003, 3, 31)
    assert loan_default(date(2003, 12, 31), employed=False).default_date == date(2004, 3, 30)
    assert loan_default(date(2003, 1, 5), employed=False).default_date == date(2003, 4, 5)
    d = loan_default(date(2003, 1, 5), employed=False)
    assert d.foreclosure == "immediately upon default"
    assert loan_default(date(2003, 1, 5), employed=True).foreclosure == "at Termination of Service"


def test_example7_a_loan_approved_and_not_paid_out_counts_as_outstanding():
    # §8.4(f): a $20,000 loan approved and not yet paid out blocks a second one (maximum $0), and §8.2(b)
    # counts it as the 12 months' highest balance: $50,000 − $20,000 = $30,000 (50% of 57,500 = 28,750).
    m = maximum_new_loan(vest_accounts(EX7, D(80)), approved_not_disbursed="20000")
    assert m.amount == D("0") and not m.eligible
    assert any("not yet paid out" in r for r in m.reasons)
    cap = next(s for s in m.trace.as_list() if s["rule"].startswith("$50,000"))
    assert D(cap["result"]) == D("30000.00")
    # Once paid out it is the outstanding balance: the same $0, for the same reason (§8.4(f)).
    paid = maximum_new_loan(
        vest_accounts(EX7, D(80)), outstanding_balance="20000", highest_balance_last_12_months="20000"
    )
    assert paid.amount == m.amount == D("0")
    # Repaid in full inside the 12 months: min(28,750, 50,000 − 20,000 = 30,000) = 28,750.
    repaid = maximum_new_loan(vest_accounts(EX7, D(80)), highest_balance_last_12_months="20000")
    assert repaid.amount == D("28750.00") and repaid.eligible
