"""``types.participant_of`` (a census line's participant, made without the frozen init) is the
participant ``Participant(...)`` makes: equal, the same fields in the same order, still frozen."""

from __future__ import annotations

import dataclasses
from datetime import date
from types import MappingProxyType

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benefits.engine.types import EmploymentPeriod, Participant, participant_of

dates = st.dates(min_value=date(1930, 1, 1), max_value=date(2040, 12, 31))
maybe_date = st.one_of(st.none(), dates)


@st.composite
def field_values(draw: st.DrawFn) -> dict[str, object]:
    return {
        "id": draw(st.text(max_size=6)),
        "birth_date": draw(dates),
        "hire_date": draw(dates),
        "termination_date": draw(maybe_date),
        "employment_periods": tuple(
            EmploymentPeriod(s, e) for s, e in draw(st.lists(st.tuples(dates, maybe_date), max_size=2))
        ),
        "marital_status": draw(st.sampled_from(["single", "married"])),
        "spouse_birth_date": draw(maybe_date),
        "hours": MappingProxyType(draw(st.dictionaries(st.integers(1950, 2040), st.integers(0, 4000)))),
        "compensation": MappingProxyType(
            draw(st.dictionaries(st.integers(1950, 2040), st.decimals(0, 10**6, places=2)))
        ),
        "commencement_dates": tuple(draw(st.lists(dates, max_size=2))),
        "death_date": draw(maybe_date),
        "disability_date": draw(maybe_date),
        "plan_data": MappingProxyType({"social_security_amount": str(draw(st.decimals(0, 10**5, places=2)))}),
    }


@given(field_values())
def test_participant_of_is_the_initialised_participant(values: dict[str, object]) -> None:
    made, general = participant_of(**values), Participant(**values)  # type: ignore[arg-type]
    assert made == general and hash(made.id) == hash(general.id)
    assert list(vars(made).items()) == list(vars(general).items())
    assert made.periods == general.periods and made.is_married == general.is_married
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.id = "x"  # type: ignore[misc]


def test_fewer_or_reordered_fields_take_the_init() -> None:
    short = participant_of(id="a", birth_date=date(1960, 1, 1), hire_date=date(1990, 1, 1))
    assert short == Participant("a", date(1960, 1, 1), date(1990, 1, 1))
    assert short.compensation == {} and short.plan_data == {} and short.employment_periods == ()
    assert participant_of(hire_date=date(1990, 1, 1), birth_date=date(1960, 1, 1), id="a") == short
