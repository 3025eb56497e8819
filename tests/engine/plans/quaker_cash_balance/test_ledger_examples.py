"""Golden tests: the account tables of the Quaker SPEC §15, recomputed by the ledger.

Inputs are the SPEC's (hypothetical rates A1, monthly Paydays A6, $170,000 limit A6). Each expected
figure was checked by hand against the plan rules: §4.3 (5% of Compensation paid on Paydays while
Active, posted Dec 31), §4.4 (a quarter of min(Treasury Rate, 12%) on the prior quarter-end balance,
none in the ASD quarter), §2.3(a)/§5.14(a)(i) (forfeiture and restoration), §5.12(d) (after death).
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from benefits.engine.plans.quaker_cash_balance.compensation import ActivePeriod
from benefits.engine.plans.quaker_cash_balance.ledger import account_ledger
from benefits.engine.plans.quaker_cash_balance.ledger_entries import (
    DISTRIBUTION,
    FORFEITURE,
    INTEREST_CREDIT,
    PAY_CREDIT,
    RESTORATION,
    Forfeiture,
)
from benefits.engine.plans.quaker_cash_balance.settings import BenefitSettings

from .conftest import LIMIT_170K

D = Decimal
AS_OF = date(2026, 11, 21)


def _cap(_year: int) -> Decimal:
    return LIMIT_170K


def _comp(**by_year: str) -> dict[int, Decimal]:
    return {int(k[1:]): D(v) for k, v in by_year.items()}


ANA_COMP = _comp(y2001="37500", y2002="39000", y2003="40500", y2004="42000", y2005="43500",
                 y2006="45000", y2007="46800")  # fmt: skip


def ana_ledger(market, *, asd=None, through=date(2008, 3, 31), as_of=AS_OF):
    return account_ledger(
        account_open=date(2001, 10, 1),
        opening_balance=D(0),
        periods=[ActivePeriod(date(2001, 10, 1), date(2007, 10, 15))],
        compensation=ANA_COMP,
        comp_limit=_cap,
        market=market,
        as_of=as_of,
        through=through,
        settings=BenefitSettings(),
        asd=asd,
    )


# Ana, Example 1: (quarter end, interest credit, contribution credit, balance) — every SPEC row.
ANA_ROWS = [
    ("2001-12-31", "0.00", "468.75", "468.75"), ("2002-03-31", "5.86", "0", "474.61"),
    ("2002-06-30", "5.93", "0", "480.54"), ("2002-09-30", "6.01", "0", "486.55"),
    ("2002-12-31", "6.08", "1950.00", "2442.63"), ("2003-03-31", "25.95", "0", "2468.58"),
    ("2003-06-30", "26.23", "0", "2494.81"), ("2003-09-30", "26.51", "0", "2521.32"),
    ("2003-12-31", "26.79", "2025.00", "4573.11"), ("2004-03-31", "48.59", "0", "4621.70"),
    ("2004-06-30", "49.11", "0", "4670.81"), ("2004-09-30", "49.63", "0", "4720.44"),
    ("2004-12-31", "50.15", "2100.00", "6870.59"), ("2005-03-31", "77.29", "0", "6947.88"),
    ("2005-06-30", "78.16", "0", "7026.04"), ("2005-09-30", "79.04", "0", "7105.08"),
    ("2005-12-31", "79.93", "2175.00", "9360.01"), ("2006-03-31", "105.30", "0", "9465.31"),
    ("2006-06-30", "106.48", "0", "9571.79"), ("2006-09-30", "107.68", "0", "9679.47"),
    ("2006-12-31", "108.89", "2250.00", "12038.36"), ("2007-03-31", "142.96", "0", "12181.32"),
    ("2007-06-30", "144.65", "0", "12325.97"), ("2007-09-30", "146.37", "0", "12472.34"),
    ("2007-12-31", "148.11", "1755.00", "14375.45"),
]  # fmt: skip


def _check_rows(ledger, rows):
    for day, ic, cc, bal in rows:
        d = date.fromisoformat(day)
        on_day = [e for e in ledger.entries if e.date == d]
        got_ic = sum((e.amount for e in on_day if e.kind == INTEREST_CREDIT), D(0))
        got_cc = sum((e.amount for e in on_day if e.kind == PAY_CREDIT), D(0))
        assert (got_ic, got_cc, ledger.balance_at(d)) == (D(ic), D(cc), D(bal)), day


def test_ana_every_quarter_matches_spec_example_1(spec_market):
    _check_rows(ana_ledger(spec_market), ANA_ROWS)


def test_ana_lump_sum_asd_2008_03_01_gets_no_q1_interest_s4_4b(spec_market):
    ledger = ana_ledger(spec_market, asd=date(2008, 3, 1))
    assert ledger.balance_before(date(2008, 3, 1)) == D("14375.45")
    dist = [e for e in ledger.entries if e.kind == DISTRIBUTION]
    assert [(e.date, e.amount) for e in dist] == [(date(2008, 3, 1), D("-14375.45"))]
    assert not [e for e in ledger.entries if e.date == date(2008, 3, 31)]


def test_ana_lump_sum_asd_2008_04_01_gets_the_q1_credit_s4_4(spec_market):
    ledger = ana_ledger(spec_market, asd=date(2008, 4, 1), through=date(2008, 12, 31))
    q1 = [e for e in ledger.entries if e.date == date(2008, 3, 31)]
    assert [(e.kind, e.amount) for e in q1] == [(INTEREST_CREDIT, D("161.72"))]
    assert ledger.balance_before(date(2008, 4, 1)) == D("14537.17")


def test_ana_projected_to_nrd_2037_09_01_s5_3b(spec_market):
    # Interest through Q2 2037 at the SPEC's 4.50% for 2011+ (a projection as of 2008: GAP-4);
    # the ASD 2037-09-01 falls in Q3, so Q3 earns nothing.
    ledger = ana_ledger(spec_market, asd=date(2037, 9, 1), through=date(2037, 9, 1), as_of=date(2008, 3, 1))
    assert ledger.balance_before(date(2037, 9, 1)) == D("53024.82")
    assert ledger.estimated_from is not None  # projection past the as-of year is an estimate


def test_ana_year_end_summary_statements(spec_market):
    ledger = ana_ledger(spec_market)
    st = ledger.statement(date(2005, 1, 1), date(2005, 12, 31))
    assert (st.opening, st.interest_credits, st.pay_credits, st.closing) == (
        D("6870.59"), D("314.42"), D("2175.00"), D("9360.01"))  # fmt: skip
    st = ledger.statement(date(2007, 1, 1), date(2007, 12, 31))
    assert (st.interest_credits, st.pay_credits, st.closing) == (D("582.09"), D("1755.00"), D("14375.45"))


def test_ben_balance_at_nrd_and_final_year_residual_gap2(spec_market):
    comp = _comp(y2000="60000", y2001="61500", y2002="63000", y2003="64500", y2004="66000",
                 y2005="67500", y2006="69000")  # fmt: skip
    ledger = account_ledger(
        account_open=date(2001, 2, 1), opening_balance=D(0),
        periods=[ActivePeriod(date(2001, 2, 1), date(2006, 1, 31))],
        compensation=comp, comp_limit=_cap, market=spec_market, as_of=AS_OF,
        through=date(2006, 12, 31), settings=BenefitSettings(), asd=date(2006, 2, 1),
    )  # fmt: skip
    _check_rows(ledger, [("2001-12-31", "0.00", "2818.75", "2818.75"),
                         ("2002-12-31", "36.57", "3150.00", "6112.34"),
                         ("2004-12-31", "105.30", "3300.00", "13315.88"),
                         ("2005-12-31", "154.92", "3375.00", "17300.28")])  # fmt: skip
    assert ledger.balance_before(date(2006, 2, 1)) == D("17300.28")
    residual = [e for e in ledger.entries if e.residual]
    assert [(e.date, e.amount) for e in residual] == [(date(2006, 12, 31), D("287.50"))]


CARLA_COMP = _comp(y2000="52000", y2001="53500", y2002="55000", y2003="56500", y2004="58000")


def test_carla_from_beginning_balance_with_q1_2000_interest_gap14(spec_market):
    ledger = account_ledger(
        account_open=date(2000, 1, 1), opening_balance=D("48507.49"),
        periods=[ActivePeriod(date(1986, 1, 1), date(2004, 12, 31))],
        compensation=CARLA_COMP, comp_limit=_cap, market=spec_market, as_of=AS_OF,
        through=date(2005, 1, 1), settings=BenefitSettings(), asd=date(2005, 1, 1),
    )  # fmt: skip
    _check_rows(ledger, [("2000-03-31", "727.61", "0", "49235.10"),
                         ("2000-12-31", "760.85", "2600.00", "54084.08"),
                         ("2001-12-31", "811.47", "2675.00", "59936.61"),
                         ("2002-12-31", "777.66", "2750.00", "65740.10"),
                         ("2003-12-31", "720.99", "2825.00", "71403.90"),
                         ("2004-12-31", "783.11", "2900.00", "77387.28")])  # fmt: skip
    assert ledger.balance_before(date(2005, 1, 1)) == D("77387.28")


def test_carla_without_q1_2000_interest_setting_gap14(spec_market):
    ledger = account_ledger(
        account_open=date(2000, 1, 1), opening_balance=D("48507.49"),
        periods=[ActivePeriod(date(1986, 1, 1), date(2004, 12, 31))],
        compensation=CARLA_COMP, comp_limit=_cap, market=spec_market, as_of=AS_OF,
        through=date(2000, 6, 30),
        settings=BenefitSettings(q1_2000_interest_on_beginning_balance=False),
    )  # fmt: skip
    # Q1 2000 earns nothing; Q2 earns 1.5% of 48,507.49 = 727.61.
    assert ledger.balance_at(date(2000, 3, 31)) == D("48507.49")
    assert ledger.balance_at(date(2000, 6, 30)) == D("49235.10")


def dan_ledger(market, through=date(2005, 12, 31)):
    comp = _comp(y2000="30000", y2001="31000", y2002="32000", y2003="33000", y2005="36000")
    return account_ledger(
        account_open=date(2001, 2, 1), opening_balance=D(0),
        periods=[ActivePeriod(date(2001, 2, 1), date(2003, 12, 31)), ActivePeriod(date(2005, 3, 1))],
        compensation=comp, comp_limit=_cap, market=market, as_of=AS_OF, through=through,
        settings=BenefitSettings(),
        forfeitures=[Forfeiture(date(2003, 12, 31), restored_on=date(2005, 3, 1))],
    )  # fmt: skip


def test_dan_forfeiture_restoration_and_continuation_s2_3a_s5_14a(spec_market):
    ledger = dan_ledger(spec_market)
    forfeit = [e for e in ledger.entries if e.kind == FORFEITURE]
    restore = [e for e in ledger.entries if e.kind == RESTORATION]
    assert [(e.date, e.amount) for e in forfeit] == [(date(2003, 12, 31), D("-4876.78"))]
    assert [(e.date, e.amount) for e in restore] == [(date(2005, 3, 1), D("5087.38"))]
    assert ledger.balance_at(date(2004, 12, 31)) == D("0")  # no credits while forfeited
    _check_rows(ledger, [("2005-03-31", "57.23", "0", "5144.61"),
                         ("2005-12-31", "59.19", "1500.00", "6820.21")])  # fmt: skip


def test_eve_balance_at_separation(spec_market):
    ledger = account_ledger(
        account_open=date(2003, 2, 1), opening_balance=D(0),
        periods=[ActivePeriod(date(2003, 2, 1), date(2007, 12, 31))],
        compensation={y: D("13000") for y in range(2002, 2008)}, comp_limit=_cap,
        market=spec_market, as_of=AS_OF, through=date(2008, 1, 1), settings=BenefitSettings(),
        asd=date(2008, 1, 1),
    )  # fmt: skip
    _check_rows(ledger, [("2003-12-31", "0.00", "595.83", "595.83"),
                         ("2005-12-31", "14.79", "650.00", "1979.76"),
                         ("2007-12-31", "33.47", "650.00", "3501.90")])  # fmt: skip
    assert ledger.balance_before(date(2008, 1, 1)) == D("3501.90")


def test_frank_cap_and_disability_deemed_pay_s1_12_s5_8(spec_market):
    ledger = account_ledger(
        account_open=date(2000, 1, 1), opening_balance=D("41000.00"),
        periods=[ActivePeriod(date(1998, 2, 1))],  # §1.17(a): treated as active while disabled
        compensation=_comp(y2000="240000", y2001="255000", y2002="110000"), comp_limit=_cap,
        market=spec_market, as_of=AS_OF, through=date(2004, 12, 31),
        settings=BenefitSettings(compensation_input="paid_while_active"),
        disability_date=date(2002, 6, 1),
    )  # fmt: skip
    for year in range(2000, 2005):
        (cc,) = [e for e in ledger.entries if e.kind == PAY_CREDIT and e.date.year == year]
        assert cc.amount == D("8500.00")
    _check_rows(ledger, [("2000-03-31", "615.00", "0", "41615.00"),
                         ("2001-12-31", "780.44", "8500.00", "63571.94"),
                         ("2004-12-31", "954.84", "8500.00", "99322.26")])  # fmt: skip


def gina_ledger(market, survivor_start):
    return account_ledger(
        account_open=date(2002, 6, 1), opening_balance=D(0),
        periods=[ActivePeriod(date(2002, 6, 1), date(2008, 8, 14))],
        compensation={y: D("50000") for y in range(2001, 2009)}, comp_limit=_cap,
        market=market, as_of=AS_OF, through=date(2008, 12, 31), settings=BenefitSettings(),
        asd=survivor_start,
    )  # fmt: skip


def test_gina_survivor_start_2008_09_01_no_post_death_credit_s5_12d(spec_market):
    ledger = gina_ledger(spec_market, date(2008, 9, 1))
    assert ledger.balance_before(date(2008, 9, 1)) == D("15889.06")
    # The 2008 credit on Jan–Jul pay is a residual after the survivor's ASD (GAP-2).
    assert [(e.date, e.amount) for e in ledger.entries if e.residual] == [(date(2008, 12, 31), D("1458.33"))]


def test_gina_survivor_start_2009_01_01_with_post_death_credits_s5_12d(spec_market):
    ledger = gina_ledger(spec_market, date(2009, 1, 1))
    _check_rows(ledger, [("2007-12-31", "153.00", "2500.00", "15537.50"),
                         ("2008-09-30", "178.75", "0", "16067.81"),
                         ("2008-12-31", "180.76", "1458.33", "17706.90")])  # fmt: skip
