"""``hours_service``'s usual path (untraced, no parental leave, no Plan Year cut by an age exclusion)
gives what the general loop gives, field for field and row for row.

Over random histories (several employment periods, breaks and returns, first-year rules, pre-plan
caps, service caps, prior years, calculation dates on and off December 31) the usual path's history
equals the general loop's (run traced, so it takes the general loop), less the trace, which untraced
is empty. Its rows are built only when read (``LazyYears``); ``year_summary`` gives their year,
credit and running total without building them.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
from datetime import date, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine.service import (
    HoursRules,
    LazyYears,
    ParentalLeave,
    ParityRule,
    hours_service,
)
from benefits.engine.trace import traces_off
from benefits.engine.types import EmploymentPeriod


@st.composite
def histories(draw):
    birth = draw(st.dates(date(1940, 1, 1), date(1990, 12, 31)))
    start = draw(st.dates(date(birth.year + 14, 1, 1), date(birth.year + 40, 12, 31)))
    periods = []
    for _ in range(draw(st.integers(1, 3))):
        length = draw(st.integers(0, 6000))
        end = start + timedelta(days=length)
        periods.append(EmploymentPeriod(start, end))
        start = end + timedelta(days=draw(st.integers(1, 3000)))
    if draw(st.booleans()):
        periods[-1] = EmploymentPeriod(periods[-1].start, None)
    first_year = periods[0].start.year
    last_year = (periods[-1].end or periods[-1].start).year + draw(st.integers(0, 8))
    as_of = draw(
        st.one_of(
            st.dates(periods[0].start, date(last_year, 12, 31)),
            st.integers(first_year, last_year).map(lambda y: date(y, 12, 31)),
        )
    )
    hours = {
        y: draw(st.sampled_from([0, 1, 250, 500, 501, 999, 1000, 1001, 1800, 2080, 2600]))
        for y in range(first_year - 1, last_year + 2)
        if draw(st.integers(0, 5))
    }
    rules = HoursRules(
        year_section="§ year",
        break_section="§ break",
        parity=ParityRule(
            "§ parity",
            min_breaks=draw(st.integers(1, 6)),
            parity=draw(st.booleans()),
            vested_protects=draw(st.booleans()),
        ),
        year_of_service_hours=draw(st.sampled_from([1000, 1000, 870, 400])),
        break_at_most_hours=draw(st.sampled_from([500, 500, 0, 750])),
        first_year_rule=draw(
            st.sampled_from(["none", "employment_year_for_hire_year", "next_year_if_neither"])
        ),
        exclude_before_age=draw(st.sampled_from([None, None, 18, 21])),
        effective_year=draw(st.one_of(st.none(), st.integers(first_year - 2, last_year + 2))),
        pre_effective_cap=draw(st.sampled_from([None, 0, 1, 3])),
        max_years=draw(st.sampled_from([None, None, 3, 10])),
    )
    vested_from = draw(st.integers(0, 6))
    return dict(
        periods=tuple(periods),
        birth_date=birth,
        hours=hours,
        as_of=as_of,
        rules=rules,
        is_vested=lambda n: n >= vested_from,
        first_year_hours=draw(st.one_of(st.none(), st.sampled_from([0, 999, 1000, 1500]))),
        prior_years=draw(st.sampled_from([0, 0, 2])),
        hours_before_age=draw(st.sampled_from([None, {}])),
    )


def _general(kw):
    return hours_service(**kw)  # traced: the general loop


def _usual(kw):
    with traces_off():
        return hours_service(**kw)


@settings(max_examples=600, deadline=None)
@given(histories())
def test_usual_path_equals_the_general_loop(kw):
    try:
        general = _general(kw)
    except ValueError as exc:  # e.g. no employment on or before the date: the same error either way
        try:
            _usual(kw)
        except ValueError as again:
            assert type(again) is type(exc) and str(again) == str(exc)
            return
        raise AssertionError("the usual path did not raise") from exc
    usual = _usual(kw)
    assert usual.trace.steps == ()
    assert usual.year_summary() == general.year_summary()
    assert tuple(usual.years) == general.years
    assert dataclasses.replace(usual, trace=general.trace) == general
    for n in range(0, general.total_years + 3):
        assert usual.projected_date(n) == general.projected_date(n)


@settings(max_examples=400, deadline=None)
@given(histories())
def test_date_years_reached_without_the_rows_equals_the_rows(kw):
    """``date_years_reached`` on the lazy rows (built only for the rows it reads) gives what the
    general loop's rows give, for every n, before the rows are built and after."""
    if kw["periods"][0].start > kw["as_of"]:
        return
    usual, general = _usual(kw), _general(kw)
    top = general.prior_years + len(general.years) + 2
    unbuilt = [usual.date_years_reached(n) for n in range(-1, top)]
    lazy = isinstance(usual.years, LazyYears)
    if lazy:
        assert usual.years._rows is None  # answered from the hours, no row built
    assert unbuilt == [general.date_years_reached(n) for n in range(-1, top)]
    if lazy:
        usual.years.rows()
    assert [usual.date_years_reached(n) for n in range(-1, top)] == unbuilt


@settings(max_examples=200, deadline=None)
@given(histories())
def test_usual_path_taken_when_no_year_is_cut_by_age(kw):
    rules = kw["rules"]
    cut = rules.exclude_before_age is not None and (
        kw["birth_date"].year + rules.exclude_before_age >= kw["periods"][0].start.year
    )
    if kw["periods"][0].start > kw["as_of"]:
        return
    assert isinstance(_usual(kw).years, LazyYears) is not cut


def test_parental_leave_takes_the_general_loop():
    kw = dict(
        periods=(EmploymentPeriod(date(2000, 3, 1), None),),
        birth_date=date(1970, 1, 1),
        hours={2000: 1500, 2001: 300, 2002: 2000},
        as_of=date(2002, 12, 31),
        rules=HoursRules(year_section="", break_section="", parity=ParityRule("")),
        is_vested=lambda n: n >= 3,
        parental_leaves=(ParentalLeave(date(2001, 2, 1), date(2001, 5, 1)),),
    )
    usual = _usual(kw)
    assert type(usual.years) is tuple
    assert dataclasses.replace(usual, trace=_general(kw).trace) == _general(kw)


def test_lazy_rows_compare_copy_and_pickle_as_their_tuple():
    kw = dict(
        periods=(EmploymentPeriod(date(2001, 5, 1), None),),
        birth_date=date(1970, 1, 1),
        hours={2001: 1200, 2002: 100, 2003: 2080},
        as_of=date(2003, 11, 21),
        rules=HoursRules(year_section="", break_section="", parity=ParityRule("")),
        is_vested=lambda n: n >= 3,
    )
    usual, general = _usual(kw), _general(kw)
    assert isinstance(usual.years, LazyYears)
    assert usual.years == general.years and general.years == usual.years
    assert hash(usual.years) == hash(general.years)
    assert len(usual.years) == 3 and usual.years[-1] == general.years[-1]
    assert usual.years[1:] == general.years[1:]
    assert repr(usual.years) == repr(general.years)
    assert pickle.loads(pickle.dumps(usual.years)) == general.years  # noqa: S301 - our own bytes
    assert copy.deepcopy(usual.years) == general.years
