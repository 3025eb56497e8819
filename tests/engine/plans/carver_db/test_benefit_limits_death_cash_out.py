"""§415 (§6.1), the top-heavy minimum (§6.2(B)), the Preretirement Spouse Benefit (Section IX) and
small-benefit cash-outs (§13.7(G)) for Carver DB."""

from __future__ import annotations

from datetime import date
from decimal import Decimal as D

from benefits.engine.plans.carver_db.accrued import AccrualData
from benefits.engine.plans.carver_db.cash_out import (
    cash_out,
    lookback_month,
    threshold_on,
)
from benefits.engine.plans.carver_db.death import preretirement_spouse_benefit, spouse_age_percentage
from benefits.engine.plans.carver_db.limits import (
    apply_415,
    highest_average_compensation,
    section_415_limit,
    social_security_retirement_age,
    top_heavy_minimum,
)
from benefits.engine.plans.carver_db.settings import BenefitSettings
from benefits.engine.types import EmploymentPeriod as EP

# ------------------------------------------------------------------ §6.1


def test_social_security_retirement_age_s1_1jj():
    assert social_security_retirement_age(date(1937, 12, 31)) == 65
    assert social_security_retirement_age(date(1938, 1, 1)) == 66
    assert social_security_retirement_age(date(1954, 12, 31)) == 66
    assert social_security_retirement_age(date(1955, 1, 1)) == 67


def _limit(**kw):
    base = dict(
        birth_date=date(1960, 1, 15),
        retirement_date=date(2027, 2, 1),
        nrd=date(2025, 2, 1),
        dollar_limit=D(265000),
        highest_average_comp=D(300000),
        participation_months=200,
        service_months=200,
    )
    base.update(kw)
    return section_415_limit(**base)


def test_415_reduction_between_62_and_ssra_s6_1c7():
    # SSRA 67 → 2/1/2027; a 2/1/2023 start is 48 months early: 36 × 5/9% + 12 × 5/12% = 25%.
    assert _limit(retirement_date=date(2023, 2, 1)).annual_limit == D(265000) * D("0.75")


def test_415_at_ssra_is_the_dollar_limit_or_pay():
    assert _limit().annual_limit == D(265000)
    assert _limit(highest_average_comp=D(54300)).annual_limit == D(54300)


def test_415_prorated_under_10_years_s6_1c4():
    lim = _limit(participation_months=60, service_months=60, highest_average_comp=D(100000))
    assert lim.dollar_limit == D(132500)
    assert lim.compensation_limit == D(50000)
    assert lim.annual_limit == D(50000)


def test_415_de_minimis_s6_1c2():
    assert _limit(highest_average_comp=D(5000), never_in_dc_plan=True).annual_limit == D(10000)
    assert _limit(highest_average_comp=D(5000)).annual_limit == D(5000)


def test_415_before_62_lesser_of_plan_and_gatt_reduction():
    at62 = _limit(retirement_date=date(2022, 2, 1)).annual_limit
    before = _limit(retirement_date=date(2020, 2, 1)).annual_limit
    assert before < at62


def test_apply_415_caps():
    lim = _limit(highest_average_comp=D(20000))
    assert apply_415(D(25000), lim)[0] == D(20000)
    assert apply_415(D(15000), lim)[0] == D(15000)


def test_highest_average_compensation():
    comp = {1996: D(10), 1997: D(40), 1998: D(50), 1999: D(60), 2000: D(20)}
    assert highest_average_compensation(comp, comp) == D(50)
    assert highest_average_compensation({2000: D(30), 2001: D(40)}, (2000, 2001)) == D(35)


# ------------------------------------------------------------------ §6.2(B)


def test_top_heavy_minimum_not_for_key_employees():
    th = top_heavy_minimum(
        compensation={1999: D(50000)},
        top_heavy_years=(1999,),
        vesting_service_years=(1999,),
        key_employee=True,
    )
    assert th.annual == 0


def test_top_heavy_years_after_last_top_heavy_year_excluded():
    comp = {1995: D(30000), 1996: D(31000), 1997: D(32000), 1998: D(90000), 1999: D(95000)}
    th = top_heavy_minimum(
        compensation=comp, top_heavy_years=(1996, 1997), vesting_service_years=range(1995, 2000)
    )
    assert th.average_compensation == D(31000)  # 1995-1997 only, fewer than 5 → all three
    assert th.annual == D(1240)  # 2% × 31,000 × 2


def test_top_heavy_best_five_consecutive_and_ten_year_cap():
    comp = {y: D(1000 * (y - 1980)) for y in range(1981, 2001)}  # rising: best 5 = 1996-2000
    th = top_heavy_minimum(
        compensation=comp, top_heavy_years=range(1981, 2001), vesting_service_years=range(1981, 2001)
    )
    assert th.average_compensation == D(18000)  # (16 + 17 + 18 + 19 + 20) × 1,000 / 5
    assert th.top_heavy_service_years == 10
    assert th.annual == D(3600)


# ------------------------------------------------------------------ Section IX

EX2 = AccrualData(
    periods=(EP(date(1985, 9, 3), date(1997, 6, 30)),),
    compensation={
        1987 + i: D(v)
        for i, v in enumerate([24000, 25200, 26400, 27700, 29000, 30500, 32000, 33600, 35300, 37000])
    },
    social_security_amount=D(11000),
    nrd=date(2025, 8, 1),
    termination_date=date(1997, 6, 30),
)


def _psb(death, start=None, marriage=date(1990, 1, 1), vested=D(100), spouse=date(1964, 11, 2)):
    return preretirement_spouse_benefit(
        EX2,
        birth_date=date(1960, 7, 20),
        spouse_birth_date=spouse,
        death_date=death,
        marriage_date=marriage,
        vested_percent=vested,
        years_of_service=13,
        nrd=EX2.nrd,
        commencement_date=start,
    )


def test_psb_death_before_earliest_retirement_age_s9_2b2b():
    sb = _psb(date(2005, 1, 10))
    assert sb.rule == "9.2(B)(2)(b)"
    assert sb.commencement_date == date(2025, 8, 1)
    # AB 3,583.9958 × J&S 50% at 65 (.89 − .01, Spouse 4 years younger) × 50% = 1,576.958/yr.
    assert sb.monthly == D("131.41")


def test_psb_death_before_era_spouse_elects_age_55():
    sb = _psb(date(2005, 1, 10), start=date(2015, 8, 1))
    # ERF .50 (120 months) × J&S at 55 (.91 − .01 = .90) × 50%: 3,583.9958 × .225 = 806.40/yr.
    assert sb.monthly == D("67.20")


def test_psb_death_after_55_before_nrd_s9_2b2aii():
    sb = _psb(date(2019, 3, 15), start=date(2019, 4, 1))
    assert sb.rule == "9.2(B)(2)(a)(ii)"
    # 76 months early → .62 − .03 × 4/12 = .61; J&S at 58 = .90; × 50%: 3,583.9958 × .2745 = 983.81 → 81.98.
    assert sb.monthly == D("81.98")


def test_psb_not_eligible():
    assert not _psb(date(2005, 1, 10), marriage=date(2004, 6, 1)).eligible  # married < 1 full year
    assert not _psb(date(2005, 1, 10), vested=D(0)).eligible
    assert not _psb(date(2005, 1, 10), spouse=None).eligible


def test_spouse_age_percentage_s9_2b1():
    p = date(1960, 1, 1)
    assert spouse_age_percentage(p, date(1970, 1, 1)) == 1  # 10 years: no reduction
    assert spouse_age_percentage(p, date(1971, 1, 1)) == D("0.98")
    assert spouse_age_percentage(p, date(1955, 1, 1)) == 1  # older Spouse


# ------------------------------------------------------------------ §13.7(G)


def test_cash_out_threshold_by_date():
    assert threshold_on(date(1997, 12, 31)) == 3500
    assert threshold_on(date(1998, 1, 1)) == 5000
    assert threshold_on(date(2025, 1, 1)) == 5000  # plan text (GAP-12)
    assert threshold_on(date(2025, 1, 1), BenefitSettings(cash_out_threshold_after_2023=D(7000))) == 7000


def test_lookback_third_full_month_before_event():
    assert lookback_month(date(2002, 12, 31)) == "2002-09"  # SPEC Example 6
    assert lookback_month(date(2003, 1, 15)) == "2002-10"


def _co(annual, rates, dist=date(2025, 1, 1)):
    return cash_out(
        vested_annual_at_nrd=annual,
        birth_date=date(1960, 1, 1),
        distribution_date=dist,
        event_date=date(2024, 12, 31),
        nrd=date(2025, 1, 1),
        assumptions=None if rates is None else {"segment_rates": {m: [r, r, r] for m, r in rates.items()}},
    )


def test_cash_out_zero_value_is_deemed_paid():
    co = _co(D(0), None)
    assert co.required is True
    assert co.value == 0


def test_cash_out_needs_the_rate():
    co = _co(D(500), None)
    assert co.required is None
    assert co.missing[0] == "/assumptions/segment_rates/2024-09"  # §417(e)(3) from 2012: segment rates


def test_cash_out_small_and_large_values():
    rates = {"2024-09": "4.0"}
    small = _co(D(120), rates)  # about 12-14 × 120 at 65
    assert small.required is True
    assert D(1200) < small.value < D(2000)
    assert _co(D(6000), rates).required is False
