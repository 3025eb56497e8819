"""Hypothesis properties of the Quaker account and its conversions."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine.actuarial import form_factor, life_annuity
from benefits.engine.plans.quaker_cash_balance.annuity import applicable_basis, balance_to_life_annuity
from benefits.engine.plans.quaker_cash_balance.compensation import ActivePeriod
from benefits.engine.plans.quaker_cash_balance.forms import _form, general_basis, retirement_forms
from benefits.engine.plans.quaker_cash_balance.ledger import account_ledger
from benefits.engine.plans.quaker_cash_balance.ledger_entries import DISTRIBUTION, FORFEITURE
from benefits.engine.plans.quaker_cash_balance.market import MarketData
from benefits.engine.plans.quaker_cash_balance.settings import BenefitSettings

D = Decimal
money = st.decimals(min_value=0, max_value=500000, places=2, allow_nan=False, allow_infinity=False)
rates = st.decimals(min_value=0, max_value=20, places=2, allow_nan=False, allow_infinity=False)


def market(rate_list, air="6.00"):
    nov = {str(1999 + i): str(r) for i, r in enumerate(rate_list)}
    return MarketData.from_assumptions({
        "treasury_10y_november": nov, "applicable_interest_rate_default": air,
        "applicable_mortality_table": "rev-rul-95-6",
    })  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(
    opening=money,
    pay=st.lists(money, min_size=12, max_size=12),
    rate_list=st.lists(rates, min_size=13, max_size=13),
    hire_month=st.integers(1, 12),
    sep_months=st.integers(1, 140),
)
def test_balance_never_decreases_without_a_distribution(opening, pay, rate_list, hire_month, sep_months):
    start = date(2000, hire_month, 1)
    sep_index = hire_month - 1 + sep_months
    sep = date(2000 + sep_index // 12, sep_index % 12 + 1, 1)
    lg = account_ledger(
        account_open=date(2000, 1, 1), opening_balance=opening,
        periods=[ActivePeriod(start, sep)], compensation={2000 + i: p for i, p in enumerate(pay)},
        comp_limit=lambda y: D("200000"), market=market(rate_list), as_of=date(2012, 12, 31),
        through=date(2012, 12, 31), settings=BenefitSettings(),
    )  # fmt: skip
    prev = D(0)
    for e in lg.entries:
        if e.kind not in (DISTRIBUTION, FORFEITURE):
            assert e.amount >= 0 and e.balance >= prev
        prev = e.balance


@settings(max_examples=25, deadline=None)
@given(
    balance=st.decimals(min_value=1000, max_value=2000000, places=2, allow_nan=False, allow_infinity=False),
    age_m=st.integers(55 * 12, 70 * 12),
    later=st.integers(1, 60),
    air=st.sampled_from(["3.00", "5.00", "6.00", "7.50"]),
)
def test_an_earlier_start_never_pays_more_per_month(balance, age_m, later, air):
    # Same (or larger, with credits) balance at the later date, same AIR: the older age's factor is
    # smaller, so the monthly life annuity cannot fall (§1.2(g), §5.5(b): no separate reduction).
    dob = date(1950, 1, 1)
    m = market([4] * 13, air)
    d1 = date(1950 + age_m // 12, age_m % 12 + 1, 1)
    k = age_m + later
    d2 = date(1950 + k // 12, k % 12 + 1, 1)
    early = balance_to_life_annuity(balance, birth_date=dob, start=d1, basis=applicable_basis(d1, m))
    late = balance_to_life_annuity(balance, birth_date=dob, start=d2, basis=applicable_basis(d2, m))
    assert early.monthly <= late.monthly


@settings(max_examples=40, deadline=None)
@given(
    life=st.decimals(min_value=10, max_value=20000, places=2, allow_nan=False, allow_infinity=False),
    age_m=st.integers(55 * 12, 75 * 12),
    spouse_gap_m=st.integers(-240, 240),
    basis_kind=st.sampled_from(["up84_8pct", "applicable"]),
)
def test_qjsa_is_never_worth_more_than_the_life_annuity(life, age_m, spouse_gap_m, basis_kind):
    # §5.10(c): the QJSA is the Actuarial Equivalent of the life annuity (no subsidy): it never pays
    # more a month, and its value on the conversion basis equals the life annuity's within rounding.
    dob = date(1950, 1, 1)
    start = date(1950 + age_m // 12, age_m % 12 + 1, 1)
    spouse_m = max(age_m + spouse_gap_m, 18 * 12)
    spouse_dob = date(start.year - spouse_m // 12 - 1, 1, 1)
    m = market([4] * 13)
    basis = applicable_basis(start, m)
    sla = balance_to_life_annuity(D(1), birth_date=dob, start=start, basis=basis)
    sla = replace(sla, monthly=life)
    settings_ = BenefitSettings(form_conversion_basis=basis_kind)
    forms = retirement_forms(
        sla, birth_date=dob, spouse_birth_date=spouse_dob, applicable=basis, settings=settings_
    )
    conv = general_basis(D("0.08")) if basis_kind == "up84_8pct" else basis.basis
    age = (start.year - dob.year) + (start.month - dob.month) / 12
    from benefits.engine.dates import months_between

    sp_age = months_between(spouse_dob, start) / 12
    for key in ("js50", "js66", "js100", "cc5", "cc10", "cc15", "cc20"):
        f = forms[key]
        assert f.monthly <= life
        life_value = float(life) * life_annuity(conv, age)
        form_value = float(f.monthly) * form_factor(
            conv, _form(key), age, sp_age if key.startswith("js") else None
        )
        assert abs(form_value - life_value) <= 0.005 * form_factor(conv, _form(key), age, sp_age) + 1e-9
