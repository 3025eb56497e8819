"""59½ withdrawals (§7.3) and distributions (§7.5, §7.6): SPEC Examples 4 and 9."""

from datetime import date
from decimal import Decimal as D

import pytest

from benefits.engine.plans.carver_401k.accounts import vest_accounts
from benefits.engine.plans.carver_401k.distributions import (
    AnnuityQuote,
    cash_out,
    cash_out_threshold,
    check_installment_period,
    estimate_forms,
    forms_offered,
    installment_amount,
    latest_commencement,
    lump_sum_window,
    normal_form,
    price_annuity,
    required_beginning_date,
    spousal_consent_required,
)
from benefits.engine.plans.carver_401k.settings import BenefitSettings
from benefits.engine.plans.carver_401k.withdrawals import withdrawal_at_59_half, withdrawal_sources

V = vest_accounts(
    {
        "before_tax": "10000",
        "rollover": "1000",
        "matching_pre2002": "2000",
        "matching_2002": "1000",
        "discretionary": "500",
        "nonelective": "500",
    },
    D(60),
)


def test_example9_age_59_half():
    # A3: K born 1962-08-17 → 2022-02-17.
    w = withdrawal_at_59_half(V, birth_date=date(1962, 8, 17), on=date(2022, 2, 16), married=False)
    assert w.eligible_from == date(2022, 2, 17) and not w.eligible and w.maximum == D(0)
    w = withdrawal_at_59_half(V, birth_date=date(1962, 8, 17), on=date(2022, 2, 17), married=True)
    assert w.eligible and w.spousal_consent_required
    # vested: 10,000 + 1,000 + 1,200 + 1,000 + 300 + 300
    assert w.maximum == D("13800.00")


def test_59_half_once_per_plan_year_and_notice():
    w = withdrawal_at_59_half(
        V,
        birth_date=date(1950, 1, 1),
        on=date(2022, 6, 1),
        married=False,
        prior_withdrawal_dates=[date(2022, 1, 10)],
    )
    assert not w.eligible
    w = withdrawal_at_59_half(
        V, birth_date=date(1950, 1, 1), on=date(2022, 6, 1), married=False, notice_given=date(2022, 5, 25)
    )
    assert not w.eligible


def test_59_half_literal_nonelective_full_net_value():
    w = withdrawal_at_59_half(
        V,
        birth_date=date(1950, 1, 1),
        on=date(2022, 6, 1),
        married=False,
        settings=BenefitSettings(withdrawal_nonelective_vested_only=False),
    )
    assert w.maximum == D("14000.00")


def test_59_half_order():
    # §7.3(a): Before-Tax, Rollover, Matching (pro rata 1,200 : 1,000), Discretionary, Nonelective.
    w = withdrawal_at_59_half(V, birth_date=date(1950, 1, 1), on=date(2022, 6, 1), married=False)
    taken, _ = withdrawal_sources("12100", w)
    assert taken == {
        "before_tax": D("10000.00"),
        "rollover": D("1000.00"),
        "matching_pre2002": D("600.00"),
        "matching_2002": D("500.00"),
    }


def test_example4_lump_sum_window():
    # §7.6(c): terminated 2003-01-31 → 2004-02-29 (Sunday) → Friday 2004-02-27.
    w = lump_sum_window(date(2003, 1, 31))
    assert w.last_day == date(2004, 2, 29) and w.last_valuation_date == date(2004, 2, 27)


def test_example9_lump_sum_window():
    # terminated 2015-03-31 → 2016-04-30 (Saturday) → 2016-04-29.
    assert lump_sum_window(date(2015, 3, 31)).last_valuation_date == date(2016, 4, 29)


def test_example4_cash_out_tests():
    # §7.5(g): 30,210 > 5,000 → no automatic payment; Variant D 4,200 → cashed out.
    assert not cash_out("30210.00", terminated=True, on=date(2003, 1, 31)).required
    assert cash_out("4200.00", terminated=True, on=date(2003, 1, 31)).required
    assert cash_out("5000.00", terminated=True, on=date(2003, 1, 31)).required  # "equal to or less"
    assert not cash_out("5000.01", terminated=True, on=date(2003, 1, 31)).required
    assert not cash_out("4200.00", terminated=False, on=date(2003, 1, 31)).required


def test_cash_out_threshold_by_date_and_rollover():
    assert cash_out_threshold(date(1997, 12, 31))[0] == D("3500")
    assert cash_out_threshold(date(1998, 1, 1))[0] == D("5000")
    # the plan keeps $5,000 in 2024 unless the sponsor adopted SECURE 2.0's $7,000 (GAP-15)
    assert cash_out_threshold(date(2024, 6, 1))[0] == D("5000")
    assert cash_out_threshold(date(2024, 6, 1), BenefitSettings(cash_out_threshold_override=D("7000")))[
        0
    ] == D("7000")
    # A13: rollover counts; excluded reading tests 6,000 − 2,000
    s = BenefitSettings(cash_out_counts_rollover=False)
    assert cash_out(
        "6000", terminated=True, on=date(2010, 1, 1), rollover_balance="2000", settings=s
    ).required


def test_normal_form_and_consent():
    # §7.5(a), §7.2(a)(i), A11
    assert normal_form(True) == "js50" and normal_form(False) == "life"
    assert not spousal_consent_required("js50", True)
    assert spousal_consent_required("lump_sum", True)
    assert spousal_consent_required("js50", True, beneficiary_is_spouse=False)
    assert not spousal_consent_required("lump_sum", False)


def test_example4_forms_offered():
    # C: terminated 2003-01-31, NRD 2033-03-01, no ERD.
    nrd = date(2033, 3, 1)
    early = forms_offered(
        married=True,
        commencement_date=date(2003, 6, 2),
        termination_date=date(2003, 1, 31),
        normal_retirement_date=nrd,
        early_retirement_date=None,
    )
    assert early.forms == ("lump_sum",) and early.normal_form == "js50"
    late = forms_offered(
        married=True,
        commencement_date=date(2004, 3, 1),
        termination_date=date(2003, 1, 31),
        normal_retirement_date=nrd,
        early_retirement_date=None,
    )
    assert late.forms == ()  # GAP-5: only rollover, partial, installments remain
    assert "direct_rollover" in late.other_options
    at_nrd = forms_offered(
        married=False,
        commencement_date=nrd,
        termination_date=date(2003, 1, 31),
        normal_retirement_date=nrd,
        early_retirement_date=None,
        period_certain_years=(10,),
    )
    assert at_nrd.forms == ("js50", "js75", "js100", "life", "cc10", "lump_sum")


def test_example9_annuity_from_erd():
    # K terminated 2015-03-31, ERD 2022-08-17 (§1.21 second paragraph): annuity from then.
    f = forms_offered(
        married=True,
        commencement_date=date(2022, 8, 17),
        termination_date=date(2015, 3, 31),
        normal_retirement_date=date(2027, 9, 1),
        early_retirement_date=date(2022, 8, 17),
    )
    assert "js50" in f.forms and "lump_sum" not in f.forms


def test_qjsa_priced_from_quote():
    # 30,210 ÷ 1,000 × 6.10 = 184.281 → 184.28
    m, t = price_annuity("30210.00", AnnuityQuote("js50", D("6.10"), "Insurer", date(2033, 1, 15)))
    assert m == D("184.28")
    assert t.steps[0].section.startswith("§7.1(d)")
    f = forms_offered(
        married=True,
        commencement_date=date(2033, 3, 1),
        termination_date=date(2003, 1, 31),
        normal_retirement_date=date(2033, 3, 1),
        early_retirement_date=None,
    )
    forms, _ = estimate_forms("30210.00", f, {"js50": AnnuityQuote("js50", D("6.10"))})
    assert forms == {"js50": {"monthly": D("184.28")}, "lump_sum": {"lump_sum": D("30210.00")}}


def test_installments():
    # §7.6(e), A12: balance ÷ installments remaining; at most 10 years.
    assert installment_amount("10000", 3)[0] == D("3333.33")
    check_installment_period(10)
    with pytest.raises(ValueError):
        check_installment_period(11)
    with pytest.raises(ValueError):
        check_installment_period(8, life_expectancy_years="7.5")


def test_example9_latest_start_and_rbd():
    # §7.11(a): latest of 2027 (65), 2006 (10th anniversary of 1996), 2015 → 2027-12-31 + 60 = 2028-02-29.
    d, _ = latest_commencement(
        birth_date=date(1962, 8, 17), participation_year=1996, termination_date=date(2015, 3, 31)
    )
    assert d == date(2028, 2, 29)
    # RBD: current law age 75 (born 1962) → 2037-08-17 → 2038-04-01; plan text 70½ → 2033-02-17 → 2034-04-01.
    assert required_beginning_date(birth_date=date(1962, 8, 17), termination_date=date(2015, 3, 31))[
        0
    ] == date(2038, 4, 1)
    plan_text = BenefitSettings(rmd_age_rule="plan_text")
    assert required_beginning_date(
        birth_date=date(1962, 8, 17), termination_date=date(2015, 3, 31), settings=plan_text
    )[0] == date(2034, 4, 1)
    # still employed: later of termination and the age → unknown; a 5% owner does not wait.
    assert required_beginning_date(birth_date=date(1962, 8, 17), termination_date=None)[0] is None
    assert required_beginning_date(
        birth_date=date(1955, 3, 1), termination_date=None, five_percent_owner=True
    )[0] == date(2029, 4, 1)  # 73 in 2028
