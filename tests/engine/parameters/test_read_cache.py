"""A parameter's reads are kept per date (issue 17), and ``replaying_reads`` memoizes a function of
its arguments: neither changes what is recorded. Every call records its read, as a fresh lookup
did, and a date without a value still raises every time."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benefits.engine.parameters import (
    ParameterNotInForce,
    ParameterRead,
    parameter,
    recorded_reads,
    replaying_reads,
)

LIMIT = parameter("irs_401a17_compensation_limit")


def _fresh(name: str, on: date, projected: bool) -> ParameterRead:
    """The read a lookup without the cache records (the entry found by a linear scan)."""
    p = parameter(name)
    found = p._find(min(on, p.published_through) if projected else on)
    return ParameterRead(p.name, p.description, on, found, projected, p.section, p.unit)


@given(st.lists(st.dates(date(1990, 1, 1), date(2040, 12, 31)), min_size=1, max_size=6))
def test_every_lookup_records_the_read_a_fresh_lookup_records(days):
    with recorded_reads() as reads:
        for on in days:
            LIMIT.latest_published(on)
            LIMIT.latest_published(on)  # the second from the cache
    through = LIMIT.published_through
    expected = [_fresh(LIMIT.name, on, through is not None and on > through) for on in days for _ in (1, 2)]
    assert reads == expected


def test_a_date_without_a_value_raises_every_time():
    for _ in range(2):
        with pytest.raises(ParameterNotInForce):
            LIMIT.entry_at(date(1900, 1, 1))
        with pytest.raises(ParameterNotInForce):
            LIMIT.entry_at(date(2199, 1, 1))  # past the last published year, no projection asked


calls: list[int] = []


@replaying_reads
def _limit_twice(year: int) -> int:
    calls.append(year)
    if year < 1989:
        raise ValueError("no limit")
    LIMIT.for_year(year)
    LIMIT.for_year(year + 1)
    return year


def test_a_memoized_call_records_its_reads_again_and_an_error_is_never_memoized():
    calls.clear()
    with recorded_reads() as first:
        _limit_twice(2010)
    with recorded_reads() as again:
        _limit_twice(2010)
    assert calls == [2010] and again == first and [r.on.year for r in first] == [2010, 2011]
    _limit_twice(2012)  # outside any recording: records nothing, and is memoized all the same
    with recorded_reads() as later:
        _limit_twice(2012)
    assert calls == [2010, 2012] and [r.on.year for r in later] == [2012, 2013]
    for _ in range(2):
        with pytest.raises(ValueError):
            _limit_twice(1980)
    assert calls == [2010, 2012, 1980, 1980]
