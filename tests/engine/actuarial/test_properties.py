"""Hypothesis properties of the factors (invariants that hold for any table, rate and age)."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine.actuarial import (
    Form,
    FractionalConvention,
    SurvivorKind,
    Timing,
    certain_and_life_annuity,
    convert_life_annuity,
    joint_survivor_annuity,
    life_annuity,
    plan_basis,
    relative_value,
)
from benefits.engine.mortality import get_table

tables = st.sampled_from(["up1984", "gatt1983_unisex", "irs_417e_2024", "gam1994_static_male"]).map(get_table)
rates = st.floats(min_value=0.0, max_value=0.12, allow_nan=False)
ages = st.floats(min_value=40.0, max_value=100.0, allow_nan=False)
conventions = st.sampled_from(list(FractionalConvention))
timings = st.sampled_from(list(Timing))
fractions = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)

SETTINGS = settings(max_examples=60, deadline=None)


@SETTINGS
@given(tables, ages, rates, rates, conventions, timings)
def test_factor_decreases_as_rate_rises(table, age, r1, r2, conv, timing):
    lo, hi = sorted((r1, r2))
    if hi - lo < 1e-6:
        return
    a_lo = life_annuity(plan_basis(table, lo, convention=conv, timing=timing), age)
    a_hi = life_annuity(plan_basis(table, hi, convention=conv, timing=timing), age)
    assert a_hi < a_lo


@SETTINGS
@given(tables, st.integers(40, 100), st.integers(1, 10), rates, conventions)
def test_factor_decreases_as_age_rises(table, age, gap, rate, conv):
    b = plan_basis(table, rate, convention=conv)
    assert life_annuity(b, age + gap) < life_annuity(b, age)


@SETTINGS
@given(tables, ages, ages, rates, conventions)
def test_js_zero_survivor_is_life(table, age, spouse_age, rate, conv):
    b = plan_basis(table, rate, convention=conv)
    life = life_annuity(b, age)
    assert abs(joint_survivor_annuity(b, age, spouse_age, 0.0) - life) <= 1e-9 * life


@SETTINGS
@given(tables, ages, ages, rates, fractions, fractions, st.sampled_from(list(SurvivorKind)))
def test_js_grows_with_survivor_fraction(table, age, spouse_age, rate, f1, f2, kind):
    lo, hi = sorted((f1, f2))
    b = plan_basis(table, rate)
    assert (
        joint_survivor_annuity(b, age, spouse_age, hi, kind=kind)
        >= joint_survivor_annuity(b, age, spouse_age, lo, kind=kind) - 1e-12
    )


@SETTINGS
@given(tables, ages, rates, st.floats(min_value=0.25, max_value=30.0), conventions, timings)
def test_deferred_worth_less_than_immediate(table, age, rate, deferral, conv, timing):
    b = plan_basis(table, rate, convention=conv, timing=timing)
    assert life_annuity(b, age, deferral=deferral) < life_annuity(b, age)


@SETTINGS
@given(tables, ages, rates, st.integers(0, 20), conventions, timings)
def test_certain_and_life_at_least_life(table, age, rate, years, conv, timing):
    b = plan_basis(table, rate, convention=conv, timing=timing)
    assert certain_and_life_annuity(b, age, years) >= life_annuity(b, age) - 1e-12


@SETTINGS
@given(tables, st.integers(55, 75), st.integers(45, 85), rates, st.sampled_from([0.5, 0.75, 1.0]))
def test_qjsa_against_itself_is_100_percent(table, age, spouse_age, rate, fraction):
    b = plan_basis(table, rate)
    qjsa = Form.contingent(fraction)
    amount = Decimal("1234.56")
    rv = relative_value(qjsa, amount, qjsa, amount, b, age, spouse_age)
    assert rv.percent == Decimal("100.0")
    assert rv.ratio == 1.0
    assert rv.approximately_equal


@SETTINGS
@given(
    tables,
    st.integers(55, 75),
    st.integers(45, 85),
    rates,
    st.sampled_from(
        [Form.life(), Form.contingent(0.75), Form.joint(0.5), Form.certain_and_life(10), Form.lump_sum()]
    ),
)
def test_forms_converted_on_the_comparison_basis_are_worth_about_the_qjsa(table, age, spouse_age, rate, form):
    # Actuarial equivalence: converted on basis B and compared on B, every form is worth 100% of the
    # QJSA, up to the cent rounding of the amounts.
    b = plan_basis(table, rate)
    life = Decimal("2500.00")
    qjsa = convert_life_annuity(life, b, Form.contingent(0.5), age, spouse_age)
    option = convert_life_annuity(life, b, form, age, spouse_age)
    rv = relative_value(form, option.amount, Form.contingent(0.5), qjsa.amount, b, age, spouse_age)
    assert abs(rv.ratio - 1.0) < 1e-4
    assert rv.approximately_equal
