"""The vectorized annuity path (``form_factors``) equals the scalar one (``form_factor``) bit for bit.

The price grids take every date's factors from ``form_factors``; their money must be the scalar
path's to the cent, so the factors themselves must be the same floats, not merely close: a factor
one unit in the last place away can move a half-cent the other way once multiplied by a balance.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine.actuarial import (
    Basis,
    FlatRate,
    Form,
    FractionalConvention,
    SegmentRates,
    Timing,
    form_factor,
    form_factors,
    life_annuity,
    life_annuity_factors,
    plan_basis,
)
from benefits.engine.mortality import get_table

TABLES = ("up1984", "gatt1983_unisex", "gam1983_male", "irs_417e_2024", "irs_417e_2012")
FORMS = (
    Form.life(),
    Form.certain_and_life(5),
    Form.certain_and_life(20),
    Form.contingent(0.5),
    Form.contingent(2 / 3),
    Form.contingent(1),
    Form.joint(0.5),
    Form.lump_sum(),
)
rates = st.integers(0, 1200).map(lambda bp: bp / 10000)


@st.composite
def bases(draw):
    table = get_table(draw(st.sampled_from(TABLES)))
    spouse = draw(st.one_of(st.none(), st.sampled_from(TABLES).map(get_table)))
    if draw(st.booleans()):
        interest = FlatRate(draw(rates))
    else:
        interest = SegmentRates(draw(rates), draw(rates), draw(rates))
    return Basis(
        table,
        interest,
        frequency=draw(st.sampled_from((1, 2, 4, 12))),
        timing=draw(st.sampled_from(tuple(Timing))),
        convention=draw(st.sampled_from(tuple(FractionalConvention))),
        spouse_table=spouse,
    )


ages = st.integers(20 * 12, 105 * 12).map(lambda m: m / 12)  # exact months, as the plans take them
odd_ages = st.floats(20, 105, allow_nan=False)  # and any fraction
deferrals = st.one_of(st.just(0.0), st.integers(0, 300).map(lambda m: m / 12), st.floats(0, 30))


@settings(max_examples=120, deadline=None)
@given(
    basis=bases(),
    form=st.sampled_from(FORMS),
    lives=st.lists(
        st.tuples(st.one_of(ages, odd_ages), st.one_of(ages, odd_ages), deferrals), min_size=1, max_size=25
    ),
)
def test_each_vectorized_factor_is_the_scalar_factor(basis, form, lives):
    xs, ys, ds = (list(col) for col in zip(*lives, strict=True))
    cache: dict = {}
    got = form_factors(basis, form, xs, ys if form.needs_spouse else None, deferrals=ds, survival_cache=cache)
    for i, (x, y, d) in enumerate(lives):
        assert got[i] == form_factor(basis, form, x, y if form.needs_spouse else None, deferral=d)


@settings(max_examples=40, deadline=None)
@given(basis=bases(), lives=st.lists(ages, min_size=1, max_size=40))
def test_forms_sharing_one_survival_cache_stay_exact(basis, lives):
    # One grid prices every form from one cache: a narrow matrix made first must not leak into a
    # wider request, nor a joint product into another survivor fraction.
    cache: dict = {}
    spouses = [max(20.0, a - 3) for a in lives]
    for form in (Form.life(), Form.contingent(0.5), Form.certain_and_life(10), Form.contingent(1)):
        got = form_factors(basis, form, lives, spouses if form.needs_spouse else None, survival_cache=cache)
        for i, a in enumerate(lives):
            assert got[i] == form_factor(basis, form, a, spouses[i] if form.needs_spouse else None)


def test_life_annuity_factors_match_the_monthly_ages_of_a_grid():
    basis = plan_basis(get_table("up1984"), 0.08)
    grid_ages = [(55 * 12 + k) / 12 for k in range(181)]
    got = life_annuity_factors(basis, grid_ages)
    assert [float(v) for v in got] == [life_annuity(basis, a) for a in grid_ages]


def test_no_lives_no_factors():
    basis = plan_basis(get_table("up1984"), 0.08)
    assert len(form_factors(basis, Form.life(), [])) == 0


@settings(max_examples=40, deadline=None)
@given(
    basis=bases(),
    first=st.lists(ages, min_size=1, max_size=30),
    second=st.lists(ages, min_size=1, max_size=30),
    forms=st.lists(st.sampled_from(FORMS), min_size=2, max_size=4),
)
def test_overlapping_lives_sharing_one_survival_cache_stay_exact(basis, first, second, forms):
    # A grid's comparison prices some of the same ages as its pricing, on the same table, with more
    # or fewer payment times (another spouse, another form): the rows made for one set of lives are
    # copied, or extended to the later payment times, for the next; each factor stays the scalar one.
    cache: dict = {}
    for form, lives in zip(forms, (first, second, first + second, second[::-1]), strict=False):
        spouses = [max(20.0, a - 7) for a in lives] if form.needs_spouse else None
        got = form_factors(basis, form, lives, spouses, survival_cache=cache)
        for i, a in enumerate(lives):
            assert got[i] == form_factor(basis, form, a, None if spouses is None else spouses[i])
