"""Carver DB modeler grid: every month from the earliest commencement date to age 70, every form.

    .venv/bin/python bench/bench_carver_db_grid.py

Prints the time of one ``price_grid`` call (with and without the service/vesting core), of one
contract result (``carver_db.calculate``) and a census-style rate. The target is well under a second
for one participant's grid.
"""

from __future__ import annotations

import statistics
import sys
import time
from datetime import date
from decimal import Decimal
from pathlib import Path
from types import MappingProxyType

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benefits.engine.plans import get_plan  # noqa: E402
from benefits.engine.types import Participant  # noqa: E402

carver_db = get_plan("carver-db")

AS_OF = date(2026, 11, 21)


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


def timed(fn, repeat: int) -> tuple[float, float]:
    fn()  # warm caches (parameters, mortality tables)
    samples = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t)
    return statistics.median(samples), max(samples)


def main() -> None:
    p = participant(date(1971, 4, 10))  # 55 in 2026: the full 181-month grid lies ahead
    c = carver_db.core_result(p, AS_OF)
    grid = carver_db.grid.price(p, AS_OF, {}, c)
    cells = sum(len(r.monthly) for r in grid.rows)
    print(f"grid: {len(grid.rows)} commencement dates × {len(grid.forms)} forms = {cells} amounts")
    med, worst = timed(lambda: carver_db.grid.price(p, AS_OF, {}, c), 20)
    print(f"price_grid (core given)          median {med * 1000:8.1f} ms   max {worst * 1000:8.1f} ms")
    med, worst = timed(lambda: carver_db.grid.price(p, AS_OF, {}), 20)
    print(f"price_grid (core computed)       median {med * 1000:8.1f} ms   max {worst * 1000:8.1f} ms")
    med, worst = timed(lambda: carver_db.calculate(p, AS_OF, {}), 20)
    print(f"calculate (2 estimates + traces) median {med * 1000:8.1f} ms   max {worst * 1000:8.1f} ms")
    n = 500
    people = [participant(date(1950 + i % 25, 1 + i % 12, 1 + i % 28), married=i % 2 == 0) for i in range(n)]
    t = time.perf_counter()
    for q in people:
        carver_db.calculate(q, AS_OF, {})
    elapsed = time.perf_counter() - t
    print(f"calculate over {n} participants: {elapsed:.2f} s  ({n / elapsed:,.0f} participants/s)")


if __name__ == "__main__":
    main()
