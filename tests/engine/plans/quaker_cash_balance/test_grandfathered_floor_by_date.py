"""Quaker §5.11(b): the grandfathered minimum lump sum on the law's basis for the date (issue 12).

The floor is the value at the ASD of the certified December 31, 1999 monthly benefit, paid monthly
in advance for life from its NRD. From the 2008 Plan Year it is a §417(e)(3) minimum present value
and the statute replaces §1.2(e)'s 30-year Treasury rate: PPA 2006 §302(b) blend p·s + (1−p)·T for
2008-2011, segment rates from 2012 (t < 5, 5-20, > 20 years), the plan's look-back month kept (the
second month before the ASD). Expected values: an independent sum over the monthly payments.
"""

from __future__ import annotations

from datetime import date
from decimal import ROUND_HALF_UP
from decimal import Decimal as D

import pytest

from benefits.engine.minimum_present_value import MissingMarketData
from benefits.engine.mortality import get_table
from benefits.engine.plans.quaker_cash_balance.lump_sum import floor_basis, lump_sum


def _oracle(table_key, rates, age, months_deferred):
    t = get_table(table_key)
    q = {t.min_age + i: float(v) for i, v in enumerate(t.qx)}
    q[t.max_age] = 1.0

    def lx(x):
        lo, val = int(x), 1.0
        for a in range(t.min_age, lo):
            val *= 1 - q[a]
        if lo > t.max_age:
            return 0.0
        return val + (x - lo) * (val * (1 - q[lo]) - val)

    total, k, l0 = 0.0, 0, lx(age)
    while age + months_deferred / 12 + k / 12 <= t.max_age + 1:
        time = months_deferred / 12 + k / 12
        r = rates[0] if time < 5 else rates[1] if time < 20 else rates[2]
        total += (1 + r) ** -time * lx(age + time) / l0
        k += 1
    return total  # per 1 a month: Σ v · p


def _money(x):
    return D(repr(x)).quantize(D("0.01"), ROUND_HALF_UP)


BIRTH = date(1950, 1, 1)
NRD_1999 = date(2015, 1, 1)


def test_2010_floor_uses_the_60_percent_blend_of_january():
    market = {
        "applicable_interest_rate": {"2010-01": "4.60"},
        "segment_rates": {"2010-01": ["4.5", "6.2", "6.5"]},
    }
    sb = floor_basis(date(2010, 3, 1), market)
    ls = lump_sum(D("1000"), asd=date(2010, 3, 1), birth_date=BIRTH, benefit_1999=D("500"),
                  benefit_1999_starts=NRD_1999, statutory=sb)  # fmt: skip
    rates = tuple(0.6 * s + 0.4 * 0.046 for s in (0.045, 0.062, 0.065))
    expected = _money(500 * _oracle("irs_417e_2010", rates, 60 + 2 / 12, 58))
    assert ls.floor == expected and ls.amount == expected  # the floor exceeds the $1,000 balance
    assert any("§417(e)(3)" in s.section for s in ls.trace.steps)


def test_2024_floor_uses_the_segment_rates():
    market = {"segment_rates": {"2024-04": ["5.3", "5.4", "5.2"]}}
    sb = floor_basis(date(2024, 6, 1), market)
    ls = lump_sum(D("90000"), asd=date(2024, 6, 1), birth_date=BIRTH, benefit_1999=D("500"),
                  benefit_1999_starts=NRD_1999, statutory=sb)  # fmt: skip
    expected = _money(500 * _oracle("irs_417e_2024", (0.053, 0.054, 0.052), 74 + 5 / 12, 0))
    assert ls.floor == expected
    assert ls.amount == D("90000")  # the balance is larger


def test_before_2008_the_plans_own_basis_is_the_statute():
    assert floor_basis(date(2007, 12, 1), {}) is None


def test_a_missing_month_is_named():
    with pytest.raises(MissingMarketData) as err:
        floor_basis(date(2011, 5, 1), {"segment_rates": {"2011-03": ["5", "6", "7"]}})
    assert err.value.field == "/assumptions/treasury_30y_monthly/2011-03"
