"""The default relative-value basis is the law's for the date (Treas. Reg. §1.417(a)(3)-1(c)(2)(iv)):
the §417(e)(3) applicable mortality table and interest rate — the segment rates of the look-back
month from 2012 (IRC §417(e)(3)(C)-(D), §430(h)(2)(B): payments due within 5 years at the first rate,
5-20 years at the second, after 20 at the third). Each expected value here is a hand-rolled monthly
sum, independent of the engine's actuarial code:

    APV(life, 1 a month) = Σ_k v(k/12) · l(x + k/12) / l(x),  k = 0, 1, 2, … (payments in advance)
    v(t) = (1 + r(t))^(−t), r(t) the segment rate for t;  l linear between integer ages (UDD)
    APV(50% contingent) = Σ_k v · [p_x + .5 · (p_y − p_x · p_y)]  (independent lives)

on a made-up table (q_x = .01 · 1.1^(x − 60) from 60, q = 1 at 100), so the test depends on no
published table.
"""

from __future__ import annotations

from datetime import date
from decimal import ROUND_HALF_UP
from decimal import Decimal as D

import numpy as np
import pytest

from benefits.engine.actuarial import Form
from benefits.engine.mortality import MortalityTable
from benefits.engine.relative_value import ComparisonRules, OptionalForm, relative_values

AGES = np.arange(60, 101)
Q = np.minimum(0.01 * 1.1 ** (AGES - 60), 1.0)
Q[-1] = 1.0
T = MortalityTable("T", "made-up table", "test", 60, Q)
RULES = ComparisonRules("js50", "life", 2, "treasury_30y_monthly", "§X")
BIRTH = SPOUSE = date(1959, 4, 1)  # exactly 65 on the ASD
ASD = date(2024, 4, 1)  # look-back month 2024-02
SEGMENTS = {"segment_rates": {"2024-02": ["4.5", "5.25", "5.75"]}}
TREASURY = {"treasury_30y_monthly": {"2024-02": "4.25"}}


def _l(age: float) -> float:
    """l(age) with l(60) = 1, linear within each year of age (UDD)."""
    whole = int(np.floor(age))
    if whole >= 101:
        return 0.0
    l_whole = float(np.prod(1 - Q[: whole - 60]))
    return l_whole * (1 - (age - whole) * Q[whole - 60])


def _monthly_sum(x: float, rate_at, survivor_y: float | None = None) -> float:
    total, k = 0.0, 0
    while True:
        t = k / 12
        px = _l(x + t) / _l(x)
        if px <= 0 and (survivor_y is None or _l(survivor_y + t) <= 0):
            return total
        v = (1 + rate_at(t)) ** (-t)
        if survivor_y is None:
            total += v * px
        else:
            py = _l(survivor_y + t) / _l(survivor_y)
            total += v * (px + 0.5 * (py - px * py))
        k += 1


def _segment(t: float) -> float:
    return 0.045 if t < 5 else 0.0525 if t < 20 else 0.0575


def _percent(ratio: float) -> D:
    return D(repr(float(ratio) * 100)).quantize(D("0.1"), rounding=ROUND_HALF_UP)


FORMS = [
    OptionalForm("js50", Form.contingent(0.5), D("900"), SPOUSE),
    OptionalForm("life", Form.life(), D("1000")),
]


def test_the_law_basis_by_a_hand_rolled_monthly_sum():
    expected_life = 1000 * _monthly_sum(65, _segment)
    expected_js = 900 * _monthly_sum(65, _segment, survivor_y=65)
    rv = relative_values(
        FORMS,
        birth_date=BIRTH,
        asd=ASD,
        married=True,
        assumptions={**SEGMENTS, **TREASURY},
        rules=RULES,
        table=T,
    )
    assert rv.basis.reading == "law" and rv.note == ""
    assert float(rv.values["js50"].qjsa_apv) == pytest.approx(expected_js, rel=1e-9)
    assert rv.values["life"].percent == _percent(expected_life / expected_js)


def test_without_the_segment_rates_the_plan_rate_is_used_and_named():
    flat = 0.0425
    expected_life = 1000 * _monthly_sum(65, lambda t: flat)
    expected_js = 900 * _monthly_sum(65, lambda t: flat, survivor_y=65)
    rv = relative_values(
        FORMS, birth_date=BIRTH, asd=ASD, married=True, assumptions=TREASURY, rules=RULES, table=T
    )
    assert rv.basis.reading == "plan_rate_fallback"
    assert float(rv.values["js50"].qjsa_apv) == pytest.approx(expected_js, rel=1e-9)
    assert rv.note.field == "/assumptions/segment_rates/2024-02"
    assert rv.values["life"].percent == _percent(expected_life / expected_js)


def test_the_two_bases_differ_so_the_choice_matters():
    law = relative_values(
        FORMS,
        birth_date=BIRTH,
        asd=ASD,
        married=True,
        assumptions={**SEGMENTS, **TREASURY},
        rules=RULES,
        table=T,
    )
    plan = relative_values(
        FORMS, birth_date=BIRTH, asd=ASD, married=True, assumptions=TREASURY, rules=RULES, table=T
    )
    assert law.values["js50"].qjsa_apv < plan.values["js50"].qjsa_apv  # higher rates, lower value
