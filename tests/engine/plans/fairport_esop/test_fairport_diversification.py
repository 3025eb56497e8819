"""Golden test E5 (SPEC Part C), recomputed from F §6.4."""

from datetime import date
from decimal import Decimal as D

import pytest

from benefits.engine.plans.fairport_esop.diversification import (
    diversification_status,
    election_windows,
    max_diversifiable,
    qep_first_year,
)
from benefits.engine.plans.fairport_esop.settings import BenefitSettings

ROSA_BIRTH = date(1962, 3, 3)


def test_e5_qep_starts_2017():
    # 10 years of participation completed with 2016 (2007-2016); age 55 on 2017-03-03.
    first, _ = qep_first_year(ROSA_BIRTH, 2016)
    assert first == 2017


E5_WINDOWS = [
    (2017, date(2018, 3, 31), date(2018, 6, 29)),
    (2018, date(2019, 3, 31), date(2019, 6, 29)),
    (2019, date(2020, 3, 30), date(2020, 6, 28)),  # 2020 is a leap year
    (2020, date(2021, 3, 31), date(2021, 6, 29)),
    (2021, date(2022, 3, 31), date(2022, 6, 29)),
    (2022, date(2023, 3, 31), date(2023, 6, 29)),
]


def test_e5_election_windows_6_4():
    ws = election_windows(2017)
    assert [(w.plan_year, w.closes, w.complete_by) for w in ws] == E5_WINDOWS
    assert all(w.opens == date(w.plan_year, 1, 1) for w in ws)


E5_ROWS = [  # QEP year, cumulative shares, elected before, expected maximum
    (1, "6050", "0", "1512.5000"),
    (2, "6480", "1512.50", "107.5000"),
    (3, "6900", "1620.00", "105.0000"),
    (4, "7300", "1620.00", "205.0000"),
    (5, "7680", "1825.00", "95.0000"),
    (6, "8040", "1825.00", "2195.0000"),
]


@pytest.mark.parametrize("year,cum,before,expected", E5_ROWS)
def test_e5_maximum_per_year_share_reading(year, cum, before, expected):
    assert max_diversifiable(year, D(cum), D(before)).max_shares == D(expected)


def test_e5_year6_value_reading_gap_d1_11():
    lim = max_diversifiable(
        6,
        D(8040),
        D(1825),
        account_shares=D(6215),
        account_cash=D(30375),
        share_value=D(15),
        settings=BenefitSettings(diversification_year6_basis="value"),
    )
    assert lim.max_shares == D("2295.0000")  # (61,800 − 27,375) / 15


def test_limit_never_negative():
    assert max_diversifiable(2, D(1000), D(400)).max_shares == 0


def test_e5_status_in_overlap_uses_earlier_year_gap_d1_12():
    # 2018-02-15: both the 2017 and 2018 windows are open; 12 Plan Years of participation (2007-2018).
    s = diversification_status(
        birth_date=ROSA_BIRTH,
        as_of=date(2018, 2, 15),
        years_of_participation=12,
        shares_allocated_since_inception=D(6050),
        shares_diversified=D(0),
    )
    assert s.eligible
    assert [w.plan_year for w in s.windows_open] == [2017, 2018]
    assert s.window.qep_year == 1
    assert s.max_shares == D("1512.5000")


def test_e5_status_year6_and_after():
    s = diversification_status(
        birth_date=ROSA_BIRTH,
        as_of=date(2022, 6, 1),
        years_of_participation=16,
        shares_allocated_since_inception=D(8040),
        shares_diversified=D(1825),
    )
    assert s.eligible and s.window.qep_year == 6 and s.max_shares == D("2195.0000")
    tail = diversification_status(
        birth_date=ROSA_BIRTH,
        as_of=date(2023, 3, 31),
        years_of_participation=17,
        shares_allocated_since_inception=D(8040),
        shares_diversified=D(1825),
    )
    assert tail.eligible and tail.window.qep_year == 6
    after = diversification_status(
        birth_date=ROSA_BIRTH,
        as_of=date(2023, 4, 1),
        years_of_participation=17,
        shares_allocated_since_inception=D(8040),
        shares_diversified=D(4020),
    )
    assert not after.eligible and after.max_shares == 0


def test_not_eligible_before_age_55_or_10_years():
    s = diversification_status(
        birth_date=ROSA_BIRTH,
        as_of=date(2016, 6, 1),
        years_of_participation=10,
        shares_allocated_since_inception=D(6000),
        shares_diversified=D(0),
    )
    assert not s.eligible  # 54 in 2016
    s = diversification_status(
        birth_date=date(1950, 1, 1),
        as_of=date(2016, 6, 1),
        years_of_participation=9,
        shares_allocated_since_inception=D(6000),
        shares_diversified=D(0),
    )
    assert not s.eligible and s.qep_first_year == 2017


def test_tenth_participation_year_gap_d1_10():
    from benefits.engine.plans.fairport_esop.diversification import tenth_participation_year

    assert tenth_participation_year(date(2007, 1, 1)) == 2016  # Rosa: 2007-2016
    assert tenth_participation_year(date(2012, 7, 1)) == 2021  # entry year counts by default
    assert (
        tenth_participation_year(date(2012, 7, 1), BenefitSettings(count_entry_year_as_participation=False))
        == 2022
    )
    assert (
        tenth_participation_year(date(2012, 1, 1), BenefitSettings(count_entry_year_as_participation=False))
        == 2021
    )
