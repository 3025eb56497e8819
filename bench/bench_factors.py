"""Annuity factors per second: the engine beside its own plain NumPy reference, same factors, same run.

Usage: ``.venv/bin/python bench/bench_factors.py``

The reference is written here, independently of the engine: the table's l_x from its published q_x
(a cumulative product), l at every month of age by linear interpolation (UDD), one survival matrix
over that monthly lattice (lives × monthly payment times, gathered by index), one discount matrix,
one sum per life. Every case's ages and deferrals are whole months (as the plans take them), so the
lattice is exact. Each engine factor must agree with the reference to 1e-12 (relative) before any
rate is printed.

Rates are factors per CPU second of this process. Each case runs ``ROUNDS`` (7) rounds; a round
times the reference, then the engine, each sample repeating its call until it has taken at least
0.1 s of CPU. The rates printed are the medians of the rounds' samples, and the ratio judged is the
median of the rounds' own ratios, printed with their range: on a shared machine a slow spell lands
on both sides of a round, not on one side's samples alone (with three samples of each side taken one
side after the other, the 10-years-certain case read anywhere from 1.87× to 2.94× between runs).
Cold: before every call the caches the engine keeps per input (the scalar path's survival and life-annuity memos) are cleared, so a call
prices its factors afresh; what the engine keeps per table or basis (the discount vectors, the payment
grids, the table's knots) stays, as the reference keeps nothing but the table's q_x. The target
(issue 29): the engine's vectorized path within 2× of the reference.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from benefits.engine.numpy_on_first_use import import_numpy  # noqa: E402

np = import_numpy()  # as the engine runs it: its BLAS on one thread

# Every case in the allocator's steady state, as a long-running process is: glibc returns a large
# block to the system until a block that size has once been freed, after which it keeps such blocks.
# Without this, the cases run first paid fresh pages for each of the reference's temporary arrays
# (3-4× its cost: the life grid's reference read 79,000 factors a second, and 267,000 after), and the
# later ones did not, so a case's ratio depended on its place in the list.
_steady = np.ones(3_000_000)  # 24 MB, over glibc's largest threshold (32 MB is its cap; the
del _steady  # threshold rises to the size of a freed mmapped block)

from timing import load_average  # noqa: E402

from benefits.engine import actuarial  # noqa: E402
from benefits.engine.actuarial import (  # noqa: E402
    Basis,
    FlatRate,
    Form,
    FormKind,
    SegmentRates,
    form_factor,
    form_factors,
    life_annuities,
)
from benefits.engine.mortality import get_table  # noqa: E402

TOLERANCE = 1e-12
TARGET = 2.0
ROUNDS = 7  # each case: the reference, then the engine, this many times in turn


# ------------------------------------------------------------------------------- the NumPy reference


def reference_lattice(qx: np.ndarray, min_age: int) -> np.ndarray:
    """l at ages min_age + j/12 (l(min_age) = 1), UDD between integer ages, then zeros."""
    q = np.array(qx, dtype=np.float64)
    q[-1] = 1.0
    lx = np.concatenate(([1.0], np.cumprod(1.0 - q)))
    frac = np.arange(12) / 12.0
    fine = (lx[:-1, None] * (1.0 - frac) + lx[1:, None] * frac).ravel()
    return np.concatenate((fine, [lx[-1]], np.zeros(1300)))


def reference_discount(interest: FlatRate | SegmentRates, t: np.ndarray) -> np.ndarray:
    if isinstance(interest, FlatRate):
        return (1.0 + interest.rate) ** -t  # type: ignore[no-any-return]
    rate = np.select([t < 5.0, t < 20.0], [interest.first, interest.second], interest.third)
    return (1.0 + rate) ** -t  # type: ignore[no-any-return]


def reference(
    basis: Basis,
    form: Form,
    ages: np.ndarray,
    spouse_ages: np.ndarray | None,
    deferrals: np.ndarray,
) -> np.ndarray:
    """Monthly annuity-due factors, UDD, of 1 a year: Σ_k v(t_k) · S(t_k) / 12 on the monthly lattice."""
    table, spouse = basis.table, basis.beneficiary_table
    lx = reference_lattice(table.qx, table.min_age)
    months = np.rint(ages * 12).astype(np.int64)
    lag = np.rint(deferrals * 12).astype(np.int64)
    youngest = months if spouse_ages is None else np.minimum(months, np.rint(spouse_ages * 12))
    oldest_table = max(table.max_age, spouse.max_age) + 1
    width = int(oldest_table * 12 - youngest.min()) + 1  # until every life has surely died
    k = np.arange(width)
    v = reference_discount(basis.interest, np.arange(int(lag.max()) + width) / 12.0)
    row = months - table.min_age * 12
    at = row[:, None] + lag[:, None] + k[None, :]
    px = lx[np.minimum(at, len(lx) - 1)] / lx[row][:, None]
    if form.kind is FormKind.CERTAIN_AND_LIFE:
        px[:, : form.certain_years * 12] = (lx[row + lag] / lx[row])[:, None]
    s = px
    if spouse_ages is not None:
        ly = reference_lattice(spouse.qx, spouse.min_age)
        yrow = np.rint(spouse_ages * 12).astype(np.int64) - spouse.min_age * 12
        py = ly[np.minimum(yrow[:, None] + lag[:, None] + k[None, :], len(ly) - 1)] / ly[yrow][:, None]
        f = form.survivor_fraction
        both = px * py
        s = px + f * (py - both) if form.kind is FormKind.CONTINGENT else both + f * (px + py - 2 * both)
    return (s * v[lag[:, None] + k[None, :]]).sum(axis=1) / 12.0  # type: ignore[no-any-return]


def reference_one_at_a_time(
    basis: Basis, form: Form, ages: np.ndarray, spouse_ages: np.ndarray | None, deferrals: np.ndarray
) -> np.ndarray:
    """The same reference called for one life at a time (what a scalar path can be held to)."""
    return np.array(
        [
            reference(
                basis,
                form,
                ages[i : i + 1],
                None if spouse_ages is None else spouse_ages[i : i + 1],
                deferrals[i : i + 1],
            )[0]
            for i in range(len(ages))
        ]
    )


# ------------------------------------------------------------------------------------------- timing


def cold() -> None:
    """Forget what the engine memoizes per input (not per table or basis)."""
    actuarial.life_annuity.cache_clear()
    actuarial._grid_survival.cache_clear()


def cpu_rate(fn: Callable[[], object], count: int) -> float:
    """Factors per CPU second: one sample of at least 0.1 s CPU."""
    calls, start = 0, time.process_time()
    while (spent := time.process_time() - start) < 0.1:
        fn()
        calls += 1
    return calls * count / spent


def case(
    label: str,
    basis: Basis,
    form: Form,
    ages: np.ndarray,
    spouse_ages: np.ndarray | None,
    deferrals: np.ndarray,
    engine: Callable[[], np.ndarray],
    *,
    one_at_a_time: bool = False,
) -> bool:
    method = reference_one_at_a_time if one_at_a_time else reference
    ref = method(basis, form, ages, spouse_ages, deferrals)
    cold()
    got = engine()
    worst = float(np.max(np.abs(got - ref) / np.maximum(np.abs(ref), 1.0)))
    if worst > TOLERANCE:
        print(f"  {label:<58} DISAGREES with the reference: {worst:.1e} > {TOLERANCE:.0e}")
        return False

    def engine_cold() -> None:
        cold()
        engine()

    refs, engines = [], []
    for _ in range(ROUNDS):  # the two sides in turn, round by round
        refs.append(cpu_rate(lambda: method(basis, form, ages, spouse_ages, deferrals), len(ages)))
        engines.append(cpu_rate(engine_cold, len(ages)))
    ratios = sorted(r / e for r, e in zip(refs, engines, strict=True))
    ratio = statistics.median(ratios)
    verdict = "within 2×" if ratio <= TARGET else f"OVER {TARGET:g}×"
    print(
        f"  {label:<58}{len(ages):>6}{statistics.median(refs):>13,.0f}{statistics.median(engines):>13,.0f}"
        f"{ratio:>8.2f}×  {worst:.0e}  {verdict} (rounds {ratios[0]:.2f}–{ratios[-1]:.2f}×)"
    )
    return ratio <= TARGET


def main() -> None:
    up = get_table("up1984")
    irs = get_table("irs_417e_2024")
    plan = Basis(up, FlatRate(0.08), label="UP-1984 8%")
    law = Basis(irs, SegmentRates(0.0475, 0.0525, 0.055), label="2024 §417(e)")
    law_up = Basis(irs, SegmentRates(0.041, 0.049, 0.058), spouse_table=up, label="")
    grid = np.arange(55 * 12, 70 * 12 + 1) / 12.0  # a modeler grid: every month 55 to 70 (181 ages)
    spouse = grid - 3.0
    young = np.arange(30 * 12, 65 * 12) / 12.0  # 420 lives, each deferred to 65
    to_65 = np.arange(35 * 12, 0, -1) / 12.0  # whole months (a float 65 - age can land a payment
    # an ulp short of the 5- or 20-year segment boundary, where the engine takes the lower segment)
    integer = np.arange(20, 101, dtype=np.float64)
    zero = np.zeros(len(grid))
    print(f"annuity factors, engine vs a plain NumPy survival matrix ({load_average()})")
    print(
        f"  NumPy {np.__version__}; factors per CPU second, medians of {ROUNDS} alternated rounds; "
        "agreement: worst relative gap"
    )
    print(f"  {'case':<58}{'lives':>6}{'NumPy ref':>13}{'engine':>13}{'ratio':>9}  {'gap':<6}")
    ok = True
    print("  form_factors (the grids' path; each factor = form_factor's float)")
    for label, basis, form, ages, ys, defer in (
        ("life, UP-1984 8%, ages 55-70 by month", plan, Form.life(), grid, None, zero),
        ("life, 2024 §417(e) segments, ages 55-70", law, Form.life(), grid, None, zero),
        ("life deferred to 65, ages 30-65 by month, 8%", plan, Form.life(), young, None, to_65),
        ("life deferred to 65, ages 30-65, §417(e) segments", law, Form.life(), young, None, to_65),
        ("10 years certain and life, 8%, ages 55-70", plan, Form.certain_and_life(10), grid, None, zero),
        ("50% J&S (contingent), spouse 3 younger, 8%", plan, Form.contingent(0.5), grid, spouse, zero),
        ("100% J&S, §417(e) table, spouse on UP-1984", law_up, Form.contingent(1.0), grid, spouse, zero),
        ("joint and 50% survivor, §417(e) segments", law, Form.joint(0.5), grid, spouse, zero),
    ):
        ok &= case(
            label,
            basis,
            form,
            ages,
            ys,
            defer,
            lambda basis=basis, form=form, ages=ages, ys=ys, defer=defer: form_factors(
                basis, form, ages, ys, deferrals=defer
            ),
        )
    print("  life_annuities (integer ages 20-100, one deferral)")
    for label, basis in (("life_annuities, UP-1984 8%", plan), ("life_annuities, §417(e) segments", law)):
        ok &= case(
            label,
            basis,
            Form.life(),
            integer,
            None,
            np.zeros(len(integer)),
            lambda basis=basis: life_annuities(basis, integer),
        )
    print(
        "  form_factor one at a time (what a scalar grid pays; cold memos), beside the reference one at a time"
    )
    for label, basis, form, ys in (
        ("form_factor, life, 8%, ages 55-70", plan, Form.life(), None),
        ("form_factor, life, §417(e) segments, ages 55-70", law, Form.life(), None),
        ("form_factor, 50% J&S, 8%, ages 55-70", plan, Form.contingent(0.5), spouse),
    ):
        ok &= case(
            label,
            basis,
            form,
            grid,
            ys,
            zero,
            lambda basis=basis, form=form, ys=ys: np.array(
                [form_factor(basis, form, a, None if ys is None else ys[i]) for i, a in enumerate(grid)]
            ),
            one_at_a_time=True,
        )
    print("every case within 2× of the reference" if ok else "NOT every case within 2× of the reference")


if __name__ == "__main__":
    main()
