"""Properties of the relative values, and a cross-check against an independent plain-Python sum."""

from __future__ import annotations

from datetime import date
from decimal import Decimal as D

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine.actuarial import Form, convert_life_annuity
from benefits.engine.dates import add_months
from benefits.engine.mortality import applicable_417e_table
from benefits.engine.relative_value import ComparisonRules, OptionalForm, comparison_basis, relative_values

RULES = ComparisonRules("js50", "life", 2, "rate", "§X")
ASD = date(2024, 3, 1)
TABLE = applicable_417e_table(2024)


def oracle_apv(table, rate, age_months, spouse_months, fraction, amount):
    """APV of ``amount`` a month to a life (then ``fraction`` of it to a survivor), paid monthly in
    advance, by a plain loop: l from q, UDD between integer ages, independent lives."""
    lv = [1.0]
    for q in table.qx:
        lv.append(lv[-1] * (1.0 - float(q)))

    def lx(m):  # l at age m months, UDD
        i, r = divmod(m, 12)
        j = i - table.min_age
        if j + 1 >= len(lv):
            return 0.0
        return lv[j] + (lv[j + 1] - lv[j]) * r / 12

    total, k = 0.0, 0
    x0, y0 = lx(age_months), lx(spouse_months) if spouse_months is not None else 0.0
    while True:
        px = lx(age_months + k) / x0
        py = lx(spouse_months + k) / y0 if spouse_months is not None else 0.0
        if px == 0.0 and py == 0.0:
            break
        total += (1 + rate) ** (-k / 12) * (px + fraction * (py - px * py))
        k += 1
    return float(amount) * total


def test_independent_cross_check_on_the_2024_417e_table():
    birth, spouse = date(1959, 3, 1), date(1962, 9, 1)  # 65y 0m and 61y 6m on the ASD
    forms = [
        OptionalForm("js50", Form.contingent(0.5), D("1000.00"), spouse),
        OptionalForm("js100", Form.contingent(1), D("900.00"), spouse),
        OptionalForm("life", Form.life(), D("1100.00")),
    ]
    rv = relative_values(
        forms, birth_date=birth, asd=ASD, married=True, assumptions={"rate": {"2024-01": "4.5"}}, rules=RULES
    )
    q = oracle_apv(TABLE, 0.045, 780, 738, 0.5, 1000)
    assert float(rv.values["js50"].qjsa_apv) == pytest.approx(q, rel=1e-9)
    for key, frac, amount in (("js100", 1.0, 900), ("life", 0.0, 1100)):
        o = oracle_apv(TABLE, 0.045, 780, 738 if frac else None, frac, amount)
        assert float(rv.values[key].option_apv) == pytest.approx(o, rel=1e-9)
        assert rv.values[key].ratio == pytest.approx(o / q, rel=1e-9)


ages = st.integers(min_value=55 * 12, max_value=80 * 12)
spouse_gaps = st.integers(min_value=-15 * 12, max_value=15 * 12)
rates = st.decimals(min_value=D("0.5"), max_value=D("9"), places=2)
kinds = st.sampled_from(["life", "js66", "js100", "cc10", "cc20", "lump_sum"])


def _setup(age_m, gap_m):
    birth = add_months(ASD, -age_m)
    return birth, add_months(birth, -gap_m)


@settings(max_examples=40, deadline=None)
@given(age_m=ages, gap_m=spouse_gaps, rate=rates, kind=kinds, life_amount=st.integers(100, 20000))
def test_a_form_converted_on_the_comparison_basis_is_100_percent(age_m, gap_m, rate, kind, life_amount):
    """Converted on the same basis as the comparison, any form is worth the QJSA (within rounding)."""
    birth, spouse = _setup(age_m, gap_m)
    a = {"rate": {"2024-01": str(rate)}}
    basis, _ = comparison_basis(ASD, a, RULES, married=False)
    age, spouse_age = age_m / 12, (age_m + gap_m) / 12
    form = {
        "life": Form.life(),
        "js66": Form.contingent(D(2) / 3),
        "js100": Form.contingent(1),
        "cc10": Form.certain_and_life(10),
        "cc20": Form.certain_and_life(20),
        "lump_sum": Form.lump_sum(),
    }[kind]
    amount = convert_life_annuity(D(life_amount), basis.basis, form, age, spouse_age).amount
    forms = [OptionalForm("life", Form.life(), D(life_amount)), OptionalForm(kind, form, amount, spouse)]
    rv = relative_values(forms, birth_date=birth, asd=ASD, married=False, assumptions=a, rules=RULES)
    assert abs(rv.values[kind].percent - 100) <= D("0.1")
    assert rv.values["life"].percent == D("100.0")
    assert rv.values[kind].approximately_equal


@settings(max_examples=40, deadline=None)
@given(
    age_m=ages,
    gap_m=spouse_gaps,
    rate=rates,
    js=st.integers(300, 5000),
    scale=st.decimals(min_value=D("0.5"), max_value=D("1.5"), places=3),
)
def test_value_is_proportional_to_the_amount_and_the_flag_follows_the_ratio(age_m, gap_m, rate, js, scale):
    birth, spouse = _setup(age_m, gap_m)
    a = {"rate": {"2024-01": str(rate)}}
    qjsa = OptionalForm("js50", Form.contingent(0.5), D(js), spouse)
    one = relative_values(
        [qjsa, OptionalForm("js100", Form.contingent(1), D(js), spouse)],
        birth_date=birth, asd=ASD, married=True, assumptions=a, rules=RULES,
    )  # fmt: skip
    scaled = relative_values(
        [qjsa, OptionalForm("js100", Form.contingent(1), D(js) * scale, spouse)],
        birth_date=birth, asd=ASD, married=True, assumptions=a, rules=RULES,
    )  # fmt: skip
    # a 100% survivor form paying as much as the QJSA is subsidized: worth more than the QJSA
    assert one.values["js100"].ratio > 1.0 and one.values["js50"].percent == D("100.0")
    r = scaled.values["js100"].ratio
    assert r == pytest.approx(one.values["js100"].ratio * float(scale), rel=1e-12)
    assert scaled.values["js100"].approximately_equal is (0.95 <= r <= 1.05)


@settings(max_examples=30, deadline=None)
@given(age_m=ages, rate=rates)
def test_more_certain_years_or_survivor_share_never_lowers_the_value_of_the_same_payment(age_m, rate):
    birth, spouse = _setup(age_m, 0)
    a = {"rate": {"2024-01": str(rate)}}
    keys = [("life", Form.life()), ("cc5", Form.certain_and_life(5)), ("cc20", Form.certain_and_life(20))]
    keys += [("js50", Form.contingent(0.5)), ("js100", Form.contingent(1))]
    rv = relative_values(
        [OptionalForm(k, f, D(1000), spouse) for k, f in keys],
        birth_date=birth, asd=ASD, married=True, assumptions=a, rules=RULES,
    )  # fmt: skip
    v = {k: x.ratio for k, x in rv.values.items()}
    assert v["life"] <= v["cc5"] <= v["cc20"] and v["life"] <= v["js50"] <= v["js100"]
