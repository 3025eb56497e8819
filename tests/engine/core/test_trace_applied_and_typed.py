"""Issue 14 item 2: a trace marks the steps that applied (a branch not taken is recorded with
``applied: false``), and every value in it is typed (money, a factor with its places, a percent…),
for every plan. Expected values are worked from the plans' own sections."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal as D
from pathlib import Path

import pytest

from benefits.engine.minimum_present_value import statutory_basis
from benefits.engine.plans.carver_esop.cash_out import ira_provider_conditions
from benefits.engine.plans.fairport_esop.distribution import put_windows, right_of_first_refusal
from benefits.engine.plans.quaker_cash_balance.lump_sum import floor_basis, lump_sum
from benefits.engine.request import calculate_request
from benefits.engine.trace import FACTOR, MONEY, PERCENT, Trace, TraceBuilder, factor, money

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def _example(name: str, pid: str, **changes) -> dict:
    request = json.loads((EXAMPLES / name).read_text())
    (participant,) = [p for p in request["participants"] if p["id"] == pid]
    participant.update(changes)
    (result,) = calculate_request(dict(request, participants=[participant]))["results"]
    assert "error" not in result, result.get("error")
    return result


def _by_rule(steps: list[dict], start: str) -> list[dict]:
    return [s for s in steps if s["rule"].startswith(start)]


# ------------------------------------------------------------------------------------- the model


def test_a_skipped_branch_is_kept_and_marked_and_the_json_only_gains_fields():
    tb = TraceBuilder()
    tb.step("Amount (A)", section="§3.1(A)", result=money(D("19650.000")))
    tb.step("Amount (B)", section="§3.1(B)", result=money(D("5650")), applied=False, months=226)
    steps = tb.build().as_list()
    assert [s["applied"] for s in steps] == [True, False]
    # The keys outside tools read are unchanged; the types are beside them.
    assert steps[1]["result"] == "5650" and steps[1]["inputs"] == {"months": 226}
    assert steps[1]["result_type"] == {"kind": "money", "places": 2}
    assert steps[1]["input_types"] == {"months": {"kind": "count"}}


def test_values_are_typed_by_their_maker_and_returned_bare():
    tb = TraceBuilder()
    got = tb.step("factor", result=factor(D("0.97"), 2), amount=money(D("1.005")), on=date(2027, 4, 1))
    assert got == D("0.97")  # the wrapper is for the trace; the calculation gets the number
    (step,) = tb.build().steps
    assert step.result == D("0.97") and step.result_kind == FACTOR(2)
    assert dict(step.input_kinds) == {"amount": MONEY, "on": step.input_kinds[1][1]}
    assert step.input_kinds[1][1] is not None and step.input_kinds[1][1].kind == "date"


def test_a_whole_branch_can_be_marked_as_not_applied():
    t = Trace().add("a", result=money(D(1))).add("b", result=money(D(2))).not_applied()
    assert [s.applied for s in t.steps] == [False, False]
    assert t.applied() == ()


# ------------------------------------------------------------------------------------- Carver DB


def test_carver_db_at_normal_retirement_has_no_early_reduction_step():
    # Example 1 (NRD 2023-05-01) starting on the NRD: §3.2 pays the Accrued Benefit, §4.4(B)'s Early
    # Commencement Adjustment Factor has no part in it.
    r = _example("carver-db.json", "CDB-0001", commencement_dates=["2023-05-01"])
    life = r["traces"]["estimates[0].forms.life"]
    assert not [s for s in life if "Early Commencement" in s["rule"] and s.get("applied", True)]
    assert not [s for s in life if "before Normal Retirement Date" in s["rule"] and s.get("applied", True)]
    (at_nrd,) = _by_rule(life, "Starting at Normal Retirement Date")
    assert at_nrd["applied"] is True and at_nrd["result_type"]["kind"] == "money"


def test_carver_db_early_start_has_the_reduction_with_its_two_place_factor():
    r = _example("carver-db.json", "CDB-0002")  # starts 2027-02-01, 60 months before the NRD
    life = r["traces"]["estimates[0].forms.life"]
    (early,) = _by_rule(life, "Starting 60 months before Normal Retirement Date")
    assert early["applied"] is True
    assert early["input_types"]["factor"] == {"kind": "factor", "places": 2}  # Table A is stated to .01


def test_carver_db_minimum_that_did_not_bind_is_marked():
    # Example 1: (A) = 50% × 54,300 − 50% × 15,000 = 19,650 (§3.1(A)(1), ratio 1); (B) = $25 × 226
    # months = 5,650 (§3.1(B)). The greatest is (A): (B) did not make the benefit.
    steps = _example("carver-db.json", "CDB-0001")["traces"]["accrued_benefit.monthly_at_nrd"]
    (a,) = _by_rule(steps, "Amount (A)")
    (b,) = _by_rule(steps, "Amount (B)")
    assert (a["result"], a["applied"]) == ("19650.000", True)
    assert (b["result"], b["applied"]) == ("5650", False)
    (th,) = _by_rule(steps, "No top-heavy minimum")
    assert th["applied"] is False  # §6.2(B) did not apply to him
    final = _by_rule(steps, "Accrued Benefit: the greatest")[0]
    assert final["applied"] is True and final["result_type"] == {"kind": "money", "places": 2}


def test_carver_db_415_limit_that_did_not_bind_is_marked():
    # CDB-0002's benefit is far below the §415(b) limit: the limit's steps are kept, not applied.
    r = _example("carver-db.json", "CDB-0002")
    life = r["traces"]["estimates[0].forms.life"]
    (within,) = _by_rule(life, "The benefit is within the Code §415 limit")
    assert within["applied"] is False
    assert all(s["applied"] is False for s in _by_rule(life, "Limit: the lesser of the dollar limit"))


# ------------------------------------------------------------------------------------- Quaker


def test_quaker_grandfathered_minimum_that_does_not_bind_is_marked_not_applied():
    # §5.11(b): the floor (the 1999 benefit's value, about $87,000 here) is below the $90,000 balance,
    # so the lump sum is the balance and the floor's steps did not apply.
    sb = floor_basis(date(2024, 6, 1), {"segment_rates": {"2024-04": ["5.3", "5.4", "5.2"]}})
    ls = lump_sum(D("90000"), asd=date(2024, 6, 1), birth_date=date(1950, 1, 1), benefit_1999=D("500"),
                  benefit_1999_starts=date(2015, 1, 1), statutory=sb)  # fmt: skip
    assert ls.floor is not None and ls.floor < ls.amount == D("90000")
    floor_steps = [s for s in ls.trace.steps if s.rule.startswith("Grandfathered floor")]
    assert floor_steps and all(not s.applied for s in floor_steps)
    assert [s.rule for s in ls.trace.applied() if not s.inputs or s.inputs[0][0] != "parameter"] == [
        "Lump sum: the account balance as of the Annuity Starting Date",
        "Lump sum payable",
    ]


def test_quaker_grandfathered_minimum_that_binds_is_applied():
    market = {
        "applicable_interest_rate": {"2010-01": "4.60"},
        "segment_rates": {"2010-01": ["4.5", "6.2", "6.5"]},
    }
    sb = floor_basis(date(2010, 3, 1), market)
    ls = lump_sum(D("1000"), asd=date(2010, 3, 1), birth_date=date(1950, 1, 1), benefit_1999=D("500"),
                  benefit_1999_starts=date(2015, 1, 1), statutory=sb)  # fmt: skip
    assert ls.floor is not None and ls.amount == ls.floor > D("1000")
    (floor,) = [s for s in ls.trace.steps if s.rule.startswith("Grandfathered floor")]
    assert floor.applied and floor.result_kind == MONEY
    assert dict(floor.input_kinds)["annuity_factor"] == FACTOR(6)


# ------------------------------------------------------------------------------------- Carver 401(k)


def test_carver_401k_loan_limit_that_did_not_bind_is_marked():
    # §8.2: the lesser of 50% of the loan base (30,210 / 2 = 15,105) and $50,000 less the highest
    # balance (50,000): the $50,000 cap did not bind.
    steps = _example("carver-401k.json", "K-0001")["traces"]["loan"]
    (half,) = _by_rule(steps, "50% of the loan base")
    (cap,) = _by_rule(steps, "$50,000 less")
    assert (half["result"], half["applied"]) == ("15105.00", True)
    assert (cap["result"], cap["applied"]) == ("50000.00", False)
    (maximum,) = _by_rule(steps, "Maximum new loan")
    assert maximum["result_type"] == {"kind": "money", "places": 2}


def test_carver_401k_hardship_sources_that_are_not_available_are_marked():
    steps = _example("carver-401k.json", "K-0001")["traces"]["hardship"]
    (sh,) = _by_rule(steps, "Safe-harbor Matching Contributions from 2002 are not available")
    assert sh["applied"] is False


# ------------------------------------------------------------------------------------- the ESOPs


def test_fairport_esop_rights_that_do_not_arise_are_marked():
    rofr = right_of_first_refusal(
        fair_market_value=D("10"), third_party_offer=D("11"), offer_delivered=date(2026, 3, 2),
        traded_on_market=True,
    )  # fmt: skip
    assert [s.applied for s in rofr.trace.steps] == [False]
    windows = put_windows(distributed_on=date(2026, 3, 2), tradable_on_established_market=True)
    assert [s.applied for s in windows.trace.steps] == [False]


def test_fairport_esop_vested_balance_is_money_and_percent():
    steps = _example("fairport-esop.json", "F-0001")["traces"]
    vested = [
        s for k, v in steps.items() for s in v if s["rule"].startswith("Vested balance = vested percent")
    ]
    assert vested
    for s in vested:
        assert s["result_type"]["kind"] == "money"
        assert s["input_types"]["vested_percent"] == {"kind": "percent"}


def test_carver_esop_ira_conditions_that_do_not_apply_are_marked():
    ok, missing, trace = ira_provider_conditions({}, maintained_by_employer=False)
    assert ok and missing == () and [s.applied for s in trace.steps] == [False]
    ok, missing, trace = ira_provider_conditions({}, maintained_by_employer=True)
    assert not ok and [s.applied for s in trace.steps] == [True]


# ------------------------------------------------------------------------------------- typed values


def _numbers_without_a_type(step: dict) -> list[str]:
    def numeric(v: object) -> bool:
        if isinstance(v, bool) or v is None:
            return False
        if isinstance(v, float):
            return True
        if isinstance(v, str):
            try:
                D(v)
            except ArithmeticError:
                return False
            return "." in v  # a decimal string: money, a factor or a rate, which only its maker knows
        if isinstance(v, dict):
            return any(numeric(x) for x in v.values())
        if isinstance(v, list):
            return any(numeric(x) for x in v)
        return False

    bad = [
        k
        for k, v in (step.get("inputs") or {}).items()
        if numeric(v) and k not in (step.get("input_types") or {})
    ]
    if numeric(step.get("result")) and "result_type" not in step:
        bad.append("result")
    return bad


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.json")), ids=lambda p: p.stem)
def test_every_decimal_in_the_examples_traces_is_typed(path):
    for r in calculate_request(json.loads(path.read_text()))["results"]:
        for key, steps in (r.get("traces") or {}).items():
            for s in steps:
                assert not _numbers_without_a_type(s), (r["id"], key, s["rule"], _numbers_without_a_type(s))


def test_statutory_basis_words_are_text_not_a_guess():
    sb = statutory_basis(date(2024, 1, 1), {"segment_rates": {"2023-11": ["5.72", "5.94", "5.88"]}},
                         lookback_month="2023-11", period_start=date(2024, 1, 1))  # fmt: skip
    for s in sb.trace.steps:
        assert s.result_kind is not None, s.rule
    assert PERCENT.kind == "percent"


def test_a_step_listed_in_many_traces_gives_the_same_dictionary_each_time():
    # Each form of an estimate repeats the balance step: its dictionary is made once and copied.
    from benefits.engine.trace import Step

    step = Step("Account balance", "§4.5", (("vested_balance", money(D("10.00"))),), money(D("12.50")))
    first = step.as_dict()
    first["rule"] = "changed by a reader"
    again = step.as_dict()
    assert again == {
        "rule": "Account balance",
        "section": "§4.5",
        "inputs": {"vested_balance": "10.00"},
        "result": "12.50",
        "applied": True,
        "input_types": {"vested_balance": {"kind": "money", "places": 2}},
        "result_type": {"kind": "money", "places": 2},
    }
    assert again is not step.as_dict()
