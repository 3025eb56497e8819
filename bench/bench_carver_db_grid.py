"""Carver DB modeler grid: every month from the earliest commencement date to age 70, every form.

    .venv/bin/python bench/bench_carver_db_grid.py

The one-pass grid (``price_grid``) beside its baseline in the same run: the scalar path it is
tested against (``price_grid_reference``: the §415 limit looked up afresh and every form traced for
each date). Medians of 3, wall and CPU time (bench/timing.py). Target (issue 17): ≤ 50 ms in-process.
Then a contract result per participant (``calculate``), as a census rate.

Every call carries the market data a participant's modeler request carries on the demo (bench/market.py):
``calculate`` then computes each estimate's §417(e) relative values (without it they are reported
missing). The grid lines say what the grid prices: its monthly amounts by form (Table A's factors).
"""

from __future__ import annotations

import sys
import time
from datetime import date
from decimal import Decimal
from pathlib import Path
from types import MappingProxyType

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from market import market_data  # noqa: E402
from timing import load_average, median_of  # noqa: E402

from benefits.engine.plans import get_plan  # noqa: E402
from benefits.engine.plans.carver_db.grid import price_grid_reference  # noqa: E402
from benefits.engine.types import Participant  # noqa: E402

carver_db = get_plan("carver-db")

AS_OF = date(2026, 11, 21)
MARKET = market_data(AS_OF)


def participant(birth: date, married: bool = True) -> Participant:
    pay = [41000, 42500, 44000, 45500, 47000, 48800, 50600, 52400, 54300, 56200]
    return Participant(
        id="bench",
        birth_date=birth,
        hire_date=date(1988, 2, 15),
        hours=MappingProxyType({y: 2080 for y in range(1988, 2027)}),
        compensation=MappingProxyType({1991 + i: Decimal(v) for i, v in enumerate(pay)}),
        marital_status="married" if married else "single",
        spouse_birth_date=date(birth.year + 2, 1, 1) if married else None,
        commencement_dates=(date(2031, 5, 1), date(2036, 5, 1)),
        plan_data=MappingProxyType({"social_security_amount": "15000"}),
    )


def line(label: str, wall: float, cpu: float, note: str = "") -> None:
    print(f"  {label:<44} wall {wall * 1000:7.1f} ms   CPU {cpu * 1000:7.1f} ms  {note}")


def main() -> None:
    print(f"Carver DB grid ({load_average()}; medians of 3)")
    p = participant(date(1971, 4, 10))  # 55 in 2026: the full 181-month grid lies ahead
    c = carver_db.core_result(p, AS_OF)
    grid = carver_db.grid.price(p, AS_OF, MARKET, c)
    assert grid == price_grid_reference(p, AS_OF, c)
    cells = sum(len(r.monthly) for r in grid.rows)
    print(f"  grid: {len(grid.rows)} commencement dates × {len(grid.forms)} forms = {cells} monthly amounts")
    fast = median_of(lambda: carver_db.grid.price(p, AS_OF, MARKET, c))
    ref = median_of(lambda: price_grid_reference(p, AS_OF, c))
    line("baseline: scalar grid (price_grid_reference)", *ref)
    line("one-pass grid (price_grid), core given", *fast, f"target ≤ 50 ms; {ref[1] / fast[1]:.1f}× less CPU")
    line(
        "one-pass grid, service/vesting core computed",
        *median_of(lambda: carver_db.grid.price(p, AS_OF, MARKET)),
    )
    line(
        "calculate (2 estimates, relative values, traces)",
        *median_of(lambda: carver_db.calculate(p, AS_OF, MARKET)),
    )
    n = 500
    people = [participant(date(1950 + i % 25, 1 + i % 12, 1 + i % 28), married=i % 2 == 0) for i in range(n)]

    def census() -> None:
        for q in people:
            carver_db.calculate(q, AS_OF, MARKET)

    wall, cpu = median_of(census)
    print(
        f"  calculate (market data, traces) over {n} participants: {n / wall:,.0f}/s wall, {n / cpu:,.0f}/s per core (CPU)"
    )


if __name__ == "__main__":
    t = time.perf_counter()
    main()
    print(f"  ({time.perf_counter() - t:.0f} s)")
