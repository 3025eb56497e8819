"""`plan_data.statement` on the command line (issue 5): the Fairport ESOP statement (F §8.6) as data.

The CLI's statement must be `statement.statement` on the same inputs, with the §9.1 vested percent of
the service rules at the period end.
"""

import copy
import io
import json
from datetime import date
from decimal import Decimal
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from benefits.engine.__main__ import main
from benefits.engine.money import money_str, percent_str
from benefits.engine.plans.fairport_esop.statement import KINDS, LedgerEntry, statement

ROOT = Path(__file__).resolve().parents[4]
EXAMPLE = ROOT / "examples" / "fairport-esop.json"


def cli(request: dict) -> dict:
    out = io.StringIO()
    assert main(["calculate", "-"], stdin=io.StringIO(json.dumps(request)), stdout=out) == 0
    return json.loads(out.getvalue())


def example() -> dict:
    return json.loads(EXAMPLE.read_text())


def with_statement(stmt: dict) -> dict:
    req = example()
    req["participants"][0]["plan_data"]["statement"] = stmt
    return req


STMT = {
    "start": "2012-01-01",
    "end": "2012-12-31",
    "opening_shares": "900.0000",
    "opening_cash": "400.00",
    "opening_share_value": "10.00",
    "closing_share_value": "11.80",
    "entries": [
        {"date": "2012-06-30", "kind": "dividend", "cash": "90.00"},
        {"date": "2012-12-31", "kind": "allocation", "shares": "150.0000"},
        {"date": "2012-12-31", "kind": "earnings", "cash": "120.00"},
        {"date": "2012-12-31", "kind": "forfeiture", "shares": "-0.5000", "cash": "-3.00"},
        {"date": "2013-02-01", "kind": "allocation", "shares": "99"},
    ],
}


def _value(line: dict) -> Decimal:
    return Decimal(line["value"])


def test_cli_statement_equals_the_python_function():
    r = cli(with_statement(STMT))["results"][0]
    # The CLI must use the core's percent on the period end, 2012-12-31: ask the engine for it there.
    req = with_statement(STMT)
    req["as_of"] = "2012-12-31"
    del req["participants"][0]["plan_data"]["statement"]
    pct = Decimal(cli(req)["results"][0]["vesting"]["vested_percent"])
    py = statement(
        period_start=date(2012, 1, 1),
        period_end=date(2012, 12, 31),
        opening_shares=Decimal("900.0000"),
        opening_cash=Decimal("400.00"),
        opening_share_value=Decimal("10.00"),
        closing_share_value=Decimal("11.80"),
        entries=[
            LedgerEntry(
                date.fromisoformat(e["date"]),
                e["kind"],
                shares=Decimal(e.get("shares", "0")),
                cash=Decimal(e.get("cash", "0")),
            )
            for e in STMT["entries"]
        ],
        vested_percent=pct,
    )
    s = r["statement"]
    assert s["opening"] == {"shares": "900.0000", "cash": "400.00", "value": money_str(py.opening.value)}
    assert s["closing"]["value"] == money_str(py.closing.value)
    assert Decimal(s["closing"]["shares"]) == py.closing.shares == Decimal("1049.5")
    assert s["stock_value_change"] == money_str(py.stock_value_change)
    assert set(s["movements"]) == set(py.movements)
    for k, line in py.movements.items():
        assert s["movements"][k]["value"] == money_str(line.value)
        assert Decimal(s["movements"][k]["shares"]) == line.shares
    assert s["vested_percent"] == r["traces"]["statement"][0]["result"] == percent_str(pct) == "60"
    assert s["vested_balance"] == money_str(py.vested_balance)
    # Hand check: opening 900 × 10 + 400 = 9,400; closing 1,049.5 × 11.80 + 607 = 12,991.10 (F §8.6).
    assert s["opening"]["value"] == "9400.00" and s["closing"]["value"] == "12991.10"


def test_vested_percent_is_the_one_at_the_period_end():
    r = cli(with_statement(STMT))["results"][0]
    req = with_statement(STMT)
    req["as_of"] = "2012-12-31"
    at_end = cli(req)["results"][0]
    assert r["statement"]["vested_percent"] == at_end["vesting"]["vested_percent"]
    assert (
        r["vesting"]["vested_percent"] != at_end["vesting"]["vested_percent"]
    )  # the example's as_of differs


def test_opening_plus_movements_is_closing_to_the_cent():
    s = cli(with_statement(STMT))["results"][0]["statement"]
    moved = sum(_value(m) for m in s["movements"].values()) + Decimal(s["stock_value_change"])
    assert _value(s["opening"]) + moved == _value(s["closing"])


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(KINDS),
            st.decimals(min_value=-500, max_value=500, places=4),
            st.decimals(min_value=-500, max_value=500, places=2),
        ),
        max_size=6,
    ),
    st.decimals(min_value=1, max_value=100, places=2),
)
def test_property_reconciles(items, price):
    stmt = dict(STMT, closing_share_value=str(price))
    stmt["entries"] = [
        {"date": "2012-07-01", "kind": k, "shares": str(sh), "cash": str(c)} for k, sh, c in items
    ]
    s = cli(with_statement(stmt))["results"][0]["statement"]
    moved = sum(_value(m) for m in s["movements"].values()) + Decimal(s["stock_value_change"])
    assert _value(s["opening"]) + moved == _value(s["closing"])


def test_bad_kind_date_amount_give_pointers_and_others_still_compute():
    for i, key, bad in ((3, "kind", "bonus"), (1, "date", "31/12/2012"), (2, "cash", "ten")):
        stmt = copy.deepcopy(STMT)
        stmt["entries"][i][key] = bad
        res = cli(with_statement(stmt))["results"]
        assert res[0]["error"]["field"] == f"/participants/0/plan_data/statement/entries/{i}/{key}"
        assert all("error" not in r for r in res[1:])
    stmt = copy.deepcopy(STMT)
    del stmt["opening_shares"]
    err = cli(with_statement(stmt))["results"][0]["error"]
    assert err["field"] == "/participants/0/plan_data/statement/opening_shares"


def test_participant_without_statement_has_no_statement_key():
    res = cli(example())["results"]
    assert "statement" in res[0]
    assert all("statement" not in r and "statement" not in r["traces"] for r in res[1:])


def test_example_statement_closes_on_the_account():
    r = cli(example())["results"][0]
    assert r["statement"]["closing"]["value"] == r["account"]["balance"]
    assert r["statement"]["vested_balance"] == r["account"]["vested_balance"]
