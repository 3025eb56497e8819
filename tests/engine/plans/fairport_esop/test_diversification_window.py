"""The diversification election window and maximum as the plan protocol reports them (F §6.4; Code
§401(a)(28)(B)). Expected values are worked from the plan text and SPEC E5 (Rosa: born 1962-03-03, a
Participant every Plan Year from 2007, so 55 on 2017-03-03 and 10 years at the end of 2016: QEP 2017-2022).

``years_of_participation`` counts Plan Years up to and including the as-of year, so Rosa has
``as_of.year - 2006`` of them."""

from datetime import date
from decimal import Decimal as D
from types import MappingProxyType, SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benefits.engine.plans import get_plan
from benefits.engine.plans.fairport_esop.contract import plan_outputs
from benefits.engine.types import Participant


def rosa(on: date, allocated="6050", elected="0") -> dict:
    p = Participant(
        id="rosa",
        birth_date=date(1962, 3, 3),
        hire_date=date(2007, 1, 1),
        plan_data=MappingProxyType(
            {
                "shares": allocated,
                "cash": "0",
                "share_value": "15",
                "years_of_participation": on.year - 2006,
                "shares_allocated_since_inception": allocated,
                "shares_diversified": elected,
            }
        ),
    )
    core = SimpleNamespace(vesting=SimpleNamespace(percent=D(100)), settings={})
    return plan_outputs(p, on, {}, core)["diversification"]


def test_the_plan_protocol_offers_diversification_with_its_methods():
    program = get_plan("fairport-esop").diversification
    assert program is not None and program.result_key == "diversification"
    # §6.4-1, -2, -3: distribution, three investment options in the plan, transfer to another plan
    assert len(program.methods) == 3
    assert "distribution" in program.methods[0]
    assert "90 days" in program.completion
    assert get_plan("carver-esop").diversification is None  # the base plan is missing (SPEC D2.1)


@pytest.mark.parametrize(
    ("on", "eligible"),
    [
        (date(2016, 12, 31), False),  # the day before the first window opens
        (date(2017, 1, 1), True),  # the day it opens: January 1 of the first QEP year
        (date(2023, 3, 31), True),  # the last day of the last window: 90 days after 2022-12-31
        (date(2023, 4, 1), False),  # the day after
    ],
)
def test_window_boundaries_on_both_sides(on, eligible):
    d = rosa(on, allocated="8040")
    assert d["eligible"] is eligible


def test_before_the_period_says_when_it_opens_and_why():
    d = rosa(date(2016, 12, 31))
    assert d["next_window_opens"] == "2017-01-01"
    assert d["qualified_election_period"] == {
        "first_plan_year": 2017,
        "last_plan_year": 2022,
        "age_55_on": "2017-03-03",
        "tenth_year_of_participation": 2016,
    }
    assert d["max_shares"] == "0.0000"


def test_after_the_period_says_when_it_closed():
    d = rosa(date(2023, 4, 1), allocated="8040")
    assert d["last_window_closed"] == "2023-03-31"
    assert "qep_year" not in d


def test_the_last_year_is_fifty_percent_and_earlier_years_twenty_five():
    # E5 2018 (year 2), measured after the 2017 window closed: 25% × 6,480 − 1,512.50 = 107.50
    y2 = rosa(date(2018, 6, 1), allocated="6480", elected="1512.50")
    assert (y2["qep_year"], y2["percent"], y2["last_year"], y2["max_shares"]) == (2, "25", False, "107.5000")
    # E5 2022 (year 6): 50% × 8,040 − 1,825 = 2,195
    y6 = rosa(date(2022, 6, 1), allocated="8040", elected="1825")
    assert (y6["qep_year"], y6["percent"], y6["last_year"], y6["max_shares"]) == (6, "50", True, "2195.0000")
    assert (y6["window_opens"], y6["window_closes"], y6["complete_by"]) == (
        "2022-01-01",
        "2023-03-31",
        "2023-06-29",
    )


def test_leap_year_window_closes_on_march_30():
    # E5 2019: 90 days after 2019-12-31 is 2020-03-30 (2020 is a leap year); carried out by 2020-06-28
    d = rosa(date(2019, 6, 1), allocated="6900", elected="1620")
    assert (d["window_closes"], d["complete_by"], d["max_shares"]) == ("2020-03-30", "2020-06-28", "105.0000")


def test_previously_diversified_shares_can_leave_nothing():
    d = rosa(date(2018, 6, 1), allocated="6480", elected="2000")
    assert d["eligible"] is True and d["max_shares"] == "0.0000"  # never below zero


@given(
    allocated=st.decimals(min_value=0, max_value=100000, places=4),
    elected=st.decimals(min_value=0, max_value=100000, places=4),
    month=st.integers(min_value=1, max_value=12),
    year=st.integers(min_value=2017, max_value=2022),
)
def test_the_maximum_never_exceeds_the_percentage_less_elected_and_is_never_negative(
    allocated, elected, month, year
):
    d = rosa(date(year, month, 15), allocated=str(allocated), elected=str(elected))
    m = D(d["max_shares"])
    pct = D(d["percent"]) / 100
    assert D(0) <= m <= max(D(0), pct * allocated - elected)
