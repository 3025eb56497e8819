"""Dividends (F §7.2) and account statements (F §8.6)."""

from datetime import date
from decimal import Decimal as D

from benefits.engine.plans.fairport_esop.dividends import (
    cash_dividends_on_allocated,
    dividends_on_unallocated,
    stock_dividend,
)
from benefits.engine.plans.fairport_esop.statement import LedgerEntry, statement


def test_e1b_dividends_on_allocated_used_on_loan_7_2_2_i():
    d = cash_dividends_on_allocated(
        {"alice": D(3000), "ben": D(12000), "erin": D(2000), "other": D(23000)}, D("0.20"), "loan", 2013
    )
    assert d.by_participant == {
        "alice": D("600.00"),
        "ben": D("2400.00"),
        "erin": D("400.00"),
        "other": D("4600.00"),
    }
    assert d.total == D("8000.00") and d.pay_by is None


def test_dividends_paid_after_year_within_90_days_7_2_2_i_iii():
    d = cash_dividends_on_allocated({"a": D(10)}, D(1), "pay_after_year", 2013)
    assert d.pay_by == date(2014, 3, 31)


def test_e1b_dividends_on_unallocated_pay_the_loan_7_2_2_ii():
    u = dividends_on_unallocated(D(52500), D("0.20"), D(52000))
    assert (u.total, u.applied_to_loan, u.excess) == (D("10500.00"), D("10500.00"), D(0))
    u = dividends_on_unallocated(D(52500), D("0.20"), D(10000), "expenses")
    assert (u.applied_to_loan, u.excess) == (D("10000.00"), D("500.00"))


def test_stock_dividend_shared_with_suspense_7_2_1():
    accounts, suspense, _ = stock_dividend({"a": D(100), "b": D(300)}, D(600), D(50))
    assert accounts == {"a": D("5.0000"), "b": D("15.0000")}
    assert suspense == D("30.0000")


def test_statement_period_8_6():
    s = statement(
        period_start=date(2012, 1, 1),
        period_end=date(2012, 12, 31),
        opening_shares=D(1000),
        opening_cash=D(200),
        opening_share_value=D(10),
        closing_share_value=D("11.50"),
        entries=[
            LedgerEntry(date(2012, 12, 31), "allocation", shares=D(495), cash=D("78.75")),
            LedgerEntry(date(2012, 12, 31), "earnings", cash=D("12.00")),
            LedgerEntry(date(2012, 6, 30), "distribution", shares=D(-100)),
            LedgerEntry(date(2013, 1, 2), "allocation", shares=D(999)),  # outside the period
        ],
        vested_percent=D(40),
    )
    assert s.opening.value == D("10200.00")
    assert s.closing.shares == D(1395)
    assert s.closing.cash == D("290.75")
    assert s.closing.value == D("16333.25")  # 1,395 × 11.50 + 290.75
    assert s.movements["allocation"].value == D("5771.25")  # E2 Alice
    assert s.movements["distribution"].value == D("-1150.00")
    # opening + movements + value change = closing
    assert (
        s.opening.value + sum(m.value for m in s.movements.values()) + s.stock_value_change == s.closing.value
    )
    assert s.stock_value_change == D("1500.00")  # 1,000 opening shares × $1.50
    assert s.vested_balance == D("6533.30")
