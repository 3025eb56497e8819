"""`plan_data.statement` on the command line (issue 5): the 401(k) statement as data.

The CLI's statement must be `statement.account_statement` on the same inputs, with the §4.1(c)
percentage of the service rules at the period end.
"""

import copy
import io
import json
import subprocess
import sys
from datetime import date
from decimal import Decimal
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine.__main__ import main
from benefits.engine.money import money_str
from benefits.engine.plans.carver_401k.statement import Kind, Transaction, account_statement

ROOT = Path(__file__).resolve().parents[4]
EXAMPLE = ROOT / "examples" / "carver-401k.json"
MOVES = ("contributions", "earnings", "forfeitures", "distributions", "fees", "loan_activity")


def cli(request: dict) -> dict:
    out = io.StringIO()
    assert main(["calculate", "-"], stdin=io.StringIO(json.dumps(request)), stdout=out) == 0
    return json.loads(out.getvalue())


def request_with(stmt: dict) -> dict:
    req = json.loads(EXAMPLE.read_text())
    req["participants"][0]["plan_data"]["statement"] = stmt
    return req


STMT = {
    "start": "2002-01-01",
    "end": "2002-12-31",
    "opening": {"before_tax": "17650.00", "matching_pre2002": "6050.00", "nonelective": "1040.00"},
    "transactions": [
        {"date": "2002-06-28", "source": "before_tax", "kind": "contribution", "amount": "1560.00"},
        {"date": "2002-12-31", "source": "matching_2002", "kind": "contribution", "amount": "1240.00"},
        {"date": "2002-12-31", "source": "before_tax", "kind": "earnings", "amount": "-305.10"},
        {"date": "2002-03-01", "source": "matching_pre2002", "kind": "loan_issued", "amount": "1000.00"},
        {"date": "2002-09-01", "source": "matching_pre2002", "kind": "loan_repaid", "amount": "400.00"},
        {"date": "2002-12-31", "source": "before_tax", "kind": "fee", "amount": "25.00"},
        {"date": "2002-05-01", "source": "before_tax", "kind": "withdrawal", "amount": "300.00"},
        {"date": "2003-01-15", "source": "before_tax", "kind": "contribution", "amount": "99.00"},
    ],
    "loan_opening": "500.00",
    "withdrawn_before": {"matching_pre2002": "200.00"},
    "loaned_out_before": {"matching_pre2002": "500.00"},
}


def test_cli_statement_equals_the_python_function():
    got = cli(request_with(STMT))["results"][0]
    # Hired 1998-03-02: by 2002-12-31 the Period of Service is 1,766 days → 4 years → 80% (§1.48, §4.1(c)).
    py = account_statement(
        start=date(2002, 1, 1),
        end=date(2002, 12, 31),
        opening={k: Decimal(v) for k, v in STMT["opening"].items()},
        transactions=[
            Transaction(date.fromisoformat(t["date"]), t["source"], Kind(t["kind"]), Decimal(t["amount"]))
            for t in STMT["transactions"]
        ],
        scheduled_percent=Decimal(80),
        loan_opening=Decimal("500.00"),
        withdrawn_before={"matching_pre2002": Decimal("200.00")},
        loaned_out_before={"matching_pre2002": Decimal("500.00")},
    )
    s = got["statement"]
    signs = {"forfeitures": -1, "distributions": -1, "fees": -1}
    for line in py.lines:
        assert s["opening"][line.source] == money_str(line.opening)
        assert s["closing"][line.source] == money_str(line.closing)
        assert s["vested_balance"][line.source] == money_str(line.vested_balance)
        for m in MOVES:
            assert Decimal(s["movements"][m][line.source]) == signs.get(m, 1) * getattr(line, m)
    assert s["totals"]["closing"] == money_str(py.closing)
    assert s["totals"]["vested_balance"] == money_str(py.vested_balance)
    assert (
        s["loan"]
        == {"opening": "500.00", "closing": money_str(py.loan_closing)}
        == {
            "opening": "500.00",
            "closing": "1100.00",
        }
    )
    assert s["vested_percent"]["matching_pre2002"] == "80"
    assert got["traces"]["statement"][0]["result"] == "80"
    # Hand check, before-tax: 17,650 + 1,560 − 305.10 − 25 − 300 = 18,579.90 (the 2003 item is outside).
    assert s["closing"]["before_tax"] == "18579.90"
    assert s["movements"]["distributions"]["before_tax"] == "-300.00"


def test_opening_plus_movements_is_closing_to_the_cent():
    s = cli(request_with(STMT))["results"][0]["statement"]
    for source, opening in s["opening"].items():
        moved = sum(Decimal(s["movements"][m][source]) for m in MOVES)
        assert Decimal(opening) + moved == Decimal(s["closing"][source])
    total = Decimal(s["totals"]["opening"]) + sum(Decimal(s["totals"][m]) for m in MOVES)
    assert total == Decimal(s["totals"]["closing"])


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["before_tax", "matching_2002", "discretionary"]),
            st.sampled_from([k.value for k in Kind]),
            st.decimals(min_value=0, max_value=5000, places=2),
        ),
        max_size=8,
    )
)
def test_property_reconciles(items):
    stmt = {
        "start": "2002-01-01",
        "end": "2002-12-31",
        "opening": {"before_tax": "9000.00", "matching_2002": "8000.00", "discretionary": "7000.00"},
        "transactions": [
            {"date": "2002-07-01", "source": s, "kind": k, "amount": str(a)} for s, k, a in items
        ],
    }
    s = cli(request_with(stmt))["results"][0]["statement"]
    for source, opening in s["opening"].items():
        moved = sum(Decimal(s["movements"][m][source]) for m in MOVES)
        assert Decimal(opening) + moved == Decimal(s["closing"][source])


def test_bad_kind_gives_the_pointer_and_others_still_compute():
    stmt = copy.deepcopy(STMT)
    stmt["transactions"][3]["kind"] = "gift"
    res = cli(request_with(stmt))["results"]
    assert res[0]["error"]["field"] == "/participants/0/plan_data/statement/transactions/3/kind"
    assert all("error" not in r for r in res[1:])


def test_bad_date_and_amount_give_pointers():
    stmt = copy.deepcopy(STMT)
    stmt["transactions"][1]["date"] = "2002-13-01"
    err = cli(request_with(stmt))["results"][0]["error"]
    assert err["field"] == "/participants/0/plan_data/statement/transactions/1/date"
    stmt = copy.deepcopy(STMT)
    stmt["transactions"][0]["amount"] = "12,00"
    err = cli(request_with(stmt))["results"][0]["error"]
    assert err["field"] == "/participants/0/plan_data/statement/transactions/0/amount"
    stmt = copy.deepcopy(STMT)
    stmt["opening"]["bogus"] = "1.00"
    err = cli(request_with(stmt))["results"][0]["error"]
    assert err["field"] == "/participants/0/plan_data/statement/opening/bogus"


def test_participant_without_statement_has_no_statement_key():
    res = cli(request_with(STMT))["results"]
    assert "statement" in res[0]
    assert "statement" not in res[1] and "statement" not in res[1]["traces"]


def test_example_file_through_the_command_line():
    done = subprocess.run(
        [sys.executable, "-m", "benefits.engine", "calculate", str(EXAMPLE)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    s = json.loads(done.stdout)["results"][0]["statement"]
    # The example's 2002 statement closes on the balances of plan_data.balances (Example 3).
    assert s["totals"]["closing"] == "32090.00" and s["totals"]["vested_balance"] == "30210.00"


def test_vesting_percent_is_the_one_at_the_period_end():
    # 5 years of Period of Service on 2003-03-01 (§1.48): 100% on as_of 2003-03-31, 80% on 2002-12-31.
    req = request_with(STMT)
    req["as_of"] = "2003-03-31"
    r = cli(req)["results"][0]
    assert r["vesting"]["vested_percent"] == "100"
    assert r["statement"]["vested_percent"]["matching_pre2002"] == "80"
