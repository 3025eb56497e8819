"""§417(e) bases and relative values (Treas. Reg. §1.417(a)(3)-1(c)(2))."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from benefits.engine.actuarial import (
    FlatRate,
    Form,
    SegmentRates,
    basis_417e,
    convert_life_annuity,
    life_annuity,
    plan_basis,
    ppa_transition_rates,
    relative_value,
    relative_value_of_apvs,
)
from benefits.engine.mortality import get_table


def test_417e_basis_before_2008_uses_30_year_treasury_and_the_table_then_in_force():
    b = basis_417e(date(2000, 3, 1), treasury_rate=0.0625)
    assert isinstance(b.interest, FlatRate) and b.interest.rate == 0.0625
    assert b.table.key == "gatt1983_unisex"  # Rev. Rul. 95-6
    with pytest.raises(ValueError, match="30-year Treasury"):
        basis_417e(2000, segment_rates=(0.04, 0.05, 0.06))
    # ASDs from 12/31/2002, plan years before 2008: the Rev. Rul. 2001-62 table (issue 24: both
    # readings held, the unloaded one until the plan's reading is confirmed).
    assert basis_417e(2005, treasury_rate=0.05).table.key == "revrul_2001_62_unloaded"


def test_417e_basis_2008_to_2011_blends_each_segment_rate_with_the_treasury_rate():
    # PPA 2006 §302(b), former §417(e)(3)(D)(iii): 2010 applicable percentage 60%.
    b = basis_417e(2010, segment_rates=(0.02, 0.05, 0.06), treasury_rate=0.04)
    assert b.interest == SegmentRates(
        0.6 * 0.02 + 0.4 * 0.04, 0.6 * 0.05 + 0.4 * 0.04, 0.6 * 0.06 + 0.4 * 0.04
    )
    with pytest.raises(ValueError, match="30-year Treasury"):
        basis_417e(2010, segment_rates=(0.02, 0.05, 0.06))


def test_417e_basis_from_2008_uses_segment_rates_and_year_table():
    b = basis_417e(2024, segment_rates=(0.0475, 0.0525, 0.0550))  # hypothetical lookback-month rates
    assert isinstance(b.interest, SegmentRates)
    assert b.table.key == "irs_417e_2024"
    assert "4.75%" in b.describe() and "5.5%" in b.describe()
    with pytest.raises(ValueError, match="segment rates"):
        basis_417e(2024, treasury_rate=0.05)


def test_segment_rate_lump_sum_between_flat_rate_bounds():
    # With segment rates 4/5/6%, the factor lies between the 4% and 6% flat-rate factors.
    t = get_table("irs_417e_2024")
    seg = life_annuity(basis_417e(2024, segment_rates=(0.04, 0.05, 0.06)), 65)
    assert life_annuity(plan_basis(t, 0.06), 65) < seg < life_annuity(plan_basis(t, 0.04), 65)


def test_ppa_transition_blend():
    # 2009: 40% segment rate + 60% 30-year Treasury (PPA 2006 §302(b), former §417(e)(3)(D)(iii))
    a, b, c = ppa_transition_rates(2009, (0.05, 0.06, 0.07), 0.04)
    assert (a, b, c) == pytest.approx((0.044, 0.048, 0.052))
    assert ppa_transition_rates(2012, (0.05, 0.06, 0.07), 0.04) == pytest.approx((0.05, 0.06, 0.07))
    with pytest.raises(ValueError):
        ppa_transition_rates(2007, (0.05, 0.06, 0.07), 0.04)


@pytest.mark.parametrize(
    ("option", "qjsa", "approx"),
    [
        ("95", "100", True),  # (c)(2)(iii)(C): at least 95% ...
        ("94.99", "100", False),
        ("105", "100", True),  # ... and no greater than 105%
        ("105.01", "100", False),
        ("100", "100", True),
        ("87.5", "100", False),
    ],
)
def test_approximately_equal_band(option, qjsa, approx):
    rv = relative_value_of_apvs(Decimal(option), Decimal(qjsa))
    assert rv.approximately_equal is approx


def test_percent_rounding_and_explanation_date():
    rv = relative_value_of_apvs(Decimal("96.55"), Decimal("100"))
    assert rv.percent == Decimal("96.6")  # half up, one place
    assert relative_value_of_apvs(Decimal("96.55"), Decimal("100"), places=0).percent == Decimal("97")
    # (f)(2)(iii): the "approximately equal" description is unavailable before 1/1/2007
    assert not relative_value_of_apvs(
        Decimal("99"), Decimal("100"), explanation_date=date(2006, 12, 31)
    ).approximately_equal
    assert relative_value_of_apvs(
        Decimal("99"), Decimal("100"), explanation_date=date(2007, 1, 1)
    ).approximately_equal
    with pytest.raises(ValueError):
        relative_value_of_apvs(Decimal("1"), Decimal("0"))


def test_lump_sum_on_417e_basis_against_qjsa_on_plan_basis():
    # A plan converts to the QJSA on UP-1984 at 8% (Quaker §1.2 B1); the lump sum is the 417(e) PV;
    # both are compared on the 417(e) basis ((c)(2)(iv)(A)-(B) allow this). The lump sum's APV is
    # 12·L·äx and the QJSA's 12·(L·r)·äJS, so the ratio is äx / (r · äJS) with r the plan's J&S ratio
    # (L cancels; the cents rounding of the QJSA amount moves it by < 1e-5).
    plan = plan_basis(get_table("up1984"), 0.08)
    cmp_basis = basis_417e(2024, segment_rates=(0.05, 0.05, 0.05))  # hypothetical rates
    life = Decimal("1000.00")
    qjsa = convert_life_annuity(life, plan, Form.contingent(0.5), 65, 62)
    lump = convert_life_annuity(life, cmp_basis, Form.lump_sum(), 65)
    rv = relative_value(Form.lump_sum(), lump.amount, Form.contingent(0.5), qjsa.amount, cmp_basis, 65, 62)
    from benefits.engine.actuarial import joint_survivor_annuity

    expected = life_annuity(cmp_basis, 65) / (qjsa.ratio * joint_survivor_annuity(cmp_basis, 65, 62, 0.5))
    assert rv.ratio == pytest.approx(expected, rel=1e-5)
    # UP-1984 is heavier than the 2024 table, so its J&S reduction is deeper: the lump sum is worth
    # a little more than the QJSA, but within the 95%-105% band.
    assert 1.0 < rv.ratio < 1.05 and rv.approximately_equal
    # the lump sum equals 12 × ä(12)65 on the 417(e) basis
    assert lump.amount == pytest.approx(
        Decimal(1000 * 12) * Decimal(repr(life_annuity(cmp_basis, 65))), abs=Decimal("0.01")
    )


def test_traces_name_the_basis_and_section():
    b = plan_basis(get_table("up1984"), 0.08)
    conv = convert_life_annuity(Decimal("1000"), b, Form.contingent(0.5), 65, 62, section="Quaker §5.10(c)")
    (step,) = conv.trace.steps
    assert step.section == "Quaker §5.10(c)"
    assert "UP-1984, 8% interest" in step.rule
    assert step.result == conv.amount
    rv = relative_value_of_apvs(Decimal("97"), Decimal("100"))
    assert rv.trace.steps[0].section == "Treas. Reg. §1.417(a)(3)-1(c)(2)"
    assert rv.trace.steps[0].result == Decimal("97.0")


@pytest.mark.parametrize(
    ("birth", "on", "method", "expected"),
    [
        (date(1960, 3, 15), date(2025, 3, 15), "exact_months", 65.0),
        (date(1960, 3, 15), date(2025, 3, 14), "exact_months", 64 + 11 / 12),
        (date(1960, 3, 15), date(2025, 9, 14), "last_birthday", 65.0),
        (date(1960, 3, 15), date(2025, 9, 14), "nearest_birthday", 65.0),  # 5 completed months
        (date(1960, 3, 15), date(2025, 9, 15), "nearest_birthday", 66.0),  # 6 completed months
    ],
)
def test_attained_age(birth, on, method, expected):
    from benefits.engine.actuarial import AgeMethod, attained_age

    assert attained_age(birth, on, AgeMethod(method)) == pytest.approx(expected)


def test_grouping_within_five_points_single_sum_disclosed():
    # (c)(2)(iii)(B) example: 87.5%, 89%, 91% may be grouped ("approximately 90%").
    from benefits.engine.actuarial import group_relative_values

    items = [
        ("J&S 75%", relative_value_of_apvs(Decimal("89"), Decimal("100"))),
        ("10 C&L", relative_value_of_apvs(Decimal("91"), Decimal("100"))),
        ("Lump sum", relative_value_of_apvs(Decimal("87.5"), Decimal("100"))),
        ("Life", relative_value_of_apvs(Decimal("97"), Decimal("100"))),
    ]
    groups = group_relative_values(items, single_sum="Lump sum")
    assert [g.members for g in groups] == [("Lump sum", "J&S 75%", "10 C&L"), ("Life",)]
    assert groups[0].disclosed == "Lump sum"  # a single sum in a group must be the form disclosed
    assert (groups[0].low, groups[0].high) == (Decimal("87.5"), Decimal("91.0"))
    # 5 points exactly still groups; 5.1 does not
    edge = [
        ("a", relative_value_of_apvs(Decimal(90), Decimal(100))),
        ("b", relative_value_of_apvs(Decimal(95), Decimal(100))),
    ]
    assert len(group_relative_values(edge)) == 1
    edge2 = [
        ("a", relative_value_of_apvs(Decimal(90), Decimal(100))),
        ("b", relative_value_of_apvs(Decimal("95.1"), Decimal(100))),
    ]
    assert len(group_relative_values(edge2)) == 2
