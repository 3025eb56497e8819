"""Carver DB §13.7(G) small-benefit Value on the law's basis for each date (issue 12).

Expected values are worked from the law with an independent oracle: the Value is the vested annual
Accrued Benefit paid monthly in advance (1/12 a month) for life from NRD, discounted to the
distribution date — Σ_k (A/12) · v(t_k) · l(x + t_k) / l(x), t_k = m/12 + k/12 (m months to NRD),
l linear between integer ages (UDD), x the age in completed years and months — where
- 2000-2007 plan years: v(t) = (1 + T)^-t, T the 30-year Treasury rate of the look-back month
  (Table A; former §417(e)(3)(A)(ii)(II)), table Rev. Rul. 95-6 (ASDs before 12/31/2002);
- 2008-2011: each segment rate r_i = p·s_i + (1−p)·T, p = 20/40/60/80% (PPA 2006 §302(b));
- from 2012: r_i = s_i; v(t) = (1 + r)^-t with r = r1 for t < 5, r2 for 5 ≤ t < 20, r3 after
  (§417(e)(3)(D), §430(h)(2)(B)); the table of the stability period's calendar year.
"""

from __future__ import annotations

from datetime import date
from decimal import ROUND_HALF_UP
from decimal import Decimal as D

import pytest

from benefits.engine.mortality import get_table, revrul_2001_62_reading
from benefits.engine.plans.carver_db.cash_out import cash_out, cash_out_event, threshold_on
from benefits.engine.plans.carver_db.settings import BenefitSettings


def _l(qx: dict[int, float], age: float) -> float:
    """Survivors at a fractional age from a fresh product of (1 − q), linear between integers."""
    lo = int(age)
    l_lo = 1.0
    for a in range(min(qx), lo):
        l_lo *= 1.0 - qx[a]
    if lo >= max(qx):
        return 0.0
    l_hi = l_lo * (1.0 - qx[lo])
    return l_lo + (age - lo) * (l_hi - l_lo)


def _oracle(table_key: str, rates: tuple[float, float, float], age: float, months_to_nrd: int) -> float:
    t = get_table(table_key)
    qx = {t.min_age + i: float(q) for i, q in enumerate(t.qx)}
    qx[t.max_age] = 1.0
    l0 = _l(qx, age)
    total = 0.0
    k = 0
    while True:
        time = months_to_nrd / 12 + k / 12
        if age + time > t.max_age + 1:
            break
        r = rates[0] if time < 5 else rates[1] if time < 20 else rates[2]
        total += (1 / 12) * (1 + r) ** -time * _l(qx, age + time) / l0
        k += 1
    return total


def _money(x: float) -> D:
    return D(repr(x)).quantize(D("0.01"), ROUND_HALF_UP)


BIRTH = date(1952, 7, 1)  # NRD (65) = 2017-07-01 for the 2001/2010 cases


def _value(annual, distribution, termination, nrd, assumptions, birth=BIRTH):
    return cash_out(
        vested_annual_at_nrd=D(annual),
        birth_date=birth,
        distribution_date=distribution,
        event_date=cash_out_event(termination, distribution),
        nrd=nrd,
        assumptions=assumptions,
    )


def test_2001_value_30_year_treasury_and_rev_rul_95_6():
    # Terminated 12/31/2000, paid 3/1/2001: look-back September 2000 (third full month before).
    co = _value(
        600,
        date(2001, 3, 1),
        date(2000, 12, 31),
        date(2017, 7, 1),
        {"treasury_30y_monthly": {"2000-09": "5.83"}},
    )
    age = 48 + 8 / 12  # 48 years 8 months on 3/1/2001
    expected = _money(600 * _oracle("gatt1983_unisex", (0.0583,) * 3, age, 196))
    assert co.value == expected
    assert co.required is True and co.threshold == 5000


def test_2010_value_is_the_60_percent_phase_in():
    # Terminated 9/30/2009, paid 2/1/2010: look-back June 2009; p = 60% for the 2010 plan year.
    market = {
        "treasury_30y_monthly": {"2009-06": "4.52"},
        "segment_rates": {"2009-06": ["4.95", "6.71", "6.83"]},
    }
    co = _value(1200, date(2010, 2, 1), date(2009, 9, 30), date(2017, 7, 1), market)
    rates = tuple(0.6 * s + 0.4 * 0.0452 for s in (0.0495, 0.0671, 0.0683))
    age = 57 + 7 / 12
    assert co.value == _money(1200 * _oracle("irs_417e_2010", rates, age, 89))
    assert co.required is False  # about $12,000


def test_2024_value_segment_rates_and_the_2024_table():
    birth = date(1975, 3, 1)  # NRD 2040-03-01
    market = {"segment_rates": {"2023-09": ["5.72", "5.94", "5.88"]}}
    co = _value(300, date(2024, 1, 1), date(2023, 12, 15), date(2040, 3, 1), market, birth=birth)
    age = 48 + 10 / 12
    assert co.value == _money(300 * _oracle("irs_417e_2024", (0.0572, 0.0594, 0.0588), age, 194))
    assert co.required is True


def test_a_49_year_old_exactly_is_valued_at_49_not_49_002():
    birth = date(1977, 3, 1)
    market = {"segment_rates": {"2025-11": ["4.5", "5.2", "5.6"]}}  # 3rd full month before Feb 27
    co = _value(900, date(2026, 3, 1), date(2026, 2, 27), date(2042, 3, 1), market, birth=birth)
    assert co.value == _money(900 * _oracle("irs_417e_2026", (0.045, 0.052, 0.056), 49.0, 192))


def test_2005_value_on_the_unloaded_rev_rul_2001_62_table_says_the_reading_is_unconfirmed():
    # Issue 24: an ASD from 12/31/2002 in a plan year before 2008 is valued on the Rev. Rul. 2001-62
    # table; until an administrator confirms the plan's reading, the unloaded one (the 94 GAR basic
    # rates projected to 2002, the more likely reading) stands in, and the trace says so.
    args = (600, date(2005, 3, 1), date(2004, 12, 31), date(2017, 7, 1))
    market = {"treasury_30y_monthly": {"2004-09": "4.9"}}
    co = _value(*args, market)
    age = 52 + 8 / 12  # 52 years 8 months on 3/1/2005; NRD 7/1/2017 is 148 months away
    assert co.value == _money(600 * _oracle("revrul_2001_62_unloaded", (0.049,) * 3, age, 148))
    assert co.required is True and co.missing is None
    words = str(co.trace.as_list())
    assert "unloaded reading" in words and "unconfirmed until an administrator confirms it" in words
    # the confirmed loaded reading (lower rates: a larger value) is the one the plan then uses
    with revrul_2001_62_reading("loaded"):
        loaded = _value(*args, market)
    assert loaded.value == _money(600 * _oracle("revrul_2001_62_loaded", (0.049,) * 3, age, 148))
    assert loaded.value > co.value and "confirmed by the plan administrator" in str(loaded.trace.as_list())


def test_a_missing_rate_names_the_input():
    co = _value(
        600,
        date(2010, 2, 1),
        date(2009, 9, 30),
        date(2017, 7, 1),
        {"segment_rates": {"2009-06": ["5", "6", "7"]}},
    )
    assert co.missing[0] == "/assumptions/treasury_30y_monthly/2009-06"


@pytest.mark.parametrize(
    ("on", "expected"),
    [
        (date(1997, 12, 31), 3500),  # the 1997 plan year began 1/1/1997, before 8/6/1997 (TD 8794)
        (date(1998, 1, 1), 5000),  # the first plan year beginning after 8/5/1997
        (date(2023, 12, 31), 5000),
        (date(2024, 1, 1), 5000),  # the plan text keeps $5,000 (GAP-12)
    ],
)
def test_threshold_1997_1998_and_2024(on, expected):
    assert threshold_on(on) == expected


def test_7000_only_from_2024_and_only_if_adopted():
    adopted = BenefitSettings(cash_out_threshold_after_2023=D(7000))
    assert threshold_on(date(2023, 12, 31), adopted) == 5000
    assert threshold_on(date(2024, 1, 1), adopted) == 7000
