"""Without traces (``options.traces: false``, issue 29, item 5) a Carver 401(k) result is the traced
result less its ``traces``, key for key and digit for digit: over random participants (balances by
source, withdrawals and loans lent out, loans, deferrals by year including none, signed zero and
amounts above the limits, employer contributions, payroll detail, a bad value now and then) and the
benefit settings that change accounts, loans, hardships and the match. The untraced path takes the
usual Plan Year straight to its row and skips the trace steps of vesting, the loan base and the
hardship sources."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine.request import calculate_request

SOURCES = (
    "before_tax",
    "matching_pre2002",
    "matching_2002",
    "rollover",
    "discretionary",
    "nonelective",
    "special",
)
SETTINGS = (
    "safe_harbor_2002_adopted",
    "nonelective_on_schedule",
    "loan_base_nonelective_vested",
    "hardship_includes_nonelective",
    "hardship_excludes_safe_harbor",
    "hardship_before_tax_capped_by_net_value",
    "withdrawal_nonelective_vested_only",
    "cash_out_counts_rollover",
)

cents = st.integers(0, 8_000_000).map(lambda c: f"{c // 100}.{c % 100:02d}")
amount = st.one_of(cents, st.sampled_from(["0", "-0", "0.00", "-0.00", "30000.005", "1e3", "12.3456"]))
odd = st.sampled_from(["abc", "-5.00", None, True, 12])
BAD = (("balances", "before_tax"), ("deferrals", "2020"), ("loans", "outstanding_balance"))


@st.composite
def participants(draw, i, last):
    birth = draw(st.integers(1945, 1975))
    hire = draw(st.integers(max(1975, birth + 18), last - 1))
    years = range(hire, last + 1)
    p = {
        "id": f"P{i}",
        "birth_date": f"{birth}-0{draw(st.integers(1, 9))}-15",
        "hire_date": f"{hire}-03-01",
        "marital_status": draw(st.sampled_from(["single", "married"])),
        "compensation": {str(y): draw(cents) for y in years if draw(st.booleans()) or y == hire},
    }
    if draw(st.booleans()):
        p["termination_date"] = f"{draw(st.integers(hire + 1, last))}-01-31"
    pd: dict = {"balances": draw(st.dictionaries(st.sampled_from(SOURCES), amount, max_size=7))}
    pd["deferrals"] = draw(st.dictionaries(st.sampled_from([str(y) for y in range(1995, 2027)]), amount))
    if draw(st.booleans()):
        pd["withdrawn"] = draw(st.dictionaries(st.sampled_from(SOURCES), cents, max_size=2))
        pd["loaned_out"] = draw(st.dictionaries(st.sampled_from(SOURCES), cents, max_size=2))
    if draw(st.booleans()):
        pd["loans"] = {"outstanding_balance": draw(amount), "highest_balance_last_12_months": draw(cents)}
    if draw(st.integers(0, 4)) == 0:
        pd["loan_approved_not_disbursed"] = draw(cents)
    if draw(st.integers(0, 3)) == 0:
        pd["before_tax_contributions"] = draw(cents)
        pd["prior_hardship_before_tax"] = draw(cents)
    if draw(st.integers(0, 3)) == 0:
        y = str(draw(st.sampled_from(list(years))))
        pd["employer_contributions"] = {
            y: {"nonelective": draw(st.booleans()), "discretionary_percent": str(draw(st.integers(0, 16)))}
        }
    if draw(st.integers(0, 3)) == 0:
        y = draw(st.sampled_from(list(years)))
        pd["payroll"] = {str(y): [{"start": f"{y}-0{m}-01", "compensation": draw(cents)} for m in (1, 4, 7)]}
    if draw(st.integers(0, 3)) == 0:
        pd["in_pay_status"] = True
    if draw(st.integers(0, 9)) == 0:  # a bad value: the same error either way
        key, field = draw(st.sampled_from(BAD))
        pd[key] = {field: draw(odd)}
    p["plan_data"] = pd
    return p


@st.composite
def requests(draw):
    last = draw(st.sampled_from([2026, 2015, 2001]))
    return {
        "plan": "carver-401k",
        "as_of": f"{last}-11-21",
        "settings": {k: draw(st.booleans()) for k in SETTINGS if draw(st.booleans())},
        "participants": [draw(participants(i, last)) for i in range(3)],
    }


@settings(max_examples=150, deadline=None)
@given(requests())
def test_untraced_results_are_the_traced_results_less_their_traces(request):
    traced = calculate_request(request)
    untraced = calculate_request(request | {"options": {"traces": False}})
    for r in traced["results"]:
        r.pop("traces", None)
    assert json.dumps(untraced, default=str) == json.dumps(traced, default=str)
