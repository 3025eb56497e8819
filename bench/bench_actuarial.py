"""Annuity factors per second: single calls and the vectorized path, beside a plain NumPy matrix.

.venv/bin/python bench/bench_actuarial.py

The baseline (last line) is the floor for the same arithmetic: one survival matrix (ages × monthly
payment times, from the table's l_x) times one discount vector, with nothing else (no conventions,
no checks, no trace). The engine's vectorized path should be within a small factor of it; the
single calls show what a grid pays when it prices one factor at a time: each batch of single calls
starts cold (the memos of ``life_annuity`` and the survival vectors are cleared first), so the rate is
the computation's, not a cache's. ``bench/bench_factors.py`` holds the same paths against an
independent NumPy reference of the same factors.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from benefits.engine.numpy_on_first_use import import_numpy  # noqa: E402

np = import_numpy()  # as the engine runs it: its BLAS on one thread

from timing import load_average  # noqa: E402

from benefits.engine import actuarial  # noqa: E402
from benefits.engine.actuarial import (  # noqa: E402
    Form,
    FractionalConvention,
    basis_417e,
    form_factors,
    joint_survivor_annuity,
    life_annuities,
    life_annuity,
    plan_basis,
)
from benefits.engine.mortality import get_table  # noqa: E402


def rate(label: str, fn, count_per_call: int, min_seconds: float = 1.0) -> None:
    fn()  # warm caches
    calls, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < min_seconds:
        fn()
        calls += 1
    per_sec = calls * count_per_call / elapsed
    print(f"{label:<62} {per_sec:>14,.0f} factors/s (wall)")


def cold(calls):
    """``calls`` after forgetting what the engine memoizes per input (single calls are memoized)."""

    def run():
        actuarial.life_annuity.cache_clear()
        actuarial._grid_survival.cache_clear()
        return calls()

    return run


def main() -> None:
    up = get_table("up1984")
    monthly = plan_basis(up, 0.08)
    annual = plan_basis(up, 0.08, frequency=1)
    approx = plan_basis(up, 0.08, convention=FractionalConvention.APPROX_11_24)
    seg = basis_417e(2024, segment_rates=(0.0475, 0.0525, 0.055))
    ages = np.arange(20, 101)  # 81 ages
    single_ages = [float(a) for a in range(55, 76)]

    print(f"Python {sys.version.split()[0]}, NumPy {np.__version__}; wall-clock rates ({load_average()})")
    rate(
        "single life_annuity, annual due (UP-1984 8%)",
        cold(lambda: [life_annuity(annual, a) for a in single_ages]),
        21,
    )
    rate(
        "single life_annuity, monthly UDD (UP-1984 8%)",
        cold(lambda: [life_annuity(monthly, a) for a in single_ages]),
        21,
    )
    rate(
        "single life_annuity, monthly 11/24 (UP-1984 8%)",
        cold(lambda: [life_annuity(approx, a) for a in single_ages]),
        21,
    )
    rate(
        "single life_annuity, monthly UDD, §417(e) 2024 segments",
        cold(lambda: [life_annuity(seg, a) for a in single_ages]),
        21,
    )
    rate(
        "single 50% J&S, monthly UDD (UP-1984 8%)",
        cold(lambda: [joint_survivor_annuity(monthly, a, a - 3, 0.5) for a in single_ages]),
        21,
    )
    rate("vectorized life_annuities, 81 ages, annual due", lambda: life_annuities(annual, ages), len(ages))
    rate("vectorized life_annuities, 81 ages, monthly UDD", lambda: life_annuities(monthly, ages), len(ages))
    rate(
        "vectorized life_annuities, 81 ages, monthly, §417(e) segments",
        lambda: life_annuities(seg, ages),
        len(ages),
    )
    grid_ages = [(55 * 12 + k) / 12 for k in range(181)]  # a modeler grid: every month 55 to 70
    rate(
        "form_factors (the grids' path, = scalar bit for bit), 181 ages, life",
        lambda: form_factors(monthly, Form.life(), grid_ages),
        len(grid_ages),
    )
    rate(
        "form_factors, 181 ages, 50% J&S (spouse 3 years younger)",
        lambda: form_factors(monthly, Form.contingent(0.5), grid_ages, [a - 3 for a in grid_ages]),
        len(grid_ages),
    )
    # Baseline: a bare NumPy matrix, monthly due with linear l_x between ages (UDD), flat 8%.
    t = np.arange(0, (up.max_age - 20 + 1) * 12) / 12.0
    discount = 1.08**-t

    def matrix():
        lx = up.l(ages[:, None] + t[None, :])
        return (lx / up.l(ages)[:, None]) @ discount / 12.0

    rate("baseline: plain NumPy matrix, 81 ages, monthly (l_x × discount)", matrix, len(ages))


if __name__ == "__main__":
    main()
