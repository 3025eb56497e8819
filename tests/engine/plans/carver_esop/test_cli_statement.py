"""`plan_data.statement` on the command line (issue 5): the Carver ESOP statement, on the Fairport ESOP
ledger (as the web's statements do). The vesting rules are unknown (SPEC GAP D2.1): the vested percent
is `vested_account_value` over the account it was given for, two places."""

import copy
import io
import json
from datetime import date
from decimal import Decimal
from pathlib import Path

from benefits.engine.__main__ import main
from benefits.engine.money import money_str
from benefits.engine.plans.fairport_esop.statement import LedgerEntry, statement

ROOT = Path(__file__).resolve().parents[4]
EXAMPLE = ROOT / "examples" / "carver-esop.json"

STMT = {
    "start": "2005-07-01",
    "end": "2006-06-30",
    "opening_shares": "180",
    "opening_cash": "100.00",
    "opening_share_value": "13.00",
    "closing_share_value": "14.00",
    "entries": [
        {"date": "2005-12-31", "kind": "allocation", "shares": "10"},
        {"date": "2006-06-30", "kind": "earnings", "cash": "20.00"},
    ],
}


def cli(request: dict) -> dict:
    out = io.StringIO()
    assert main(["calculate", "-"], stdin=io.StringIO(json.dumps(request)), stdout=out) == 0
    return json.loads(out.getvalue())


def with_statement(stmt: dict, **pd) -> dict:
    req = json.loads(EXAMPLE.read_text())
    req["participants"][0]["plan_data"]["statement"] = stmt
    req["participants"][0]["plan_data"].update(pd)
    return req


def test_cli_statement_equals_the_python_function():
    r = cli(with_statement(STMT))["results"][0]
    # Account on as_of: 190 × 14.00 + 120.00 = 2,780.00; vested 2,750.00 → 98.92% (two places).
    py = statement(
        period_start=date(2005, 7, 1),
        period_end=date(2006, 6, 30),
        opening_shares=Decimal("180"),
        opening_cash=Decimal("100.00"),
        opening_share_value=Decimal("13.00"),
        closing_share_value=Decimal("14.00"),
        entries=[
            LedgerEntry(date(2005, 12, 31), "allocation", shares=Decimal(10)),
            LedgerEntry(date(2006, 6, 30), "earnings", cash=Decimal("20.00")),
        ],
        vested_percent=Decimal("98.92"),
    )
    s = r["statement"]
    assert s["vested_percent"] == "98.92"
    assert s["opening"]["value"] == money_str(py.opening.value) == "2440.00"  # 180 × 13 + 100
    assert s["closing"]["value"] == money_str(py.closing.value) == "2780.00"
    assert s["movements"]["allocation"]["value"] == money_str(py.movements["allocation"].value) == "140.00"
    assert s["stock_value_change"] == money_str(py.stock_value_change) == "180.00"  # 180 × (14 − 13)
    # 2,780.00 × 98.92% = 2,749.976 → 2,749.98.
    assert s["vested_balance"] == money_str(py.vested_balance) == "2749.98"
    assert r["traces"]["statement"][0]["result"] == "98.92"


def test_without_the_account_inputs_the_closing_value_is_the_basis():
    req = with_statement(STMT)
    for k in ("shares", "cash", "share_value"):
        del req["participants"][0]["plan_data"][k]
    s = cli(req)["results"][0]["statement"]
    assert s["vested_percent"] == "98.92"  # 2,750 / 2,780 again: the statement closes on that account


def test_opening_plus_movements_is_closing_to_the_cent():
    s = cli(with_statement(STMT))["results"][0]["statement"]
    moved = sum(Decimal(m["value"]) for m in s["movements"].values()) + Decimal(s["stock_value_change"])
    assert Decimal(s["opening"]["value"]) + moved == Decimal(s["closing"]["value"])


def test_bad_kind_gives_the_pointer_and_others_still_compute():
    stmt = copy.deepcopy(STMT)
    stmt["entries"][1]["kind"] = "bonus"
    res = cli(with_statement(stmt))["results"]
    assert res[0]["error"]["field"] == "/participants/0/plan_data/statement/entries/1/kind"
    assert all("error" not in r for r in res[1:])


def test_vested_value_above_the_account_is_an_error():
    err = cli(with_statement(STMT, vested_account_value="3000.00"))["results"][0]["error"]
    assert err["field"] == "/participants/0/plan_data/vested_account_value"


def test_participant_without_statement_has_no_statement_key():
    res = cli(with_statement(STMT))["results"]
    assert "statement" in res[0]
    assert all("statement" not in r and "statement" not in r["traces"] for r in res[1:])
