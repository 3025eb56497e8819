"""Issue 24: once the 2027 §417(e)(3) table is loaded, a start in a later year not yet loaded stands on
the 2027 table (the latest), and says so, as a 2027 start stood on the 2026 table before."""

from __future__ import annotations

from tests.engine.mortality.test_loaded_tables import PARTICIPANT, _quaker, _spec


def test_a_2028_start_stands_on_the_loaded_2027_table():
    later = dict(PARTICIPANT, commencement_dates=["2028-04-01"])
    import tests.engine.mortality.test_loaded_tables as base

    saved, base.PARTICIPANT = base.PARTICIPANT, later
    try:
        r = _quaker({"mortality_417e_tables": _spec()})
    finally:
        base.PARTICIPANT = saved
    # nothing is blocked (the segment rates' absence only falls back to the plan's rate)
    assert "error" not in r and not any(m["blocks"] for m in r.get("missing", [])), r.get("missing")
    (est,) = r["estimates"]
    mortality = est["relative_value_basis"]["mortality"]
    assert "IRS 2027 §417(e)(3) applicable mortality table as loaded" in mortality
    assert "the 2027 table stands in: the 2028 table is not loaded" in mortality
    assert "IRS 2027 §417(e)(3) applicable mortality table as loaded" in str(
        r["traces"]["estimates[0].forms.life"]
    )


def test_the_quaker_grid_called_directly_prices_on_the_loaded_table():
    # The modeler's grid (plan.grid) is an engine entry point of its own: it takes the loaded tables
    # from its assumptions as the contract does, so a 2027 row is priced on the 2027 table.
    from datetime import date

    from benefits.engine.plans.quaker_cash_balance.grid import price_grid
    from benefits.engine.request import parse_request

    request = {
        "plan": "quaker-cash-balance",
        "as_of": "2026-06-30",
        "assumptions": {
            "treasury_10y_november": {str(y): "4.00" for y in range(2000, 2026)},
            "applicable_interest_rate_default": "5.00",
        },
        "participants": [PARTICIPANT],
    }
    parsed = parse_request(request)
    person = parsed.participants[0]
    assumptions = dict(parsed.assumptions)
    (stand_in, *_) = price_grid(person, date(2026, 6, 30), assumptions, start=date(2027, 4, 1))
    (loaded, *_) = price_grid(
        person, date(2026, 6, 30), assumptions | {"mortality_417e_tables": _spec()}, start=date(2027, 4, 1)
    )
    contract = _quaker({"mortality_417e_tables": _spec()})["estimates"][0]["forms"]["life"]["monthly"]
    assert str(loaded.monthly["life"]) == contract  # the grid and the contract agree on the loaded table
    assert loaded.monthly["life"] < stand_in.monthly["life"]
