"""Issue 29: ``relative_values_of_dates`` (every date of a grid at once, its factors on
``form_factors``) gives, date for date, what ``relative_values`` gives for that date alone.

Random ASDs (before, during and after the 2008-2011 transition, with and without market data),
married or not, forms of every kind (life, joint and survivor, certain and life, a level-income form,
a single sum) and amounts: the basis, every form's relative value (ratio, percent, the "approximately
equal" flag, both present values), the groups and the note are equal, or both raise the same error.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine.actuarial import FlatRate, Form
from benefits.engine.dates import add_months
from benefits.engine.minimum_present_value import PHASE_IN, MissingMarketData, segment_rates
from benefits.engine.relative_value import (
    ComparisonRules,
    MissingNote,
    OptionalForm,
    _law_rates,
    _percent,
    _plan_rate,
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


RATE = st.one_of(
    st.none(),
    st.sampled_from(["4.60", "4.6", "5", "", "abc", "-1.5", "NaN"]),
    st.integers(0, 9),
    st.floats(0, 9, allow_nan=False).map(lambda x: round(x, 2)),
    st.just(["4.6"]),
)
SEGMENTS = st.one_of(
    st.none(), st.just(["4.45", "5.20", "5.85"]), st.just(["4.45", "x", "5.85"]), st.just([])
)


@settings(max_examples=60, deadline=None)
@given(
    start=st.dates(date(2004, 1, 1), date(2040, 6, 1)),
    step=st.integers(1, 13),
    n=st.integers(1, 20),
    monthly=st.lists(RATE, min_size=20, max_size=20),
    default=RATE,
    segments=st.lists(SEGMENTS, min_size=20, max_size=20),
    with_default=st.booleans(),
    interest=st.sampled_from(["segment_rates", "plan_rate"]),
)
def test_rates_read_once_for_a_grid_are_each_dates_own(
    start, step, n, monthly, default, segments, with_default, interest
):
    """The plan's rate (a month's or the flat default, read once per string given) and the law's
    segment rates (a month not given noted without raising), whatever was given, malformed included:
    each date's basis, words, values and note are the date's alone."""
    rules = ComparisonRules(
        "js50",
        "life",
        2,
        "applicable_interest_rate",
        "§X",
        rate_default_key="applicable_interest_rate_default" if with_default else None,
        interest=interest,
    )
    dates = [add_months(start.replace(day=1), k * step) for k in range(n)]
    months = [f"{add_months(d, -2).year:04d}-{add_months(d, -2).month:02d}" for d in dates]
    assumptions = {
        "applicable_interest_rate": dict(zip(months, monthly, strict=False)),
        "applicable_interest_rate_default": default,
        "segment_rates": {m: s for m, s in zip(months, segments, strict=False) if s is not None},
    }
    options = [
        OptionalForm("life", Form.life(), Decimal("1000.00")),
        OptionalForm("cc10", Form.certain_and_life(10), Decimal("950.00")),
        OptionalForm("lump_sum", Form.lump_sum(), Decimal("150000.00")),
    ]
    together = relative_values_of_dates(
        [(d, options) for d in dates], birth_date=BIRTH, married=False, assumptions=assumptions, rules=rules
    )
    for d, rv in zip(dates, together, strict=True):
        alone = outcome(
            lambda d=d: relative_values(
                options, birth_date=BIRTH, asd=d, married=False, assumptions=assumptions, rules=rules
            )
        )
        got = (type(rv), str(rv)) if isinstance(rv, Exception) else rv
        assert figures(got) == figures(alone)


def _plan_rate_reference(a, rules, month):
    """``relative_value._plan_rate`` as it read before its strings were read once (the reference)."""
    given = a.get(rules.rate_key) or {}
    rate = _percent(given.get(month)) if isinstance(given, Mapping) else None
    source = f"assumptions.{rules.rate_key}"
    words = f"{rate}% (30-year Treasury rate for {month})"
    if rate is None and rules.rate_default_key is not None:
        rate = _percent(a.get(rules.rate_default_key))
        source = f"assumptions.{rules.rate_default_key}"
        words = f"{rate}% (flat rate given for {month}: {source})"
    if rate is None:
        return ("missing", f"/assumptions/{rules.rate_key}/{month}")
    return FlatRate(float(rate / 100)), words, source


@settings(max_examples=100, deadline=None)
@given(
    given_month=RATE,
    default=RATE,
    with_default=st.booleans(),
    segments=st.one_of(st.none(), st.just({}), st.just([]), st.just({"2031-04": ["4", "5", "6"]})),
    year=st.sampled_from([2007, 2009, 2031]),
)
def test_a_months_rates_read_as_the_reference_reads_them(given_month, default, with_default, segments, year):
    """``_plan_rate`` (memo or not) is the reference reading; a month without segment rates is noted
    with ``segment_rates``' own error (field and words), not raised."""
    rules = ComparisonRules(
        "js50",
        "life",
        2,
        "applicable_interest_rate",
        "§X",
        rate_default_key="applicable_interest_rate_default" if with_default else None,
    )
    month = f"{year}-03"
    a = {
        "applicable_interest_rate": {month: given_month},
        "applicable_interest_rate_default": default,
        "segment_rates": segments,
    }
    memo: dict = {}
    want = _plan_rate_reference(a, rules, month)
    for got in (
        _plan_rate(a, rules, month),
        _plan_rate(a, rules, month, memo),
        _plan_rate(a, rules, month, memo),
    ):
        assert repr(("missing", got.field) if isinstance(got, MissingNote) else got) == repr(want)  # NaN
    law = _law_rates(a, rules, date(year, 5, 1), month, memo)
    if year not in PHASE_IN:
        try:
            segment_rates({"segment_rates": segments}, month)
        except MissingMarketData as exc:
            assert isinstance(law, MissingNote) and (str(law), law.field) == (exc.message, exc.field)
