"""Quaker cash balance modeler grid: every month from the earliest commencement date to age 70,
every form, for one participant; plus the contract result and a census-style rate.

    .venv/bin/python bench/bench_quaker_grid.py

Cold = first call in the process (tables load, factor caches empty); warm = the median of repeated
calls for a *different* participant each time (birth dates shifted so the age-keyed factor cache
does not simply replay). The target is well under a second for one participant's grid.
"""

from __future__ import annotations

import statistics
import sys
import time
from datetime import date
from decimal import Decimal
from pathlib import Path
from types import MappingProxyType as M

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benefits.engine.plans import get_plan  # noqa: E402
from benefits.engine.types import Participant  # noqa: E402

PLAN = get_plan("quaker-cash-balance")
calculate, price_grid = PLAN.calculate, PLAN.grid.price

AS_OF = date(2026, 11, 21)
ASSUMPTIONS = {
    # Hypothetical market data (the SPEC's A1/A2 style), one value a year / a flat AIR.
    "treasury_10y_november": {str(y): "4.50" for y in range(1999, 2026)},
    "applicable_interest_rate_default": "5.00",
}


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


def timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main() -> None:
    p0 = participant(9)  # the youngest: the longest grid
    c0 = PLAN.core_result(p0, AS_OF)
    cold = timed(lambda: price_grid(p0, AS_OF, ASSUMPTIONS, c0))
    rows = price_grid(p0, AS_OF, ASSUMPTIONS, c0)
    forms = max(len(r.monthly) for r in rows) + 1
    print(
        f"grid: {len(rows)} months × up to {forms} forms ({rows[0].commencement_date} → {rows[-1].commencement_date})"
    )
    print(f"price_grid cold (first call, tables load):      {cold * 1000:8.1f} ms")
    warm = []
    for i in range(1, 16):
        p = participant(i)
        c = PLAN.core_result(p, AS_OF)
        warm.append(timed(lambda p=p, c=c: price_grid(p, AS_OF, ASSUMPTIONS, c)))
    print(
        f"price_grid warm, new participant (median of 15): {statistics.median(warm) * 1000:8.1f} ms"
        f"  (max {max(warm) * 1000:.1f} ms)"
    )
    same = [timed(lambda: price_grid(p0, AS_OF, ASSUMPTIONS, c0)) for _ in range(10)]
    print(f"price_grid repeat, same participant (median):   {statistics.median(same) * 1000:8.1f} ms")
    with_core = [timed(lambda i=i: price_grid(participant(100 + i), AS_OF, ASSUMPTIONS)) for i in range(10)]
    print(f"price_grid incl. service/vesting core (median): {statistics.median(with_core) * 1000:8.1f} ms")
    n = 300
    t = time.perf_counter()
    for i in range(n):
        calculate(participant(1000 + i, married=i % 2 == 0), AS_OF, ASSUMPTIONS)
    elapsed = time.perf_counter() - t
    print(
        f"calculate (contract result, 2 estimates): {elapsed / n * 1000:6.1f} ms each, "
        f"{n / elapsed:,.0f} participants/s → 10,000 in {10000 * elapsed / n:,.0f} s"
    )


if __name__ == "__main__":
    main()
