"""The plan protocol (benefits/engine/plans/base.py): every registered plan satisfies it, and the
capabilities the web app asks for answer with the plan's own rules."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from benefits.engine.plans import PLANS, Plan, UnknownPlan, get_plan, plan_keys


@pytest.mark.parametrize("key", plan_keys())
def test_every_plan_satisfies_the_protocol(key):
    plan = get_plan(key)
    assert isinstance(plan, Plan)
    assert plan.key == key and plan.title
    assert set(plan.settings_classes()) == {"service_vesting", "benefits"}
    assert plan.claim_rules is not None and plan.claim_rules.plan_key == key


def test_unknown_plan_is_refused():
    with pytest.raises(UnknownPlan):
        get_plan("no-such-plan")


def test_capabilities_are_declared_not_guessed():
    has = {key: {c for c in ("loans", "hardship", "grid", "source_accounts", "share_accounts", "ledger",
                              "contributions") if getattr(plan, c) is not None}
           for key, plan in PLANS.items()}  # fmt: skip
    assert has == {
        "carver-db": {"grid"},
        "quaker-cash-balance": {"grid", "ledger"},
        "carver-401k": {"loans", "hardship", "source_accounts", "contributions"},
        "fairport-esop": {"share_accounts"},
        "carver-esop": {"share_accounts"},
    }


def test_401k_loan_program_follows_article_viii():
    loans = get_plan("carver-401k").loans
    assert loans.minimum == Decimal("1000")  # §8.2: at least $1,000
    assert loans.rate("7.50")[0] == Decimal("8.50")  # §8.3: prime + 1 point, nearest 1/4%
    assert loans.rate("7.13")[0] == Decimal("8.25")  # 8.13 rounds to 8.25
    # §8.5(a): payroll deduction while employed (biweekly), monthly in cash otherwise; the first
    # deduction no later than three weeks after the loan is processed.
    assert loans.payments_per_year(employed=True) == 26
    assert loans.payments_per_year(employed=False) == 12
    assert loans.first_due(date(2026, 3, 2)) == date(2026, 3, 23)
    loans.check_term(60)  # §8.3: at most 5 years
    with pytest.raises(ValueError, match="§8.3"):
        loans.check_term(61)
    loans.check_term(180, principal_residence=True)  # 15 years to buy the principal residence
    with pytest.raises(ValueError, match="§8.3"):
        loans.check_term(181, principal_residence=True)


def test_401k_loan_terms_are_the_plans_own_words_and_sections():
    # The loan note and the claim checks print these; the web app names no section of its own.
    terms = get_plan("carver-401k").loans.terms
    assert (terms.maximum_section, terms.minimum_section, terms.one_at_a_time_section) == (
        "§8.2",
        "§8.2",
        "§8.4(f)",
    )
    assert (terms.rate_section, terms.term_section, terms.repayment_section) == ("§8.3", "§8.3", "§8.5(a)")
    assert terms.default_section == "§8.6" and "§8.6" in terms.default_words
    # §8.2: 50% of the vested balance, at most $50,000 less the highest balance of the last 12 months.
    assert "50%" in terms.maximum_words and "$50,000" in terms.maximum_words
    # §8.3: prime plus one point, to the nearest quarter point; §8.5(a): within three weeks.
    assert "one percentage point" in terms.rate_words and "three weeks" in terms.first_due_words


def test_claim_rules_cite_the_plans_sections():
    from benefits.engine.plans import PLANS

    k401 = PLANS["carver-401k"].claim_rules
    assert k401.section("after_separation").startswith("§7.5")  # distribution on Termination of Service
    assert k401.section("withdrawal") == "§7.3" and k401.section("hardship_representation") == "§7.4(c)(ii)"
    quaker = PLANS["quaker-cash-balance"].claim_rules
    assert quaker.section("after_separation").startswith("§5.11(a)(iv)")  # a lump sum after separation
    # A rule the plan does not cite reads generically.
    assert PLANS["carver-db"].claim_rules.section("withdrawal") == "the plan's rules"


def test_401k_hardship_reasons_are_the_five_of_section_7_4_b():
    hardship = get_plan("carver-401k").hardship
    assert [r.section for r in hardship.reasons] == [
        "§7.4(b)(i)", "§7.4(b)(ii)", "§7.4(b)(iii)", "§7.4(b)(iv)", "§7.4(b)(v)",
    ]  # fmt: skip
    assert hardship.reason("medical").label == "Medical care"
    assert all(r.evidence for r in hardship.reasons)
    with pytest.raises(ValueError):
        hardship.reason("vacation")


def test_claim_rules_carry_the_plans_notice_and_filing_periods():
    assert get_plan("carver-401k").claim_rules.payment_notice_days == 10  # §7.3, §7.4(a)
    assert get_plan("fairport-esop").claim_rules.filing_lead_days == 30  # F §11.1
    assert get_plan("carver-db").claim_rules.clock is None  # GAP-15: the regulation's periods


def test_the_registry_lists_the_five_plans_in_the_contracts_order():
    assert plan_keys() == ("carver-db", "quaker-cash-balance", "carver-401k", "fairport-esop", "carver-esop")
    assert list(PLANS) == list(plan_keys()) and len(PLANS) == 5
    assert all(PLANS[key].key == key for key in PLANS)
    assert "no-such-plan" not in PLANS
    with pytest.raises(KeyError):
        PLANS["no-such-plan"] = get_plan("carver-db")


def test_a_plan_swapped_in_is_used_until_it_is_removed(monkeypatch):
    import dataclasses

    original = get_plan("carver-esop")
    stub = dataclasses.replace(original, title="stub")
    monkeypatch.setitem(PLANS, "carver-esop", stub)
    assert get_plan("carver-esop") is stub
    del PLANS["carver-esop"]  # back to the package's own plan
    assert get_plan("carver-esop") is original


def test_a_plan_is_loaded_only_when_asked_for():
    # The command line calculates one plan: it must not pay for importing the other four.
    import json
    import subprocess
    import sys

    code = (
        "import json, sys\n"
        "from benefits.engine.plans import get_plan\n"
        "get_plan('carver-db')\n"
        "print(json.dumps(sorted({m.split('.')[3] for m in sys.modules\n"
        "      if m.startswith('benefits.engine.plans.') and m.split('.')[3] != 'base'})))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == ["carver_db"]
