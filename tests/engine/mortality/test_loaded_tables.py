"""Issue 24: §417(e)(3) tables as calculation inputs (``assumptions.mortality_417e_tables``), the
shipped tables the defaults; the figures name the table and version used."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from benefits.engine.actuarial import life_annuity, plan_basis
from benefits.engine.dates import months_between
from benefits.engine.mortality import (
    TableInputError,
    TableNotAvailable,
    applicable_417e_table,
    get_table,
    latest_417e_table,
    loaded_417e_tables,
    parse_loaded_417e_tables,
)
from benefits.engine.request import calculate_request

SHIPPED_2026 = get_table("irs_417e_2026")


def _spec(year: int = 2027, factor: float = 0.9, version: str = "1") -> dict:
    """A table for ``year``: the shipped 2026 rates × ``factor`` (a stand-in for a published one)."""
    qx = {str(SHIPPED_2026.min_age + i): f"{min(1.0, q * factor):.6f}" for i, q in enumerate(SHIPPED_2026.qx)}
    return {str(year): {"source": "Notice 2026-27 (test copy)", "version": version, "qx": qx}}


def test_a_loaded_2027_table_answers_for_2027_and_names_its_version():
    tables = parse_loaded_417e_tables(_spec())
    with pytest.raises(TableNotAvailable, match="2027"):
        applicable_417e_table(date(2027, 3, 1))
    with loaded_417e_tables(tables):
        t = applicable_417e_table(date(2027, 3, 1))
        assert t is tables[2027] and "version 1" in t.name and "Notice 2026-27" in t.name
        assert t.q(65) == pytest.approx(SHIPPED_2026.q(65) * 0.9, abs=1e-6)
        assert latest_417e_table(2030) is t  # a later projection stands on the latest table loaded
        assert applicable_417e_table(date(2026, 3, 1)) is SHIPPED_2026  # other years: shipped
    # a loaded table replaces the shipped one of its year (the published 2025 table, say)
    with loaded_417e_tables(parse_loaded_417e_tables(_spec(2025, 1.0))):
        assert applicable_417e_table(date(2025, 6, 1)).key == "irs_417e_2025_loaded"


@pytest.mark.parametrize(
    ("raw", "pointer"),
    [
        ({"27": {}}, "/assumptions/mortality_417e_tables/27"),
        ({"2027": {"version": "1", "qx": {"65": "0.01"}}}, "/assumptions/mortality_417e_tables/2027/source"),
        ({"2027": {"source": "N", "qx": {"65": "x"}}}, "/assumptions/mortality_417e_tables/2027/qx/65"),
        ({"2027": {"source": "N", "qx": {"65": "1.5"}}}, "/assumptions/mortality_417e_tables/2027/qx/65"),
        (
            {"2027": {"source": "N", "qx": {"65": "0.01", "67": "0.02"}}},
            "/assumptions/mortality_417e_tables/2027/qx",
        ),
    ],
)
def test_a_malformed_table_names_the_value(raw, pointer):
    with pytest.raises(TableInputError) as err:
        parse_loaded_417e_tables(raw)
    assert err.value.field == pointer


PARTICIPANT = {
    "id": "Q27",
    "birth_date": "1962-03-15",
    "hire_date": "2001-01-08",
    "termination_date": "2026-05-29",
    "hours": {str(y): 2080 for y in range(2001, 2027)},
    "compensation": {str(y): "60000" for y in range(2001, 2027)},
    "commencement_dates": ["2027-04-01"],
}


def _quaker(extra: dict | None = None) -> dict:
    assumptions = {
        "treasury_10y_november": {str(y): "4.00" for y in range(2000, 2026)},
        "applicable_interest_rate_default": "5.00",
        **(extra or {}),
    }
    request = {"plan": "quaker-cash-balance", "as_of": "2026-06-30", "assumptions": assumptions}
    (r,) = calculate_request(request | {"participants": [PARTICIPANT]})["results"]
    return r


def test_a_2027_start_is_priced_on_the_loaded_table_and_says_which():
    # Without the 2027 table the 2026 table stands in (and the basis says so); loaded, the 2027 start
    # is priced on it: the balance buys balance ÷ (12 ä) a month (§1.2(g)), so the two monthly
    # amounts stand in the inverse ratio of the life annuity factors at the same age and rate.
    stand_in, loaded = _quaker(), _quaker({"mortality_417e_tables": _spec()})
    assert "error" not in loaded, loaded
    est0, est1 = stand_in["estimates"][0], loaded["estimates"][0]
    basis = str(loaded["traces"]["estimates[0].forms.life"])
    assert "IRS 2027 §417(e)(3) applicable mortality table as loaded (version 1, Notice 2026-27" in basis
    assert "IRS 2026 §417(e)(3)" not in basis
    assert "IRS 2026 §417(e)(3)" in str(stand_in["traces"]["estimates[0].forms.life"])
    assert "the 2026 table stands in" in est0["relative_value_basis"]["mortality"]
    age = months_between(date(1962, 3, 15), date(2027, 4, 1)) / 12.0
    ratio = life_annuity(plan_basis(SHIPPED_2026, 0.05), age) / life_annuity(
        plan_basis(parse_loaded_417e_tables(_spec())[2027], 0.05), age
    )
    m0, m1 = Decimal(est0["forms"]["life"]["monthly"]), Decimal(est1["forms"]["life"]["monthly"])
    assert m1 < m0 and abs(m1 - m0 * Decimal(repr(ratio))) <= Decimal("0.02")


def test_a_malformed_loaded_table_is_the_participants_error_with_the_pointer():
    bad = _spec()
    bad["2027"]["qx"]["70"] = "-0.1"
    r = _quaker({"mortality_417e_tables": bad})
    assert r["error"]["field"] == "/assumptions/mortality_417e_tables/2027/qx/70"
