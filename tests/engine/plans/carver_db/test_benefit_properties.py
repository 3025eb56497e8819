"""Invariants of the Carver DB benefit rules, checked on generated participants (hypothesis)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import ROUND_HALF_UP
from decimal import Decimal as D

from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine.dates import add_months, first_of_month_on_or_after
from benefits.engine.dates import date_attaining_age as birthday
from benefits.engine.plans.carver_db.accrued import AccrualData, accrued_at
from benefits.engine.plans.carver_db.commencement import earliest_commencement_date, life_amount_at
from benefits.engine.plans.carver_db.forms import early_factor, form_amounts, js_factor, late_factor
from benefits.engine.plans.carver_db.settings import UNFROZEN_PROJECTION, BenefitSettings
from benefits.engine.types import EmploymentPeriod as EP

INTERP_II = BenefitSettings(projected_cs_mode=UNFROZEN_PROJECTION)
R2 = BenefitSettings(lrf_recursion="R2")


def cents(x: D) -> D:
    return x.quantize(D("0.01"), ROUND_HALF_UP)


@st.composite
def participants(draw):
    birth = draw(st.dates(date(1930, 1, 1), date(1975, 12, 31)))
    hire = draw(st.dates(max(birthday(birth, 18), date(1970, 1, 1)), date(2000, 6, 30)))
    term = draw(st.one_of(st.none(), st.dates(add_months(hire, 1), date(2030, 12, 31))))
    pay = draw(st.integers(10_000, 250_000))
    growth = draw(st.integers(0, 8))
    comp = {
        y: D(pay * (100 + growth) ** (y - hire.year) // 100 ** (y - hire.year))
        for y in range(hire.year, 2001)
    }
    ssa = D(draw(st.integers(0, 40_000)))
    # §1.1(W): participation from 1992 on → the later of 65 and its 5th anniversary (entry ≥ 1 year
    # after hire, so hire + 6 years is a conservative stand-in).
    nrd_v = birthday(birth, 65) if hire.year < 1991 else max(birthday(birth, 65), add_months(hire, 72))
    nrd = first_of_month_on_or_after(nrd_v)
    return birth, AccrualData((EP(hire, term),), comp, ssa, nrd, termination_date=term)


@settings(max_examples=150, deadline=None)
@given(participants())
def test_accrued_benefit_never_below_25_dollar_minimum_s3_1b(p):
    _, data = p
    ab = accrued_at(data)
    assert ab.annual >= 25 * ab.credited_months
    assert ab.annual >= 0


@settings(max_examples=150, deadline=None)
@given(participants())
def test_interpretation_i_never_below_interpretation_ii_gap1(p):
    _, data = p
    assert accrued_at(data).annual >= accrued_at(data, settings=INTERP_II).annual


@settings(max_examples=100, deadline=None)
@given(participants(), st.integers(0, 179), st.integers(1, 180))
def test_an_earlier_start_never_pays_more_per_month(p, a, b):
    """Holds while each year's capped Earnings never fall from one year to the next inside a window.

    Final Earnings (§1.1(P)) are measured in the 10 full calendar years before the retirement of an
    active participant, so the window moves with the start date. Before 1989 no §401(a)(17) cap
    applies (SPEC §2.1), so Earnings above $200,000 before 1989 are worth more than the 1989 cap: as
    such a year leaves the window a later start can pay less. The plan answers that with its stored
    floors — the Accrued Benefit at 12/31/1997 (§3.1(D)) and the OBRA '93 grandfather (§1.1(J)) —
    which this generator does not build (GAP-5); the example below pins the effect by hand.

    After NRD it holds on the R2 reading of §4.2(C)(3)(c) only: the literal R1 reading (the default,
    GAP-6) carries the prior Plan Year's greatest amount forward unscaled, so a start just after a
    Plan Year end can pay less than one just before it (second example below).
    """
    birth, data = p
    pre_1989_capped = {y: min(v, D(200_000)) if y < 1989 else v for y, v in data.compensation.items()}
    data = replace(data, compensation=pre_1989_capped)
    base = accrued_at(data, settings=R2).annual
    first = earliest_commencement_date(birth, data.termination_date, data.periods[0].start)
    d1, d2 = sorted((add_months(first, a), add_months(first, a + b)))
    employed = data.termination_date is None or data.termination_date >= data.nrd
    one = life_amount_at(data, base, data.nrd, d1, employed_past_nrd=employed, settings=R2)
    two = life_amount_at(data, base, data.nrd, d2, employed_past_nrd=employed, settings=R2)
    assert one.annual <= two.annual


def test_r1_carries_the_prior_plan_year_unscaled_so_a_later_start_can_pay_less_s4_2C3():
    """Found by the property above (random seed): born 6/2/1932, hired 1/1/1985, still employed, $10,000
    in 1985 raised 1% a year, no Social Security Amount; NRD 7/1/1997; Amount (1) at NRD 4,602.50.
    LRF (Table A, monthly, rounded to .01): 12/31/1999 (30 months) 1.22; 12/1/2000 (41) 1.27 + .11 ×
    5/12 = 1.3158 → 1.32; 12/31/2000 (42) 1.325 → 1.33. Greatest amount at 12/31/1999: Final Earnings
    1997–1999 (11,268 + 11,380 + 11,494) / 3 × 50% = 5,690.33.
    - 12/1/2000 (§4.2(C)(3)): 5,690.33 × 1.32 / 1.22 = 6,156.75 (above 4,602.50 × 1.32 = 6,075.30).
    - 1/1/2001, R1: greatest at 12/31/2000 = max(4,602.50 × 1.33 = 6,121.33; 1998–2000 average × 50%
      = 5,747.17; 5,690.33 carried unscaled) = 6,121.33, × 1.33 / 1.33 — less than a month earlier.
    - 1/1/2001, R2: the carried 5,690.33 × 1.33 / 1.22 = 6,203.40 is the greatest."""
    birth, hire = date(1932, 6, 2), date(1985, 1, 1)
    comp = {y: D(10000 * 101 ** (y - 1985) // 100 ** (y - 1985)) for y in range(1985, 2001)}
    data = AccrualData((EP(hire, None),), comp, D(0), date(1997, 7, 1))
    assert first_of_month_on_or_after(birthday(birth, 65)) == data.nrd
    base = accrued_at(data).annual
    dec, jan = date(2000, 12, 1), date(2001, 1, 1)
    assert cents(life_amount_at(data, base, data.nrd, dec, employed_past_nrd=True).annual) == D("6156.75")
    assert cents(life_amount_at(data, base, data.nrd, jan, employed_past_nrd=True).annual) == D("6121.33")
    r2 = life_amount_at(data, base, data.nrd, jan, employed_past_nrd=True, settings=R2).annual
    assert cents(r2) == D("6203.40")


def test_a_later_start_pays_less_when_an_uncapped_pre_1989_year_leaves_the_window():
    """Found by the property above (hypothesis, random seed): born 1/1/1942, hired 1/1/1970, still
    employed, $66,770 in 1970 raised 8% a year (1987 $247,050, 1988 $266,814), no Social Security
    Amount, NRD 1/1/2007; Credited Service over 15 years, so Amount (A) = 50% of Final Earnings.

    - 12/1/1997: window 1987–1996 (§1.1(P)); best 1987–1989 = (247,050 + 266,814 + 200,000) / 3 =
      237,954.67 (1989 capped at $200,000; no cap before 1989); 50% = 118,977.33; 109 months before
      NRD: ERF .53 − .03 × 1/12 = .5275 → .53 (Table A, interpolated, rounded to .01) → 63,057.99.
    - 1/1/1998: window 1988–1997; best 1991–1993 = (222,220 + 228,860 + 235,840) / 3 = 228,973.33
      (1988–1990 gives 225,338); 50% = 114,486.67; 108 months: .53 → 60,677.93.
    With the §3.1(D) Accrued Benefit at 12/31/1997 stored (118,977.33) the 1998 start keeps it."""
    birth, hire = date(1942, 1, 1), date(1970, 1, 1)
    comp = {y: D(66770 * 108 ** (y - 1970) // 100 ** (y - 1970)) for y in range(1970, 2001)}
    assert (comp[1987], comp[1988]) == (D(247050), D(266814))
    data = AccrualData((EP(hire, None),), comp, D(0), date(2007, 1, 1))
    assert earliest_commencement_date(birth, None, hire) == date(1997, 1, 1)  # age 55 (§4.3)
    base = accrued_at(data).annual
    dec, jan = date(1997, 12, 1), date(1998, 1, 1)
    one = life_amount_at(data, base, data.nrd, dec, employed_past_nrd=True).annual
    two = life_amount_at(data, base, data.nrd, jan, employed_past_nrd=True).annual
    assert cents(one) == D("63057.99") and cents(two) == D("60677.93")
    floored = replace(data, benefit_at_1997_12_31=D("118977.33"))
    base = accrued_at(floored).annual
    assert cents(life_amount_at(floored, base, data.nrd, jan, employed_past_nrd=True).annual) == D("63057.98")


def test_retiring_at_nrd_before_the_freeze_counts_service_to_that_day_s3_2_s4_4A2():
    """Found by the property above (hypothesis, random seed): born 1/1/1935, hired 1/1/1989, still
    employed, $10,000 every year, no Social Security Amount; NRD 1/1/2000 (age 65, §1.1(W)).
    Amount (A) (§3.1(A)): 50% of Final Earnings (5,000) × Credited Service (at most 15 years) / 15.
    - Counted to the freeze (12/31/2000): 144 months → 5,000 × 12 / 15 = 4,000 (the base passed in).
    - Retiring at NRD 1/1/2000 ends Credited Service then (§4.4(A)(2), as for an early start):
      132 months → 5,000 × 11 / 15 = 3,666.67, not 4,000 for a year not worked.
    - 2/1/2000 (§4.2): 3,666.67 × LRF 1.01 (Table A, one month) = 3,703.33, above 133 months' 3,694.44.
    - 1/1/2001, after the freeze: 144 months → 4,000.
    So each later start pays at least as much as the one before."""
    data = AccrualData(
        (EP(date(1989, 1, 1), None),), {y: D(10000) for y in range(1989, 2001)}, D(0), date(2000, 1, 1)
    )
    assert first_of_month_on_or_after(birthday(date(1935, 1, 1), 65)) == data.nrd
    base = accrued_at(data).annual
    assert base == D("4000.00")
    for settings_ in (BenefitSettings(), R2):
        amounts = [
            cents(life_amount_at(data, base, data.nrd, d, employed_past_nrd=True, settings=settings_).annual)
            for d in (date(1999, 12, 1), date(2000, 1, 1), date(2000, 2, 1), date(2001, 1, 1))
        ]
        assert amounts[1:] == [D("3666.67"), D("3703.33"), D("4000.00")]
        assert amounts == sorted(amounts)
    # A participant who left before NRD keeps the Accrued Benefit at NRD as it was.
    left = replace(data, termination_date=date(1998, 6, 30))
    left_base = accrued_at(left).annual
    assert life_amount_at(left, left_base, left.nrd, left.nrd, employed_past_nrd=False).annual == left_base


@given(st.integers(0, 119))
def test_factor_tables_are_monotone(m):
    assert early_factor(m + 1) <= early_factor(m) <= 1
    assert late_factor(m + 1) >= late_factor(m) >= 1


@given(
    st.dates(date(1930, 1, 1), date(1980, 12, 31)),
    st.dates(date(1920, 1, 1), date(2005, 12, 31)),
    st.integers(45, 80),
    st.sampled_from(["50", "66", "100"]),
)
def test_qjsa_never_worth_more_than_the_life_annuity_table_a(birth, other, age, pct):
    # The plan does not subsidize its joint forms: every factor is at most .98 (Table A footnote).
    start = first_of_month_on_or_after(birthday(birth, age))
    factor, _ = js_factor(birth, other, start, pct)
    assert factor <= D(".98")
    forms = form_amounts(
        D(12000),
        participant_birth=birth,
        retirement_date=start,
        married=True,
        annuitant_birth=other,
        nrd=start,
    )
    assert forms[f"js{pct}"].annual < forms["life"].annual
    # More to the survivor costs more: 50% ≥ 66-2/3% ≥ 100% factors.
    assert forms["js50"].annual >= forms["js66"].annual >= forms["js100"].annual
    # Longer certain periods cost more (those offered: none beyond the life expectancy, §7.8(C)).
    certain = [forms[k].annual for k in ("cc5", "cc10", "cc15", "cc20") if k in forms]
    assert certain == sorted(certain, reverse=True)


@given(st.dates(date(1930, 1, 1), date(1980, 12, 31)), st.integers(0, 40), st.integers(45, 80))
def test_younger_joint_annuitant_never_raises_the_factor(birth, gap, age):
    start = first_of_month_on_or_after(birthday(birth, age))
    younger = add_months(birth, 12 * gap)
    much_younger = add_months(birth, 12 * (gap + 1))
    assert js_factor(birth, much_younger, start, "50")[0] <= js_factor(birth, younger, start, "50")[0]


@st.composite
def census_rows(draw):
    from types import MappingProxyType as M

    from benefits.engine.types import Participant

    birth = draw(st.dates(date(1935, 1, 1), date(1978, 12, 31)))
    hire = draw(st.dates(max(birthday(birth, 18), date(1975, 1, 1)), date(2000, 6, 30)))
    term = draw(st.one_of(st.none(), st.dates(add_months(hire, 1), date(2026, 6, 30))))
    last = (term or date(2026, 11, 21)).year
    hours = {y: draw(st.sampled_from([0, 700, 1200, 2080])) for y in range(hire.year, last + 1)}
    comp = {y: D(draw(st.integers(0, 200_000))) for y in range(hire.year, min(last, 2000) + 1)}
    married = draw(st.booleans())
    spouse = draw(st.dates(date(1930, 1, 1), date(1990, 12, 31))) if married else None
    starts = tuple(
        date(draw(st.integers(1995, 2045)), draw(st.integers(1, 12)), 1)
        for _ in range(draw(st.integers(0, 3)))
    )
    return Participant(
        id="h",
        birth_date=birth,
        hire_date=hire,
        termination_date=term,
        marital_status="married" if married else "single",
        spouse_birth_date=spouse,
        hours=M(hours),
        compensation=M(comp),
        commencement_dates=starts,
        plan_data=M({"social_security_amount": str(draw(st.integers(0, 30_000)))}),
    )


@settings(max_examples=60, deadline=None)
@given(census_rows())
def test_contract_result_invariants_for_any_participant(p):
    import re

    from benefits.engine.core import ParticipantError
    from benefits.engine.plans import carver_db

    try:
        r = carver_db.calculate(p, date(2026, 11, 21), {})
    except ParticipantError:
        return  # data the service core refuses (reported as an error object by the CLI)
    money = re.compile(r"^\d+\.\d{2}$")
    assert money.match(r["accrued_benefit"]["monthly_at_nrd"])
    assert len(r["estimates"]) == len(p.commencement_dates)
    for i, e in enumerate(r["estimates"]):
        forms = e["forms"]
        for k, v in forms.items():
            assert k in {
                "life",
                "js50",
                "js66",
                "js100",
                "cc5",
                "cc10",
                "cc15",
                "cc20",
                "ss_level",
                "lump_sum",
            }
            if k != "lump_sum":
                assert money.match(v["monthly"])
                assert r["traces"][f"estimates[{i}].forms.{k}"]
            if k.startswith(("js", "cc")):
                assert D(v["monthly"]) <= D(forms["life"]["monthly"])
