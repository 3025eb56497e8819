"""Golden tests E6, E7, E8 (SPEC Part C), recomputed from F §10.1, §10.2, §10.6, §10.7 and §409(o)."""

from datetime import date
from decimal import Decimal as D

import pytest

from benefits.engine.plans.fairport_esop.distribution import (
    distribution_timing,
    max_installment_years_409o,
    payment_form,
    put_installments,
    put_windows,
    right_of_first_refusal,
    share_installments,
    small_balance_route,
)
from benefits.engine.plans.fairport_esop.settings import BenefitSettings


def test_e6a_sam_timing():
    t = distribution_timing(
        birth_date=date(1967, 2, 20),
        termination_date=date(2014, 8, 15),
        termination_reason="quit",
        vested_balance=D(38000),
        participation_start_year=2007,
        election_delivered=date(2015, 1, 15),
    )
    assert t.normal_retirement_date == date(2032, 3, 1)
    assert t.no_payment_without_consent_before == date(2032, 3, 1)
    assert t.latest_default_start == date(2033, 3, 1)  # 2032-12-31 + 60 days
    assert t.earliest_elected_date == date(2015, 2, 14)
    assert t.outer_limit_if_elected == date(2020, 12, 31)  # §409(o)(1)(A)(ii)
    assert t.required_beginning_date == date(2038, 4, 1)  # 70½ on 2037-08-20
    assert t.default_payment_date == date(2032, 3, 1)  # GAP D1.16: at the NRD
    assert t.small_balance.consent_needed


def test_e6a_default_payment_at_10_2_2_date_when_not_nrd():
    t = distribution_timing(
        birth_date=date(1967, 2, 20),
        termination_date=date(2014, 8, 15),
        termination_reason="quit",
        vested_balance=D(38000),
        participation_start_year=2007,
        settings=BenefitSettings(deferred_payment_at_nrd=False),
    )
    assert t.default_payment_date == date(2033, 3, 1)


def test_e6b_tara_early_retirement():
    t = distribution_timing(
        birth_date=date(1956, 9, 12),
        termination_date=date(2013, 12, 31),
        termination_reason="early_retirement",
        vested_balance=D(84000),
        participation_start_year=2007,
    )
    assert t.normal_retirement_date == date(2021, 10, 1)
    assert t.no_payment_without_consent_before == date(2021, 10, 1)
    assert t.outer_limit_if_elected == date(2019, 12, 31)
    assert t.latest_default_start == date(2022, 3, 1)


def test_separation_at_normal_retirement_one_year_limit_10_2_1():
    t = distribution_timing(
        birth_date=date(1950, 5, 1),
        termination_date=date(2015, 6, 30),
        termination_reason="normal_retirement",
        vested_balance=D(9000),
        participation_start_year=2007,
    )
    assert t.outer_limit_if_elected == date(2016, 12, 31)
    assert t.latest_default_start == date(2018, 3, 1)  # 10th anniversary of 2007 → close of 2017 + 60


def test_e6c_409o_installment_period():
    assert max_installment_years_409o(D(480000), D(500000), D(100000))[0] == 5
    assert max_installment_years_409o(D(800000), D(500000), D(100000))[0] == 8
    assert max_installment_years_409o(D(1500000), D(500000), D(100000))[0] == 10
    assert share_installments(D(40000), 5) == [D(8000)] * 5


@pytest.mark.parametrize(
    "vested,route,pay_by",
    [
        ("850.00", "lump_sum_cash", date(2015, 3, 1)),
        ("1000.00", "lump_sum_cash", date(2015, 3, 1)),
        ("1000.01", "automatic_rollover", None),
        ("3200.00", "automatic_rollover", None),
        ("5000.00", "automatic_rollover", None),
        ("5000.01", "consent_required", None),
        ("38000.00", "consent_required", None),
    ],
)
def test_e8_small_balance_routes_10_1(vested, route, pay_by):
    r = small_balance_route(D(vested), 2014)
    assert r.route == route
    assert r.pay_by == pay_by
    assert r.consent_needed == (route == "consent_required")


def test_no_consent_payment_is_all_cash_10_1():
    pf = payment_form(vested_shares=D("300.5"), vested_cash=D("100"), share_value=D(10), without_consent=True)
    assert (pf.whole_shares, pf.cash) == (0, D("3105.00"))


def test_all_in_stock_on_request_10_6():
    pf = payment_form(
        vested_shares=D(100), vested_cash=D(55), share_value=D(10), without_consent=False, all_in_stock=True
    )
    assert (pf.whole_shares, pf.cash) == (105, D("5.00"))  # 105.5 shares: half a share in cash


def test_e7_put_windows_10_6():
    p = put_windows(distributed_on=date(2015, 4, 10), fmv_communicated_on=date(2016, 2, 1))
    assert p.applies
    assert p.window1 == (date(2015, 4, 10), date(2015, 6, 9))
    assert p.window2 == (date(2016, 2, 1), date(2016, 4, 1))


@pytest.mark.parametrize(
    "kw", [{"tradable_on_established_market": True}, {"diversified_portion": True}, {"bank_exception": True}]
)
def test_no_put_when_excluded_10_6(kw):
    assert not put_windows(distributed_on=date(2015, 4, 10), **kw).applies


def test_e7_put_equal_principal_installments():
    p = put_installments(shares=D(2400), fair_market_value=D("14.50"), exercised_on=date(2015, 5, 20))
    assert p.price == D("34800.00")
    rows = [(r.due, r.principal, r.interest, r.total, r.balance_after) for r in p.installments]
    assert rows == [
        (date(2015, 6, 19), D("6960.00"), D(0), D("6960.00"), D("27840.00")),
        (date(2016, 6, 19), D("6960.00"), D("1670.40"), D("8630.40"), D("20880.00")),
        (date(2017, 6, 19), D("6960.00"), D("1252.80"), D("8212.80"), D("13920.00")),
        (date(2018, 6, 19), D("6960.00"), D("835.20"), D("7795.20"), D("6960.00")),
        (date(2019, 6, 19), D("6960.00"), D("417.60"), D("7377.60"), D("0.00")),
    ]
    assert p.total_interest == D("4176.00")


def test_e7_put_level_payment_reading_gap_d1_17():
    p = put_installments(
        shares=D(2400),
        fair_market_value=D("14.50"),
        exercised_on=date(2015, 5, 20),
        settings=BenefitSettings(put_installment_method="level_payment"),
    )
    assert p.installments[0].total == D("7793.77")
    assert p.installments[-1].balance_after == 0


def test_first_installment_must_be_within_30_days():
    with pytest.raises(ValueError):
        put_installments(
            shares=D(1),
            fair_market_value=D(1),
            exercised_on=date(2015, 5, 20),
            first_payment_on=date(2015, 6, 20),
        )


def test_right_of_first_refusal_10_7():
    r = right_of_first_refusal(
        fair_market_value=D("14.50"), third_party_offer=D("15.25"), offer_delivered=date(2016, 3, 1)
    )
    assert (r.applies, r.price, r.accept_by) == (True, D("15.25"), date(2016, 3, 15))
    assert not right_of_first_refusal(
        fair_market_value=D(1),
        third_party_offer=D(1),
        offer_delivered=date(2016, 3, 1),
        traded_on_market=True,
    ).applies


def test_spousal_consent_off_by_default_gap_d1_19():
    kw = dict(
        birth_date=date(1967, 2, 20),
        termination_date=date(2014, 8, 15),
        termination_reason="quit",
        vested_balance=D(38000),
        participation_start_year=2007,
        married=True,
    )
    assert not distribution_timing(**kw).spousal_consent_required
    on = BenefitSettings(spousal_consent_for_distribution=True)
    assert distribution_timing(**kw, settings=on).spousal_consent_required
    assert not distribution_timing(**{**kw, "married": False}, settings=on).spousal_consent_required
