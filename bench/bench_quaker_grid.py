"""Quaker cash balance modeler grid: every month from the earliest commencement date to age 70,
every form, for one participant; plus the contract result and a census-style rate.

    .venv/bin/python bench/bench_quaker_grid.py

The one-pass grid (``price_grid``: the ledger once, every date's factors on the vectorized path)
beside its baseline in the same run, the scalar path it is tested against
(``price_grid_reference``: ``estimate`` with traces for each date). Medians of 3, wall and CPU time
(bench/timing.py), a different participant each run. Target (issue 17): ≤ 50 ms in-process.

Every call carries what a participant's modeler request carries on the demo: the plan's own series and
the §417(e)(3) market data (bench/market.py), so ``calculate`` computes the relative values.
"""

from __future__ import annotations

import sys
import time
from datetime import date
from decimal import Decimal
from pathlib import Path
from types import MappingProxyType as M

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from market import market_data  # noqa: E402
from timing import load_average, median_of  # noqa: E402

from benefits.engine.plans import get_plan  # noqa: E402
from benefits.engine.plans.quaker_cash_balance.grid import price_grid_reference  # noqa: E402
from benefits.engine.types import Participant  # noqa: E402

PLAN = get_plan("quaker-cash-balance")
calculate, price_grid = PLAN.calculate, PLAN.grid.price

AS_OF = date(2026, 11, 21)
ASSUMPTIONS = {
    # Hypothetical market data (the SPEC's A1/A2 style), one value a year / a flat AIR.
    "treasury_10y_november": {str(y): "4.50" for y in range(1999, 2026)},
    "applicable_interest_rate_default": "5.00",
}
# What a participant's modeler request carries besides (the §417(e)(3) rates; bench/market.py).
REQUEST = market_data(AS_OF) | ASSUMPTIONS


def participant(i: int, married: bool = True) -> Participant:
    dob = date(1978 + i % 10, 1 + i % 12, 1 + i % 27)  # aged 29-48 on the as-of date
    hire = date(2006, 3, 5)
    return Participant(
        id=f"P-{i:05d}",
        birth_date=dob,
        hire_date=hire,
        hours=M({y: 2080 for y in range(2006, 2027)}),
        compensation=M({y: Decimal(52000 + 1500 * (y - 2006)) for y in range(2006, 2027)}),
        marital_status="married" if married else "single",
        spouse_birth_date=date(dob.year + 2, 6, 15) if married else None,
        commencement_dates=(date(2040, 1, 1), date(2045, 7, 1)),
    )


def line(label: str, wall: float, cpu: float, note: str = "") -> None:
    print(f"  {label:<50} wall {wall * 1000:7.1f} ms   CPU {cpu * 1000:7.1f} ms  {note}")


def main() -> None:
    print(f"Quaker grid ({load_average()}; medians of 3)")
    p0 = participant(9)  # the youngest: the longest grid
    c0 = PLAN.core_result(p0, AS_OF)
    t = time.process_time()
    rows = price_grid(p0, AS_OF, REQUEST, c0)
    cold = time.process_time() - t
    assert rows == price_grid_reference(p0, AS_OF, REQUEST, c0)
    forms = max(len(r.monthly) for r in rows)
    print(
        f"  grid: {len(rows)} months × up to {forms} forms ({rows[0].commencement_date} → {rows[-1].commencement_date})"
    )
    print(f"  one-pass grid, first call in the process (tables load): CPU {cold * 1000:.1f} ms")
    # A different participant each run, so no factor cache simply replays the previous grid.
    people = [(participant(i), PLAN.core_result(participant(i), AS_OF)) for i in range(1, 7)]
    runs = iter(people)

    def each(grid) -> None:
        q, c = next(runs)
        grid(q, AS_OF, REQUEST, c)

    ref = median_of(lambda: each(price_grid_reference))
    fast = median_of(lambda: each(price_grid))
    line("baseline: scalar grid (price_grid_reference)", *ref)
    line(
        "one-pass grid (price_grid), new participant",
        *fast,
        f"target ≤ 50 ms; {ref[1] / fast[1]:.1f}× less CPU",
    )
    line("one-pass grid, same participant again", *median_of(lambda: price_grid(p0, AS_OF, REQUEST, c0)))
    line("one-pass grid incl. service/vesting core", *median_of(lambda: price_grid(p0, AS_OF, REQUEST)))
    n = 300
    batch = [participant(1000 + i, married=i % 2 == 0) for i in range(n)]

    def census() -> None:
        for q in batch:
            calculate(q, AS_OF, REQUEST)

    wall, cpu = median_of(census)
    print(
        f"  calculate (contract result, 2 estimates, the modeler's market data) over {n}: {n / wall:,.0f}/s wall, {n / cpu:,.0f}/s per core (CPU)"
    )


if __name__ == "__main__":
    main()
