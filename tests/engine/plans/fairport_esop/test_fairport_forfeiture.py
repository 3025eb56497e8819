"""Golden test E4 (SPEC Part C) and vested-balance rules, recomputed from F §9.1, §9.5-§9.7, §7.2-2(i)(B)."""

from datetime import date
from decimal import Decimal as D

import pytest

from benefits.engine.plans.fairport_esop.distribution import payment_form, small_balance_route
from benefits.engine.plans.fairport_esop.forfeiture import (
    forfeiture_split,
    forfeiture_timing,
    restoration,
    vested_balance,
)
from benefits.engine.plans.fairport_esop.settings import BenefitSettings


def test_e4a_paul_vested_balance_9_1():
    vb = vested_balance(D(900), D("350.00"), D("10.80"), D(40))
    assert vb.balance == D("10070.00")
    assert vb.vested_balance == D("4028.00")


def test_e4a_forfeiture_cash_first_then_stock_9_6():
    f = forfeiture_split(D(900), D("350.00"), D("10.80"), D(40))
    assert f.nonvested_value == D("6042.00")
    assert f.cash_forfeited == D("350.00")
    assert f.shares_forfeited == D("527.0370")  # (6,042 − 350) / 10.80
    assert f.shares_kept == D("372.9630")
    assert f.cash_kept == 0
    assert (f.shares_kept * D("10.80")).quantize(D("0.01")) == D("4028.00")


def test_forfeiture_only_from_cash_when_cash_covers_it_9_6():
    f = forfeiture_split(D(100), D(500), D(10), D(80))  # balance 1,500; nonvested 300
    assert (f.cash_forfeited, f.shares_forfeited) == (D(300), 0)


PAUL_HOURS = {2008: 1700, 2009: 2080, 2010: 2080, 2011: 600, 2012: 0, 2013: 0}


def test_e4a_scenario_a_break_forfeiture_certain_at_year_end_gap_d1_5():
    t = forfeiture_timing(date(2011, 4, 15), D(40), hours=PAUL_HOURS)
    # 2011 has 600 hours (> 500): not a Break. 2012 is the first Break.
    assert t.certain_on == date(2012, 12, 31)
    assert t.reallocated_on == date(2012, 12, 31)
    assert t.reason == "break_in_service"


def test_e4a_scenario_a_rehire_before_break_means_no_forfeiture():
    hours = {**PAUL_HOURS, 2012: 700}
    hours.pop(2013)
    t = forfeiture_timing(date(2011, 4, 15), D(40), hours=hours)
    assert t.certain_on is None


def test_e4a_scenario_b_distribution_forfeits_on_payment_9_5():
    t = forfeiture_timing(date(2011, 4, 15), D(40), hours=PAUL_HOURS, full_distribution_date=date(2011, 9, 1))
    assert t.certain_on == date(2011, 9, 1)
    assert t.reallocated_on == date(2011, 12, 31)
    assert t.reason == "distribution"


def test_e4a_scenario_b_paid_without_consent_by_rollover_in_cash_10_1():
    r = small_balance_route(D("4028.00"), 2011)
    assert r.route == "automatic_rollover"
    assert not r.consent_needed and r.in_cash


def test_e4a_scenario_b_in_stock_372_whole_shares_and_cash_for_the_fraction():
    pf = payment_form(
        vested_shares=D("372.9630"), vested_cash=D(0), share_value=D("10.80"), without_consent=False
    )
    assert pf.whole_shares == 372
    assert pf.cash == D("10.40")  # 0.9630 × 10.80 = 10.4004


def test_e4a_restoration_dollars_9_5():
    r = restoration(
        return_date=date(2014, 5, 1),
        consecutive_breaks=2,
        distributed=D("4028.00"),
        deemed=False,
        forfeited_cash=D("350.00"),
        forfeited_shares=D("527.0370"),
        forfeited_value=D("6042.00"),
        share_value_now=D("13.00"),
    )
    assert r.eligible
    assert r.repayment_required == D("4028.00")
    assert r.repay_by == date(2019, 5, 1)
    assert r.restored_value == D("6042.00")
    assert r.source_order[0] == "forfeitures"


def test_e4a_restoration_same_shares_gap_d1_6():
    r = restoration(
        return_date=date(2014, 5, 1),
        consecutive_breaks=2,
        distributed=D("4028.00"),
        deemed=False,
        forfeited_cash=D("350.00"),
        forfeited_shares=D("527.0370"),
        forfeited_value=D("6042.00"),
        share_value_now=D("13.00"),
        settings=BenefitSettings(restoration_measure="shares"),
    )
    assert r.restored_value == D("7201.48")  # 527.0370 × 13 + 350


def test_no_restoration_after_five_breaks_9_5():
    r = restoration(
        return_date=date(2020, 1, 1),
        consecutive_breaks=5,
        distributed=D(0),
        deemed=True,
        forfeited_cash=D(0),
        forfeited_shares=D(150),
        forfeited_value=D(1500),
        share_value_now=D(10),
    )
    assert not r.eligible and r.restored_value == 0


def test_e4b_quinn_zero_vested_deemed_distribution_9_5():
    t = forfeiture_timing(date(2011, 3, 31), D(0), hours={2009: 980, 2010: 2000, 2011: 480})
    assert t.certain_on == date(2011, 3, 31)
    assert t.reallocated_on == date(2011, 12, 31)
    assert t.reason == "deemed_distribution"
    r = restoration(
        return_date=date(2012, 9, 4),
        consecutive_breaks=1,
        distributed=D(0),
        deemed=True,
        forfeited_cash=D(0),
        forfeited_shares=D(150),
        forfeited_value=D(1500),
        share_value_now=D(10),
    )
    assert r.eligible
    assert r.restored_as_of == date(2012, 9, 4)
    assert r.repayment_required == 0


def test_restoration_without_distribution_includes_earnings_9_5():
    r = restoration(
        return_date=date(2013, 2, 1),
        consecutive_breaks=1,
        distributed=D(0),
        deemed=False,
        forfeited_cash=D(0),
        forfeited_shares=D(100),
        forfeited_value=D(1000),
        share_value_now=D(12),
        earnings_since=D("85.50"),
    )
    assert r.restored_value == D("1085.50")


def test_fully_vested_forfeits_nothing_9_7():
    assert forfeiture_timing(date(2011, 4, 15), D(100), hours={}).certain_on is None


def test_elected_dividends_fully_vested_7_2_2_i_b():
    vb = vested_balance(D(100), D(0), D(10), D(0), elected_dividends=D(200))
    assert vb.vested_balance == D("200.00")


def test_vested_percent_out_of_range():
    with pytest.raises(ValueError):
        vested_balance(D(1), D(0), D(1), D(101))
