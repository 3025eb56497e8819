"""The partial-result log (issue 12 item 5): a missing input blocks only the figures that need it."""

from __future__ import annotations

from datetime import date

import pytest

from benefits.engine.minimum_present_value import statutory_basis
from benefits.engine.missing import MissingInput, MissingLog, describe
from benefits.engine.mortality import applicable_417e_table
from benefits.engine.parameters import parameter


def test_a_missing_rate_is_logged_against_the_figures_it_blocks():
    log = MissingLog()
    value = log.attempt(
        ["/estimates/0/cash_out", "/estimates/0/relative_value_basis"],
        lambda: statutory_basis(date(2024, 3, 1), {}, lookback_month="2023-12"),
    )
    assert value is None
    assert log.as_json() == [
        {
            "field": "/assumptions/segment_rates/2023-12",
            "message": "the §417(e)(3) segment rates for 2023-12 are needed and were not supplied",
            "blocks": ["/estimates/0/cash_out", "/estimates/0/relative_value_basis"],
        }
    ]


def test_the_same_missing_input_is_listed_once_with_every_figure():
    log = MissingLog()
    for i in range(2):
        log.attempt(f"/estimates/{i}/cash_out", lambda: (_ for _ in ()).throw(MissingInput("/a/b", "b")))
    assert log.as_json() == [
        {"field": "/a/b", "message": "b", "blocks": ["/estimates/0/cash_out", "/estimates/1/cash_out"]}
    ]


def test_a_regulatory_value_the_engine_lacks_points_into_the_engine():
    log = MissingLog()
    log.attempt("/limits", lambda: parameter("irs_415b_dollar_limit").at(date(1982, 6, 30)))
    (entry,) = log.as_json()
    assert entry["field"] == "/engine/parameters/irs_415b_dollar_limit" and "1982-06-30" in entry["message"]
    # A §417(e)(3) table the engine lacks (plan years beginning before 1995: the PBGC basis).
    log = MissingLog()
    log.attempt("/cash_out", lambda: applicable_417e_table(date(1994, 6, 1)))
    assert log.as_json()[0]["field"] == "/engine/mortality/417e"
    # 2003–2007 (Rev. Rul. 2001-62) is no longer missing (issue 24): the plan's reading's table.
    log = MissingLog()
    log.attempt(
        "/cash_out",
        lambda: statutory_basis(
            date(2005, 3, 1), {"treasury_30y_monthly": {"2004-12": "5"}}, lookback_month="2004-12"
        ),
    )
    assert log.as_json() == []


def test_other_errors_are_not_swallowed():
    with pytest.raises(ZeroDivisionError):
        MissingLog().attempt("/x", lambda: 1 / 0)
    assert describe(ValueError("bad birth date")) is None


def test_a_plan_whose_figures_all_need_a_missing_input_keeps_vesting_and_dates():
    # Quaker: the balance needs the November 10-year Treasury yields (§4.4(c)); without them vesting
    # and the retirement dates are still computed and every benefit figure is named as blocked.
    from benefits.engine.request import calculate_request

    request = {
        "plan": "quaker-cash-balance",
        "as_of": "2012-06-30",
        "participants": [
            {
                "id": "Q1",
                "birth_date": "1960-05-01",
                "hire_date": "2001-03-01",
                "hours": {str(y): 2080 for y in range(2001, 2012)},
                "compensation": {str(y): "50000" for y in range(2001, 2012)},
            }
        ],
    }
    (r,) = calculate_request(request)["results"]
    assert "error" not in r, r
    assert r["vesting"]["vested_percent"] == "100" and r["normal_retirement_date"]
    (m,) = r["missing"]
    assert m["field"].startswith("/assumptions/treasury_10y_november/")
    assert "/account" in m["blocks"] and "/estimates" in m["blocks"]
