"""plan_outputs: the contract keys for the Fairport ESOP (engine-cli.md), from F §8.3-§8.4, §9.1, §6.4, §10.1."""

from datetime import date
from decimal import Decimal as D
from types import MappingProxyType, SimpleNamespace

import pytest

from benefits.engine.missing import MissingInput
from benefits.engine.plans.fairport_esop.contract import plan_outputs
from benefits.engine.plans.fairport_esop.settings import BenefitSettings
from benefits.engine.types import Participant


def core(pct, settings=None):
    return SimpleNamespace(vesting=SimpleNamespace(percent=D(pct)), settings=settings or {})


def person(plan_data, **kw):
    base = {"id": "p", "birth_date": date(1962, 3, 3), "hire_date": date(2007, 1, 1)}
    base.update(kw)
    return Participant(plan_data=MappingProxyType(plan_data), **base)


PAUL = {"shares": "900", "cash": "350.00", "share_value": "10.80"}


def test_account_balance_vested_and_sources_e4a():
    out = plan_outputs(person(PAUL), date(2011, 6, 30), {}, core(40))
    assert out["account"]["balance"] == "10070.00"
    assert out["account"]["vested_balance"] == "4028.00"
    assert out["account"]["by_source"] == {
        "stock_fund": {"balance": "9720.00", "vested_percent": "40", "vested_balance": "3888.00"},
        "investment_fund": {"balance": "350.00", "vested_percent": "40", "vested_balance": "140.00"},
    }
    assert out["traces"]["account"][0]["section"].startswith("Fairport ESOP")


def test_cash_out_after_termination_e4a_10_1():
    out = plan_outputs(person(PAUL, termination_date=date(2011, 4, 15)), date(2011, 9, 1), {}, core(40))
    assert out["cash_out"] == {
        "required": True,
        "threshold": "5000.00",
        "mandatory_distribution": True,
        "automatic_rollover": True,
        "route": "automatic_rollover",
    }


def test_cash_out_small_balance_pay_by_e8():
    pd = {"shares": "50", "cash": "350", "share_value": "10"}
    out = plan_outputs(person(pd, termination_date=date(2014, 8, 15)), date(2014, 12, 1), {}, core(100))
    assert out["cash_out"]["route"] == "lump_sum_cash"
    assert out["cash_out"]["pay_by"] == "2015-03-01"
    assert out["cash_out"]["automatic_rollover"] is False and out["cash_out"]["required"] is True


def test_cash_out_not_while_employed():
    out = plan_outputs(person(PAUL), date(2011, 6, 30), {}, core(40))
    assert out["cash_out"]["required"] is False


def test_cash_out_over_5000_needs_consent():
    out = plan_outputs(person(PAUL, termination_date=date(2011, 4, 15)), date(2011, 9, 1), {}, core(100))
    assert out["cash_out"]["required"] is False and out["cash_out"]["route"] == "consent_required"


def test_diversification_e5_keys():
    pd = {
        "shares": "6215",
        "cash": "30375",
        "share_value": "15",
        "years_of_participation": 16,
        "shares_allocated_since_inception": "8040",
        "shares_diversified": "1825",
    }
    out = plan_outputs(person(pd), date(2022, 6, 1), {}, core(100))
    assert out["diversification"]["eligible"] is True
    assert out["diversification"]["max_shares"] == "2195.0000"
    value = plan_outputs(
        person(pd),
        date(2022, 6, 1),
        {},
        core(100, {"benefits": BenefitSettings(diversification_year6_basis="value")}),
    )
    assert value["diversification"]["max_shares"] == "2295.0000"


def test_elected_dividends_source_is_fully_vested():
    pd = {**PAUL, "elected_dividends": "70.00"}
    out = plan_outputs(person(pd), date(2011, 6, 30), {}, core(40))
    assert out["account"]["by_source"]["elected_dividends"]["vested_percent"] == "100"
    assert out["account"]["vested_balance"] == "4070.00"  # 40% × 10,000 + 70


def test_missing_share_value_names_the_field():
    # Issue 24 item 2: absent (not malformed), so a missing input that blocks the account figures;
    # the plan's calculate keeps vesting and dates and lists it under ``missing``.
    with pytest.raises(MissingInput) as err:
        plan_outputs(person({"shares": "1"}), date(2011, 6, 30), {}, core(40))
    assert err.value.field == "/plan_data/share_value"


def test_through_the_plan_calculate():
    fairport = pytest.importorskip("benefits.engine.plans.fairport_esop")
    p = person(
        {
            "shares": "6215",
            "cash": "30375",
            "share_value": "15",
            "years_of_participation": 12,
            "shares_allocated_since_inception": "6050",
            "shares_diversified": "0",
        },
        hours=MappingProxyType({y: 2080 for y in range(2007, 2019)}),
    )
    out = fairport.calculate(p, date(2018, 2, 15), {})
    assert out["account"]["balance"] == "123600.00"
    # SPEC E5: QEP 2017-2022; on 2018-02-15 the 2017 and 2018 windows overlap and the election counts
    # toward 2017 (D1.12), whose window runs 2017-01-01 to 2018-03-31, carried out by 2018-06-29.
    assert out["diversification"] == {
        "eligible": True,
        "max_shares": "1512.5000",
        "qep_year": 1,
        "window_closes": "2018-03-31",
        "plan_year": 2017,
        "window_opens": "2017-01-01",
        "complete_by": "2018-06-29",
        "percent": "25",
        "last_year": False,
        "qualified_election_period": {
            "first_plan_year": 2017,
            "last_plan_year": 2022,
            "age_55_on": "2017-03-03",
            "tenth_year_of_participation": 2016,
        },
        "shares_allocated_since_inception": "6050.0000",
        "shares_already_elected": "0.0000",
    }
