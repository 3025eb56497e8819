"""The modeler grid's one-pass path equals the scalar path (``estimate`` for every date) exactly.

``price_grid`` builds the ledger once, prices every date's annuity factors on the vectorized path
and posts the money with the scalar path's Decimal steps; ``price_grid_reference`` calls
``estimate`` (with its traces) for each date. Every row (route, balance, each form's monthly
amount, the lump sum, the estimate flag) must be equal, for random participants, dates and market
data, with either form-conversion basis.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal
from types import MappingProxyType as M

from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine.plans import get_plan
from benefits.engine.plans.quaker_cash_balance.grid import price_grid, price_grid_reference
from benefits.engine.plans.quaker_cash_balance.settings import BenefitSettings
from benefits.engine.types import Participant

PLAN = get_plan("quaker-cash-balance")


@st.composite
def cases(draw):
    birth = draw(st.dates(date(1948, 1, 1), date(1992, 12, 31)))
    hire = draw(st.dates(max(date(birth.year + 20, 1, 1), date(1985, 1, 1)), date(2024, 12, 31)))
    as_of = draw(st.dates(max(hire, date(2005, 1, 1)), date(2026, 11, 30)))
    term = draw(st.one_of(st.none(), st.dates(hire, as_of)))
    married = draw(st.booleans())
    spouse = date(birth.year + draw(st.integers(-10, 10)), draw(st.integers(1, 12)), 1) if married else None
    pay = draw(st.integers(15_000, 400_000))
    last = (term or as_of).year
    plan_data: dict = {}
    if hire.year < 2000:
        plan_data["opening_balance"] = str(draw(st.integers(0, 300_000)))
    if not married and draw(st.booleans()):
        plan_data["contingent_annuitant_birth_date"] = date(birth.year + 5, 3, 1).isoformat()
    p = Participant(
        id="grid",
        birth_date=birth,
        hire_date=hire,
        termination_date=term,
        marital_status="married" if married else "single",
        spouse_birth_date=spouse,
        hours=M({y: 2080 for y in range(hire.year, last + 1)}),
        compensation=M({y: Decimal(pay + 1000 * (y - hire.year)) for y in range(hire.year, last + 1)}),
        plan_data=M(plan_data),
    )
    treasury = draw(st.lists(st.integers(100, 900), min_size=30, max_size=30))
    assumptions = {
        "treasury_10y_november": {str(1996 + i): f"{r / 100:.2f}" for i, r in enumerate(treasury)},
        "applicable_interest_rate_default": f"{draw(st.integers(150, 900)) / 100:.2f}",
    }
    if draw(st.booleans()):
        assumptions["applicable_mortality_table"] = "rev-rul-95-6"
    conversion = draw(st.sampled_from(["up84_8pct", "applicable"]))
    return p, as_of, assumptions, conversion


@settings(max_examples=30, deadline=None)
@given(cases())
def test_one_pass_grid_equals_the_scalar_grid(case):
    p, as_of, assumptions, conversion = case
    core = PLAN.core_result(p, as_of, {"benefits": BenefitSettings(form_conversion_basis=conversion)})
    fast = outcome(price_grid, p, as_of, assumptions, core)
    reference = outcome(price_grid_reference, p, as_of, assumptions, core)
    assert fast[0] == reference[0]  # rows, or the same error (a date with no table in the engine)
    if fast[0] == "error":
        assert fast == reference
        return
    assert len(fast[1]) == len(reference[1])
    for row, expected in zip(fast[1], reference[1], strict=True):
        assert row == expected
        assert list(row.monthly) == list(expected.monthly)  # the same forms, in the same order


def outcome(grid, *args, **kwargs):
    try:
        return "rows", grid(*args, **kwargs)
    except Exception as exc:  # the scalar path's errors are the contract's too
        return "error", type(exc), str(exc)


@settings(max_examples=10, deadline=None)
@given(cases(), st.integers(0, 40))
def test_a_later_start_of_the_grid_gives_the_same_rows(case, skip):
    p, as_of, assumptions, _ = case
    core = PLAN.core_result(p, as_of)
    kind, *full_or_error = outcome(price_grid, p, as_of, assumptions, core)
    if kind == "error" or len(full_or_error[0]) <= skip:
        return
    full = full_or_error[0]
    later = price_grid(p, as_of, assumptions, core, start=full[skip].commencement_date)
    assert later == full[skip:]
    assert later == price_grid_reference(p, as_of, assumptions, core, start=full[skip].commencement_date)


def test_the_grid_of_the_benchmark_participant_is_the_scalar_grid():
    p = Participant(
        id="bench",
        birth_date=date(1987, 10, 10),
        hire_date=date(2006, 3, 5),
        marital_status="married",
        spouse_birth_date=date(1989, 6, 15),
        hours=M({y: 2080 for y in range(2006, 2027)}),
        compensation=M({y: Decimal(52000 + 1500 * (y - 2006)) for y in range(2006, 2027)}),
    )
    assumptions = {
        "treasury_10y_november": {str(y): "4.50" for y in range(1999, 2026)},
        "applicable_interest_rate_default": "5.00",
    }
    as_of = date(2026, 11, 21)
    core = PLAN.core_result(p, as_of)
    rows = price_grid(p, as_of, assumptions, core)
    assert len(rows) == 372  # December 2026 to the first of the month after the 70th birthday
    # §5.9(e) before the Early Retirement Date: the life annuity and the QJSA bought directly.
    assert rows[0].route == "vested_immediate" and list(rows[0].monthly) == ["life", "js50"]
    assert rows[-1].route == "late"
    assert list(rows[-1].monthly) == ["life", "cc5", "cc10", "cc15", "cc20", "js50", "js66", "js100"]
    assert rows == price_grid_reference(p, as_of, assumptions, core)
    widowed = replace(p, death_date=date(2026, 1, 5))  # the survivor's window: the scalar path
    assert price_grid(widowed, as_of, assumptions) == price_grid_reference(widowed, as_of, assumptions)
