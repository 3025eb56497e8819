"""Issue 29: ``factors_from_rows`` (a comparison's factors, one life at a time, on the survival rows a
grid's pricing already made) gives ``form_factor``'s float, bit for bit, or None.

A grid's relative values price every date's forms on the rows its pricing left in the shared survival
cache. Random bases (tables, interest, frequency, timing, convention), ages in exact months and any
fraction, spouses older and younger, every form: after a pricing pass (``form_factors`` with the
cache) over some of the lives and forms, each factor the pricer gives is the scalar factor; it gives
one for every life and form the pricing priced on that basis's conventions, and None where a row is
missing or too short (the caller then prices that life with ``form_factors``).
"""

from __future__ import annotations

import random
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine.actuarial import (
    FractionalConvention,
    RelativeValue,
    Timing,
    factors_from_rows,
    form_factor,
    form_factors,
    group_relative_values,
    groups_of,
    plan_basis,
)
from benefits.engine.mortality import get_table

from .test_vectorized_factors import FORMS, ages, bases, odd_ages


@settings(max_examples=150, deadline=None)
@given(
    basis=bases(),
    priced=st.lists(st.sampled_from(FORMS), min_size=1, max_size=4),
    lives=st.lists(st.tuples(st.one_of(ages, odd_ages), st.one_of(ages, odd_ages)), min_size=1, max_size=20),
    others=st.lists(st.tuples(ages, ages), max_size=5),
)
def test_each_factor_from_the_rows_is_the_scalar_factor(basis, priced, lives, others):
    cache: dict = {}
    xs, ys = (list(col) for col in zip(*lives, strict=True))
    for form in priced:  # the grid's pricing: its matrices and rows in the cache
        form_factors(basis, form, xs, ys if form.needs_spouse else None, survival_cache=cache)
    price = factors_from_rows(basis, cache)
    if basis.convention is not FractionalConvention.UDD or basis.timing is not Timing.DUE:
        assert price is None
        return
    if price is None:  # only a single sum priced: no survival rows made
        assert all(form.kind.value == "lump_sum" for form in priced)
        return
    for x, y in [*lives, *others]:
        asked = [(form, y if form.needs_spouse else None) for form in FORMS]
        for (form, spouse), got in zip(asked, price(x, asked), strict=True):
            if got is not None:
                assert got == form_factor(basis, form, x, spouse)
            elif form in priced and (x, y) in lives and form.kind.value != "lump_sum":
                raise AssertionError("a life and form the pricing priced has its rows")


def test_no_rows_no_pricer():
    assert factors_from_rows(plan_basis(get_table("up1984"), 0.08), {}) is None


def reference_groups(items, width=Decimal(5), single_sum=None):
    """``group_relative_values`` as it was written before ``groups_of`` (greedy from the lowest)."""
    ordered = sorted(items, key=lambda item: item[1].ratio)
    groups, current = [], []
    limit = float(width) + 1e-12

    def close():
        names = tuple(name for name, _ in current)
        groups.append(
            (
                names,
                current[0][1].percent,
                current[-1][1].percent,
                single_sum if single_sum in names else names[0],
            )
        )

    for name, rv in ordered:
        if current and (rv.ratio - current[0][1].ratio) * 100 > limit:
            close()
            current = []
        current.append((name, rv))
    if current:
        close()
    return groups


@settings(max_examples=300, deadline=None)
@given(
    ratios=st.lists(
        st.one_of(st.sampled_from([0.9, 0.95, 0.99, 1.0, 1.04, 1.05, 1.1]), st.floats(0.5, 1.5)), max_size=10
    ),
    single_sum=st.sampled_from([None, "f0", "f3", "x"]),
    seed=st.integers(0, 9),
)
def test_groups_are_the_greedy_groups(ratios, single_sum, seed):
    random.seed(seed)
    items = [
        (f"f{i}", RelativeValue(r, Decimal(str(round(r * 100, 1))), False, Decimal(1), Decimal(1)))
        for i, r in enumerate(ratios)
    ]
    random.shuffle(items)
    got = group_relative_values(items, single_sum=single_sum)
    assert [(g.members, g.low, g.high, g.disclosed) for g in got] == reference_groups(
        items, single_sum=single_sum
    )
    names, rs, ps = [n for n, _ in items], [v.ratio for _, v in items], [v.percent for _, v in items]
    assert groups_of(names, rs, ps, single_sum=single_sum) == got
