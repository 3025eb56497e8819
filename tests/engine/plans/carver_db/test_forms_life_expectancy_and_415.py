"""Issue 24, Carver DB: no years certain beyond the life expectancy (§7.8(C)), and the §415 limit on
every optional form (§6.1(C)(3)). Expected values are worked from the plan text (sections cited).
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine.actuarial import Form, form_factor, life_annuity, plan_basis
from benefits.engine.dates import months_between
from benefits.engine.mortality import get_table
from benefits.engine.plans.carver_db.forms import (
    SURVIVOR_SHARE,
    certain_factor,
    form_amounts,
    form_monthly_amounts,
    js_factor,
)

D = Decimal
BIRTH = date(1940, 1, 15)
GATT5 = plan_basis(get_table("gatt1983_unisex"), 0.05)


def _forms(start: date, **kw):
    args = dict(participant_birth=BIRTH, retirement_date=start, married=False, annuitant_birth=None,
                nrd=date(2005, 2, 1))  # fmt: skip
    args.update(kw)
    return form_amounts(D(30000), **args)


def test_at_85_only_five_years_certain_are_offered_s7_8c():
    # February 1, 2025: age 85 on the 2025 birthday; the Single Life Table (T.D. 9930) gives 8.1
    # years, so 10, 15 and 20 years certain would run past the life expectancy (§7.8(C)).
    forms = _forms(date(2025, 2, 1))
    assert [k for k in forms if k.startswith("cc")] == ["cc5"]


def test_at_75_five_and_ten_years_certain_s7_8c():
    # February 1, 2015: age 75; the T.D. 8987 table (2002–2021) gives 13.4 years: cc5 and cc10 only.
    forms = _forms(date(2015, 2, 1))
    assert [k for k in forms if k.startswith("cc")] == ["cc5", "cc10"]


def test_at_65_every_period_is_offered_s7_8c():
    # February 1, 2005: age 65; T.D. 8987 gives 21.0 years, longer than 20.
    forms = _forms(date(2005, 2, 1))
    assert [k for k in forms if k.startswith("cc")] == ["cc5", "cc10", "cc15", "cc20"]


def test_grid_offers_the_same_periods():
    monthly = form_monthly_amounts(
        D(30000), participant_birth=BIRTH, retirement_date=date(2025, 2, 1), married=False,
        annuitant_birth=None, nrd=date(2005, 2, 1),
    )  # fmt: skip
    assert [k for k in monthly if k.startswith("cc")] == ["cc5"]


def test_five_years_certain_at_85_held_to_the_limit_s6_1c3():
    # A Life-No Death Benefit at the limit of 30,000 a year. Table A gives .96 for 5 years certain at
    # 65 and over: 28,800. §6.1(C)(3) tests the form on the greater of its equivalents on the plan's
    # factor (28,800 / .96 = 30,000) and on 5% with the GATT table (28,800 × ä(85:5 certain) ÷ ä(85)),
    # the second larger than the limit. So the form is cut to 30,000 × ä(85) ÷ ä(85:5 certain), in
    # cents a month rounded down.
    start = date(2025, 2, 1)
    forms = _forms(start, limit_annual=D(30000))
    age = months_between(BIRTH, start) / 12.0
    ratio = life_annuity(GATT5, age) / form_factor(GATT5, Form.certain_and_life(5), age)
    assert 0.8 < ratio < 0.96
    cap = (D(30000) * D(repr(ratio)) / 12).quantize(D("0.01"), rounding="ROUND_DOWN")
    assert forms["cc5"].monthly == cap < D("2400.00")
    assert forms["life"].monthly == D("2500.00")
    assert "§6.1(C)(3)" in forms["cc5"].trace.as_list()[-1]["section"]


def test_the_spouses_joint_and_survivor_form_is_not_converted_s6_1c3():
    # §6.1(C)(3) converts forms "other than a Life-No Death Benefit form ... or a Joint and Survivor
    # form": the Spouse's 50% J&S at 85 keeps its Table A amount (.89 → 26,700).
    forms = _forms(date(2025, 2, 1), married=True, annuitant_birth=date(1940, 6, 1), limit_annual=D(30000))
    assert forms["js50"].annual == D(30000) * D(".89")


@settings(max_examples=80, deadline=None)
@given(
    birth=st.dates(date(1930, 1, 1), date(1975, 12, 31)),
    start_offset=st.integers(55 * 12, 90 * 12),
    married=st.booleans(),
    other_offset=st.integers(-20, 20),
    limit=st.integers(5000, 200000).map(D),
)
def test_no_form_pays_more_than_the_limit_converted_to_it(birth, start_offset, married, other_offset, limit):
    # §6.1(C)(3) with the life amount at the limit: a Contingent Pensioner's or years-certain form
    # never pays more than the limit as that form on the plan's factor and on 5%/GATT; no period
    # certain passes the life expectancy (§7.8(C)); the grid's amounts are the estimate's.
    y, m = divmod(birth.year * 12 + birth.month - 1 + start_offset + 1, 12)
    start = date(y, m + 1, 1)
    other = date(birth.year + other_offset, birth.month, min(birth.day, 28))
    kw = dict(participant_birth=birth, retirement_date=start, married=married, annuitant_birth=other,
              nrd=start, limit_annual=limit)  # fmt: skip
    forms = form_amounts(limit, **kw)
    assert form_monthly_amounts(limit, **kw) == {k: f.monthly for k, f in forms.items()}
    age = months_between(birth, start) / 12.0
    for key, f in forms.items():
        if key == "life" or (key.startswith("js") and married):
            assert f.annual <= limit
            continue
        if key.startswith("cc"):
            form = Form.certain_and_life(int(key[2:]))
            plan_factor, _ = certain_factor(birth, start, int(key[2:]))
            gatt = life_annuity(GATT5, age) / form_factor(GATT5, form, age)
        else:
            plan_factor, _ = js_factor(birth, other, start, key[2:])
            form = Form.contingent(SURVIVOR_SHARE[key[2:]])
            gatt = life_annuity(GATT5, age) / form_factor(
                GATT5, form, age, months_between(other, start) / 12.0
            )
        assert f.annual <= limit * min(plan_factor, D(repr(gatt))), key
