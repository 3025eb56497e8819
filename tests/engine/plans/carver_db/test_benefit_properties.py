"""Invariants of the Carver DB benefit rules, checked on generated participants (hypothesis)."""

from __future__ import annotations

from datetime import date
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
    birth, data = p
    base = accrued_at(data).annual
    first = earliest_commencement_date(birth, data.termination_date, data.periods[0].start)
    d1, d2 = sorted((add_months(first, a), add_months(first, a + b)))
    employed = data.termination_date is None or data.termination_date >= data.nrd
    one = life_amount_at(data, base, data.nrd, d1, employed_past_nrd=employed)
    two = life_amount_at(data, base, data.nrd, d2, employed_past_nrd=employed)
    assert one.annual <= two.annual


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
    # Longer certain periods cost more.
    assert forms["cc5"].annual >= forms["cc10"].annual >= forms["cc15"].annual >= forms["cc20"].annual


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
