"""Which months' published rates a start date needs, and when they are published (issue 25 item 2)."""

from __future__ import annotations

from datetime import date

from benefits.engine.market_needs import published_in, start_date_months, start_date_needs


def test_carver_db_march_start_needs_december_rates_published_in_january():
    # Carver DB §13.7(G): the third full calendar month before the start; relative values use the
    # §417(e)(3) segment rates of the same look-back month (Treas. Reg. §1.417(a)(3)-1(c)(2)(iv)).
    assert start_date_months("carver-db", date(2027, 3, 1)) == (date(2026, 12, 1),)
    assert start_date_months("carver-db", date(2027, 2, 1)) == (date(2026, 11, 1),)
    assert published_in(date(2026, 12, 1)) == date(2027, 1, 1)
    assert published_in(date(2026, 11, 1)) == date(2026, 12, 1)


def test_quaker_look_back_is_the_second_month_before_and_excludes_the_interest_credit_yield():
    # Quaker §1.2(e): the second month before the distribution; §4.4(c)'s November 10-year yield is the
    # interest credit's, projected for later years, not a start date's look-back rate.
    needs = start_date_needs("quaker-cash-balance", date(2027, 3, 1))
    assert {n.series for n in needs} == {"treasury_30y", "417e_segment_1", "417e_segment_2", "417e_segment_3"}
    assert start_date_months("quaker-cash-balance", date(2027, 3, 1)) == (date(2027, 1, 1),)


def test_401k_illustration_month_and_no_loan_rate():
    # The 401(k)'s annuity illustration: the November before the Plan Year (readings' defaults); the
    # prime rate of §8.3 prices loans, not a start date.
    assert start_date_months("carver-401k", date(2027, 3, 1)) == (date(2026, 11, 1),)


def test_esops_need_no_published_rate():
    assert start_date_months("carver-esop", date(2027, 3, 1)) == ()
    assert start_date_months("fairport-esop", date(2027, 3, 1)) == ()
