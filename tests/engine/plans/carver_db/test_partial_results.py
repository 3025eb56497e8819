"""Carver DB partial results (issue 12 item 5): each optional input missing blocks only its figures."""

from __future__ import annotations

from copy import deepcopy

from benefits.engine.request import calculate_request

PARTICIPANT = {
    "id": "T49",
    "birth_date": "1977-03-01",
    "hire_date": "1996-01-02",
    "termination_date": "2000-12-31",
    "hours": {str(y): 2080 for y in range(1996, 2001)},
    "compensation": {str(y): "20000" for y in range(1996, 2001)},
    "commencement_dates": ["2001-03-01", "2044-03-01"],
    "plan_data": {"social_security_amount": "9800"},
}


def _run(assumptions: dict, participant: dict | None = None) -> dict:
    request = {
        "plan": "carver-db",
        "as_of": "2001-02-15",
        "assumptions": assumptions,
        "participants": [participant or PARTICIPANT],
    }
    (result,) = calculate_request(request)["results"]
    assert "error" not in result, result
    return result


def test_all_inputs_given():
    market = {
        "treasury_30y_monthly": {"2000-09": "5.83", "2043-12": "5"},
        "segment_rates": {"2043-12": ["5", "5", "5"]},
    }
    r = _run(market)
    assert "missing" not in r
    assert r["estimates"][0]["cash_out"]["required"] is True  # a 23-year-old's small benefit: cashed out


def test_missing_treasury_rate_blocks_only_the_2001_cash_out_test():
    r = _run({"treasury_30y_monthly": {"2043-12": "5"}, "segment_rates": {"2043-12": ["5", "5", "5"]}})
    assert r["missing"] == [
        {
            "field": "/assumptions/treasury_30y_monthly/2000-09",
            "message": "the 30-year Treasury rate for 2000-09 is needed and was not supplied",
            "blocks": ["/estimates/0/cash_out"],
        }
    ]
    assert r["vesting"]["vested_percent"] == "100" and r["accrued_benefit"]["monthly_at_nrd"]
    assert r["estimates"][1]["forms"]["life"]["monthly"]  # the NRD annuity is still priced


def test_missing_segment_rates_block_only_the_later_figures():
    r = _run({"treasury_30y_monthly": {"2000-09": "5.83"}})
    fields = {m["field"]: m["blocks"] for m in r["missing"]}
    # the 2044 cash-out test and relative values are both on the 2044 statutory basis (segment
    # rates); without the plan's Treasury rate of that month no fallback is possible either
    assert fields["/assumptions/segment_rates/2043-12"] == [
        "/estimates/1/relative_value_basis",
        "/estimates/1/cash_out",
    ]
    assert r["estimates"][0]["cash_out"]["required"] is True


def test_missing_social_security_amount_keeps_vesting_and_dates():
    p = deepcopy(PARTICIPANT)
    del p["plan_data"]["social_security_amount"]
    r = _run({"treasury_30y_monthly": {"2000-09": "5.83"}}, p)
    assert r["vesting"]["vested_percent"] == "100" and r["normal_retirement_date"] == "2042-03-01"
    (m,) = r["missing"]
    assert m["field"] == "/participants/0/plan_data/social_security_amount"
    assert set(m["blocks"]) == {"/accrued_benefit", "/earliest_commencement_date", "/estimates", "/cash_out"}
    assert "accrued_benefit" not in r
