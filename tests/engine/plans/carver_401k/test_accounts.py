"""Vesting applied to balances, forfeiture and restoration: §4.1, §4.2 (SPEC Examples 3–6)."""

from datetime import date
from decimal import Decimal as D

from benefits.engine.plans.carver_401k.accounts import (
    consecutive_severance_periods,
    forfeiture_at_termination,
    restoration_on_rehire,
    vest_accounts,
    vested_amount,
)
from benefits.engine.plans.carver_401k.settings import BenefitSettings

EX3 = {
    "before_tax": "21450.00",
    "matching_pre2002": "6300.00",
    "matching_2002": "1240.00",
    "discretionary": "2000.00",
    "nonelective": "1100.00",
}


def test_example3_vested_balance_at_80_percent():
    # §4.1(a), (c): 4 years → 80% on pre-2002 match, Discretionary, Nonelective; the rest 100%.
    v = vest_accounts(EX3, D(80))
    assert v.balance == D("32090.00")
    assert v.vested("matching_pre2002") == D("5040.00")
    assert v.vested("matching_2002") == D("1240.00")
    assert v.vested("discretionary") == D("1600.00")
    assert v.vested("nonelective") == D("880.00")
    assert v.vested_balance == D("30210.00")
    assert v.by_source["before_tax"].vested_percent == D(100)


def test_example3_nonelective_fully_vested_reading():
    # GAP-8 alternative: Nonelective as safe-harbor, 100% vested → 30,430.
    v = vest_accounts(EX3, D(80), settings=BenefitSettings(nonelective_on_schedule=False))
    assert v.vested_balance == D("30430.00")


def test_full_vesting_event():
    # §4.1(b): NRA, death, Disability or Retirement Date → 100%.
    assert vest_accounts(EX3, D(0), fully_vested=True).vested_balance == D("32090.00")


def test_example4_forfeiture_at_termination_is_1880():
    # §4.2: C resigns at 80%: 1,260 + 400 + 220.
    f = forfeiture_at_termination(vest_accounts(EX3, D(80)), date(2003, 1, 31))
    assert f.by_source == {
        "matching_pre2002": D("1260.00"),
        "discretionary": D("400.00"),
        "nonelective": D("220.00"),
    }
    assert f.total == D("1880.00")


def test_example4_no_forfeiture_when_fully_vested():
    # Had C stayed until 2003-02-28 (100%), nothing forfeited.
    assert forfeiture_at_termination(vest_accounts(EX3, D(100)), date(2003, 2, 28)).total == D(0)


def test_example5_x_equals_p_ab_plus_d_minus_d():
    # §4.1(d): 0.60 × (4,200 + 1,800) − 1,800 = 1,800; at 80% 3,000; at 100% 4,200.
    assert vested_amount(D("4200.00"), D(60), D("1800.00")) == D("1800.00")
    assert vested_amount(D("4200.00"), D(80), D("1800.00")) == D("3000.00")
    assert vested_amount(D("4200.00"), D(100), D("1800.00")) == D("4200.00")
    v = vest_accounts(
        {"matching_pre2002": "4200.00"},
        D(60),
        withdrawn={"matching_pre2002": "1000.00"},
        loaned_out={"matching_pre2002": "800.00"},
    )
    assert v.vested("matching_pre2002") == D("1800.00")
    # forfeiture if E terminated now: AB − X = 2,400 (= 40% × 6,000)
    assert forfeiture_at_termination(v, date(2003, 6, 30)).total == D("2400.00")


def test_x_floored_at_zero():
    # A10: 20% × (100 + 1,000) − 1,000 < 0 → 0.
    assert vested_amount(D("100.00"), D(20), D("1000.00")) == D("0")


EX6 = {
    "before_tax": "9000.00",
    "matching_pre2002": "5000.00",
    "matching_2002": "600.00",
    "discretionary": "1000.00",
    "nonelective": "500.00",
}


def test_example6_payout_rehire_repayment_restores_2600():
    # §4.2: F at 60%: vested 13,500, forfeited 2,600; rehired 2004-03-01 with 1 severance period.
    v = vest_accounts(EX6, D(60))
    assert v.vested_balance == D("13500.00")
    f = forfeiture_at_termination(v, date(2002, 6, 30))
    assert f.total == D("2600.00")
    n = consecutive_severance_periods(date(2002, 6, 30), date(2004, 3, 1))
    assert n == 1
    r = restoration_on_rehire(
        f,
        rehire_date=date(2004, 3, 1),
        severance_periods=n,
        distribution_paid=D("13500.00"),
        distribution_date=date(2002, 9, 30),
        repaid=D("13500.00"),
        repayment_date=date(2005, 1, 10),
    )
    assert r.restored and r.total == D("2600.00")
    assert r.repayment_deadline == date(2009, 3, 1)  # A23: before 5 years after reemployment
    # reinstated Net Value at termination 16,100; at 2005-06-30, 4 years → 80%
    restored = {k: D(v_) for k, v_ in EX6.items()}
    v2 = vest_accounts(restored, D(80))
    assert v2.vested("matching_pre2002") == D("4000.00")
    assert v2.vested("discretionary") == D("800.00")
    assert v2.vested("nonelective") == D("400.00")


def test_example6_partial_or_late_repayment_restores_nothing():
    f = forfeiture_at_termination(vest_accounts(EX6, D(60)), date(2002, 6, 30))
    partial = restoration_on_rehire(
        f,
        rehire_date=date(2004, 3, 1),
        severance_periods=1,
        distribution_paid=D("13500.00"),
        repaid=D("13499.99"),
        repayment_date=date(2005, 1, 1),
    )
    assert not partial.restored and partial.total == D(0)
    late = restoration_on_rehire(
        f,
        rehire_date=date(2004, 3, 1),
        severance_periods=1,
        distribution_paid=D("13500.00"),
        repaid=D("13500.00"),
        repayment_date=date(2009, 3, 1),
    )
    assert not late.restored


def test_deferred_payment_restored_without_repayment_and_five_breaks_bar():
    # §4.2 fourth paragraph; and no restoration after 5 consecutive severance periods.
    f = forfeiture_at_termination(vest_accounts(EX6, D(60)), date(2002, 6, 30))
    assert restoration_on_rehire(f, rehire_date=date(2004, 3, 1), severance_periods=1).total == D("2600.00")
    assert not restoration_on_rehire(f, rehire_date=date(2008, 3, 1), severance_periods=5).restored


def test_severance_count_edges():
    # A2: a period completes only if rehire comes after its last day.
    assert consecutive_severance_periods(date(2002, 6, 30), date(2003, 6, 30)) == 0
    assert consecutive_severance_periods(date(2002, 6, 30), date(2003, 7, 1)) == 1
    assert consecutive_severance_periods(date(2002, 6, 30), date(2007, 7, 1)) == 5
