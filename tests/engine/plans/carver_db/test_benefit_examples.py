"""SPEC §15 Examples 1-6 (Carver DB), recomputed from the plan text; inputs marked hypothetical in
the SPEC ([A-SSA] Social Security Amounts, [A-TH6] top-heavy years) are used as given.

Each expected number is derived in the comment above it from the plan sections cited.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal as D

from benefits.engine.money import to_money
from benefits.engine.plans.carver_db.accrued import AccrualData, accrued_at
from benefits.engine.plans.carver_db.commencement import life_amount_at
from benefits.engine.plans.carver_db.death import preretirement_spouse_benefit
from benefits.engine.plans.carver_db.forms import form_amounts
from benefits.engine.plans.carver_db.limits import top_heavy_minimum
from benefits.engine.plans.carver_db.settings import UNFROZEN_PROJECTION, BenefitSettings
from benefits.engine.types import EmploymentPeriod as EP

INTERP_II = BenefitSettings(projected_cs_mode=UNFROZEN_PROJECTION)
DEFAULT = BenefitSettings()


def comp(first: int, *values: int) -> dict[int, D]:
    return {first + i: D(v) for i, v in enumerate(values)}


# ---------------------------------------------------------------- Example 1 (normal retirement, single)

EX1 = AccrualData(
    periods=(EP(date(1982, 2, 15), None),),
    compensation=comp(1991, 41000, 42500, 44000, 45500, 47000, 48800, 50600, 52400, 54300, 56200),
    social_security_amount=D(15000),
    nrd=date(2023, 5, 1),
)


def test_example1_accrued_benefit_s3_1():
    ab = accrued_at(EX1)
    # §1.1(H): 2/15/1982 → 12/31/2000 inclusive = 226 full months.
    assert ab.credited_months == 226
    # §1.1(P): best 3 consecutive of 1991-2000 = 1998-2000 = (52,400 + 54,300 + 56,200)/3.
    assert ab.final_earnings == D(54300)
    # §3.1(A): 0.5 × 54,300 − 0.5 × 15,000 = 19,650; ratio (a) = min(226, 180)/180 = 1.
    assert ab.formula_a == D(19650)
    # §3.1(B): 25 × 226 = 5,650 < (A).
    assert ab.minimum_b == D(5650)
    assert ab.annual == D(19650)
    assert to_money(ab.annual / 12) == D("1637.50")


def test_example1_forms_table_a():
    forms = form_amounts(
        D(19650),
        participant_birth=date(1958, 4, 10),
        retirement_date=date(2023, 5, 1),
        married=False,
        annuitant_birth=date(1988, 6, 1),  # non-Spouse Contingent Pensioner, 30 full years younger
        nrd=date(2023, 5, 1),
    )
    # §8.2, Table A age 65+: 10 years certain .93 → 18,274.50 a year = 1,522.875 → 1,522.88.
    assert forms["cc10"].annual == D("18274.50")
    assert forms["cc10"].monthly == D("1522.88")
    # §8.1, Table A 65+ 100% = .81, less .01 × (30 − 3) = .54 → 10,611.00 a year.
    assert forms["js100"].factor == D(".54")
    assert forms["js100"].annual == D("10611.00")


def test_example1c_married_66_percent_js():
    forms = form_amounts(
        D(19650),
        participant_birth=date(1958, 4, 10),
        retirement_date=date(2023, 5, 1),
        married=True,
        annuitant_birth=date(1952, 1, 1),  # Spouse 6 full years older
        nrd=date(2023, 5, 1),
    )
    # Table A 65+ 66-2/3% = .86, plus .01 × (6 − 3) = .89 → 17,488.50; survivor 2/3 = 11,659.00.
    assert forms["js66"].factor == D(".89")
    assert forms["js66"].annual == D("17488.50")
    assert to_money(forms["js66"].survivor_annual) == D("11659.00")


def test_example1_no_increase_after_nrd_gap7():
    # Table A: the LRF counts no time after 12/31/2000, so working past 5/1/2023 adds nothing.
    later = life_amount_at(EX1, D(19650), EX1.nrd, date(2025, 5, 1), employed_past_nrd=True)
    assert later.annual == D(19650)


# ---------------------------------------------------------------- Example 2 (vested terminated, early J&S)

EX2 = AccrualData(
    periods=(EP(date(1985, 9, 3), date(1997, 6, 30)),),
    compensation=comp(1987, 24000, 25200, 26400, 27700, 29000, 30500, 32000, 33600, 35300, 37000),
    social_security_amount=D(11000),
    nrd=date(2025, 8, 1),
    termination_date=date(1997, 6, 30),
)


def test_example2_accrued_benefit_fractional_rule():
    ab = accrued_at(EX2)
    assert ab.credited_months == 141  # 9/3/1985 → 6/30/1997
    assert ab.final_earnings == D(35300)  # 1994-1996 in the window 1987-1996
    # §3.1(A)(2)(b): terminated before the freeze → projection to NRD = 478 months;
    # 12,150 × 141/478 = 3,583.9958...
    assert ab.ratio == D(141) / D(478)
    assert ab.annual.quantize(D("0.0001")) == D("3583.9958")


def test_example2_early_start_at_59_normal_js50():
    ab = accrued_at(EX2)
    life = life_amount_at(EX2, ab.annual, EX2.nrd, date(2019, 8, 1), employed_past_nrd=False)
    assert life.factor == D(".62")  # 72 months before NRD = 6 years (Table A)
    forms = form_amounts(
        life.annual,
        participant_birth=date(1960, 7, 20),
        retirement_date=date(2019, 8, 1),
        married=True,
        annuitant_birth=date(1964, 11, 2),
        nrd=EX2.nrd,
    )
    # Age 59 → .91; Spouse 4 full years younger → −.01 → .90; 2,222.0774 × .90 = 1,999.87 a year.
    assert forms["js50"].factor == D(".90")
    assert forms["js50"].monthly == D("166.66")
    assert to_money(forms["js50"].survivor_annual / 12) == D("83.33")
    # Life-No Death Benefit instead (with consent): 2,222.08 a year = 185.17 a month.
    assert to_money(forms["life"].annual) == D("2222.08")
    assert forms["life"].monthly == D("185.17")


# ---------------------------------------------------------------- Example 3 (GAP-1)

EX3 = AccrualData(
    periods=(EP(date(1993, 3, 1), date(2012, 5, 31)),),
    compensation=comp(1993, 26000, 31000, 32500, 34000, 36000, 38000, 40000, 42000),
    social_security_amount=D(13800),
    nrd=date(2032, 2, 1),
    termination_date=date(2012, 5, 31),
)


def test_example3_interpretation_i_default():
    ab = accrued_at(EX3)
    assert ab.credited_months == 94
    # 13,100 × 94/180 = 6,841.11; at 55 (120 months early) ERF .50 → 285.05 a month.
    assert to_money(ab.annual) == D("6841.11")
    life = life_amount_at(EX3, ab.annual, EX3.nrd, date(2022, 2, 1), employed_past_nrd=False)
    assert life.factor == D(".50")
    assert to_money(life.annual / 12) == D("285.05")


def test_example3_interpretation_ii():
    ab = accrued_at(EX3, settings=INTERP_II)
    # Projection 3/1/1993 → 1/31/2032 = 467 months: 13,100 × 94/467 = 2,636.83; × .50 / 12 = 109.87.
    assert to_money(ab.annual) == D("2636.83")
    life = life_amount_at(
        EX3, ab.annual, EX3.nrd, date(2022, 2, 1), employed_past_nrd=False, settings=INTERP_II
    )
    assert to_money(life.annual / 12) == D("109.87")


# ---------------------------------------------------------------- Example 4 (late retirement, NRD 1999)

EX4 = AccrualData(
    periods=(EP(date(1975, 1, 2), date(2003, 6, 30)),),
    compensation=comp(
        1989, 48000, 50000, 51000, 52000, 54000, 55000, 57000, 60000, 62000, 64000, 66000, 68000
    ),
    social_security_amount=D(16000),
    nrd=date(1999, 4, 1),
    termination_date=date(2003, 6, 30),
)


def test_example4_b_at_each_date():
    # B(NRD): window 1989-1998, best 1996-98 = 62,000 → 31,000 − 8,000 = 23,000.
    assert accrued_at(EX4, up_to=date(1999, 4, 1)).annual == D(23000)
    assert accrued_at(EX4, up_to=date(1999, 4, 1)).credited_months == 290
    # B(12/31/1999): 1997-99 = 64,000 → 24,000.  B(12/31/2000): 1998-2000 = 66,000 → 25,000.
    assert accrued_at(EX4, up_to=date(2000, 1, 1)).annual == D(24000)
    assert accrued_at(EX4, up_to=date(2001, 1, 1)).annual == D(25000)
    assert accrued_at(EX4, up_to=date(2001, 1, 1)).credited_months == 311


def test_example4_late_retirement_recursion_s4_2c():
    base = accrued_at(EX4).annual
    late = life_amount_at(EX4, base, EX4.nrd, date(2003, 7, 1), employed_past_nrd=True)
    # LRF to 12/31/2000 = 21 months → 1.08 + .09 × 9/12 = 1.1475 → 1.15; 23,000 × 1.15 = 26,450.
    assert late.annual == D(26450)
    forms = form_amounts(
        late.annual,
        participant_birth=date(1934, 3, 5),
        retirement_date=date(2003, 7, 1),
        married=True,
        annuitant_birth=date(1937, 3, 5),
        nrd=EX4.nrd,
    )
    # Age 69 → .89, Spouse exactly 3 years younger → no adjustment: 23,540.50 = 1,961.71 a month.
    assert forms["js50"].annual == D("23540.50")
    assert forms["js50"].monthly == D("1961.71")
    assert to_money(forms["js50"].survivor_annual / 12) == D("980.85")


def test_example4_unrounded_lrf_gap6():
    s = BenefitSettings(round_interpolated_factors=False)
    base = accrued_at(EX4, settings=s).annual
    late = life_amount_at(EX4, base, EX4.nrd, date(2003, 7, 1), employed_past_nrd=True, settings=s)
    assert late.annual == D("26392.50")  # 23,000 × 1.1475


# ---------------------------------------------------------------- Example 5 (Preretirement Spouse Benefit)

EX5 = AccrualData(
    periods=(EP(date(1986, 1, 6), None),),
    compensation={1997: D(43000), 1998: D(45000), 1999: D(47000), 2000: D(49000)},
    social_security_amount=D(14200),
    nrd=date(2027, 10, 1),
)


def _ex5(start=None, settings=DEFAULT):
    return preretirement_spouse_benefit(
        EX5,
        birth_date=date(1962, 9, 12),
        spouse_birth_date=date(1975, 5, 1),
        death_date=date(2014, 10, 20),
        marriage_date=date(2005, 6, 1),
        vested_percent=D(100),
        years_of_service=28,
        nrd=EX5.nrd,
        commencement_date=start,
        settings=settings,
    )


def test_example5_active_death_after_50_s9_2b1():
    sb = _ex5()
    assert sb.rule == "9.2(B)(1)"
    assert sb.commencement_date == date(2027, 10, 1)
    # 179 months; 16,400 × 179/180 = 16,308.89; × 50% × 96% (12 full years younger) = 7,828.27.
    assert to_money(sb.annual) == D("7828.27")
    assert sb.monthly == D("652.36")


def test_example5_early_start_elected():
    sb = _ex5(date(2017, 10, 1))  # later of death and 55th birthday → 10/1/2017; 120 months early
    assert to_money(sb.annual) == D("3914.13")
    assert sb.monthly == D("326.18")


def test_example5_gap8_projected_service():
    sb = _ex5(settings=BenefitSettings(spouse_benefit_projects_service=True))
    assert to_money(sb.annual) == D("7872.00")  # 0.5 × 16,400 × 0.96
    assert sb.monthly == D("656.00")


# ---------------------------------------------------------------- Example 6 (short service, top-heavy)

EX6 = AccrualData(
    periods=(EP(date(1998, 3, 16), date(2002, 12, 31)),),
    compensation=comp(1998, 30000, 36000, 38000),
    social_security_amount=D(12000),
    nrd=date(2040, 7, 1),
    termination_date=date(2002, 12, 31),
)


def _th():
    return top_heavy_minimum(
        compensation=EX6.compensation,
        top_heavy_years=(1999, 2000),
        vesting_service_years=(1998, 1999, 2000, 2002),
    )


def test_example6_formula_interpretations():
    one = accrued_at(EX6)
    assert one.credited_months == 33
    assert to_money(one.final_earnings) == D("34666.67")
    assert to_money(one.annual) == D("2077.78")  # 11,333.33 × 33/180
    two = accrued_at(EX6, settings=INTERP_II)
    assert to_money(two.formula_a) == D("737.67")  # 11,333.33 × 33/507
    assert two.annual == D(825)  # the $25 minimum binds: 25 × 33


def test_example6_top_heavy_minimum_s6_2b():
    th = _th()
    assert th.top_heavy_service_years == 2  # 1999 and 2000
    assert to_money(th.annual) == D("1386.67")  # 2% × 34,666.67 × 2


def test_example6_vested_benefit_60_percent():
    th = _th().annual
    one = max(accrued_at(EX6).annual, th) * D("0.60")
    two = max(accrued_at(EX6, settings=INTERP_II).annual, th) * D("0.60")
    assert to_money(one) == D("1246.67")
    assert to_money(two) == D("832.00")
