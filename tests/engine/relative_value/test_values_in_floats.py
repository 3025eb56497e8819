"""Issue 29: a date's relative values formed in floats (``_values_in_floats``, ``clear_groups``) are
the Decimal steps' values: every percent, "approximately equal" flag and group, and every value read
from the result (ratio, present values), whatever the amounts and factors, the boundaries included
(a ratio on a rounding half, on 95% or 105%, two ratios tied or a width apart), where the float path
declines and the Decimal steps decide.
"""

from __future__ import annotations

import math
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import benefits.engine.relative_value as rv
from benefits.engine.actuarial import _LIMITS, Basis, FlatRate, Form, _groups, clear_groups, groups_of
from benefits.engine.mortality import get_table
from benefits.engine.relative_value import (
    ComparisonBasis,
    ComparisonRules,
    OptionalForm,
    write_values,
)

BASIS = ComparisonBasis(
    Basis(get_table("up1984"), FlatRate(0.05)), "js50", "5%", "UP-1984", "test", "2030-01"
)
SHAPES = [Form.life(), Form.certain_and_life(10), Form.contingent(Decimal("0.5")), Form.lump_sum()]
KEYS = ["life", "cc10", "js50", "js100", "cc5", "lump_sum"]


@st.composite
def dates_forms(draw):
    """Forms with amounts and factors, some ratios put on a boundary (a rounding half, 95%, 105%,
    a tie with another form, the group width from another) to the last bit the float allows."""
    count = draw(st.integers(2, 6))
    keys = KEYS[: count - 1] + ["lump_sum"] if draw(st.booleans()) else KEYS[:count]
    if "js50" not in keys:
        keys[min(1, len(keys) - 1)] = "js50"
    places = draw(st.integers(0, 3))
    qi = keys.index("js50")
    forms, factors = [], []
    q_amount = Decimal(draw(st.integers(100, 10**9))) / 100
    q_factor = draw(st.floats(0.5, 30.0))
    q_apv = q_amount * Decimal(repr(q_factor * 12))
    for j, key in enumerate(keys):
        shape = Form.lump_sum() if key == "lump_sum" else SHAPES[j % 3]
        if j == qi:
            forms.append(OptionalForm(key, Form.contingent(Decimal("0.5")), q_amount, date(1990, 1, 1)))
            factors.append(q_factor)
            continue
        amount = Decimal(draw(st.integers(0, 10**9))) / 100
        target = draw(st.sampled_from(["free"] * 12 + ["half", "low", "high", "tie", "width"]))
        if shape.kind.value == "lump_sum":
            if target == "half":  # an amount whose ratio is a rounding half exactly
                half = Decimal(draw(st.integers(1, 2000))) + Decimal("0.5")
                amount = (q_apv * half / Decimal(10) ** (places + 2)).quantize(Decimal("0.01"))
            forms.append(OptionalForm(key, shape, amount))
            factors.append(None)
            continue
        factor = draw(st.floats(0.0, 40.0))
        if target != "free" and amount > 0:
            ratio = {
                "half": (draw(st.integers(1, 2000)) + 0.5) / 10 ** (places + 2),
                "low": 0.95,
                "high": 1.05,
                "tie": 1.0,
                "width": 1.0 + 0.05 + 1e-12,
            }[target]
            factor = ratio * float(q_apv) / float(amount) / 12
            for _ in range(draw(st.integers(0, 3))):
                factor = math.nextafter(factor, math.inf if draw(st.booleans()) else 0.0)
        forms.append(OptionalForm(key, shape, amount, date(1990, 1, 1) if shape.needs_spouse else None))
        factors.append(factor)
    return forms, factors, places


def values_of(forms, factors, places, *, fast):
    rules = ComparisonRules("js50", "life", 2, "rate", "§X", places=places)
    keys = [f.key for f in forms]
    if fast:
        return rv._values_of_date(date(2030, 3, 1), forms, keys, BASIS, 40.0, "", factors, rules, "lump_sum")
    original = rv._values_in_floats
    rv._values_in_floats = lambda *args: None
    try:
        return rv._values_of_date(date(2030, 3, 1), forms, keys, BASIS, 40.0, "", factors, rules, "lump_sum")
    finally:
        rv._values_in_floats = original


def everything(result):
    json: dict = {k: {} for k in result.values}
    written: list[str] = []
    write_values(result.values, json, written)
    return (
        result.basis,
        {
            k: (v.ratio, v.percent, str(v.percent), v.approximately_equal, v.option_apv, v.qjsa_apv)
            for k, v in result.values.items()
        },  # fmt: skip
        list(result.values),
        result.groups,
        [(g.members, str(g.low), str(g.high), g.disclosed) for g in result.groups],
        json,
        written,
        list(rv.value_items(result.values)),
        result.note,
    )


@settings(max_examples=400, deadline=None)
@given(dates_forms())
def test_the_values_formed_in_floats_are_the_decimal_steps_values(case):
    forms, factors, places = case
    try:
        exact = values_of(forms, factors, places, fast=False)
    except Exception as exc:  # noqa: BLE001 - the same error on both paths
        with pytest.raises(type(exc)):
            values_of(forms, factors, places, fast=True)
        return
    assert everything(values_of(forms, factors, places, fast=True)) == everything(exact)


def test_a_ratio_on_a_rounding_half_takes_the_decimal_steps():
    q = Decimal("1000.00")
    forms = [
        OptionalForm("js50", Form.contingent(Decimal("0.5")), q, date(1990, 1, 1)),
        OptionalForm("lump_sum", Form.lump_sum(), Decimal("997.65") * Decimal(12)),  # 99.765%... of 12 000
    ]
    factors = [1.0, None]
    assert rv._values_in_floats(forms, [f.amount for f in forms], factors, 12, 12000.0, 0, 2) is None
    assert everything(values_of(forms, factors, 2, fast=True)) == everything(
        values_of(forms, factors, 2, fast=False)
    )


ratios_lists = st.lists(
    st.one_of(
        st.floats(allow_nan=True, allow_infinity=True),
        st.sampled_from([0.9, 0.95, 1.0, 1.0 + 0.05, 1.05, 1.1000000000001, 0.0, -1.0]),
    ),
    max_size=9,
)


@settings(max_examples=500, deadline=None)
@given(ratios_lists, st.booleans())
def test_one_group_is_the_greedy_pass(ratios, lump):
    names = [f"f{i}" for i in range(len(ratios))]
    percents = [Decimal(i) for i in range(len(ratios))]
    single = names[0] if lump and names else None
    order = sorted(range(len(ratios)), key=ratios.__getitem__)
    greedy = _groups(names, ratios, percents, order, _LIMITS[Decimal(5)], single)
    assert groups_of(names, ratios, percents, single_sum=single) == greedy


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.floats(0.01, 3.0), min_size=1, max_size=9),
    st.lists(st.integers(-4, 4), min_size=9, max_size=9),
    st.lists(st.sampled_from([0, 1, 2]), min_size=9, max_size=9),
)
def test_groups_of_ratios_within_the_error_are_the_exact_ratios_groups(ratios, moves, snaps):
    # some ratios moved onto another's value or the width from it, then all moved a few ulps
    exact = list(ratios)
    for i, snap in enumerate(snaps[: len(exact)]):
        if snap == 1 and i:
            exact[i] = exact[i - 1]
        elif snap == 2 and i:
            exact[i] = exact[i - 1] + 0.05
    near = list(exact)
    for i, move in enumerate(moves[: len(near)]):
        for _ in range(abs(move)):
            near[i] = math.nextafter(near[i], math.inf if move > 0 else 0.0)
    assume(all(abs(n - e) <= 1e-15 * abs(e) * 8 for n, e in zip(near, exact, strict=True)))
    names = [f"f{i}" for i in range(len(exact))]
    percents = [(Decimal(repr(r)) * 100).quantize(Decimal("0.1"), ROUND_HALF_UP) for r in exact]
    got = clear_groups(names, near, percents, 1e-12, single_sum=names[-1])
    assert got is None or got == groups_of(names, exact, percents, single_sum=names[-1])
