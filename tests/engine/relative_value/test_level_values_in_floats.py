"""Issue 29: a level-income form's APV made with the other dates' (``relative_values_of_dates`` hands
it to ``_values_of_date``) gives, on the float path, the Decimal steps' values: its ratio put on a
rounding half, on 95% or 105% (to the last bit the float allows) or anywhere, and the comparison form
itself level-income, every percent, flag, group and value read are those of the Decimal steps."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import benefits.engine.relative_value as rv
from benefits.engine.actuarial import Form
from benefits.engine.relative_value import ComparisonRules, OptionalForm

from .test_values_in_floats import BASIS, everything

LEVEL = Form.life()


@st.composite
def with_level(draw):
    """js50 on a factor, a level-income form with its APV given, and a single sum; the level form's
    APV drawn near a boundary of its ratio (or the comparison form's own key, ``js50``)."""
    places = draw(st.integers(0, 3))
    q_amount = Decimal(draw(st.integers(100, 10**9))) / 100
    q_factor = draw(st.floats(0.5, 30.0))
    q_apv = q_amount * Decimal(repr(q_factor * 12))
    target = draw(st.sampled_from(["free", "half", "low", "high", "tie"]))
    ratio = {
        "free": Decimal(draw(st.integers(0, 3000))) / 1000,
        "half": (Decimal(draw(st.integers(1, 2000))) + Decimal("0.5")) / Decimal(10) ** (places + 2),
        "low": Decimal("0.95"),
        "high": Decimal("1.05"),
        "tie": Decimal(1),
    }[target]
    level_apv = q_apv * ratio + Decimal(draw(st.integers(-3, 3))) * Decimal("1e-20")
    level_key = "js50" if draw(st.integers(0, 9)) == 0 else "ss_level"
    forms = [
        OptionalForm("js50", Form.contingent(Decimal("0.5")), q_amount, date(1990, 1, 1)),
        OptionalForm(
            level_key, LEVEL, Decimal("10.00"), amount_after=Decimal("5.00"), change_after_months=60
        ),
        OptionalForm("lump_sum", Form.lump_sum(), Decimal(draw(st.integers(0, 10**9))) / 100),
    ]
    if level_key == "js50":  # the level-income form is the comparison form
        forms = forms[1:]
    factors = [q_factor, None, None][-len(forms) :]
    if level_key == "js50":
        factors = [None, None]
    return forms, factors, {forms.index(next(f for f in forms if f.form is LEVEL)): level_apv}, places


def values_of(forms, factors, level, places, *, fast):
    rules = ComparisonRules("js50", "life", 2, "rate", "§X", places=places)
    keys = [f.key for f in forms]
    args = (date(2030, 3, 1), forms, keys, BASIS, 40.0, "", factors, rules, "lump_sum", level)
    if fast:
        return rv._values_of_date(*args)
    original = rv._values_in_floats
    rv._values_in_floats = lambda *args: None
    try:
        return rv._values_of_date(*args)
    finally:
        rv._values_in_floats = original


@settings(max_examples=400, deadline=None)
@given(with_level())
def test_a_level_income_apv_on_the_float_path_gives_the_decimal_steps_values(case):
    forms, factors, level, places = case
    try:
        exact = values_of(forms, factors, level, places, fast=False)
    except Exception as exc:  # noqa: BLE001 - the same error on both paths
        with pytest.raises(type(exc)):
            values_of(forms, factors, level, places, fast=True)
        return
    assert everything(values_of(forms, factors, level, places, fast=True)) == everything(exact)


def test_the_level_income_apv_given_is_the_one_valued():
    """The APV handed over is the form's value (not priced again): 97.5% of the comparison form's."""
    forms = [
        OptionalForm("js50", Form.contingent(Decimal("0.5")), Decimal("1000.00"), date(1990, 1, 1)),
        OptionalForm(
            "ss_level", LEVEL, Decimal("10.00"), amount_after=Decimal("5.00"), change_after_months=60
        ),
    ]
    q_apv = Decimal("1000.00") * Decimal(repr(15.0 * 12))
    result = values_of(forms, [15.0, None], {1: q_apv * Decimal("0.975")}, 1, fast=True)
    assert result.values["ss_level"].percent == Decimal("97.5")
    assert result.values["ss_level"].option_apv == q_apv * Decimal("0.975")
    assert result.values["ss_level"].approximately_equal
