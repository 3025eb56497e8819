"""Edges of each Carver DB benefit rule, with expected values worked out from the plan text."""

from __future__ import annotations

from datetime import date
from decimal import Decimal as D

import pytest

from benefits.engine.money import to_money
from benefits.engine.plans.carver_db.accrued import AccrualData, accrued_at, accrued_benefit
from benefits.engine.plans.carver_db.commencement import earliest_commencement_date, life_amount_at
from benefits.engine.plans.carver_db.credited_service import credited_service, projected_service_months
from benefits.engine.plans.carver_db.earnings import EARNINGS_CAP, final_earnings
from benefits.engine.plans.carver_db.forms import (
    certain_factor,
    early_factor,
    form_amounts,
    js_factor,
    late_factor,
)
from benefits.engine.plans.carver_db.settings import UNFROZEN_PROJECTION, BenefitSettings
from benefits.engine.types import EmploymentPeriod as EP

# ------------------------------------------------------------------ §1.1(H) Credited Service


def test_cs_end_of_month_hire_counts_anniversary_months():
    # 1/31/1999 → 1/1/2001 (exclusive): 23 months reach 12/31/2000; a 24th would end 1/31/2001.
    assert credited_service((EP(date(1999, 1, 31), None),)).months == 23


def test_cs_freeze_day_included_gap19():
    # Hired 1/1/2000: through 12/31/2000 inclusive = 12 months; excluding 12/31/2000 = 11.
    assert credited_service((EP(date(2000, 1, 1), None),)).months == 12
    s = BenefitSettings(freeze_day_included=False)
    assert credited_service((EP(date(2000, 1, 1), None),), settings=s).months == 11


def test_cs_two_periods_drop_fraction_per_period():
    # SPEC Example 7's Credited Service: 4/2/1990 → 12/31/1992 = 32, 3/3/1997 → 12/31/2000 = 45.
    periods = (EP(date(1990, 4, 2), date(1992, 12, 31)), EP(date(1997, 3, 3), None))
    assert credited_service(periods).months == 77


def test_cs_none_after_freeze():
    assert credited_service((EP(date(2005, 1, 1), None),)).months == 0


def test_cs_from_participation_gap19_alternative():
    s = BenefitSettings(credited_service_from_participation=True)
    cs = credited_service((EP(date(1993, 3, 1), None),), participation_date=date(1994, 7, 1), settings=s)
    assert cs.months == 78  # 7/1/1994 → 1/1/2001


def test_projection_for_pre_freeze_termination_ignores_gap1_mode():
    # §5.2(A): terminated 1997 → the plan as then constituted projects to NRD in either reading.
    p = (EP(date(1985, 9, 3), date(1997, 6, 30)),)
    assert projected_service_months(p, date(2025, 8, 1))[0] == 478
    s = BenefitSettings(projected_cs_mode=UNFROZEN_PROJECTION)
    assert projected_service_months(p, date(2025, 8, 1), settings=s)[0] == 478


# ------------------------------------------------------------------ §1.1(P) Final Earnings


def test_final_earnings_capped_each_year_s1_1j():
    comp = {1998: D(180000), 1999: D(200000), 2000: D(250000)}
    fe = final_earnings(comp, date(2001, 1, 1))
    assert fe.amount == (D(160000) + D(160000) + D(170000)) / 3


def test_final_earnings_window_before_termination():
    # Terminated 6/30/1997 → window 1987-1996: the 1997 pay is outside it.
    comp = {1995: D(30000), 1996: D(31000), 1994: D(29000), 1997: D(90000)}
    fe = final_earnings(comp, date(1997, 7, 1))
    assert fe.window == (1987, 1996)
    assert fe.amount == D(30000)


def test_final_earnings_years_without_pay_count_in_window():
    comp = {1999: D(30000), 2000: D(36000)}
    assert final_earnings(comp, date(2001, 1, 1)).amount == D(22000)  # (0 + 30,000 + 36,000)/3


def test_final_earnings_fewer_than_3_years_gap22():
    comp = {1999: D(30000), 2000: D(36000)}
    assert final_earnings(comp, date(2001, 1, 1), years_of_service=2).amount == D(33000)
    s = BenefitSettings(short_service_divide_by_years=False)
    assert final_earnings(comp, date(2001, 1, 1), years_of_service=2, settings=s).amount == D(22000)


def test_final_earnings_literal_window_after_freeze_gap2_alternative():
    comp = {y: D(40000) for y in range(1991, 2001)}
    s = BenefitSettings(final_earnings_window_ends_at_freeze=False)
    from benefits.engine.plans.carver_db.earnings import window_end_exclusive

    end = window_end_exclusive(date(2012, 5, 31), s)
    assert final_earnings(comp, end, settings=s).amount == 0  # window 2002-2011: nothing counts


def test_earnings_cap_table_matches_shared_parameters():
    from benefits.engine.parameters import parameter

    p = parameter("irs_401a17_compensation_limit")
    for year, cap in EARNINGS_CAP.items():
        assert p.for_year(year) == cap


# ------------------------------------------------------------------ §3.1 edges


def _ab(**kw):
    base = dict(
        final_earnings=D(54300), social_security_amount=D(15000), credited_months=226, ceased_before_nrd=False
    )
    base.update(kw)
    return accrued_benefit(**base)


def test_offset_larger_than_half_pay_gives_zero_a_and_b_governs():
    ab = _ab(final_earnings=D(10000), social_security_amount=D(30000), credited_months=40)
    assert ab.formula_a == 0
    assert ab.annual == D(1000)  # 25 × 40


def test_prior_plan_benefit_c_and_1997_benefit_d_can_govern():
    assert _ab(prior_plan_benefit=D(25000)).annual == D(25000)
    assert _ab(benefit_at_1997_12_31=D(21000)).annual == D(21000)


def test_401l_offset_cap_gap4():
    # SPEC §4.1: ¾% × 15 × 54,300 = 6,108.75 < 7,500, so (A)(1) = 27,150 − 6,108.75.
    assert _ab(max_offset_401l=D("6108.75")).annual == D("21041.25")


def test_ratio_a_caps_service_at_15_years():
    assert _ab(credited_months=300).ratio == 1
    assert _ab(credited_months=90).ratio == D("0.5")


def test_ratio_b_uses_greater_of_15_and_projection():
    ab = _ab(credited_months=200, ceased_before_nrd=True, projected_months=400)
    assert ab.ratio == D("0.5")
    ab = _ab(credited_months=90, ceased_before_nrd=True, projected_months=100)
    assert ab.ratio == D("0.5")  # 90 / max(180, 100)


# ------------------------------------------------------------------ Table A factors


def test_erf_interpolated_and_rounded_half_up_gap6():
    assert early_factor(0) == 1
    assert early_factor(12) == D(".93")
    assert early_factor(30) == D(".83")  # .86 − .07 × 6/12 = .825 → .83 (exact tie, half up)
    assert early_factor(66) == D(".64")  # .65 − .03 × 6/12 = .635 → .64
    assert early_factor(120) == D(".50")
    assert early_factor(30, BenefitSettings(round_interpolated_factors=False)) == D(".825")


def test_erf_beyond_ten_years_is_refused():
    with pytest.raises(ValueError):
        early_factor(121)


def test_lrf_interpolation():
    assert late_factor(9) == D("1.06")  # 1 + .08 × 9/12
    assert late_factor(21) == D("1.15")  # 1.08 + .09 × 9/12 = 1.1475
    assert late_factor(120) == D("2.25")
    with pytest.raises(ValueError):
        late_factor(121)


def test_js_factor_maximum_98():
    # Age 50 (band < 55, 50% = .92); annuitant 20 full years older → .92 + .17 → capped .98.
    f, _ = js_factor(date(1970, 1, 1), date(1950, 1, 1), date(2020, 1, 1), "50")
    assert f == D(".98")


def test_js_factor_full_years_only():
    # 3 years 11 months younger = 3 full years: no adjustment (Table A footnote).
    f, _ = js_factor(date(1958, 1, 1), date(1961, 12, 1), date(2023, 2, 1), "100")
    assert f == D(".81")
    f, _ = js_factor(date(1958, 1, 1), date(1962, 1, 1), date(2023, 2, 1), "100")
    assert f == D(".80")


def test_certain_factor_bands():
    birth = date(1960, 6, 15)
    assert certain_factor(birth, date(2015, 6, 1), 20)[0] == D(".92")  # age 54
    assert certain_factor(birth, date(2015, 7, 1), 20)[0] == D(".89")  # age 55
    assert certain_factor(birth, date(2020, 7, 1), 15)[0] == D(".90")  # age 60
    assert certain_factor(birth, date(2025, 7, 1), 5)[0] == D(".96")  # age 65


def test_social_security_option_s8_3():
    forms = form_amounts(
        D(12000),
        participant_birth=date(1960, 6, 15),
        retirement_date=date(2020, 7, 1),
        married=False,
        annuitant_birth=None,
        nrd=date(2025, 7, 1),
        ss_option_amount=D(15000),
    )
    level = forms["ss_level"]
    # 60 months before NRD → .65: 12,000 + 15,000 × .65 = 21,750 until SS starts; then 6,750.
    assert level.annual == D("21750")
    assert level.annual_after == D("6750")
    assert "js50" not in forms  # no joint annuitant named


def test_social_security_option_not_offered_when_reduced_amount_negative_gap10():
    forms = form_amounts(
        D(1000),
        participant_birth=date(1960, 6, 15),
        retirement_date=date(2020, 7, 1),
        married=False,
        annuitant_birth=None,
        nrd=date(2025, 7, 1),
        ss_option_amount=D(15000),
    )
    assert "ss_level" not in forms  # 1,000 + 9,750 − 15,000 < 0


# ------------------------------------------------------------------ commencement


def test_earliest_commencement_date():
    assert earliest_commencement_date(date(1960, 7, 20), date(1997, 6, 30)) == date(2015, 8, 1)
    assert earliest_commencement_date(date(1960, 1, 1), date(2016, 3, 15)) == date(2016, 4, 1)
    assert earliest_commencement_date(date(1960, 3, 1), None) == date(2015, 3, 1)


def _late_data(nrd, term):
    comp = {
        1989 + i: D(v)
        for i, v in enumerate(
            [48000, 50000, 51000, 52000, 54000, 55000, 57000, 60000, 62000, 64000, 66000, 68000]
        )
    }
    return AccrualData((EP(date(1975, 1, 2), term),), comp, D(16000), nrd, termination_date=term)


def test_late_retirement_same_plan_year_s4_2a():
    data = _late_data(date(2000, 2, 1), date(2000, 9, 30))
    base = accrued_at(data).annual
    # B(2/1/2000): window 1990-1999, 1997-99 = 64,000 → 24,000; 8 months → 1.0533 → 1.05.
    # B(10/1/2000) is also 24,000 (2000 not yet a full year), so 24,000 × 1.05 = 25,200.
    late = life_amount_at(data, base, data.nrd, date(2000, 10, 1), employed_past_nrd=True)
    assert late.annual == D(25200)


def test_terminated_vested_waiting_past_nrd_gets_no_increase_gap7():
    data = _late_data(date(1999, 4, 1), date(1998, 6, 30))
    life = life_amount_at(data, D(10000), data.nrd, date(2000, 4, 1), employed_past_nrd=False)
    assert life.annual == D(10000)
    assert life.kind == "deferred"


def test_early_amount_uses_vested_base():
    data = _late_data(date(2025, 8, 1), date(1997, 6, 30))
    life = life_amount_at(data, D(1200), data.nrd, date(2022, 8, 1), employed_past_nrd=False)
    assert life.annual == D(1200) * D(".79")  # 36 months early
    assert to_money(life.annual / 12) == D("79.00")


def test_fall_in_final_earnings_floor_s3_1():
    from benefits.engine.plans.carver_db.accrued import falling_earnings_floor

    comp = {y: D(100000) for y in range(1983, 1990)} | {y: D(20000) for y in range(1990, 2001)}
    data = AccrualData((EP(date(1970, 1, 1), None),), comp, D(20000), date(2003, 1, 1))
    # At the freeze: Final Earnings 20,000 → (A) = 0; (B) = 25 × 372 = 9,300.
    assert accrued_at(data).annual == D(9300)
    floor, trace = falling_earnings_floor(data, date(1938, 1, 1))
    # Best had Service ceased 12/31/1996 (age 58): window 1987-96, best 1987-89 = 100,000 →
    # 40,000 × 324/396 (ratio (b), projection to NRD) = 32,727.27.
    assert to_money(floor) == D("32727.27")
    assert trace.steps[-1].section == "§3.1"


def test_fall_in_final_earnings_floor_not_before_55():
    from benefits.engine.plans.carver_db.accrued import falling_earnings_floor

    data = AccrualData((EP(date(1990, 1, 1), None),), {1999: D(50000)}, D(10000), date(2035, 1, 1))
    assert falling_earnings_floor(data, date(1970, 1, 1))[0] == 0
