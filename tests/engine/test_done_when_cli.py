"""Issue 12 "Done when", checked end to end on the command line's shipped examples.

- The CLI prices a 2001, a 2010 and a 2024 Carver DB cash-out (the §13.7(G) Value and its lump sum)
  on the basis the law prescribes for each date: the 30-year Treasury rate before 2008, the PPA 2006
  blend in 2010 (60% of each segment rate + 40% of the Treasury rate), the segment rates in 2024;
  the figures themselves are derived independently in tests/engine/plans/carver_db/
  test_cash_out_by_date.py — here the regime of each and the lump sum equal to the Value.
- The relative values of the priced annuities are on the same law's basis (Treas. Reg.
  §1.417(a)(3)-1(c)(2)(iv)).
- A participant missing a market rate keeps vesting and dates, with the blocked figures named.
"""

from __future__ import annotations

import json
import subprocess
import sys
from decimal import Decimal as D
from pathlib import Path

import pytest

from benefits.engine import ENGINE_VERSION
from benefits.engine.request import calculate_request

ROOT = Path(__file__).resolve().parents[2]
REGIME = {
    2001: "the 30-year Treasury rate for 2000-09, 5.83%",
    2010: "2010 transition segment rates",
    2024: "§417(e)(3) segment rates for 2023-09",
}


def _example(year: int) -> dict:
    return json.loads((ROOT / "examples" / f"carver-db-cash-out-{year}.json").read_text())


def test_the_command_line_runs_an_example_and_names_its_engine():
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "benefits.engine",
            "calculate",
            str(ROOT / "examples/carver-db-cash-out-2024.json"),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    assert json.loads(out.stdout)["engine_version"] == ENGINE_VERSION and "+" in ENGINE_VERSION


@pytest.mark.parametrize("year", [2001, 2010, 2024])
def test_each_cash_out_and_lump_sum_is_on_the_law_basis_for_its_date(year):
    small, large = calculate_request(_example(year))["results"]
    for r in (small, large):
        assert "missing" not in r and "error" not in r
        (est,) = r["estimates"]
        basis_step = r["traces"]["estimates[0].cash_out"][1]
        assert (
            basis_step["rule"].startswith("Minimum present value basis")
            and REGIME[year] in basis_step["rule"]
        )
    # the small Value is paid as a lump sum without consent; the lump sum is the Value
    co = small["estimates"][0]["cash_out"]
    assert co["required"] is True and D(co["value"]) <= D(co["threshold"])
    assert small["estimates"][0]["forms"] == {"lump_sum": {"lump_sum": co["value"]}}
    assert large["estimates"][0]["cash_out"]["required"] is False


@pytest.mark.parametrize(
    ("year", "interest"), [(2010, "4.4420% / 5.5580% / 5.7380%"), (2024, "5.95% / 6.17% / 6.05%")]
)
def test_the_relative_values_are_on_the_law_basis_too(year, interest):
    # 2010: .6 × (4.53, 6.39, 6.69) + .4 × 4.31 (November 2009) = 4.442 / 5.558 / 5.738
    _, large = calculate_request(_example(year))["results"]
    basis = large["estimates"][0]["relative_value_basis"]
    assert basis["reading"] == "law" and interest in basis["interest"]


@pytest.mark.parametrize(("year", "drop", "pointer"), [
    (2001, "treasury_30y_monthly", "/assumptions/treasury_30y_monthly/2000-09"),
    (2024, "segment_rates", "/assumptions/segment_rates/2023-09"),
])  # fmt: skip
def test_a_missing_market_rate_keeps_vesting_and_dates_and_names_the_blocked_figures(year, drop, pointer):
    request = _example(year)
    del request["assumptions"][drop]
    for r in calculate_request(request)["results"]:
        assert "error" not in r
        assert (
            r["vesting"]["vested_percent"] and r["normal_retirement_date"] and r["earliest_commencement_date"]
        )
        blocked = {m["field"]: m["blocks"] for m in r["missing"]}
        assert blocked[pointer] == ["/estimates/0/cash_out"]
        assert r["estimates"][0]["cash_out"]["value"] is None  # not computed, not guessed
