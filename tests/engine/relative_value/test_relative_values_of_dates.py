"""Issue 29: ``relative_values_of_dates`` (every date of a grid at once, its factors on
``form_factors``) gives, date for date, what ``relative_values`` gives for that date alone.

Random ASDs (before, during and after the 2008-2011 transition, with and without market data),
married or not, forms of every kind (life, joint and survivor, certain and life, a level-income form,
a single sum) and amounts: the basis, every form's relative value (ratio, percent, the "approximately
equal" flag, both present values), the groups and the note are equal, or both raise the same error.
"""

from __future__ import annotations

import copy
from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine.actuarial import Form
from benefits.engine.dates import add_months
from benefits.engine.relative_value import (
    ComparisonRules,
    OptionalForm,
    relative_value_json,
    relative_values,
    relative_values_of_dates,
    value_items,
)

RULES = ComparisonRules("js50", "life", 3, "treasury_30y_monthly", "§X")
BIRTH = date(1962, 7, 15)


def market(months: list[str], gaps: set[int]) -> dict:
    given = [m for i, m in enumerate(months) if i not in gaps]
    return {
        "segment_rates": {m: [f"{3 + i % 5 * 0.3:.2f}", "5.10", "5.80"] for i, m in enumerate(given)},
        "treasury_30y_monthly": {m: f"{4 + i % 4 * 0.25:.2f}" for i, m in enumerate(given)},
    }


@st.composite
def grids(draw):
    start = draw(st.dates(date(2004, 1, 1), date(2026, 6, 1))).replace(day=1)
    dates = [add_months(start, k * draw(st.integers(1, 7))) for k in range(draw(st.integers(1, 30)))]
    married = draw(st.booleans())
    spouse = date(1960 + draw(st.integers(0, 8)), draw(st.integers(1, 12)), 1) if married else None
    months = [f"{add_months(d, -3).year:04d}-{add_months(d, -3).month:02d}" for d in dates]
    assumptions = market(months, set(draw(st.lists(st.integers(0, 29), max_size=10))))
    forms = []
    for _ in dates:
        life = Decimal(draw(st.integers(50_00, 400_000))) / 100
        options = [
            OptionalForm("life", Form.life(), life),
            OptionalForm(
                "js50",
                Form.contingent(Decimal("0.5")),
                (life * Decimal("0.9")).quantize(Decimal("0.01")),
                spouse,
            ),
            OptionalForm(
                "js100", Form.contingent(1), (life * Decimal("0.82")).quantize(Decimal("0.01")), spouse
            ),
            OptionalForm(
                "cc10", Form.certain_and_life(10), (life * Decimal("0.96")).quantize(Decimal("0.01"))
            ),
        ]
        if draw(st.booleans()):
            options.append(
                OptionalForm(
                    "ss_level",
                    Form.life(),
                    life + 900,
                    amount_after=life / 2,
                    change_after_months=draw(st.integers(1, 60)),
                )
            )
        if draw(st.booleans()):
            options.append(OptionalForm("lump_sum", Form.lump_sum(), life * 150))
        if not married and draw(st.booleans()):
            options = [o for o in options if not o.form.needs_spouse]
        forms.append(options)
    return dates, forms, married, assumptions


def outcome(fn):
    try:
        return fn()
    except Exception as exc:  # noqa: BLE001 - both sides must raise alike
        return type(exc), str(exc)


def figures(rv):
    if isinstance(rv, tuple):
        return rv
    return (
        rv.basis,
        {
            k: (v.ratio, v.percent, v.approximately_equal, v.option_apv, v.qjsa_apv)
            for k, v in rv.values.items()
        },
        list(rv.values),
        rv.groups,
        str(rv.note),
        getattr(rv.note, "field", None),
    )


@settings(max_examples=60, deadline=None)
@given(grids())
def test_every_date_equals_its_own_comparison(grid):
    dates, forms, married, assumptions = grid
    together = relative_values_of_dates(
        list(zip(dates, forms, strict=True)),
        birth_date=BIRTH,
        married=married,
        assumptions=assumptions,
        rules=RULES,
    )
    for d, options, rv in zip(dates, forms, together, strict=True):
        alone = outcome(
            lambda d=d, options=options: relative_values(
                options, birth_date=BIRTH, asd=d, married=married, assumptions=assumptions, rules=RULES
            )
        )
        got = (type(rv), str(rv)) if isinstance(rv, Exception) else rv
        assert figures(got) == figures(alone)


def test_months_given_the_same_rates_keep_their_own_words():
    """The segment rates given alike for several months are parsed once by the grid; each date's
    basis still names its own look-back month, as the date alone gives it."""
    dates = [date(2027, m, 1) for m in range(1, 13)]
    months = [f"{add_months(d, -3).year:04d}-{add_months(d, -3).month:02d}" for d in dates]
    assumptions = {"segment_rates": dict.fromkeys(months, ["4.45", "5.20", "5.85"])}
    options = [OptionalForm("life", Form.life(), Decimal("1000.00"))]
    together = relative_values_of_dates(
        [(d, options) for d in dates], birth_date=BIRTH, married=False, assumptions=assumptions, rules=RULES
    )
    for d, month, rv in zip(dates, months, together, strict=True):
        alone = relative_values(
            options, birth_date=BIRTH, asd=d, married=False, assumptions=assumptions, rules=RULES
        )
        assert figures(rv) == figures(alone)
        assert rv.basis.interest == f"segment rates 4.45% / 5.20% / 5.85% for {month}"


def _json(values):
    return [(k, relative_value_json(v)) for k, v in values.items()]


@settings(max_examples=40, deadline=None)
@given(grids())
def test_the_values_read_without_their_objects_are_the_contract_json(grid):
    """``value_items`` on a grid date's values (read from its lists, no ``RelativeValue`` made) is
    ``relative_value_json`` of each value the date alone makes, in the same order; the values are a
    read-only mapping of the date alone's figures, equal to its copies."""
    dates, forms, married, assumptions = grid
    together = relative_values_of_dates(
        list(zip(dates, forms, strict=True)),
        birth_date=BIRTH,
        married=married,
        assumptions=assumptions,
        rules=RULES,
    )
    for d, options, rv in zip(dates, forms, together, strict=True):
        if isinstance(rv, Exception) or rv.basis is None:
            continue
        alone = relative_values(
            options, birth_date=BIRTH, asd=d, married=married, assumptions=assumptions, rules=RULES
        )
        got = [(k, {"percent": p, "approximately_equal": a}) for k, p, a in value_items(rv.values)]
        assert got == _json(alone.values) == _json(rv.values)
        assert figures(rv) == figures(alone)  # each value, made when read, is the date alone's
        assert rv.values == dict(rv.values) and list(rv.values) == list(alone.values)
        assert all(k in rv.values for k in alone.values) and "no such form" not in rv.values
        assert copy.deepcopy(rv.values) == rv.values
        with pytest.raises(TypeError):
            rv.values["life"] = None  # type: ignore[index]


def test_a_form_given_twice_keeps_the_last_value_as_the_date_alone():
    d = date(2030, 1, 1)
    options = [
        OptionalForm("life", Form.life(), Decimal("1000.00")),
        OptionalForm("cc10", Form.certain_and_life(10), Decimal("950.00")),
        OptionalForm("cc10", Form.certain_and_life(10), Decimal("900.00")),
    ]
    assumptions = {"treasury_30y_monthly": {"2029-10": "4.5"}}
    (rv,) = relative_values_of_dates(
        [(d, options)], birth_date=BIRTH, married=False, assumptions=assumptions, rules=RULES
    )
    alone = relative_values(
        options, birth_date=BIRTH, asd=d, married=False, assumptions=assumptions, rules=RULES
    )
    assert figures(rv) == figures(alone) and list(rv.values) == ["life", "cc10"]
    assert [(k, {"percent": p, "approximately_equal": a}) for k, p, a in value_items(rv.values)] == _json(
        alone.values
    )
