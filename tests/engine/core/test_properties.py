"""Hypothesis properties of service and vesting."""

from datetime import date, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine.plans.carver_401k import rules as k401
from benefits.engine.plans.fairport_esop import rules as fairport
from benefits.engine.service import HoursRules, ParityRule, elapsed_service, hours_service
from benefits.engine.types import EmploymentPeriod as EP
from benefits.engine.vesting import cliff, graded, vest

PARITY = ParityRule("§", min_breaks=5, parity=True)
RULES = HoursRules(year_section="", break_section="", parity=PARITY)
SCHEDULES = [
    cliff(5, name="c5", section=""),
    graded(((2, 20), (3, 40), (4, 60), (5, 80), (6, 100)), name="g6", section=""),
    k401.SCHEDULE_1998,
    fairport.SCHEDULE,
]
hours_st = st.lists(st.integers(min_value=0, max_value=3000), min_size=1, max_size=25)


def _hist(hours_list, as_of_offset=0):
    start = 1990
    hours = {start + i: h for i, h in enumerate(hours_list)}
    as_of = date(start + len(hours_list) - 1 + as_of_offset, 12, 31)
    return hours_service(
        periods=(EP(date(start, 1, 2), None),),
        birth_date=date(1960, 1, 1),
        hours=hours,
        as_of=as_of,
        rules=RULES,
        is_vested=lambda n: n >= 5,
    )


@given(
    st.lists(st.integers(min_value=501, max_value=3000), min_size=1, max_size=25),
    st.integers(min_value=501, max_value=3000),
)
def test_vesting_never_decreases_without_breaks(hours_list, extra):
    before = _hist(hours_list)
    after = _hist(hours_list + [extra])
    assert after.total_years >= before.total_years
    for s in SCHEDULES:
        assert vest(after.total_years, s).percent >= vest(before.total_years, s).percent


@given(hours_st)
def test_a_year_of_service_needs_the_hours(hours_list):
    h = _hist(hours_list)
    for row in h.years:
        assert row.credited == (row.hours_counted >= 1000)
        if row.is_break:
            assert row.hours <= 500 and not row.credited
    assert h.total_years == sum(1 for r in h.years if r.credited) - h.lost_years


@given(hours_st)
def test_parity_never_restores_what_the_plan_says_is_lost(hours_list):
    h = _hist(hours_list)
    for e in h.events:
        should_lose = e.breaks >= 5 and not e.vested_at_break and e.breaks >= e.pre_break_years
        assert e.lost == should_lose
    # Service counted never exceeds the credited years after the last loss.
    last_loss = max((i for i, r in enumerate(h.years) if "no longer count" in r.note), default=-1)
    counted = sum(1 for r in h.years[max(last_loss, 0) :] if r.credited)
    assert h.total_years <= counted


@given(st.integers(min_value=0, max_value=60))
def test_vested_percent_within_0_and_100(years):
    for s in SCHEDULES:
        assert 0 <= vest(years, s).percent <= 100


@settings(max_examples=50)
@given(
    st.lists(
        st.tuples(st.integers(min_value=1, max_value=2000), st.integers(min_value=1, max_value=2500)),
        min_size=1,
        max_size=5,
    )
)
def test_elapsed_time_years_are_days_over_365(spans):
    periods, start = [], date(1990, 1, 1)
    for length, gap in spans:
        end = start + timedelta(days=length)
        periods.append(EP(start, end))
        start = end + timedelta(days=gap)
    as_of = periods[-1].end
    h = elapsed_service(
        periods=tuple(periods), as_of=as_of, rules=k401.ELAPSED_RULES, is_vested=lambda n: False
    )
    assert h.total_years == h.total_days // 365
    assert 0 <= k401.SCHEDULE_1998.percent(h.total_years) <= 100
    for e in h.events:
        assert e.lost == (e.breaks >= 5 and e.breaks >= e.pre_break_years)
