"""Golden test E9 (SPEC Part C), recomputed from the Carver ESOP §10.6 as amended (Sixth Amendment).

NRA 65 (the SPEC's assumption for E9). Birth dates are chosen to give the ages the SPEC lists on
the distribution date 2006-07-01.
"""

from datetime import date
from decimal import Decimal as D

import pytest

from benefits.engine.plans.carver_esop.cash_out import (
    IRA_CONDITIONS,
    cash_out_decision,
    ira_provider_conditions,
    threshold_on,
)
from benefits.engine.plans.carver_esop.settings import BenefitSettings

DIST = date(2006, 7, 1)


def born(age: int, on: date = DIST) -> date:
    return date(on.year - age, 1, 15)


@pytest.mark.parametrize(
    "case,value,age,election,shares,required,mandatory,auto,route,form",
    [
        ("C1", "780.00", 38, None, False, True, True, False, "pay_directly", "cash"),
        ("C2", "2750.00", 44, None, False, True, True, True, "automatic_rollover", "cash"),
        ("C3", "4990.00", 51, "direct_rollover", False, True, True, False, "direct_rollover", "cash"),
        ("C4", "5000.00", 47, "pay_directly", True, True, True, False, "pay_directly", "shares"),
        ("C6", "3100.00", 67, None, False, True, False, False, "pay_directly", "cash"),
        ("C8", "1000.00", 30, None, False, True, True, False, "pay_directly", "cash"),
    ],
)
def test_e9_cash_out_cases(case, value, age, election, shares, required, mandatory, auto, route, form):
    d = cash_out_decision(
        vested_value=D(value),
        distribution_date=DIST,
        birth_date=born(age),
        normal_retirement_age=65,
        election=election,
        elects_shares=shares,
    )
    assert d.threshold == D("5000.00")
    assert (d.required, d.mandatory_distribution, d.automatic_rollover, d.route, d.form) == (
        required,
        mandatory,
        auto,
        route,
        form,
    ), case
    assert not d.committee_review


def test_e9_c5_over_threshold_no_consent_holding_account_for_committee_10_6_c():
    d = cash_out_decision(
        vested_value=D("5600.00"),
        distribution_date=DIST,
        birth_date=born(40),
        normal_retirement_age=65,
        termination_reason="resigned",
    )
    assert (d.required, d.route, d.committee_review, d.automatic_rollover) == (
        False,
        "holding_account",
        True,
        False,
    )


def test_over_threshold_after_retirement_is_not_a_holding_account():
    d = cash_out_decision(
        vested_value=D("5600.00"),
        distribution_date=DIST,
        birth_date=born(66),
        normal_retirement_age=65,
        termination_reason="retirement",
    )
    assert (d.required, d.route, d.committee_review) == (False, "not_cash_out", False)


def test_e9_c7_historical_1997_threshold_3500():
    d = cash_out_decision(
        vested_value=D("4200.00"),
        distribution_date=date(1997, 11, 3),
        birth_date=born(35, date(1997, 11, 3)),
        normal_retirement_age=65,
    )
    assert d.threshold == D("3500.00")
    assert not d.required


def test_e9_c9_lookback_conflict_escalates_gap_d2_3():
    d = cash_out_decision(
        vested_value=D("4700.00"),
        distribution_date=DIST,
        birth_date=born(41),
        normal_retirement_age=65,
        prior_valuation_value=D("5400.00"),
    )
    assert d.committee_review
    assert d.required and d.automatic_rollover  # what §10.6(a)/(b) alone would do
    alt = cash_out_decision(
        vested_value=D("4700.00"),
        distribution_date=DIST,
        birth_date=born(41),
        normal_retirement_age=65,
        prior_valuation_value=D("5400.00"),
        settings=BenefitSettings(lookback_conflict="lookback"),
    )
    assert not alt.required and alt.route == "holding_account"


def test_threshold_boundaries():
    assert threshold_on(date(1997, 12, 31))[0] == D("3500.00")
    assert threshold_on(date(1998, 1, 1))[0] == D("5000.00")
    assert threshold_on(date(2025, 1, 1))[0] == D("5000.00")  # GAP D2.2 default: printed amount
    statute = BenefitSettings(statutory_thresholds=((date(2024, 1, 1), D("7000.00")),))
    assert threshold_on(date(2023, 12, 31), statute)[0] == D("5000.00")
    assert threshold_on(date(2024, 1, 1), statute)[0] == D("7000.00")


def test_mandatory_distribution_starts_2005_03_28_10_6_b_ix():
    before = cash_out_decision(
        vested_value=D(2000),
        distribution_date=date(2005, 3, 27),
        birth_date=born(40, date(2005, 3, 27)),
        normal_retirement_age=65,
    )
    on = cash_out_decision(
        vested_value=D(2000),
        distribution_date=date(2005, 3, 28),
        birth_date=born(40, date(2005, 3, 28)),
        normal_retirement_age=65,
    )
    assert (before.mandatory_distribution, before.automatic_rollover) == (False, False)
    assert (on.mandatory_distribution, on.automatic_rollover) == (True, True)


def test_age_62_governs_when_nra_is_lower_gap_d2_14():
    b = date(1945, 7, 1)  # 61 on 2006-06-30, 62 on 2007-07-01
    d = cash_out_decision(
        vested_value=D(2000), distribution_date=date(2007, 6, 30), birth_date=b, normal_retirement_age=60
    )
    assert d.mandatory_distribution and d.automatic_rollover
    d = cash_out_decision(
        vested_value=D(2000), distribution_date=date(2007, 7, 1), birth_date=b, normal_retirement_age=60
    )
    assert not d.mandatory_distribution and d.route == "pay_directly"


def test_small_mandatory_rolled_over_when_policy_says_so_gap_d2_8():
    d = cash_out_decision(
        vested_value=D("780.00"),
        distribution_date=DIST,
        birth_date=born(38),
        normal_retirement_age=65,
        settings=BenefitSettings(small_mandatory_paid_directly=False),
    )
    assert d.automatic_rollover and d.route == "automatic_rollover"


def test_automatic_rollover_is_never_in_shares_gap_d2_11():
    d = cash_out_decision(
        vested_value=D(2000),
        distribution_date=DIST,
        birth_date=born(40),
        normal_retirement_age=65,
        elects_shares=True,
    )
    assert d.automatic_rollover and d.form == "cash"


def test_bad_election_rejected():
    with pytest.raises(ValueError):
        cash_out_decision(
            vested_value=D(1),
            distribution_date=DIST,
            birth_date=born(40),
            normal_retirement_age=65,
            election="annuity",
        )


def test_ira_provider_checklist_10_6_b():
    ok, missing, _ = ira_provider_conditions({k: True for k in IRA_CONDITIONS}, maintained_by_employer=True)
    assert ok and missing == ()
    ok, missing, _ = ira_provider_conditions({"i_exclusive_benefit": True}, maintained_by_employer=True)
    assert not ok and "iii_c_no_sales_commission" in missing
    assert ira_provider_conditions({}, maintained_by_employer=False)[0]


def test_every_decision_has_a_trace_with_section():
    d = cash_out_decision(
        vested_value=D(2750), distribution_date=DIST, birth_date=born(44), normal_retirement_age=65
    )
    assert d.trace.steps and all("§10.6" in s.section for s in d.trace.steps)


def test_statute_following_threshold_from_parameters_gap_d2_2():
    from benefits.engine.plans.carver_esop.settings import statute_following_settings

    s = statute_following_settings()
    assert threshold_on(date(2023, 12, 31), s)[0] == D("5000.00")
    assert threshold_on(date(2024, 1, 1), s)[0] == D("7000.00")
    d = cash_out_decision(
        vested_value=D("6500"),
        distribution_date=date(2024, 6, 1),
        birth_date=date(1980, 1, 1),
        normal_retirement_age=65,
        settings=s,
    )
    assert d.required and d.automatic_rollover
