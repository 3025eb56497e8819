"""plan_outputs for the Carver ESOP (engine-cli.md): the §10.6 decision from contract inputs."""

from datetime import date
from types import MappingProxyType, SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benefits.engine.plans.carver_esop.cash_out import cash_out_decision
from benefits.engine.plans.carver_esop.contract import plan_outputs
from benefits.engine.types import Participant

CORE = SimpleNamespace(settings={})


def person(pd, birth=date(1962, 1, 15), **kw):
    return Participant(
        id="c", birth_date=birth, hire_date=date(2000, 1, 1), plan_data=MappingProxyType(pd), **kw
    )


def test_e9_c2_contract_keys():
    pd = {"vested_account_value": "2750.00", "normal_retirement_age": 65, "distribution_date": "2006-07-01"}
    out = plan_outputs(person(pd), date(2006, 7, 1), {}, CORE)
    c = out["cash_out"]
    assert (c["required"], c["threshold"], c["mandatory_distribution"], c["automatic_rollover"]) == (
        True,
        "5000.00",
        True,
        True,
    )
    assert out["account"]["vested_balance"] == "2750.00"
    assert out["traces"]["cash_out"]


def test_e9_c3_election_and_account_balance():
    pd = {
        "vested_account_value": "4990.00",
        "normal_retirement_age": 65,
        "distribution_election": "direct_rollover",
        "shares": "499",
        "cash": "0",
        "share_value": "10",
    }
    out = plan_outputs(person(pd), date(2006, 7, 1), {}, CORE)
    assert out["cash_out"]["route"] == "direct_rollover" and out["cash_out"]["automatic_rollover"] is False
    assert out["account"]["balance"] == "4990.00"


def test_distribution_date_defaults_to_commencement_then_as_of():
    pd = {"vested_account_value": "900", "normal_retirement_age": 65}
    out = plan_outputs(person(pd, commencement_dates=(date(1997, 6, 1),)), date(2006, 7, 1), {}, CORE)
    assert out["cash_out"]["threshold"] == "3500.00"
    out = plan_outputs(person(pd), date(2006, 7, 1), {}, CORE)
    assert out["cash_out"]["distribution_date"] == "2006-07-01"


def test_required_normal_retirement_age_names_the_field():
    # Without plan_data's age and without the service core's setting there is no NRA to test against.
    with pytest.raises(ValueError) as err:
        plan_outputs(person({"vested_account_value": "100"}), date(2006, 7, 1), {}, CORE)
    assert err.value.field == "/plan_data/normal_retirement_age"


def test_missing_vested_value_blocks_only_its_figures():
    # Issue 24 item 2: the account value stays; the vested balance and the §10.6 test wait.
    pd = {"normal_retirement_age": 65, "shares": "499", "cash": "0", "share_value": "10"}
    out = plan_outputs(person(pd), date(2006, 7, 1), {}, CORE)
    assert out["account"] == {"balance": "4990.00"} and "cash_out" not in out
    (m,) = out["missing"]
    assert m["field"] == "/plan_data/vested_account_value"
    assert m["blocks"] == ["/account/vested_balance", "/cash_out"]


@given(
    st.decimals(min_value=0, max_value=20000, places=2),
    st.dates(min_value=date(1995, 1, 1), max_value=date(2030, 12, 31)),
    st.integers(20, 80),
    st.sampled_from([None, "pay_directly", "direct_rollover"]),
)
def test_decision_invariants(value, when, age, election):
    d = cash_out_decision(
        vested_value=value,
        distribution_date=when,
        birth_date=date(when.year - age, 1, 1),
        normal_retirement_age=65,
        election=election,
    )
    assert d.required == (value <= d.threshold)
    if d.automatic_rollover:
        # only with no election, a Mandatory Distribution over $1,000 (default policy)
        assert election is None and d.mandatory_distribution and value > 1000
    if d.mandatory_distribution:
        assert d.required and when >= date(2005, 3, 28)
