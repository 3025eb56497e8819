"""Account statements as data (GAP-35, §5.3, §4.1(d), §8.4(d)). Expected values by hand."""

from datetime import date
from decimal import Decimal as D

from benefits.engine.plans.carver_401k.statement import Kind, Transaction, account_statement


def _tx(m, d, src, kind, amt):
    return Transaction(date(2003, m, d), src, kind, D(amt))


def test_quarter_statement_with_loan_and_earnings_from_unit_values():
    # Q3 2003. Before-Tax: 10,000 + 600 deferrals − 3,000 lent + 200 repaid; closing value 7,950
    # → earnings 7,950 − (10,000 + 600 − 3,000 + 200) = 150.
    # Pre-2002 match: 4,000, no flows, closing 4,080 → earnings 80; vested 60% × 4,080 = 2,448.
    # 2002 match: 1,000 + 400, closing 1,420 → earnings 20.
    txs = [
        _tx(7, 15, "before_tax", Kind.CONTRIBUTION, "600"),
        _tx(7, 15, "matching_2002", Kind.CONTRIBUTION, "400"),
        _tx(8, 1, "before_tax", Kind.LOAN_ISSUED, "3000"),
        _tx(9, 12, "before_tax", Kind.LOAN_REPAID, "200"),
        _tx(10, 1, "before_tax", Kind.CONTRIBUTION, "999"),  # outside the period
    ]
    s = account_statement(
        start=date(2003, 7, 1),
        end=date(2003, 9, 30),
        opening={"before_tax": "10000", "matching_pre2002": "4000", "matching_2002": "1000"},
        transactions=txs,
        scheduled_percent=D(60),
        closing={"before_tax": "7950", "matching_pre2002": "4080", "matching_2002": "1420"},
    )
    bt, m1, m2 = s.lines
    assert (bt.opening, bt.contributions, bt.loan_activity, bt.earnings, bt.closing) == (
        D("10000.00"),
        D("600.00"),
        D("-2800.00"),
        D("150.00"),
        D("7950.00"),
    )
    assert m1.earnings == D("80.00") and m1.vested_balance == D("2448.00") and m1.vested_percent == D(60)
    assert m2.earnings == D("20.00") and m2.vested_balance == D("1420.00")
    assert s.closing == D("13450.00")
    assert s.vested_balance == D("11818.00")  # 7,950 + 2,448 + 1,420
    assert (s.loan_opening, s.loan_closing) == (D("0.00"), D("2800.00"))


def test_statement_withdrawal_feeds_d_and_forfeiture_shown():
    # Discretionary: opening 2,000, hardship withdrawal 500, earnings entry 100 → closing 1,600;
    # vested 80% × (1,600 + 500) − 500 = 1,180. Forfeiture from pre-2002 match 300 → closing 700.
    txs = [
        _tx(2, 1, "discretionary", Kind.WITHDRAWAL, "500"),
        _tx(3, 31, "discretionary", Kind.EARNINGS, "100"),
        _tx(3, 1, "matching_pre2002", Kind.FORFEITURE, "300"),
    ]
    s = account_statement(
        start=date(2003, 1, 1),
        end=date(2003, 3, 31),
        opening={"discretionary": "2000", "matching_pre2002": "1000"},
        transactions=txs,
        scheduled_percent=D(80),
    )
    m1, disc = s.lines
    assert disc.closing == D("1600.00") and disc.distributions == D("500.00")
    assert disc.vested_balance == D("1180.00")
    assert m1.forfeitures == D("300.00") and m1.closing == D("700.00")
