"""Textbook checks worked by hand on tiny tables (the arithmetic is in the comments)."""

from __future__ import annotations

from decimal import Decimal

import numpy as np
import pytest

from benefits.engine.actuarial import (
    FlatRate,
    Form,
    FractionalConvention,
    SegmentRates,
    SurvivorKind,
    Timing,
    annuity_certain,
    certain_and_life_annuity,
    convert_life_annuity,
    joint_survivor_annuity,
    life_annuities,
    life_annuity,
    lump_sum,
    plan_basis,
    present_value,
    pure_endowment,
    temporary_life_annuity,
)
from benefits.engine.mortality import MortalityTable, get_table

# Table T: ages 60-62, q = .1, .2, 1  ->  l60..l63 = 1, .9, .72, 0
T = MortalityTable("T", "hand table", "test", 60, np.array([0.1, 0.2, 1.0]))
# Table H: ages 60-61, q = .5, 1  ->  l = 1, .5, 0
H = MortalityTable("H", "half table", "test", 60, np.array([0.5, 1.0]))
# Table S: nobody dies before 62: q = 0, 0, 1 at ages 60-62
S = MortalityTable("S", "sure table", "test", 60, np.array([0.0, 0.0, 1.0]))

V = 1 / 1.1  # v at 10%


def annual(table, rate, **kw):
    return plan_basis(table, rate, frequency=1, **kw)


def test_annual_due_and_immediate():
    # ä60 = 1 + .9v + .72v² = 1 + .8181818 + .5950413 = 2.4132231
    assert life_annuity(annual(T, 0.10), 60) == pytest.approx(2.4132231405, abs=1e-9)
    # a60 = .9v + .72v² = 1.4132231
    assert life_annuity(annual(T, 0.10, timing=Timing.IMMEDIATE), 60) == pytest.approx(1.4132231405, abs=1e-9)


def test_deferred_is_endowment_times_annuity():
    b = annual(T, 0.10)
    # 1|ä60 = 1E60 · ä61 = (.9v)(1 + .8v) = .8181818 × 1.7272727 = 1.4132231
    assert life_annuity(b, 60, deferral=1) == pytest.approx(0.9 * V * (1 + 0.8 * V), abs=1e-12)
    assert pure_endowment(b, 60, 1) == pytest.approx(0.9 * V)
    # the same identity on a real table: 10|ä55 = 10E55 · ä65 (UP-1984, 8%, monthly UDD)
    up = plan_basis(get_table("up1984"), 0.08)
    assert life_annuity(up, 55, deferral=10) == pytest.approx(
        pure_endowment(up, 55, 10) * life_annuity(up, 65), rel=1e-12
    )


def test_certain_and_life_and_temporary():
    b = annual(T, 0.10)
    # 2 years certain and life: 1 + v + .72v² = 2.5041322
    assert certain_and_life_annuity(b, 60, 2) == pytest.approx(2.5041322314, abs=1e-9)
    # temporary 2 years: 1 + .9v = 1.8181818
    assert temporary_life_annuity(b, 60, 2) == pytest.approx(1 + 0.9 * V, abs=1e-12)
    # deferred 1 year, 1 year certain: survival to 61 is needed, then the 61 payment is certain:
    # .9v·1 + .72v² = 1.4132231 (a certain payment at 62 would make it .9v + .9v²)
    assert certain_and_life_annuity(b, 60, 1, deferral=1) == pytest.approx(0.9 * V + 0.72 * V**2, abs=1e-12)
    assert certain_and_life_annuity(b, 60, 2, deferral=1) == pytest.approx(0.9 * V + 0.9 * V**2, abs=1e-12)


def test_annuity_certain():
    # ä(10) at 5% = (1 − 1.05^−10) / (.05/1.05) = 8.1078217
    assert annuity_certain(annual(T, 0.05), 10) == pytest.approx(8.107821676, abs=1e-9)
    # monthly: ä(12)(1) at 0% = 1
    assert annuity_certain(plan_basis(T, 0.0), 1) == pytest.approx(1.0)


def test_monthly_udd_at_zero_interest():
    # ä(12)60 = (1/12) Σ l(60 + k/12), l linear between ages:
    # ages 60-61: 12 − .1·66/12 = 11.45; 61-62: 10.8 − .18·66/12 = 9.81; 62-63: 8.64 − .72·66/12 = 4.68
    # total 25.94 / 12 = 2.1616667
    assert life_annuity(plan_basis(T, 0.0), 60) == pytest.approx(25.94 / 12, abs=1e-12)


def test_monthly_eleven_twenty_fourths():
    b = plan_basis(T, 0.10, convention=FractionalConvention.APPROX_11_24)
    # ä(12) ≈ ä − 11/24 = 2.4132231 − .4583333 = 1.9548898
    assert life_annuity(b, 60) == pytest.approx(2.4132231405 - 11 / 24, abs=1e-9)
    # a(12) = ä(12) − 1/12
    bi = plan_basis(T, 0.10, convention=FractionalConvention.APPROX_11_24, timing=Timing.IMMEDIATE)
    assert life_annuity(bi, 60) == pytest.approx(2.4132231405 - 11 / 24 - 1 / 12, abs=1e-9)
    # deferred: 1|ä(12) ≈ 1|ä − 11/24 · 1E60 = 1.4132231 − .4583333 × .8181818
    assert life_annuity(b, 60, deferral=1) == pytest.approx(1.4132231405 - 11 / 24 * 0.9 * V, abs=1e-9)
    # 2 years certain and life = ä(12)2 + 2|ä(12)60, each corrected:
    # [ä2 − 11/24 (1 − v²)] + [2|ä60 − 11/24 · .72v²] = 2.5041322 − 11/24 (1 − .28v²)
    assert certain_and_life_annuity(b, 60, 2) == pytest.approx(
        2.5041322314 - 11 / 24 * (1 - 0.28 * V**2), abs=1e-9
    )
    # temporary 2 years: ä(12)60:2 ≈ (1 + .9v) − 11/24 (1 − 2E60), 2E60 = .72v²
    assert temporary_life_annuity(b, 60, 2) == pytest.approx(
        1 + 0.9 * V - 11 / 24 * (1 - 0.72 * V**2), abs=1e-12
    )


def test_joint_and_survivor_by_hand():
    b = annual(H, 0.0)
    # äx = äy = 1.5, äxy = 1 + .25 = 1.25
    assert joint_survivor_annuity(b, 60, 60, 0.5) == pytest.approx(1.5 + 0.5 * (1.5 - 1.25))  # 1.625
    assert joint_survivor_annuity(b, 60, 60, 1.0) == pytest.approx(1.75)
    assert joint_survivor_annuity(b, 60, 60, 0.5, kind=SurvivorKind.JOINT) == pytest.approx(1.5)
    assert joint_survivor_annuity(b, 60, 60, 0.0, kind=SurvivorKind.JOINT) == pytest.approx(1.25)


def test_joint_and_survivor_with_spouse_table():
    # participant on H, spouse on S (alive through 62): 50% contingent:
    # t0: 1; t1: .5 + .5(1 − .5) = .75; t2: 0 + .5(1) = .5  -> 2.25
    b = plan_basis(H, 0.0, frequency=1, spouse_table=S)
    assert joint_survivor_annuity(b, 60, 60, Decimal("0.5")) == pytest.approx(2.25)
    with pytest.raises(ValueError):
        joint_survivor_annuity(b, 60, 60, 1.5)


def test_segment_rates_by_payment_time():
    # 25-year annuity certain, annual due, 4% / 5% / 6%: t = 0-4 at 4%, 5-19 at 5%, 20-24 at 6%
    b = plan_basis(T, 0.0, frequency=1)
    b = type(b)(T, SegmentRates(0.04, 0.05, 0.06), frequency=1)
    assert annuity_certain(b, 25) == pytest.approx(14.561506616, abs=1e-8)
    # the boundary payment at exactly 5 years is a second-segment payment
    assert annuity_certain(b, 1, deferral=5) == pytest.approx(1.05**-5)
    assert annuity_certain(b, 1, deferral=4) == pytest.approx(1.04**-4)
    assert annuity_certain(b, 1, deferral=20) == pytest.approx(1.06**-20)


def test_equal_segment_rates_equal_flat_rate():
    up = get_table("irs_417e_2024")
    flat = life_annuity(plan_basis(up, 0.05), 62)
    seg = life_annuity(type(plan_basis(up, 0.05))(up, SegmentRates(0.05, 0.05, 0.05)), 62)
    assert seg == pytest.approx(flat, rel=1e-14)


def test_lump_sum_and_present_value():
    b = annual(T, 0.10)
    # $1,000 a year for life from 60: 1,000 × 2.4132231 = 2,413.22
    assert lump_sum(Decimal("1000"), b, 60) == Decimal("2413.22")
    assert present_value(Decimal("1000"), b, Form.life(), 60) == Decimal("2413.22")
    # a lump sum payable in one year is discounted: 1,000 v = 909.09
    assert present_value(Decimal("1000"), b, Form.lump_sum(), 60, deferral=1) == Decimal("909.09")


def test_conversion_by_hand():
    b = annual(T, 0.10)
    # life → 2 years certain and life: 1,000 × 2.4132231 / 2.5041322 = 963.70
    conv = convert_life_annuity(Decimal("1000"), b, Form.certain_and_life(2), 60)
    assert conv.amount == Decimal("963.70")
    assert conv.ratio == pytest.approx(0.9636963696, abs=1e-9)
    # life → lump sum = PV: 2,413.22
    assert convert_life_annuity(Decimal("1000"), b, Form.lump_sum(), 60).amount == Decimal("2413.22")
    with pytest.raises(ValueError):
        convert_life_annuity(Decimal("1000"), b, Form.contingent(0.5), 60)  # spouse age missing


def test_vectorized_equals_scalar_every_convention():
    up = get_table("up1984")
    ages = np.arange(55, 76)
    for conv in FractionalConvention:
        for timing in Timing:
            for interest in (FlatRate(0.06), SegmentRates(0.045, 0.052, 0.058)):
                b = type(plan_basis(up, 0.06))(up, interest, 12, timing, conv)
                vec = life_annuities(b, ages, deferral=2)
                single = [life_annuity(b, float(a), deferral=2) for a in ages]
                np.testing.assert_allclose(vec, single, rtol=1e-12)


def test_udd_and_approx_close_for_real_table():
    # The two monthly conventions differ by well under 1% at 65 (UP-1984, 8%).
    up = get_table("up1984")
    exact = life_annuity(plan_basis(up, 0.08), 65)
    approx = life_annuity(plan_basis(up, 0.08, convention=FractionalConvention.APPROX_11_24), 65)
    assert exact == pytest.approx(8.187056802, abs=1e-8)  # also = actuarialmath UDD(m=12)
    assert abs(exact - approx) / exact < 0.002


def test_certain_period_longer_than_remaining_table():
    # At 108 on UP-1984 (last age 110) a 10-year certain period outlasts the table: every certain
    # installment is still paid, so the factor is at least the 10-year annuity certain.
    for conv in FractionalConvention:
        b = plan_basis(get_table("up1984"), 0.05, convention=conv)
        assert certain_and_life_annuity(b, 108, 10) >= annuity_certain(b, 10) - 1e-9
    b1 = plan_basis(get_table("up1984"), 0.05, frequency=1)
    assert certain_and_life_annuity(b1, 108, 10) == pytest.approx(annuity_certain(b1, 10))
