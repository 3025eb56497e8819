"""Carver 401(k) annuities from the vested balance (§7.1(d), §7.5(a), §7.6(a)-(b)): illustrated on the
§417(e)(3) applicable basis when no insurer quote is given (docs/plan-notes/carver-401k/benefits.md),
with relative values against the QJSA (Treas. Reg. §1.417(a)(3)-1(c)(2)).

The expected amounts are worked out here from the published table's q's by the textbook formula, not
by the engine's actuarial module:

    ä(12)_x = 1/12 × Σ_k v(k/12) × (k/12)p_x        (monthly payments in advance, from the ASD)
    (t)p_x  = Π_{j<n} (1 − q_{x+j}) × (1 − f·q_{x+n})   for t = n + f (uniform deaths within a year)
    v(t)    = (1 + i)^−t, i = 1st segment rate for t < 5, 2nd for 5 ≤ t < 20, 3rd after (IRC §430(h)(2)(B)
              by way of §417(e)(3)(D))
    50% J&S (contingent) factor = Σ v(t)[(t)p_x + ½((t)p_y − (t)p_x·(t)p_y)] / 12
    monthly = balance ÷ (12 × factor), rounded to the cent.
"""

from __future__ import annotations

from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from types import MappingProxyType

import pytest

from benefits.engine.mortality import applicable_417e_table
from benefits.engine.plans.carver_401k import calculate
from benefits.engine.plans.carver_401k.settings import DEFAULT_SETTINGS
from benefits.engine.settings import override
from benefits.engine.types import Participant

SEGMENTS_NOV_2025 = ("4.45", "5.20", "5.85")  # the demo's assumed November 2025 rates (test input)
RATES = {"segment_rates": {"2025-11": list(SEGMENTS_NOV_2025)}}


def _p(**kw):
    base = dict(
        id="A",
        birth_date=date(1961, 3, 1),  # exactly 65 on the ASD
        hire_date=date(1998, 3, 2),
        termination_date=date(2025, 12, 31),
        marital_status="married",
        spouse_birth_date=date(1964, 3, 1),  # exactly 62
        commencement_dates=(date(2026, 3, 1),),
        plan_data={"balances": {"before_tax": "100000.00"}},
    )
    base.update(kw)
    base["plan_data"] = MappingProxyType(base["plan_data"])
    return Participant(**base)


def _v(t: float) -> float:
    i = [float(r) / 100 for r in SEGMENTS_NOV_2025]
    rate = i[0] if t < 5 else (i[1] if t < 20 else i[2])
    return (1 + rate) ** (-t)


def _survival(table, x: int, t: float) -> float:
    n, f = int(t), t - int(t)
    p = 1.0
    for j in range(n):
        if x + j > table.max_age:
            return 0.0
        p *= 1 - table.q(x + j)
    if x + n > table.max_age:
        return 0.0
    return p * (1 - f * table.q(x + n))


def _factor(x: int, y: int | None = None, share: float = 0.0) -> float:
    table = applicable_417e_table(date(2026, 3, 1))
    total, k = 0.0, 0
    while True:
        t = k / 12
        px = _survival(table, x, t)
        py = _survival(table, y, t) if y is not None else 0.0
        paying = px + share * (py - px * py)
        if paying == 0.0:
            return total / 12
        total += _v(t) * paying
        k += 1


def _certain_and_life_factor(x: int, certain_years: int) -> float:
    """ä(12) of a life annuity with ``certain_years`` certain: the first 12 × n monthly payments are
    paid whether or not the annuitant lives, the rest only while alive."""
    table = applicable_417e_table(date(2026, 3, 1))
    total, k = 0.0, 0
    while True:
        t = k / 12
        paying = 1.0 if k < 12 * certain_years else _survival(table, x, t)
        if paying == 0.0:
            return total / 12
        total += _v(t) * paying
        k += 1


def _cents(x: float) -> str:
    return str(Decimal(repr(x)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def test_the_qjsa_and_straight_life_amounts_are_the_balance_over_the_annuity_factor():
    life = _factor(65)
    js50 = _factor(65, 62, 0.5)
    assert 11 < life < 14 and life < js50 < life * 1.2  # a sanity range for age 65 at about 5%
    r = calculate(_p(), date(2026, 1, 15), RATES)
    (e,) = r["estimates"]
    assert e["normal_form"] == "js50"  # §7.5(a): married → 50% Joint and Survivor Annuity
    assert e["forms"]["life"]["monthly"] == _cents(100000 / (12 * life))
    assert e["forms"]["js50"]["monthly"] == _cents(100000 / (12 * js50))
    half = Decimal(e["forms"]["js50"]["monthly"]) / 2
    assert e["forms"]["js50"]["survivor_monthly"] == str(half.quantize(Decimal("0.01"), ROUND_HALF_UP))
    assert e["forms"]["js100"]["monthly"] == _cents(100000 / (12 * _factor(65, 62, 1.0)))
    assert e["forms"]["js75"]["monthly"] == _cents(100000 / (12 * _factor(65, 62, 0.75)))
    # the trace shows the factor and the basis (the §417(e)(3) rates of the look-back month)
    steps = r["traces"]["estimates.2026-03-01"]
    life_step = next(s for s in steps if s["rule"].startswith("Single life annuity"))
    assert abs(float(life_step["inputs"]["annuity_factor"]) - life) < 1e-6
    assert "2025-11" in life_step["rule"] and "4.45%" in life_step["rule"]


def test_every_form_bought_with_the_same_balance_is_worth_the_same_as_the_qjsa():
    """(c)(2)(iv): one basis for every form; each annuity is the same balance converted on it, so its
    present value is the balance again (to the rounding of the monthly amount): 100.0%, approximately
    equal; the lump sum is the balance itself."""
    r = calculate(_p(), date(2026, 1, 15), RATES)
    (e,) = r["estimates"]
    assert e["relative_value_basis"]["form"] == "js50"
    assert e["relative_value_basis"]["lookback_month"] == "2025-11"
    for key in ("js50", "js75", "js100", "life", "lump_sum"):
        assert e["forms"][key]["relative_value"] == {"percent": "100.0", "approximately_equal": True}, key
    assert "estimates.2026-03-01.forms.life.relative_value" in r["traces"]
    assert e["annuity_purchase"] == {
        "from_insurer": True,
        "quoted": [],
        "illustrated": ["js50", "js75", "js100", "life"],
        "basis": e["annuity_purchase"]["basis"],
    }


def test_an_insurer_quote_wins_over_the_illustration_and_is_compared_on_the_same_basis():
    r = calculate(_p(), date(2026, 1, 15), RATES | {"annuity_quotes": {"life": "6.50"}})
    (e,) = r["estimates"]
    assert e["forms"]["life"]["monthly"] == "650.00"  # 100,000 ÷ 1,000 × 6.50 (§7.1(d))
    js50 = float(e["forms"]["js50"]["monthly"])
    # relative value of the quoted life annuity: 650 × 12 × ä_65 ÷ (js50 × 12 × ä_65:62 at 50%)
    expected = 650 * 12 * _factor(65) / (js50 * 12 * _factor(65, 62, 0.5)) * 100
    assert e["forms"]["life"]["relative_value"]["percent"] == str(
        Decimal(repr(expected)).quantize(Decimal("0.1"), ROUND_HALF_UP)
    )
    assert e["annuity_purchase"]["quoted"] == ["life"]


def test_an_unmarried_participant_compares_with_the_straight_life_annuity():
    p = _p(marital_status="single", spouse_birth_date=None)
    (e,) = calculate(p, date(2026, 1, 15), RATES)["estimates"]
    assert e["normal_form"] == "life" and e["relative_value_basis"]["form"] == "life"
    assert "js50" not in e["forms"]  # no contingent annuitant's birth date: not priced, and said so
    assert any("contingent annuitant" in n for n in e["notes"])
    p = _p(
        marital_status="single",
        spouse_birth_date=None,
        plan_data={"balances": {"before_tax": "100000.00"}, "contingent_annuitant_birth_date": "1964-03-01"},
    )
    (e,) = calculate(p, date(2026, 1, 15), RATES)["estimates"]
    assert e["forms"]["js50"]["monthly"] == _cents(100000 / (12 * _factor(65, 62, 0.5)))


def test_the_stability_period_decides_the_look_back_month_on_both_sides_of_january_1():
    """Treas. Reg. §1.417(e)-1(d)(4): the default reading is a Plan Year stability period (the calendar
    year, §1.52) with the second full month before it as look-back month: November of the year before."""
    rates = {"segment_rates": {"2025-11": ["4.45", "5.20", "5.85"], "2026-11": ["5.00", "5.50", "6.00"]}}
    dec = _p(commencement_dates=(date(2026, 12, 1),))
    jan = _p(commencement_dates=(date(2027, 1, 1),))
    (e_dec,) = calculate(dec, date(2026, 11, 21), rates)["estimates"]
    (e_jan,) = calculate(jan, date(2026, 11, 21), rates)["estimates"]
    assert e_dec["relative_value_basis"]["lookback_month"] == "2025-11"
    assert e_jan["relative_value_basis"]["lookback_month"] == "2026-11"
    # higher rates buy a larger annuity despite one month more of age
    assert Decimal(e_jan["forms"]["life"]["monthly"]) > Decimal(e_dec["forms"]["life"]["monthly"])


def test_the_readings_change_the_basis_or_turn_the_illustration_off():
    monthly = {"benefits": override(DEFAULT_SETTINGS, {"annuity_stability_period": "month"})}
    r = calculate(_p(), date(2026, 1, 15), {"segment_rates": {"2026-01": ["4.45", "5.20", "5.85"]}}, monthly)
    assert r["estimates"][0]["relative_value_basis"]["lookback_month"] == "2026-01"  # March 2026 − 2 months
    off = {"benefits": override(DEFAULT_SETTINGS, {"annuity_illustration_basis": "insurer_quotes_only"})}
    (e,) = calculate(_p(), date(2026, 1, 15), RATES, off)["estimates"]
    assert set(e["forms"]) == {"lump_sum"} and "relative_value_basis" not in e
    years = {"benefits": override(DEFAULT_SETTINGS, {"annuity_period_certain_years": [10]})}
    (e,) = calculate(_p(), date(2026, 1, 15), RATES, years)["estimates"]
    assert Decimal(e["forms"]["cc10"]["monthly"]) < Decimal(e["forms"]["life"]["monthly"])
    # §7.1(a) Period Certain and Life (the period is a reading, GAP-26; 10 years here): 120 monthly
    # payments certain, then for life, so the balance ÷ (12 × ä(12) with 10 years certain)
    assert e["forms"]["cc10"]["monthly"] == _cents(100000 / (12 * _certain_and_life_factor(65, 10)))


def test_missing_rates_block_only_the_annuity_amounts_and_name_the_input():
    r = calculate(_p(), date(2026, 1, 15), {})
    (e,) = r["estimates"]
    assert set(e["forms"]) == {"lump_sum"}
    assert r["missing"] == [
        {
            "field": "/assumptions/segment_rates/2025-11",
            "message": "the §417(e)(3) segment rates for 2025-11 are needed and were not supplied",
            "blocks": ["/estimates/0/forms"],
        }
    ]
    assert any("not illustrated" in n for n in e["notes"])


@pytest.mark.parametrize("lookback", [0, 6])
def test_the_look_back_month_is_one_to_five_months(lookback):
    from benefits.engine.settings import SettingError

    with pytest.raises(SettingError):
        override(DEFAULT_SETTINGS, {"annuity_lookback_months": lookback})
