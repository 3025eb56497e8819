"""plan_outputs: the contract keys for carver-401k (engine-cli.md), with the real service core."""

from datetime import date
from types import MappingProxyType

import pytest

from benefits.engine.core import ParticipantError
from benefits.engine.plans.carver_401k import calculate
from benefits.engine.types import Participant


def _p(**kw):
    base = dict(id="C", birth_date=date(1968, 2, 20), hire_date=date(1998, 3, 2), marital_status="married")
    base.update(kw)
    for k in ("plan_data", "compensation"):
        if k in base:
            base[k] = MappingProxyType(base[k])
    return Participant(**base)


EX3 = {
    "before_tax": "21450.00",
    "matching_pre2002": "6300.00",
    "matching_2002": "1240.00",
    "discretionary": "2000.00",
    "nonelective": "1100.00",
}


def test_example3_account_through_the_engine():
    # 1998-03-02 → 2003-01-31 = 1,797 days → 4 years → 80% (§1.48, §4.1(c)).
    r = calculate(_p(plan_data={"balances": EX3}), date(2003, 1, 31), {})
    assert r["account"]["balance"] == "32090.00"
    assert r["account"]["vested_balance"] == "30210.00"
    assert r["account"]["by_source"]["matching_pre2002"] == {
        "balance": "6300.00",
        "vested_percent": "80",
        "vested_balance": "5040.00",
    }
    assert r["account"]["by_source"]["before_tax"]["vested_percent"] == "100"
    assert r["traces"]["account"][0]["section"]


def test_example3_full_vesting_on_2003_02_28():
    r = calculate(_p(plan_data={"balances": EX3}), date(2003, 2, 28), {})
    assert r["account"]["vested_balance"] == "32090.00"


def test_example4_terminated_cash_out_and_window():
    r = calculate(_p(termination_date=date(2003, 1, 31), plan_data={"balances": EX3}), date(2003, 3, 1), {})
    assert r["cash_out"] == {
        "required": False,
        "threshold": "5000.00",
        "mandatory_distribution": False,
        "automatic_rollover": False,
    }
    assert r["distribution"]["lump_sum_last_valuation_date"] == "2004-02-27"
    assert r["distribution"]["normal_form"] == "js50"


def test_example7_loan_and_hardship_keys():
    bal = {
        "before_tax": "38000.00",
        "rollover": "6000.00",
        "matching_pre2002": "9000.00",
        "matching_2002": "3500.00",
        "discretionary": "2500.00",
        "nonelective": "1000.00",
    }
    p = _p(
        hire_date=date(1999, 6, 1),
        plan_data={
            "balances": bal,
            "loans": {"outstanding_balance": "0", "highest_balance_last_12_months": "14200"},
            "before_tax_contributions": "30000",
        },
    )
    r = calculate(p, date(2003, 9, 10), {})  # 4 years → 80%
    assert r["loan"]["maximum_new_loan"] == "28750.00"
    # hardship: 30,000 + 6,000 + 7,200 + 2,000 (conservative: no 2002 match, no Nonelective)
    assert r["hardship"]["maximum_available"] == "45200.00"


def test_example1_contributions_by_year_with_payroll_detail():
    periods = [
        {
            "start": date.fromordinal(date(2002, 1, 7).toordinal() + 14 * k).isoformat(),
            "compensation": "2000.00",
            "deferral": "120.00" if k < 13 else "60.00",
        }
        for k in range(26)
    ]
    p = _p(
        hire_date=date(1996, 9, 3),
        birth_date=date(1970, 5, 12),
        compensation={2001: "50000.00", 2002: "52000.00"},
        plan_data={
            "balances": {"before_tax": "1000"},
            "deferrals": {"2001": "3000.00", "2002": "2340.00"},
            "payroll": {"2002": periods},
            "employer_contributions": {"2001": {"nonelective": True}},
        },
    )
    r = calculate(p, date(2002, 12, 31), {})
    assert r["contributions"]["2002"]["matching"] == "1820.00"
    assert r["contributions"]["2002"]["matching_2002"] == "1820.00"
    assert r["contributions"]["2001"]["matching_pre2002"] == "1500.00"
    assert r["contributions"]["2001"]["nonelective"] == "1000.00"
    assert "contributions.2002" in r["traces"]


def test_estimates_priced_from_quotes():
    p = _p(
        termination_date=date(2003, 1, 31),
        commencement_dates=(date(2033, 3, 1),),
        plan_data={"balances": EX3},
    )
    r = calculate(p, date(2003, 3, 1), {"annuity_quotes": {"js50": "6.10", "life": "6.50"}})
    (e,) = r["estimates"]
    assert e["commencement_date"] == "2033-03-01"
    # at NRD the scheduled accounts are fully vested (§4.1(b)): 32,090 ÷ 1,000 × 6.10 = 195.749
    # the survivor of the 50% Joint and Survivor Annuity gets half: 195.75 × 50% = 97.875 → 97.88 (§7.1(a)(v))
    assert e["forms"]["js50"] == {"monthly": "195.75", "survivor_monthly": "97.88"}
    assert e["forms"]["life"] == {"monthly": "208.59"}
    assert e["forms"]["lump_sum"] == {"lump_sum": "32090.00"}
    # no quote and no §417(e)(3) rates for the 2033 look-back month: no promise, and the gap is named
    assert "js75" not in e["forms"]
    assert r["missing"][0]["field"] == "/assumptions/segment_rates/2032-11"
    assert e["annuity_purchase"]["quoted"] == ["js50", "life"]


def test_bad_balance_is_a_participant_error():
    with pytest.raises(ParticipantError) as e:
        calculate(_p(plan_data={"balances": {"before_tax": "abc"}}), date(2003, 1, 31), {})
    assert e.value.field == "/plan_data/balances/before_tax"
    with pytest.raises(ParticipantError):
        calculate(_p(plan_data={"balances": {"after_tax": "1"}}), date(2003, 1, 31), {})


def test_active_participant_estimate_before_nrd_offers_lump_sum_only():
    # Modelled as leaving the day before commencement: a cash lump sum is open (§7.6(c)); no annuity
    # before ERD/NRD (§7.6(a)); C has no ERD at 2010 (age 42).
    p = _p(commencement_dates=(date(2010, 6, 1),), plan_data={"balances": EX3})
    r = calculate(p, date(2003, 1, 31), {"annuity_quotes": {"js50": "6.10"}})
    assert r["estimates"][0]["forms"] == {"lump_sum": {"lump_sum": "30210.00"}}
    assert "distribution" not in r and r["cash_out"]["required"] is False
