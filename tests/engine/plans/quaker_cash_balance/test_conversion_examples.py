"""Golden tests: annuity conversions, forms, lump sums and the survivor annuity of SPEC §15.

Basis as the SPEC's examples: AIR 6% (A2), the Rev. Rul. 95-6 table computed as the 50/50 1983 GAM
blend (A3), exact age in years and months, UDD, monthly benefits rounded to the cent (A4).
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from benefits.engine.plans.quaker_cash_balance.annuity import applicable_basis, balance_to_life_annuity
from benefits.engine.plans.quaker_cash_balance.death import survivor_annuity, survivor_dates
from benefits.engine.plans.quaker_cash_balance.forms import immediate_vested_forms, retirement_forms
from benefits.engine.plans.quaker_cash_balance.lump_sum import (
    beginning_balance,
    earliest_lump_sum_date,
    lump_sum,
    whipsaw_value,
)
from benefits.engine.plans.quaker_cash_balance.market import MarketData
from benefits.engine.plans.quaker_cash_balance.settings import BenefitSettings

D = Decimal
ANA_DOB, BEN_DOB, BEN_SPOUSE, CARLA_DOB = (
    date(1972, 8, 22),
    date(1940, 12, 15),
    date(1943, 5, 1),
    date(1947, 6, 20),
)


def sla(market, balance, dob, start):
    return balance_to_life_annuity(
        D(balance), birth_date=dob, start=start, basis=applicable_basis(start, market)
    )


def test_ana_immediate_life_annuity_s5_9e(spec_market):
    a = sla(spec_market, "14375.45", ANA_DOB, date(2008, 3, 1))
    assert a.factor == pytest.approx(15.584501, abs=5e-7)
    assert a.monthly == D("76.87")


def test_ana_life_annuity_at_nrd_s5_3a(spec_market):
    a = sla(spec_market, "53024.82", ANA_DOB, date(2037, 9, 1))
    assert a.factor == pytest.approx(10.639690, abs=5e-7)
    assert a.monthly == D("415.31")


def test_ben_normal_retirement_life_annuity_s5_3a(spec_market):
    assert sla(spec_market, "17300.28", BEN_DOB, date(2006, 2, 1)).monthly == D("135.78")


def test_carla_early_retirement_no_separate_reduction_s5_5b(spec_market):
    a = sla(spec_market, "77387.28", CARLA_DOB, date(2005, 1, 1))
    assert a.factor == pytest.approx(12.456438, abs=5e-7)
    assert a.monthly == D("517.72")


def test_ben_b3_joint_and_survivor_from_balance_s5_9e(spec_market):
    start = date(2006, 2, 1)
    forms = immediate_vested_forms(
        sla(spec_market, "17300.28", BEN_DOB, start),
        birth_date=BEN_DOB,
        spouse_birth_date=BEN_SPOUSE,
        applicable=applicable_basis(start, spec_market),
    )
    assert (forms["js50"].monthly, forms["js50"].survivor_monthly) == (D("123.35"), D("61.68"))
    assert set(forms) == {"life", "js50"}  # §5.9(e) offers only the life annuity and the J&S


def test_ben_b3_comparison_options_bought_from_the_balance(spec_market):
    # SPEC Example 2's "B3 comparison" figures: contingent annuitant 100% and 66-2/3%, 120 certain.
    start = date(2006, 2, 1)
    forms = immediate_vested_forms(
        sla(spec_market, "17300.28", BEN_DOB, start), birth_date=BEN_DOB, spouse_birth_date=BEN_SPOUSE,
        applicable=applicable_basis(start, spec_market), keys=("js50", "js66", "js100", "cc10"),
    )  # fmt: skip
    assert (forms["js100"].monthly, forms["js100"].survivor_monthly) == (D("113.01"), D("113.01"))
    assert (forms["js66"].monthly, forms["js66"].survivor_monthly) == (D("119.70"), D("79.80"))
    assert forms["cc10"].monthly == D("129.46")


def test_two_step_conversion_on_the_applicable_basis_ambig12_setting(spec_market):
    # Converting the rounded life annuity ($135.78 × ratio 0.908455) gives the same QJSA here.
    start = date(2006, 2, 1)
    forms = retirement_forms(
        sla(spec_market, "17300.28", BEN_DOB, start), birth_date=BEN_DOB, spouse_birth_date=BEN_SPOUSE,
        applicable=applicable_basis(start, spec_market), settings=BenefitSettings(form_conversion_basis="applicable"),
    )  # fmt: skip
    assert forms["js50"].monthly == D("123.35")


def test_ben_plan_forms_use_up84_at_8pct_and_are_below_the_life_annuity(spec_market):
    # §5.10(c)/§5.11(b) on UP-84 at 8% (the SPEC could not compute these: "needs UP-84 qx").
    start = date(2006, 2, 1)
    forms = retirement_forms(
        sla(spec_market, "17300.28", BEN_DOB, start), birth_date=BEN_DOB, spouse_birth_date=BEN_SPOUSE,
        applicable=applicable_basis(start, spec_market), settings=BenefitSettings(),
    )  # fmt: skip
    life = forms["life"].monthly
    assert life == D("135.78")
    for key in ("js50", "js66", "js100", "cc5", "cc10", "cc15", "cc20"):
        assert forms[key].monthly < life, key
    assert forms["js100"].monthly < forms["js66"].monthly < forms["js50"].monthly
    assert forms["cc20"].monthly < forms["cc15"].monthly < forms["cc10"].monthly < forms["cc5"].monthly
    assert "UP-1984 at 8%" in str(forms["js50"].trace.as_list())


def test_earliest_lump_sum_dates_s5_11a_iv():
    assert earliest_lump_sum_date(date(2007, 10, 15), retirement=False) == date(2008, 3, 1)  # Ana
    assert earliest_lump_sum_date(date(2007, 12, 31), retirement=False) == date(2008, 3, 1)
    assert earliest_lump_sum_date(date(2008, 1, 1), retirement=False) == date(2008, 6, 1)
    assert earliest_lump_sum_date(date(2004, 12, 31), retirement=True) == date(2005, 1, 1)


def test_carla_beginning_balance_from_850_a_month_s4_2_s1_2h():
    # November 1999 AIR (hyp. 6%), Rev. Rul. 95-6 table; NRD 2012-07-01.
    market = MarketData.from_assumptions({"applicable_interest_rate": {"1999-11": "6.00"},
                                          "applicable_mortality_table": "rev-rul-95-6"})  # fmt: skip
    value, trace = beginning_balance(D("850.00"), birth_date=CARLA_DOB, nrd=date(2012, 7, 1),
                                     basis=applicable_basis(date(2000, 1, 1), market))  # fmt: skip
    assert value == D("48507.49")
    assert "1999-11" in str(trace.as_list())


def test_lump_sum_is_the_balance_and_floor_wins_when_larger_s5_11b(spec_market):
    asd = date(2005, 1, 1)
    basis = applicable_basis(asd, spec_market)
    plain = lump_sum(D("77387.28"), asd=asd, birth_date=CARLA_DOB)
    assert plain.amount == D("77387.28") and plain.floor is None
    # The $850 1999 benefit from 2012-07-01 is worth less than the balance at 57½: balance paid.
    floored = lump_sum(D("77387.28"), asd=asd, birth_date=CARLA_DOB, basis=basis,
                       benefit_1999=D("850.00"), benefit_1999_starts=date(2012, 7, 1))  # fmt: skip
    assert floored.floor < floored.balance and floored.amount == D("77387.28")
    big = lump_sum(D("1000.00"), asd=asd, birth_date=CARLA_DOB, basis=basis,
                   benefit_1999=D("850.00"), benefit_1999_starts=date(2012, 7, 1))  # fmt: skip
    assert big.amount == big.floor > D("1000.00")


def test_ana_whipsaw_illustration_gap3(spec_market):
    value = whipsaw_value(D("415.31"), birth_date=ANA_DOB, asd=date(2008, 3, 1), nrd=date(2037, 9, 1),
                          basis=applicable_basis(date(2008, 3, 1), spec_market))  # fmt: skip
    assert value == D("8566.98")
    ls = lump_sum(D("14375.45"), asd=date(2008, 3, 1), birth_date=ANA_DOB, whipsaw_value=value)
    assert ls.amount == D("14375.45")  # balance paid (GAP-3 default)


def test_gina_survivor_annuity_both_start_dates_s5_12(spec_market):
    hank = date(1960, 9, 30)
    dates = survivor_dates(death_date=date(2008, 8, 14), birth_date=date(1958, 2, 10), recipient="spouse")
    assert (dates.earliest_start, dates.latest_start, dates.lump_sum_election_deadline) == (
        date(2008, 9, 1), date(2023, 3, 1), date(2022, 12, 31))  # fmt: skip
    for start, balance, monthly in (
        (date(2008, 9, 1), "15889.06", "93.50"),
        (date(2009, 1, 1), "17706.90", "104.56"),
    ):
        s = survivor_annuity(D(balance), recipient="spouse", start=start, survivor_birth_date=hank, dates=dates,
                             basis=applicable_basis(start, spec_market), cash_out_threshold=D("5000"))  # fmt: skip
        assert s.monthly == D(monthly)
        assert not s.lump_sum_automatic


def test_beneficiary_survivor_dates_s5_12c():
    dates = survivor_dates(
        death_date=date(2008, 8, 14), birth_date=date(1958, 2, 10), recipient="beneficiary"
    )
    assert dates.latest_start == date(2010, 1, 1)
    assert dates.lump_sum_election_deadline == date(2009, 11, 1)


def _up84_oracle(x: float, y: float | None = None, frac: float = 0.0, i: float = 0.08) -> float:
    """Independent ä(12) on UP-1984 (UDD, monthly in advance) straight from the table file: a test
    oracle for the values the SPEC could not produce ("needs UP-84 qx")."""
    import csv
    from pathlib import Path

    import benefits.engine.mortality as mort

    rows = list(csv.reader((Path(mort.__file__).parent / "data" / "up1984.csv").open()))[1:]
    q = {int(a): float(b) for a, b in rows}
    lo, hi = min(q), max(q)
    lx = {lo: 1.0}
    for a in range(lo, hi + 1):
        lx[a + 1] = lx[a] * (1 - (1.0 if a == hi else q[a]))

    def lz(z: float) -> float:
        if z >= hi + 1:
            return 0.0
        a = int(z)
        return lx[a] - (z - a) * (lx[a] - lx[a + 1])

    total, k = 0.0, 0
    while x + k / 12 < hi + 1 or (y is not None and y + k / 12 < hi + 1):
        t = k / 12
        px = lz(x + t) / lz(x)
        py = 0.0 if y is None else lz(y + t) / lz(y)
        total += (1 + i) ** -t * (px + frac * (py - px * py)) / 12
        k += 1
    return total


def test_ben_qjsa_on_up84_at_8pct_checked_by_an_independent_oracle_s5_10c(spec_market):
    # Plan route for a retiree at NRD (SPEC §7): $135.78 × ä65+1/12 / (ä_x + ½(ä_y − ä_xy)) on UP-84 8%.
    start = date(2006, 2, 1)
    x, y = 65 + 1 / 12, 62.75
    expected = (D("135.78") * D(repr(_up84_oracle(x) / _up84_oracle(x, y, 0.5)))).quantize(D("0.01"))
    assert expected == D("121.96")
    forms = retirement_forms(
        sla(spec_market, "17300.28", BEN_DOB, start), birth_date=BEN_DOB, spouse_birth_date=BEN_SPOUSE,
        applicable=applicable_basis(start, spec_market), settings=BenefitSettings(),
    )  # fmt: skip
    assert (forms["js50"].monthly, forms["js50"].survivor_monthly) == (expected, D("60.98"))
