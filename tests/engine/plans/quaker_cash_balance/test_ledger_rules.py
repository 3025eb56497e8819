"""Edges of each account rule, each worked by hand from the plan text (section in the test name)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from benefits.engine.plans.quaker_cash_balance.compensation import (
    ActivePeriod,
    CountableCompensation,
    active_paydays,
    countable_compensation,
    disability_deemed_rate,
)
from benefits.engine.plans.quaker_cash_balance.ledger import account_ledger, build_ledger
from benefits.engine.plans.quaker_cash_balance.ledger_entries import INTEREST_CREDIT, PAY_CREDIT
from benefits.engine.plans.quaker_cash_balance.market import MarketData, MarketDataError, Rate
from benefits.engine.plans.quaker_cash_balance.settings import BenefitSettings

D = Decimal
S = BenefitSettings()


def flat(rate: str):
    return lambda year: Rate(D(rate), "test")


def ledger(rate="0.04", opening="10000.00", open_on=date(2000, 1, 1), pay=None, **kw):
    return build_ledger(
        account_open=open_on, opening_balance=D(opening), pay_credits=pay or {}, treasury_rate=flat(rate),
        settings=kw.pop("settings", S), through=kw.pop("through", date(2001, 12, 31)), **kw,
    )  # fmt: skip


def test_interest_cap_12pct_quarter_is_300_on_10000_s4_4a():
    # SPEC §15 A1 cap check: TR 13.10% → min(13.10%, 12%)/4 = 3.00% → $300.00.
    lg = ledger(rate="0.1310", through=date(2000, 3, 31))
    (ic,) = [e for e in lg.entries if e.kind == INTEREST_CREDIT]
    assert ic.amount == D("300.00") and "capped at 12%" in ic.basis


def test_interest_at_exactly_12pct_is_not_capped_s4_4a():
    lg = ledger(rate="0.12", through=date(2000, 3, 31))
    assert lg.balance_at(date(2000, 3, 31)) == D("10300.00")


def test_quarterly_compounding_on_prior_quarter_end_balance_s4_4a_ii():
    lg = ledger(rate="0.04", through=date(2000, 12, 31))
    # 1% a quarter, each on the previous quarter-end balance, rounded when posted.
    assert [e.amount for e in lg.entries if e.kind == INTEREST_CREDIT] == [
        D("100.00"), D("101.00"), D("102.01"), D("103.03")]  # fmt: skip


@pytest.mark.parametrize(
    ("asd", "expected_before"),
    [
        (date(2000, 7, 1), "10201.00"),  # first day of Q3: Q2's credit posted on June 30
        (date(2000, 8, 1), "10201.00"),  # inside Q3: no Q3 credit
        (date(2000, 9, 1), "10201.00"),
        (date(2000, 10, 1), "10303.01"),  # first day of Q4: Q3's credit is in
    ],
)
def test_no_interest_for_the_quarter_the_asd_falls_in_s4_4b(asd, expected_before):
    lg = ledger(rate="0.04", asd=asd, through=date(2000, 12, 31))
    assert lg.balance_before(asd) == D(expected_before)
    assert lg.balance_at(date(2000, 12, 31)) == D("0")  # debited to zero (§4.5)
    assert not [e for e in lg.entries if e.kind == INTEREST_CREDIT and e.date >= asd]


def test_contribution_credit_posts_dec31_and_earns_from_next_quarter_s4_3b():
    pay = {2000: CountableCompensation(2000, D("40000"), "test")}
    lg = ledger(rate="0.04", opening="0", open_on=date(2000, 3, 1), pay=pay, through=date(2001, 3, 31))
    dec31 = [e for e in lg.entries if e.date == date(2000, 12, 31)]
    # Q4 interest on the $0 base first, then the $2,000 credit (not interest-bearing this year).
    assert [(e.kind, e.amount) for e in dec31] == [(INTEREST_CREDIT, D("0.00")), (PAY_CREDIT, D("2000.00"))]
    assert lg.balance_at(date(2001, 3, 31)) == D("2020.00")  # Q1 2001: 1% of 2,000


def test_new_account_first_quarter_base_is_zero_s4_4():
    pay = {2001: CountableCompensation(2001, D("10000"), "test")}
    lg = ledger(opening="0", open_on=date(2001, 10, 1), pay=pay, through=date(2001, 12, 31))
    assert lg.balance_at(date(2001, 12, 31)) == D("500.00")


def test_final_year_credit_residual_after_asd_gap2_default():
    pay = {2000: CountableCompensation(2000, D("20000"), "test")}
    lg = ledger(pay=pay, asd=date(2000, 5, 1), through=date(2000, 12, 31))
    assert lg.balance_before(date(2000, 5, 1)) == D("10100.00")
    (res,) = [e for e in lg.entries if e.residual]
    assert (res.date, res.amount, res.balance) == (date(2000, 12, 31), D("1000.00"), D("1000.00"))


def test_final_year_credit_at_separation_setting_gap2(spec_market):
    settings = BenefitSettings(final_year_credit="separation")
    lg = account_ledger(
        account_open=date(2001, 2, 1), opening_balance=D(0),
        periods=[ActivePeriod(date(2001, 2, 1), date(2006, 1, 31))],
        compensation={y: D("60000") for y in range(2001, 2007)}, comp_limit=lambda y: D("170000"),
        market=spec_market, as_of=date(2026, 1, 1), through=date(2006, 12, 31), settings=settings,
        asd=date(2006, 2, 1),
    )  # fmt: skip
    # The Jan 2006 payday's 5% ($250) posts on the 1/31 separation, before the 2/1 ASD.
    assert [e.amount for e in lg.entries if e.date == date(2006, 1, 31)] == [D("250.00")]
    assert not [e for e in lg.entries if e.residual]


def test_interest_floor_setting_gap13():
    lg = ledger(rate="-0.004", through=date(2000, 3, 31))
    assert lg.balance_at(date(2000, 3, 31)) == D("9990.00")  # no floor: the rate as computed
    lg = ledger(rate="-0.004", through=date(2000, 3, 31), settings=BenefitSettings(interest_floor=D("0")))
    assert lg.balance_at(date(2000, 3, 31)) == D("10000.00")


def test_q1_2000_interest_setting_gap14():
    assert ledger(through=date(2000, 3, 31)).balance_at(date(2000, 3, 31)) == D("10100.00")
    off = BenefitSettings(q1_2000_interest_on_beginning_balance=False)
    assert ledger(through=date(2000, 3, 31), settings=off).balance_at(date(2000, 3, 31)) == D("10000.00")


def test_unrounded_postings_setting_gap15():
    lg = ledger(rate="0.0333", opening="1000.00", through=date(2000, 3, 31),
                settings=BenefitSettings(round_each_posting=False))  # fmt: skip
    assert lg.balance_at(date(2000, 3, 31)) == D("1008.325")


def test_paydays_count_only_while_active_s4_3a():
    periods = [ActivePeriod(date(2001, 10, 1), date(2007, 10, 15))]
    assert active_paydays(periods, 2001) == 3  # Oct, Nov, Dec
    assert active_paydays(periods, 2007) == 9  # Oct 31 payday is after separation (AMBIG-3)
    assert active_paydays(periods, 2008) == 0
    assert active_paydays([ActivePeriod(date(2003, 2, 1), date(2003, 12, 31))], 2003) == 11


def test_compensation_cap_and_gap9_proration_s1_12():
    periods = [ActivePeriod(date(2001, 7, 1))]
    c = countable_compensation(year=2001, periods=periods, compensation={2001: D("400000")},
                               comp_limit=D("170000"), settings=S)  # fmt: skip
    assert c.amount == D("170000")  # 400,000 × 6/12 = 200,000, capped at the full-year limit
    c = countable_compensation(year=2001, periods=periods, compensation={2001: D("400000")},
                               comp_limit=D("170000"), settings=BenefitSettings(prorate_compensation_limit=True))  # fmt: skip
    assert c.amount == D("85000")


def test_loan_agent_cap_s1_12():
    c = countable_compensation(year=2005, periods=[ActivePeriod(date(2000, 1, 1))],
                               compensation={2005: D("120000")}, comp_limit=D("210000"), settings=S,
                               loan_agent_limit=D("95000"))  # fmt: skip
    assert c.amount == D("95000") and "loan agent" in c.basis


def test_disability_deemed_rate_s5_8_and_ambig7():
    paid = BenefitSettings(compensation_input="paid_while_active")
    comp = {2001: D("255000"), 2002: D("110000")}
    # Frank: max(110,000 × 12/5, 255,000) = 264,000 (SPEC Example 6).
    assert disability_deemed_rate(comp, date(2002, 6, 1), paid) == D("264000")
    assert disability_deemed_rate({2001: D("300000"), 2002: D("110000")}, date(2002, 6, 1), paid) == D(
        "300000"
    )
    alt = BenefitSettings(
        compensation_input="paid_while_active", disability_compensation="rate_at_disability"
    )
    assert disability_deemed_rate({2001: D("300000"), 2002: D("110000")}, date(2002, 6, 1), alt) == D(
        "264000"
    )
    c = countable_compensation(year=2002, periods=[ActivePeriod(date(1998, 2, 1))], compensation=comp,
                               comp_limit=D("1000000"), settings=paid, disability_date=date(2002, 6, 1))  # fmt: skip
    assert c.amount == D("264000")  # 110,000 + 7/12 × 264,000


def test_treasury_rate_uses_the_prior_november_s4_4c():
    m = MarketData.from_assumptions({"treasury_10y_november": {"2006": "4.60", "2007": "4.10"}})
    assert m.treasury_rate(2007, allow_estimate=False).value == D("0.046")
    assert m.treasury_rate(2008, allow_estimate=False).value == D("0.041")
    est = m.treasury_rate(2010, allow_estimate=True)
    assert est.value == D("0.041") and est.estimate  # GAP-4: held flat
    with pytest.raises(MarketDataError) as exc:
        m.treasury_rate(2010, allow_estimate=False)
    assert exc.value.field == "/assumptions/treasury_10y_november/2009"


def test_applicable_interest_rate_is_the_second_month_before_s1_2e():
    m = MarketData.from_assumptions({"applicable_interest_rate": {"2008-01": "4.35", "2007-12": "4.50"}})
    assert m.applicable_interest_rate_for(date(2008, 3, 1)).value == D("0.0435")
    assert m.applicable_interest_rate_for(date(2008, 2, 1)).value == D("0.045")
    later = m.applicable_interest_rate_for(date(2030, 4, 1))  # after the data: held flat (GAP-4)
    assert later.value == D("0.0435") and later.estimate
    with pytest.raises(MarketDataError) as exc:  # before the data: an error naming the month
        m.applicable_interest_rate_for(date(2007, 4, 1))
    assert exc.value.field == "/assumptions/applicable_interest_rate/2007-02"


@pytest.mark.parametrize(
    ("raw", "pointer"),
    [
        ({"treasury_10y_november": {"x": "4"}}, "/assumptions/treasury_10y_november/x"),
        ({"treasury_10y_november": {"2001": "abc"}}, "/assumptions/treasury_10y_november/2001"),
        ({"applicable_interest_rate": {"2001-13": "5"}}, "/assumptions/applicable_interest_rate/2001-13"),
    ],
)
def test_malformed_market_data_names_the_field(raw, pointer):
    with pytest.raises(MarketDataError) as exc:
        MarketData.from_assumptions(raw)
    assert exc.value.field == pointer


def test_mid_year_non_vested_separation_forfeits_and_restores_with_interest_s2_3a_s5_14a():
    from benefits.engine.plans.quaker_cash_balance.ledger_entries import FORFEITURE, RESTORATION, Forfeiture

    pay = {2000: CountableCompensation(2000, D("20000"), "test")}
    lg = ledger(rate="0.04", pay=pay, through=date(2001, 6, 30),
                forfeitures=[Forfeiture(date(2000, 8, 15), restored_on=date(2001, 2, 1))])  # fmt: skip
    # Debited on Aug 15: the Q1 and Q2 credits (100.00, 101.00) were in; 10,201.00 goes.
    first = [e for e in lg.entries if e.kind == FORFEITURE][0]
    assert (first.date, first.amount) == (date(2000, 8, 15), D("-10201.00"))
    # The 2000 credit falls after the forfeiture: shown, forfeited at once (GAP-2 work item).
    dec31 = [(e.kind, e.amount, e.residual) for e in lg.entries if e.date == date(2000, 12, 31)]
    assert dec31 == [(PAY_CREDIT, D("1000.00"), True), (FORFEITURE, D("-1000.00"), False)]
    # Restored: the debited amount with the Q3 and Q4 credits it would have earned (1% each):
    # 10,201.00 + 102.01 = 10,303.01; + 103.03 = 10,406.04. Q1 2001 then earns on it: 104.06.
    (rest,) = [e for e in lg.entries if e.kind == RESTORATION]
    assert (rest.date, rest.amount) == (date(2001, 2, 1), D("10406.04"))
    assert lg.balance_at(date(2001, 3, 31)) == D("10510.10")


def test_ivy_top_heavy_minimum_s7_2():
    from benefits.engine.plans.quaker_cash_balance.limits import top_heavy_minimum_annual

    amount, _ = top_heavy_minimum_annual(3, D("48000"))
    assert amount == D("2880.00")  # SPEC Example 9: $240.00 a month
    assert top_heavy_minimum_annual(14, D("48000"))[0] == D("9600.00")  # capped at 20%


def test_ben_section_415b_check_s5_15():
    from benefits.engine.plans.quaker_cash_balance.limits import section_415b

    # SPEC Example 2: $1,629.36 a year; 6 years of service → de minimis $6,000 with no DC plan.
    de_min = section_415b(D("1629.36"), dollar_limit=D("90000"), high3_compensation=D("66000"),
                          years_of_participation=D("5"), years_of_service=D("6"), had_dc_plan=False)  # fmt: skip
    assert de_min.limit is None and de_min.passes
    # With a Bank DC plan: min(90,000 × 5/10, 66,000 × 6/10) = 39,600.
    full = section_415b(D("1629.36"), dollar_limit=D("90000"), high3_compensation=D("66000"),
                        years_of_participation=D("5"), years_of_service=D("6"), had_dc_plan=True)  # fmt: skip
    assert full.limit == D("39600.00") and full.passes
    over = section_415b(D("40000"), dollar_limit=D("90000"), high3_compensation=D("66000"),
                        years_of_participation=D("5"), years_of_service=D("6"), had_dc_plan=True)  # fmt: skip
    assert not over.passes


def test_cash_out_rules_s5_16():
    from benefits.engine.plans.quaker_cash_balance.limits import cash_out

    c = cash_out(
        separation=date(2007, 12, 31), vested_balance=D("5000.00"), settings=S, as_of=date(2008, 1, 1)
    )
    assert c.required and c.commencement_date == date(2008, 1, 1)  # "not more than $5,000"
    assert not cash_out(separation=date(2007, 12, 31), vested_balance=D("5000.01"), settings=S,
                        as_of=date(2008, 1, 1)).required  # fmt: skip
    assert not cash_out(separation=date(2007, 12, 31), vested_balance=D("3000"), settings=S, as_of=date(2008, 1, 1),
                        prior_distribution_over_limit=True).required  # fmt: skip
    # AMBIG-18: the test uses the larger grandfathered floor.
    assert not cash_out(separation=date(2007, 12, 31), vested_balance=D("3000"), settings=S, as_of=date(2008, 1, 1),
                        floor=D("6000")).required  # fmt: skip


def test_415_dollar_limit_age_adjustment_s1_2a_c():
    from benefits.engine.mortality import get_table
    from benefits.engine.plans.quaker_cash_balance.limits import age_adjusted_dollar_limit, high3_average

    table = get_table("gatt1983_unisex")
    limit = D("160000")
    at = {a: age_adjusted_dollar_limit(limit, age=a, table=table)[0] for a in (55, 60, 61.5, 62, 65, 67, 70)}
    assert at[62] == at[65] == limit  # no adjustment from 62 to 65
    assert at[55] < at[60] < at[61.5] < limit  # reduced (8%) before 62
    assert limit < at[67] < at[70]  # increased (5%) after 65
    # §5.15(a)(ii): best three consecutive years while a Participant.
    comp = {2001: D("50000"), 2002: D("90000"), 2003: D("60000"), 2004: D("80000"), 2005: D("40000")}
    assert high3_average(comp, 2001, 2005) == D("230000") / 3
    assert high3_average(comp, 2004, 2005) == D("60000")
