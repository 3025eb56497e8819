"""Relative values against the QJSA (Treas. Reg. §1.417(a)(3)-1(c)(2)), worked by
hand on a two-age table at 0% interest, and the look-back / missing-rate / segment-rate paths.

Table H: q60 = .5, q61 = 1 (l60 = 1, l61 = .5, l62 = 0, UDD between). Paid monthly in advance at 0%,
the APV of 1 a month is the expected number of payments:
  life at 60: Σ_{k<12} (1 − k/24) + Σ_{k<12} (.5 − k/24) = 9.25 + 3.25 = 12.5
  joint (both 60, independent): Σ (1 − k/24)² + Σ (.5 − k/24)² = 1225/144
  contingent 50%: 12.5 + .5·(12.5 − 1225/144) = 2087.5/144 = 14.4965277…
  60 payments certain and life: 60 (nobody lives past 62)
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal as D

import numpy as np
import pytest

from benefits.engine.actuarial import Form, SegmentRates
from benefits.engine.mortality import MortalityTable
from benefits.engine.relative_value import (
    ComparisonRules,
    OptionalForm,
    comparison_basis,
    lookback_month,
    relative_values,
)

H = MortalityTable("H", "half table", "test", 60, np.array([0.5, 1.0]))
BIRTH, SPOUSE, ASD = date(1947, 3, 1), date(1947, 3, 1), date(2007, 3, 1)  # both exactly 60
RULES = ComparisonRules(
    qjsa_form="js50", single_life_form="life", lookback_months=2, rate_key="rate", section="§X"
)
ZERO_RATE = {"rate": {"2007-01": "0"}}  # ASD March → January (2nd month before)
QJSA_APV = D("90") * D("2087.5") / D(144)  # js50 paying 90 a month: 1,304.6875


def _rv(forms, *, married=True, assumptions=ZERO_RATE, rules=RULES, table=H, asd=ASD):
    return relative_values(
        forms, birth_date=BIRTH, asd=asd, married=married, assumptions=assumptions, rules=rules, table=table
    )


def _forms(**extra):
    forms = [
        OptionalForm("js50", Form.contingent(0.5), D("90"), SPOUSE),
        OptionalForm("life", Form.life(), D("100")),
        OptionalForm("cc5", Form.certain_and_life(5), D("20")),
        OptionalForm("ss_level", Form.life(), D("150"), amount_after=D("50"), change_after_months=12),
    ]
    return forms + [OptionalForm(k, *v) for k, v in extra.items()]


def test_by_hand_on_table_h_at_zero_interest():
    rv = _rv(_forms(lump_sum=(Form.lump_sum(), D("1304.6875"))))
    assert float(rv.values["js50"].qjsa_apv) == pytest.approx(float(QJSA_APV), abs=1e-9)
    assert rv.values["js50"].percent == D("100.0")  # the QJSA against itself
    assert rv.values["life"].percent == D("95.8")  # 1,250 / 1,304.6875 = .958084
    assert rv.values["life"].approximately_equal
    assert rv.values["cc5"].percent == D("92.0")  # 60 × 20 = 1,200 / 1,304.6875 = .919761
    assert not rv.values["cc5"].approximately_equal
    # level income: 150 × 9.25 + 50 × 3.25 = 1,550 → 118.8%, a subsidized form above 100%
    assert rv.values["ss_level"].percent == D("118.8")
    assert not rv.values["ss_level"].approximately_equal
    # the lump sum equal to the QJSA's present value is 100%
    assert rv.values["lump_sum"].percent == D("100.0")
    assert rv.basis is not None and rv.basis.form == "js50" and rv.basis.lookback_month == "2007-01"


def test_unmarried_participant_compares_with_the_single_life_annuity_c2ii():
    rv = _rv(_forms(), married=False)
    assert rv.basis.form == "life"
    assert rv.values["life"].percent == D("100.0")
    # js50 paying 90 against life paying 100: 1,304.6875 / 1,250 = 104.375% → 104.4 (half up)
    assert rv.values["js50"].percent == D("104.4")
    assert rv.values["js50"].approximately_equal


@pytest.mark.parametrize(
    "lump, percent, approx",
    [
        ("0.9496", "95.0", False),  # rounds to 95.0 but is below 95%: decided on the unrounded ratio
        ("0.9501", "95.0", True),
        ("1.0499", "105.0", True),
        ("1.0504", "105.0", False),
        ("1.0600", "106.0", False),  # a subsidized single sum
    ],
)
def test_approximately_equal_boundary_95_105_c2iiiC(lump, percent, approx):
    rv = _rv(_forms(lump_sum=(Form.lump_sum(), QJSA_APV * D(lump))))
    assert rv.values["lump_sum"].percent == D(percent)
    assert rv.values["lump_sum"].approximately_equal is approx


def test_no_approximately_equal_for_explanations_before_2007_f2iii():
    birth = date(1946, 3, 1)
    forms = [
        OptionalForm("js50", Form.contingent(0.5), D("90"), birth),
        OptionalForm("life", Form.life(), D("100")),
    ]
    rv = relative_values(
        forms, birth_date=birth, asd=date(2006, 3, 1), married=True,
        assumptions={"rate": {"2006-01": "0"}}, rules=RULES, table=H,
    )  # fmt: skip
    assert rv.values["life"].percent == D("95.8") and not rv.values["life"].approximately_equal


def test_grouping_discloses_the_single_sum_c2iiiA():
    rv = _rv(_forms(lump_sum=(Form.lump_sum(), QJSA_APV * D("0.97"))))
    # greedy from the lowest: cc5 92.0 takes life 95.8 (3.8 points) but not the lump sum (97.0 is
    # 5.02 points above .919761); the lump sum then groups with js50 100.0 and is the one disclosed.
    assert [set(g.members) for g in rv.groups] == [{"cc5", "life"}, {"lump_sum", "js50"}, {"ss_level"}]
    assert [g.disclosed for g in rv.groups] == ["cc5", "lump_sum", "ss_level"]
    assert (rv.groups[0].low, rv.groups[0].high) == (D("92.0"), D("95.8"))


def test_trace_per_form_says_which_basis_then_names_plan_section_and_regulation():
    rv = _rv(_forms())
    for key in ("js50", "life", "cc5", "ss_level"):
        basis_step, step = rv.traces[key].steps
        # 2007: the §417(e)(3) rate was the plan's 30-year Treasury rate (the law's basis then)
        assert basis_step.rule.startswith("Comparison basis: the §417(e)(3) applicable interest rate")
        assert dict(basis_step.inputs)["reading"] == "law"
        assert step.section == "§X; Treas. Reg. §1.417(a)(3)-1(c)(2)"
        assert step.result == rv.values[key].percent


@pytest.mark.parametrize(
    "asd, months, month",
    [(date(2008, 3, 1), 2, "2008-01"), (date(2027, 4, 1), 3, "2027-01"), (date(2027, 2, 1), 3, "2026-11")],
)
def test_lookback_month(asd, months, month):
    # Quaker §1.2(e): "second month before" (SPEC: ASD March 1 → January); Carver Table A: "third full
    # calendar month preceding".
    assert lookback_month(asd, months) == month


def test_missing_rate_omits_relative_values_and_names_the_input():
    rv = _rv(_forms(), assumptions={"rate": {"2006-12": "4.5"}})
    assert rv.basis is None and not rv.values
    assert "2007-01" in rv.note and "assumptions.rate.2007-01" in rv.note


def test_the_plan_default_rate_stands_in_for_a_missing_month():
    rules = ComparisonRules("js50", "life", 2, "rate", "§X", rate_default_key="rate_default")
    rv = _rv(_forms(), assumptions={"rate_default": "0"}, rules=rules)
    assert rv.values["life"].percent == D("95.8")
    assert "rate_default" in rv.basis.interest and "rate_default" in rv.basis.source


def test_missing_comparison_form_omits_with_a_note():
    rv = _rv([OptionalForm("life", Form.life(), D("100"))], married=True)
    assert rv.basis is None and "js50" in rv.note


def test_the_default_is_the_law_segment_rates_from_2008_and_the_treasury_rate_before():
    # Treas. Reg. §1.417(a)(3)-1(c)(2)(iv): the §417(e)(3) applicable interest rate for the date.
    assert RULES.interest == "segment_rates"
    a = {"segment_rates": {"2027-01": ["4.1", "5.2", "5.6"]}, "rate": {"2007-01": "4.8"}}
    basis, note = comparison_basis(date(2027, 3, 1), a, RULES, married=True, table=H)
    assert note == "" and basis.basis.interest == SegmentRates(0.041, 0.052, 0.056)
    assert basis.reading == "law" and "law prescribes for payments starting March 1, 2027" in basis.words
    basis, _ = comparison_basis(date(2007, 3, 1), a, RULES, married=True, table=H)
    assert basis.basis.interest.rate == pytest.approx(0.048)  # §417(e)(3) before 2008: 30-year Treasury
    assert basis.reading == "law"
    basis, note = comparison_basis(date(2027, 4, 1), a, RULES, married=True, table=H)
    assert basis is None and "segment rates for 2027-02" in note
    assert note.field == "/assumptions/segment_rates/2027-02"


def test_the_2010_basis_blends_each_segment_60_40_with_the_treasury_rate():
    # PPA 2006 §302(b) (former §417(e)(3)(D)(iii)): 60% × segment + 40% × 30-year Treasury in 2010.
    a = {"segment_rates": {"2010-01": ["4", "6", "7"]}, "rate": {"2010-01": "4.5"}}
    basis, note = comparison_basis(date(2010, 3, 1), a, RULES, married=True, table=H)
    assert note == "" and basis.reading == "law"
    # .6 × 4 + .4 × 4.5 = 4.2; .6 × 6 + .4 × 4.5 = 5.4; .6 × 7 + .4 × 4.5 = 6.0
    assert basis.basis.interest == SegmentRates(0.042, 0.054, 0.060)


def test_missing_segment_rates_fall_back_to_the_plan_rate_and_say_so():
    a = {"rate": {"2027-01": "0"}}
    basis, note = comparison_basis(date(2027, 3, 1), a, RULES, married=True, table=H)
    assert basis.reading == "plan_rate_fallback" and basis.basis.interest.rate == 0.0
    assert note.field == "/assumptions/segment_rates/2027-01"
    assert str(note) == (
        "relative values use the plan's 30-year Treasury rate for 2027-01 because the law's basis for "
        "March 1, 2027 cannot be formed: the §417(e)(3) segment rates for 2027-01 are needed and were "
        "not supplied"
    )
    assert "not loaded yet" in basis.words
    # the values are still computed, on the plan's rate (0%: the by-hand 95.8% of the table H case)
    born = date(1967, 3, 1)  # both exactly 60 on March 1, 2027, as in the by-hand case
    forms = [
        OptionalForm("js50", Form.contingent(0.5), D("90"), born),
        OptionalForm("life", Form.life(), D("100")),
    ]
    rv = relative_values(
        forms, birth_date=born, asd=date(2027, 3, 1), married=True, assumptions=a, rules=RULES, table=H
    )
    assert rv.values["life"].percent == D("95.8") and rv.note.field == note.field
    assert dict(rv.traces["life"].steps[0].inputs)["reading"] == "plan_rate_fallback"


def test_the_plan_rate_reading_stays_available():
    rules = ComparisonRules("js50", "life", 2, "rate", "§X", interest="plan_rate")
    a = {"segment_rates": {"2027-01": ["4.1", "5.2", "5.6"]}, "rate": {"2027-01": "4.8"}}
    basis, note = comparison_basis(date(2027, 3, 1), a, rules, married=True, table=H)
    assert note == "" and basis.reading == "plan_rate" and basis.basis.interest.rate == pytest.approx(0.048)


def test_default_mortality_is_the_417e_table_for_the_asd():
    basis, _ = comparison_basis(
        date(2024, 3, 1), {"segment_rates": {"2024-01": [4, 5, 5]}}, RULES, married=True
    )
    assert basis.basis.table.key == "irs_417e_2024"
    basis, _ = comparison_basis(date(2031, 3, 1), {"rate": {"2031-01": "4.5"}}, RULES, married=True)
    assert basis.basis.table.key == "irs_417e_2026" and "stands in" in basis.mortality
