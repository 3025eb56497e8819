"""The modeler grid's one-pass path equals the scalar path row for row.

``price_grid`` reads the §415 inputs that do not change with the date once (``Limits415``) and
prices the forms without traces (``form_monthly_amounts``); ``price_grid_reference`` looks the
limit up afresh for every date and builds every form's trace (``form_amounts``). For random
participants and dates, every row (start kind, each form's monthly amount, in order) is equal.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from types import MappingProxyType as M

from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine.dates import add_months
from benefits.engine.dates import date_attaining_age as birthday
from benefits.engine.plans import get_plan
from benefits.engine.plans.carver_db.forms import form_amounts, form_monthly_amounts
from benefits.engine.plans.carver_db.grid import price_grid, price_grid_reference
from benefits.engine.plans.carver_db.settings import UNFROZEN_PROJECTION, BenefitSettings
from benefits.engine.types import Participant

PLAN = get_plan("carver-db")


@st.composite
def cases(draw):
    birth = draw(st.dates(date(1930, 1, 1), date(1978, 12, 31)))
    hire = draw(st.dates(max(birthday(birth, 18), date(1965, 1, 1)), date(2000, 6, 30)))
    as_of = draw(st.dates(max(hire, date(1996, 1, 1)), date(2026, 11, 30)))
    term = draw(st.one_of(st.none(), st.dates(hire, as_of)))
    married = draw(st.booleans())
    spouse = date(birth.year + draw(st.integers(-12, 12)), draw(st.integers(1, 12)), 1) if married else None
    pay = draw(st.integers(8_000, 300_000))
    last = (term or as_of).year
    plan_data: dict = {"social_security_amount": str(draw(st.integers(0, 30_000)))}
    if not married and draw(st.booleans()):
        plan_data["contingent_pensioner_birth_date"] = date(birth.year + 7, 2, 1).isoformat()
    if draw(st.booleans()):
        plan_data["never_in_defined_contribution_plan"] = True
    p = Participant(
        id="grid",
        birth_date=birth,
        hire_date=hire,
        termination_date=term,
        marital_status="married" if married else "single",
        spouse_birth_date=spouse,
        hours=M({y: draw(st.sampled_from([2080, 900, 400])) for y in range(hire.year, last + 1)}),
        compensation=M({y: Decimal(pay + 1500 * (y - hire.year)) for y in range(hire.year, last + 1)}),
        plan_data=M(plan_data),
    )
    unfrozen = draw(st.booleans())
    return p, as_of, unfrozen


def outcome(grid, *args, **kwargs):
    try:
        return "rows", grid(*args, **kwargs)
    except Exception as exc:  # the scalar path's errors are the contract's too
        return "error", type(exc), str(exc)


@settings(max_examples=60, deadline=None)
@given(cases())
def test_one_pass_grid_equals_the_scalar_grid(case):
    p, as_of, unfrozen = case
    given_settings = (
        {"benefits": BenefitSettings(projected_cs_mode=UNFROZEN_PROJECTION)} if unfrozen else None
    )
    core = PLAN.core_result(p, as_of, given_settings)
    fast = outcome(price_grid, p, as_of, core)
    reference = outcome(price_grid_reference, p, as_of, core)
    assert fast[0] == reference[0]
    if fast[0] == "error":
        assert fast == reference
        return
    assert fast[1].forms == reference[1].forms and fast[1].nrd_benefit == reference[1].nrd_benefit
    assert len(fast[1].rows) == len(reference[1].rows)
    for row, expected in zip(fast[1].rows, reference[1].rows, strict=True):
        assert row == expected
        assert list(row.monthly) == list(expected.monthly)


@settings(max_examples=200, deadline=None)
@given(
    life=st.decimals(min_value=0, max_value=400_000, places=4, allow_nan=False, allow_infinity=False),
    birth=st.dates(date(1930, 1, 1), date(1975, 12, 31)),
    start_age_months=st.integers(55 * 12, 70 * 12),
    annuitant_years=st.one_of(st.none(), st.integers(-15, 15)),
    ss=st.one_of(st.none(), st.integers(0, 30_000).map(Decimal)),
    married=st.booleans(),
)
def test_monthly_amounts_are_the_traced_forms_monthly_amounts(
    life, birth, start_age_months, annuitant_years, ss, married
):
    retirement = add_months(date(birth.year, birth.month, 1), start_age_months)  # not before NRD − 10 years
    annuitant = None if annuitant_years is None else date(birth.year + annuitant_years, birth.month, 1)
    kwargs = dict(
        participant_birth=birth,
        retirement_date=retirement,
        married=married,
        annuitant_birth=annuitant,
        nrd=date(birth.year + 65, birth.month, 1),
        ss_option_amount=ss,
    )
    traced = form_amounts(life, **kwargs)
    assert form_monthly_amounts(life, **kwargs) == {k: f.monthly for k, f in traced.items()}
    assert list(form_monthly_amounts(life, **kwargs)) == list(traced)
