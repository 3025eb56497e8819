"""Vesting schedules, top-heavy floors, full-vesting events, X = P(AB + D) − D, forfeiture timing."""

from dataclasses import replace
from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benefits.engine.trace import traces_off
from benefits.engine.vesting import (
    ALWAYS_VESTED,
    TopHeavyStatus,
    cliff,
    end_of_consecutive_plan_year_breaks,
    end_of_severance_periods,
    forfeiture_date,
    graded,
    top_heavy_percent,
    vest,
    vested_after_distribution,
)

CLIFF5 = cliff(5, name="five-year cliff", section="Carver DB §1.1(NN)")
GRADED_401K = graded(((1, 20), (2, 40), (3, 60), (4, 80), (5, 100)), name="1998", section="§4.1(c)")
TH_DB = graded(((2, 20), (3, 40), (4, 60), (5, 80), (6, 100)), name="TH", section="§6.2(C)")


@pytest.mark.parametrize(("years", "pct"), [(0, 0), (4, 0), (5, 100), (30, 100)])
def test_cliff_carver_db_1_1_nn(years, pct):
    assert CLIFF5.percent(years) == Decimal(pct)


@pytest.mark.parametrize(("years", "pct"), [(0, 0), (1, 20), (2, 40), (3, 60), (4, 80), (5, 100)])
def test_graded_401k_4_1_c(years, pct):
    assert GRADED_401K.percent(years) == Decimal(pct)


def test_always_vested_sources():
    assert ALWAYS_VESTED.percent(0) == 100


def test_top_heavy_floor_carver_db_example_6():
    # Carver DB Example 6: 4 years, Top-Heavy 1999-2000 and he worked then → 60%.
    th = TopHeavyStatus(TH_DB, applies=True, current=False, years_at_last_top_heavy_year=3)
    r = vest(4, CLIFF5, top_heavy=th)
    assert r.percent == 60
    assert r.schedule == "TH"


def test_top_heavy_keeps_percent_reached_when_plan_stops_being_top_heavy():
    # Under 3 years at the last top-heavy year: the percent reached then is kept, no more.
    th = TopHeavyStatus(TH_DB, applies=True, current=False, years_at_last_top_heavy_year=2)
    assert top_heavy_percent(th, 4) == 20
    # 3 or more years: the better schedule continues (the §411(a)(10) election).
    th3 = TopHeavyStatus(TH_DB, applies=True, current=False, years_at_last_top_heavy_year=3)
    assert top_heavy_percent(th3, 4) == 60


def test_full_vesting_event_gives_100_and_no_milestone():
    r = vest(1, CLIFF5, full_vesting_event=("death", "§x"))
    assert r.percent == 100
    assert r.full_vesting_event == "death"
    assert r.next_milestone is None


def test_next_milestone_uses_projection():
    r = vest(3, CLIFF5, projected_date=lambda n: date(2030, 6, 25) if n == 5 else None)
    assert r.next_milestone.years == 5
    assert r.next_milestone.percent == 100
    assert r.next_milestone.on == date(2030, 6, 25)


def test_x_equals_p_ab_plus_d_minus_d_401k_example_5():
    # 401(k) Example 5: P = 60%, AB = 4,200, D = 1,000 + 800 → X = 1,800.
    assert vested_after_distribution(Decimal(60), Decimal("4200.00"), Decimal("1800.00")) == Decimal(
        "1800.00"
    )
    assert vested_after_distribution(Decimal(80), Decimal("4200"), Decimal("1800")) == Decimal("3000")
    assert vested_after_distribution(Decimal(100), Decimal("4200"), Decimal("1800")) == Decimal("4200")
    # Floored at zero (assumption A10).
    assert vested_after_distribution(Decimal(20), Decimal("100"), Decimal("1000")) == 0


def test_forfeiture_timing():
    # 401(k) §4.2: at termination.
    assert forfeiture_date(
        timing="at_termination", termination=date(2003, 1, 31), vested_percent=Decimal(80)
    ) == date(2003, 1, 31)
    # Fairport E4a scenario A: first Break year 2012 → 12/31/2012; scenario B: distribution first.
    assert forfeiture_date(
        timing="break_or_distribution",
        termination=date(2011, 4, 15),
        vested_percent=Decimal(40),
        first_break_year=2012,
    ) == date(2012, 12, 31)
    assert forfeiture_date(
        timing="break_or_distribution",
        termination=date(2011, 4, 15),
        vested_percent=Decimal(40),
        first_break_year=2012,
        distribution_date=date(2011, 9, 1),
    ) == date(2011, 9, 1)
    # Fairport E4b: 0% vested → deemed distribution at termination.
    assert forfeiture_date(
        timing="break_or_distribution", termination=date(2011, 3, 31), vested_percent=Decimal(0)
    ) == date(2011, 3, 31)
    assert forfeiture_date(
        timing="five_breaks", termination=date(2003, 6, 13), vested_percent=Decimal(0), first_break_year=2003
    ) == date(2007, 12, 31)
    assert (
        forfeiture_date(timing="at_termination", termination=date(2003, 1, 31), vested_percent=Decimal(100))
        is None
    )


def test_break_period_ends():
    assert end_of_consecutive_plan_year_breaks(2003) == date(2007, 12, 31)
    assert end_of_severance_periods(date(2002, 6, 30)) == date(2007, 6, 30)


# ``vest`` works out its step text only when traced (issue 29): untraced, every figure is the traced one.
@given(
    years=st.integers(0, 40),
    schedule=st.sampled_from([CLIFF5, GRADED_401K, TH_DB]),
    th=st.none() | st.tuples(st.booleans(), st.booleans(), st.integers(0, 10)),
    event=st.none() | st.just(("death", "§5.1")),
)
def test_untraced_vest_gives_the_traced_figures(years, schedule, th, event):
    status = None if th is None else TopHeavyStatus(TH_DB, th[0], th[1], th[2])

    def run():
        return vest(
            years, schedule, top_heavy=status, full_vesting_event=event, projected_date=lambda n: None
        )

    traced = run()
    with traces_off():
        bare = run()
    assert bare.trace.as_list() == []
    assert replace(bare, trace=traced.trace) == traced
    assert bare.schedule_table is traced.schedule_table
