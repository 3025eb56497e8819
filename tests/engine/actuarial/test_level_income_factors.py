"""Issue 29: a level-income form's two factors for many lives at once (``level_income``) are, life for
life and to the last bit, the scalar calls ``relative_value._apv`` makes: the temporary life annuity
to the change and the life annuity deferred to it, on flat and segment rates, payments due or
immediate, UDD or the (m) approximation, ages from the table's start to past its end, terms from
none to past the horizon."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine.actuarial import (
    Basis,
    FlatRate,
    FractionalConvention,
    SegmentRates,
    Timing,
    life_annuity,
    temporary_life_annuity,
)
from benefits.engine.level_income import deferred_life_annuities, temporary_life_annuities
from benefits.engine.mortality import get_table, latest_417e_table

rates = st.floats(0.0, 0.12)
interests = st.one_of(
    st.builds(FlatRate, rates), st.builds(SegmentRates, rates, rates, rates)
)  # fmt: skip


@st.composite
def cases(draw):
    table = draw(st.sampled_from([latest_417e_table(2026), get_table("up1984")]))
    basis = Basis(
        table,
        draw(interests),
        frequency=draw(st.sampled_from([12, 4, 1])),
        timing=draw(st.sampled_from(list(Timing))),
        convention=draw(st.sampled_from(list(FractionalConvention))),
    )
    lives = draw(
        st.lists(
            st.tuples(st.integers(table.min_age * 12, (table.max_age + 2) * 12), st.integers(0, 70 * 12)),
            min_size=1,
            max_size=8,
        )
    )
    return basis, [a / 12 for a, _ in lives], [y / 12 for _, y in lives]


@settings(max_examples=150, deadline=None)
@given(cases())
def test_each_temporary_annuity_is_the_scalar_calls_float(case):
    basis, ages, years = case
    assert temporary_life_annuities(basis, ages, years) == [
        temporary_life_annuity(basis, a, y) for a, y in zip(ages, years, strict=True)
    ]


@settings(max_examples=150, deadline=None)
@given(cases())
def test_each_deferred_annuity_is_the_scalar_calls_float(case):
    basis, ages, years = case
    assert deferred_life_annuities(basis, ages, years) == [
        life_annuity(basis, a, deferral=y) for a, y in zip(ages, years, strict=True)
    ]
