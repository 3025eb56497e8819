"""The scalar annuity path shares one survival vector between the forms of a date (issue 17).

``actuarial._grid_survival`` memoizes ``table.survival(age, payment grid)``: a life annuity and every
certain-and-life form at an age value the same vector, as do the joint forms at a pair of ages.
Each factor must be the float the path computed before the memo, when every call recomputed its
survival afresh (and survived to the first payment even where nothing used it): the reference
below is that computation, written out with the module's own building blocks.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine import actuarial
from benefits.engine.actuarial import (
    Basis,
    FlatRate,
    FractionalConvention,
    SegmentRates,
    SurvivorKind,
    Timing,
    certain_and_life_annuity,
    joint_survivor_annuity,
    life_annuity,
    temporary_life_annuity,
)
from benefits.engine.mortality import get_table

TABLES = ("up1984", "gatt1983_unisex", "gam1983_female", "irs_417e_2024")
rates = st.integers(0, 1200).map(lambda bp: bp / 10000)
ages = st.one_of(st.integers(20 * 12, 105 * 12).map(lambda m: m / 12), st.floats(20, 105, allow_nan=False))
deferrals = st.one_of(st.just(0.0), st.integers(0, 300).map(lambda m: m / 12))


@st.composite
def bases(draw):
    interest = (
        FlatRate(draw(rates)) if draw(st.booleans()) else SegmentRates(draw(rates), draw(rates), draw(rates))
    )
    return Basis(
        get_table(draw(st.sampled_from(TABLES))),
        interest,
        frequency=draw(st.sampled_from((1, 4, 12))),
        timing=draw(st.sampled_from(tuple(Timing))),
        convention=draw(st.sampled_from(tuple(FractionalConvention))),
        spouse_table=draw(st.one_of(st.none(), st.sampled_from(TABLES).map(get_table))),
    )


def fresh(table, age):
    """A survival function that recomputes every time (what ``_single`` was before the memo)."""
    return lambda t, grid=None: table.survival(age, t)


def fresh_joint(basis, age, spouse_age, f, kind):
    tx, ty = basis.table, basis.beneficiary_table

    def survival(t, grid=None):
        px, py = tx.survival(age, t), ty.survival(spouse_age, t)
        both = px * py
        if kind is SurvivorKind.CONTINGENT:
            return px + f * (py - both)
        return both + f * (px + py - 2.0 * both)

    return survival


@settings(max_examples=150, deadline=None)
@given(basis=bases(), age=ages, spouse=ages, deferral=deferrals, certain=st.sampled_from((0, 5, 10, 20)))
def test_memoized_factors_are_the_fresh_computation(basis, age, spouse, deferral, certain):
    actuarial.life_annuity.cache_clear()
    # Price the forms of one date in the order a relative-value table does, so later forms read the
    # vectors the earlier ones left in the memo.
    assert life_annuity(basis, age, deferral=deferral) == actuarial._annuity(
        basis, fresh(basis.table, age), age, deferral
    )
    assert certain_and_life_annuity(basis, age, certain, deferral=deferral) == actuarial._annuity(
        basis, fresh(basis.table, age), age, deferral, certain=float(certain)
    )
    assert temporary_life_annuity(basis, age, 10, deferral=deferral) == actuarial._annuity(
        basis, fresh(basis.table, age), age, deferral, term=10
    )
    for f in (0.5, 2 / 3, 1.0):
        for kind in SurvivorKind:
            got = joint_survivor_annuity(basis, age, spouse, f, kind=kind, deferral=deferral)
            want = actuarial._annuity(
                basis, fresh_joint(basis, age, spouse, f, kind), min(age, spouse), deferral
            )
            assert got == want


@settings(max_examples=60, deadline=None)
@given(basis=bases(), age=ages, deferral=deferrals)
def test_the_memo_holds_the_survival_vector_itself_and_cannot_be_changed(basis, age, deferral):
    grid = (float(basis.table.max_age + 1 - age), deferral, basis.frequency, basis.timing)
    got = actuarial._grid_survival(basis.table, age, *grid)
    want = basis.table.survival(age, actuarial._grid(*grid))
    assert np.array_equal(got, want)
    with pytest.raises(ValueError):
        got[0] = 0.5  # shared between forms: read-only


def test_forms_of_one_date_share_one_vector():
    basis = actuarial.plan_basis(get_table("up1984"), 0.05)
    actuarial._grid_survival.cache_clear()
    actuarial.life_annuity.cache_clear()
    life_annuity(basis, 62.5)
    for years in (5, 10, 15, 20):
        certain_and_life_annuity(basis, 62.5, years)
    info = actuarial._grid_survival.cache_info()
    assert (info.misses, info.hits) == (1, 4)  # one survival vector, valued five ways
