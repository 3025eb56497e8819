"""Annuity factors, present values, optional-form conversions and relative values.

Units. Every factor is the actuarial present value (APV) of **1 a year**, paid in ``basis.frequency``
equal installments (1/12 a month when frequency is 12), at the annuity starting date (ASD) or
``deferral`` years after the valuation date. A monthly benefit B is therefore worth
``12 · B · factor``. Factors are float64; money becomes Decimal only through ``money.to_money``.

Payment timing (``Timing``): ``DUE`` pays at the start of each period (ä, the usual pension
convention: the first payment on the ASD); ``IMMEDIATE`` pays at the end (a).

Fractional payments (``FractionalConvention``), chosen per basis (a plan setting):
- ``UDD`` (default): exact sum over every installment; survival to fractional ages assumes uniform
  distribution of deaths between integer ages (l linear). With frequency 1 it is the annual factor.
- ``APPROX_11_24``: the annual factor with the usual (m) correction, ä(m) ≈ ä − (m−1)/(2m) · E, where
  E is the discounted survival to the start of payments (so ä(12)x ≈ äx − 11/24 for an immediate
  start); a(m) = ä(m) − E/m (and the same at the end of a temporary period). A certain-and-life
  annuity is ä(m)n + n|ä(m)x, each part corrected (so it stays ≥ the life annuity);
  ``annuity_certain`` alone is always exact.

Interest (market data: always an input, never a constant here):
- ``FlatRate(i)``: v(t) = (1+i)^−t (a plan's own rate; the 30-year Treasury rate for §417(e) before
  2008);
- ``SegmentRates(r1, r2, r3)``: each payment is discounted at the segment rate for its time from the
  ASD, v(t) = (1+r)^−t, with r1 for t < 5 years, r2 for 5 ≤ t < 20 and r3 for t ≥ 20
  (§417(e)(3)(C)-(D), §430(h)(2)(B)).

Forms: life; contingent annuitant ("J&S": 100% to the participant for life, the survivor fraction to
the spouse after the participant's death); joint-and-survivor reducing on the first death ("joint");
N years certain and life; lump sum. Survival vectors of a table are computed once per table.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from enum import StrEnum
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

from benefits.engine.dates import age, months_between
from benefits.engine.money import to_decimal, to_money
from benefits.engine.mortality import MortalityTable, applicable_417e_table
from benefits.engine.numpy_on_first_use import NumpyOnFirstUse
from benefits.engine.trace import Trace, money, years
from benefits.engine.trace import factor as factor_of
from benefits.engine.trace import percent as percent_of

if TYPE_CHECKING:
    import numpy as np
else:
    np = NumpyOnFirstUse(globals())

# ---------------------------------------------------------------------------------------------- basis


class Timing(StrEnum):
    DUE = "due"  # payments at the start of each period
    IMMEDIATE = "immediate"  # payments at the end of each period


class FractionalConvention(StrEnum):
    UDD = "udd"  # exact installments, fractional-age survival by UDD
    APPROX_11_24 = "approx_11_24"  # ä(m) ≈ ä − (m−1)/(2m)·E  (11/24 for monthly)


@dataclass(frozen=True)
class FlatRate:
    """One annual effective rate for every payment (e.g. 0.08 for 8%)."""

    rate: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "rate", float(self.rate))
        if self.rate <= -1.0:
            raise ValueError("interest rate must be above -100%")

    def discount(self, t: np.ndarray) -> np.ndarray:
        return (1.0 + self.rate) ** (-np.asarray(t, dtype=np.float64))

    def describe(self) -> str:
        return f"{_pct(self.rate)} interest"


@dataclass(frozen=True)
class SegmentRates:
    """§417(e)(3) segment rates for the lookback month (annual effective, e.g. 0.0475)."""

    first: float
    second: float
    third: float

    def __post_init__(self) -> None:
        for name in ("first", "second", "third"):
            object.__setattr__(self, name, float(getattr(self, name)))

    def discount(self, t: np.ndarray) -> np.ndarray:
        t = np.asarray(t, dtype=np.float64)
        rate = np.where(t < 5.0, self.first, np.where(t < 20.0, self.second, self.third))
        return (1.0 + rate) ** (-t)  # type: ignore[no-any-return]

    def describe(self) -> str:
        return f"segment rates {_pct(self.first)} / {_pct(self.second)} / {_pct(self.third)}"


Interest = FlatRate | SegmentRates


def _pct(rate: float) -> str:
    return f"{Decimal(repr(rate)) * 100:f}".rstrip("0").rstrip(".") + "%"


@dataclass(frozen=True)
class Basis:
    """An actuarial basis: mortality, interest, and the payment conventions.

    ``spouse_table`` values the spouse/beneficiary (defaults to ``table``); ``label`` names the basis
    in traces and disclosures (e.g. "UP-1984 at 8%").
    """

    table: MortalityTable
    interest: Interest
    frequency: int = 12
    timing: Timing = Timing.DUE
    convention: FractionalConvention = FractionalConvention.UDD
    spouse_table: MortalityTable | None = None
    label: str = ""

    def __post_init__(self) -> None:
        if self.frequency not in (1, 2, 4, 12):
            raise ValueError("frequency must be 1, 2, 4 or 12 payments a year")

    @property
    def beneficiary_table(self) -> MortalityTable:
        return self.spouse_table or self.table

    def describe(self) -> str:
        """Plain words for a trace or a §417(a)(3) disclosure ((c)(2)(v)(B): the interest rate used)."""
        return self.label or f"{self.table.name}, {self.interest.describe()}"


def plan_basis(table: MortalityTable, rate: float | Decimal, **options: object) -> Basis:
    """A plan's actuarial-equivalence basis: a table and a single rate (e.g. UP-1984 at 8%)."""
    return Basis(table, FlatRate(float(rate)), **options)  # type: ignore[arg-type]


def basis_417e(
    when: int | date,
    *,
    segment_rates: tuple[float, float, float] | None = None,
    treasury_rate: float | None = None,
    **options: object,
) -> Basis:
    """The §417(e)(3) basis for a calendar plan year / ASD, from rates
    already looked up (``minimum_present_value.statutory_basis`` does the look-up by date).

    Before 2008 the 30-year Treasury ``treasury_rate``; 2008–2011 the PPA transition blend of the
    ``segment_rates`` with ``treasury_rate`` (both needed); from 2012 the ``segment_rates``.
    The table is ``applicable_417e_table``.
    """
    year = when.year if isinstance(when, date) else int(when)
    table = applicable_417e_table(when)
    interest: Interest
    if year >= 2008:
        if segment_rates is None:
            raise ValueError(f"§417(e)(3) for {year} uses the three segment rates")
        if year < 2012:
            if treasury_rate is None:
                raise ValueError(
                    f"§417(e)(3) for {year} blends the segment rates with the 30-year Treasury rate"
                )
            segment_rates = ppa_transition_rates(year, segment_rates, treasury_rate)
        interest = SegmentRates(*segment_rates)
    else:
        if treasury_rate is None:
            raise ValueError(f"§417(e)(3) for {year} uses the 30-year Treasury rate")
        interest = FlatRate(treasury_rate)
    return Basis(table, interest, **options)  # type: ignore[arg-type]


def ppa_transition_rates(
    year: int, segment_rates: tuple[float, float, float], treasury_rate: float
) -> tuple[float, float, float]:
    """PPA 2006 phase-in: each segment rate blended with the 30-year Treasury rate.

    Segment weight 20% (2008), 40% (2009), 60% (2010), 80% (2011), 100% from 2012: the applicable
    percentage of former §417(e)(3)(D)(iii) applied as in §430(h)(2)(G), with the 30-year Treasury rate
    in place of the old corporate-bond rate (PPA 2006 §302(b), 120 Stat. 920–921).
    """
    weight = {2008: 0.2, 2009: 0.4, 2010: 0.6, 2011: 0.8}.get(year, 1.0 if year >= 2012 else None)
    if weight is None:
        raise ValueError(f"no PPA transition before 2008 (year {year})")
    a, b, c = (weight * r + (1.0 - weight) * treasury_rate for r in segment_rates)
    return (a, b, c)


class AgeMethod(StrEnum):
    """How a plan measures age for its factors (a plan setting)."""

    EXACT_MONTHS = "exact_months"  # completed years + completed months/12
    LAST_BIRTHDAY = "last_birthday"  # completed years
    NEAREST_BIRTHDAY = "nearest_birthday"  # completed years, +1 from 6 completed months


def attained_age(birth: date, on: date, method: AgeMethod = AgeMethod.EXACT_MONTHS) -> float:
    """Age on ``on`` for a person born on ``birth``, measured the plan's way (``method``)."""
    if on < birth:
        age(birth, on)  # the engine's one calendar age raises its error
    # ``age(birth, on)``'s completed years and months (Feb 29 → Feb 28 in a common year), without
    # the days it also counts
    years, extra = divmod(months_between(birth, on), 12)
    if method is AgeMethod.EXACT_MONTHS:
        return years + extra / 12
    if method is AgeMethod.LAST_BIRTHDAY:
        return float(years)
    return float(years + (1 if extra >= 6 else 0))


# ------------------------------------------------------------------------------------ core machinery

_EPS = 1e-12


@lru_cache(maxsize=4096)
def _grid(horizon: float, deferral: float, frequency: int, timing: Timing) -> np.ndarray:
    """Payment times (years from valuation): ``deferral`` onwards, covering ``horizon`` years."""
    n = int(np.ceil(max(horizon, 0.0) * frequency)) + 1
    k = np.arange(n, dtype=np.float64)
    offset = 1.0 if timing is Timing.IMMEDIATE else 0.0
    return deferral + (k + offset) / frequency


@lru_cache(maxsize=4096)
def _grid_discount(
    interest: Interest, horizon: float, deferral: float, frequency: int, timing: Timing
) -> np.ndarray:
    """The discount factors at ``_grid(horizon, deferral, frequency, timing)``; cached, read-only.

    The scalar and the vectorized factors both take their discount vector from here, so a factor
    is the same float whichever path computed it."""
    v = interest.discount(_grid(horizon, deferral, frequency, timing))
    v.setflags(write=False)
    return v


def _annuity(
    basis: Basis,
    survival: Callable[..., Any],
    horizon_age: float,
    deferral: float,
    *,
    certain: float = 0.0,
    term: float | None = None,
) -> float:
    """APV of 1 a year paid from ``deferral`` for life (or at most ``term`` years).

    ``survival(t)`` is the probability that the status is paying at time ``t`` from the valuation
    date; ``survival(t, grid)`` may answer from a cache when ``t`` is the cached payment grid
    ``_grid(*grid)``. Installments in the first ``certain`` years of payment are paid if the status
    reached the start of payments (a deferred certain-and-life annuity needs survival to its start).
    """
    m = basis.frequency
    max_age = max(basis.table.max_age, basis.beneficiary_table.max_age)
    udd = basis.convention is FractionalConvention.UDD
    # APPROX_11_24 sums annual-due installments and corrects afterwards.
    step_m = m if udd else 1
    timing = basis.timing if udd else Timing.DUE
    due = timing is Timing.DUE
    # survival to the first payment: only a certain period and the (m) correction use it
    s_start = float(survival(np.array([deferral]))[0]) if certain > 0.0 or not udd else 0.0
    # until the younger life has surely died, or to the end of the certain period if later
    horizon = max(max_age + 1 - horizon_age, certain)
    t = _grid(horizon, deferral, step_m, timing)
    u = t - deferral  # time since payments began
    if term is not None:
        keep = u < term - _EPS if due else u <= term + _EPS
        t, u = t[keep], u[keep]
        discount = basis.interest.discount(t)
        s = survival(t)
    else:
        discount = _grid_discount(basis.interest, horizon, deferral, step_m, timing)
        s = survival(t, (horizon, deferral, step_m, timing))
    if certain > 0.0:
        in_certain = u < certain - _EPS if due else u <= certain + _EPS
        s = np.where(in_certain, s_start, s)
    value = float(np.dot(discount, s)) / step_m
    if udd:
        return value

    # (m) correction: ä(m) ≈ ä − (m−1)/(2m)·Σ(E where the paying status starts − E where it stops),
    # a(m) = ä(m) − Σ/m. The end of a certain period stops the certain payments (E = v^n·s_start)
    # and starts the life payments (E = v^n·s(n)), i.e. ä(m)n + n|ä(m)x.
    def endowment(at: float, surv: float) -> float:
        return float(basis.interest.discount(np.array([at]))[0]) * surv

    span = endowment(deferral, s_start)
    if term is not None:
        end = deferral + term
        span -= endowment(end, s_start if term <= certain else float(survival(np.array([end]))[0]))
    if certain > 0.0 and (term is None or certain < term):
        switch = deferral + certain
        span += endowment(switch, float(survival(np.array([switch]))[0]) - s_start)
    value -= (m - 1) / (2 * m) * span
    if basis.timing is Timing.IMMEDIATE:
        value -= span / m
    return value


def _certain_exact(basis: Basis, deferral: float, years: float) -> float:
    """Annuity certain of 1 a year for ``years``, ``basis.frequency`` installments, from ``deferral``."""
    m = basis.frequency
    n = int(round(years * m))
    k = np.arange(n, dtype=np.float64)
    offset = 1.0 if basis.timing is Timing.IMMEDIATE else 0.0
    t = deferral + (k + offset) / m
    return float(np.sum(basis.interest.discount(t))) / m


@lru_cache(maxsize=8192)
def _grid_survival(
    table: MortalityTable, age: float, horizon: float, deferral: float, frequency: int, timing: Timing
) -> np.ndarray:
    """``table.survival(age, _grid(horizon, deferral, frequency, timing))``; cached, read-only.

    The forms of one date share it: a life annuity and every certain-and-life form at an age (and
    each joint form at a pair of ages) value the same survival vector, as do the plan's and the
    law's bases on one table. The same computation, so the same floats, as calling it afresh."""
    s = table.survival(age, _grid(horizon, deferral, frequency, timing))
    s.setflags(write=False)
    return s


def _survival_at(
    table: MortalityTable, age: float, t: np.ndarray, grid: tuple[float, float, int, Timing] | None
) -> np.ndarray:
    return table.survival(age, t) if grid is None else _grid_survival(table, age, *grid)


def _single(table: MortalityTable, age: float) -> Callable[..., Any]:
    return lambda t, grid=None: _survival_at(table, age, t, grid)


# ------------------------------------------------------------------------------------ public factors


@lru_cache(maxsize=8192)  # a pure function; a census asks for the same ages at NRD on the same bases
def life_annuity(basis: Basis, age: float, *, deferral: float = 0.0) -> float:
    """Single life annuity: APV of 1 a year for life, first payment ``deferral`` years from now.

    ``age`` is the age at the valuation date (fractional ages allowed, UDD). Deferred annuities
    include survival and discount to the start: n|ä_x.
    """
    return _annuity(basis, _single(basis.table, age), age, deferral)


def temporary_life_annuity(basis: Basis, age: float, years: float, *, deferral: float = 0.0) -> float:
    """Life annuity payable for at most ``years`` (e.g. a Social Security level-income bridge)."""
    return _annuity(basis, _single(basis.table, age), age, deferral, term=years)


def certain_and_life_annuity(
    basis: Basis, age: float, certain_years: float, *, deferral: float = 0.0
) -> float:
    """N years certain and life: installments in the first ``certain_years`` are paid whether or not
    the participant is alive (to the beneficiary), then for life. Always ≥ ``life_annuity``."""
    if certain_years < 0:
        raise ValueError("certain_years must be ≥ 0")
    return _annuity(basis, _single(basis.table, age), age, deferral, certain=float(certain_years))


def annuity_certain(basis: Basis, years: float, *, deferral: float = 0.0) -> float:
    """Annuity certain of 1 a year for ``years`` at the basis interest (no mortality)."""
    return _certain_exact(basis, deferral, years)


def pure_endowment(basis: Basis, age: float, years: float) -> float:
    """nEx: value now of 1 paid in ``years`` if the life aged ``age`` is then alive."""
    return float(
        basis.interest.discount(np.array([years]))[0] * basis.table.survival(age, np.array([years]))[0]
    )


class SurvivorKind(StrEnum):
    CONTINGENT = "contingent"  # full amount for the participant's life; fraction to the survivor spouse
    JOINT = "joint"  # full amount while both live; fraction to whichever survives


def joint_survivor_annuity(
    basis: Basis,
    age: float,
    spouse_age: float,
    survivor_fraction: float | Decimal,
    *,
    kind: SurvivorKind = SurvivorKind.CONTINGENT,
    deferral: float = 0.0,
) -> float:
    """Joint and survivor annuity factor, per 1 a year of the participant's (first) amount.

    CONTINGENT: äx + f·(äy − äxy) (a 0% survivor gives the life factor); JOINT (reduces on the
    first death): äxy + f·(äx − äxy) + f·(äy − äxy). ``spouse_age`` is the spouse's age on the
    valuation date; the spouse is valued on ``basis.beneficiary_table``.
    """
    f = float(survivor_fraction)
    if not 0.0 <= f <= 1.0:
        raise ValueError("survivor_fraction must be between 0 and 1 (0.5 for a 50% survivor annuity)")
    tx, ty = basis.table, basis.beneficiary_table

    def survival(t: np.ndarray, grid: tuple[float, float, int, Timing] | None = None) -> np.ndarray:
        px, py = _survival_at(tx, age, t, grid), _survival_at(ty, spouse_age, t, grid)
        both = px * py
        if kind is SurvivorKind.CONTINGENT:
            return px + f * (py - both)  # type: ignore[no-any-return]
        return both + f * (px + py - 2.0 * both)  # type: ignore[no-any-return]

    return _annuity(basis, survival, min(age, spouse_age), deferral)


def life_annuities(basis: Basis, ages: Sequence[float] | np.ndarray, *, deferral: float = 0.0) -> np.ndarray:
    """Vectorized ``life_annuity`` over many ages (flat rate or segment rates, any convention).

    Flat rates use a cached reverse cumulative sum per (table, frequency, rate): every age is then a
    lookup. Segment rates use one matrix product (ages × payment times). Fractional ages work too.
    """
    ages_arr = np.asarray(ages, dtype=np.float64)
    table = basis.table
    m = basis.frequency
    udd = basis.convention is FractionalConvention.UDD
    step_m = m if udd else 1
    timing = basis.timing if udd else Timing.DUE
    t = _grid(table.max_age + 1 - float(ages_arr.min()), deferral, step_m, timing)
    l0 = table.l(ages_arr)
    safe_l0 = np.where(l0 > 0, l0, 1.0)
    first = (ages_arr - table.min_age) * step_m + t[0] * step_m  # fine-grid index of the first payment
    on_grid = bool(np.allclose(first, np.round(first)))
    if on_grid and isinstance(basis.interest, FlatRate):
        # Flat rate: Σ_k w^k l[j+k] for every start j is one cached reverse cumulative sum.
        sums = _flat_rate_sums(table, step_m, basis.interest.rate)
        idx = np.minimum(np.round(first).astype(np.int64), len(sums) - 1)
        values = (1.0 + basis.interest.rate) ** (-t[0]) * sums[idx] / safe_l0 / step_m
    else:
        if on_grid:
            # integer ages, deferral on the payment grid: gather from the cached fine l vector
            l_fine = _fine_l(table, step_m)
            idx = np.round(first).astype(np.int64)[:, None] + np.arange(len(t))[None, :]
            surv = l_fine[np.minimum(idx, len(l_fine) - 1)]
        else:
            surv = table.l(ages_arr[:, None] + t[None, :])
        values = (surv / safe_l0[:, None]) @ _discount(basis.interest, t[0], step_m, len(t)) / step_m
    values[l0 <= 0] = 0.0
    if udd:
        return values  # type: ignore[no-any-return]
    e_start = basis.interest.discount(np.array([deferral]))[0] * table.l(ages_arr + deferral) / safe_l0
    values = values - (m - 1) / (2 * m) * e_start
    if basis.timing is Timing.IMMEDIATE:
        values = values - e_start / m
    return values  # type: ignore[no-any-return]


@lru_cache(maxsize=256)
def _fine_l(table: MortalityTable, m: int) -> np.ndarray:
    """l at every 1/m of a year from the table's first age (UDD), padded with zeros; cached per table."""
    n = (table.max_age + 1 - table.min_age) * m
    ages = table.min_age + np.arange(n + 1, dtype=np.float64) / m
    return np.concatenate((table.l(ages), np.zeros(1)))


@lru_cache(maxsize=256)
def _flat_rate_sums(table: MortalityTable, m: int, rate: float) -> np.ndarray:
    """S[j] = Σ_{k≥0} w^k · l[j+k] on the 1/m grid, w = (1+i)^(−1/m): every start age at once."""
    l_fine = _fine_l(table, m)
    j = np.arange(len(l_fine), dtype=np.float64)
    w = (1.0 + rate) ** (-1.0 / m)
    weighted = w**j * l_fine
    return np.cumsum(weighted[::-1])[::-1] / w**j  # type: ignore[no-any-return]


@lru_cache(maxsize=1024)
def _discount(interest: Interest, t0: float, m: int, n: int) -> np.ndarray:
    """Discount factors at t0, t0 + 1/m, …; cached per interest basis and grid."""
    return interest.discount(t0 + np.arange(n, dtype=np.float64) / m)


# ------------------------------------------------------------------------------- forms and conversion


class FormKind(StrEnum):
    LIFE = "life"
    CONTINGENT = "contingent"  # J&S, full amount for the participant's life
    JOINT = "joint"  # J&S reducing on the first death
    CERTAIN_AND_LIFE = "certain_and_life"
    LUMP_SUM = "lump_sum"


@dataclass(frozen=True)
class Form:
    """An optional form of benefit, as the actuarial math needs it."""

    kind: FormKind
    survivor_fraction: float = 0.0
    certain_years: int = 0
    label: str = ""

    @classmethod
    def life(cls) -> Form:
        return cls(FormKind.LIFE, label="Single life annuity")

    @classmethod
    def contingent(cls, fraction: float | Decimal) -> Form:
        f = float(fraction)
        return cls(FormKind.CONTINGENT, survivor_fraction=f, label=f"{f * 100:g}% joint and survivor annuity")

    @classmethod
    def joint(cls, fraction: float | Decimal) -> Form:
        f = float(fraction)
        return cls(
            FormKind.JOINT,
            survivor_fraction=f,
            label=f"Joint and {f * 100:g}% survivor annuity (reduces on first death)",
        )

    @classmethod
    def certain_and_life(cls, years: int) -> Form:
        return cls(
            FormKind.CERTAIN_AND_LIFE,
            certain_years=int(years),
            label=f"Life annuity with {years} years certain",
        )

    @classmethod
    def lump_sum(cls) -> Form:
        return cls(FormKind.LUMP_SUM, label="Lump sum")

    @property
    def needs_spouse(self) -> bool:
        return self.kind in (FormKind.CONTINGENT, FormKind.JOINT)


def form_factor(
    basis: Basis, form: Form, age: float, spouse_age: float | None = None, *, deferral: float = 0.0
) -> float:
    """APV of 1 a year of ``form``'s (first) amount; for a lump sum, 1 (the single sum itself, paid
    at the valuation date)."""
    if form.kind is FormKind.LIFE:
        return life_annuity(basis, age, deferral=deferral)
    if form.kind is FormKind.CERTAIN_AND_LIFE:
        return certain_and_life_annuity(basis, age, form.certain_years, deferral=deferral)
    if form.kind is FormKind.LUMP_SUM:
        return 1.0
    if spouse_age is None:
        raise ValueError(f"{form.label or form.kind}: the spouse's (beneficiary's) age is needed")
    kind = SurvivorKind.CONTINGENT if form.kind is FormKind.CONTINGENT else SurvivorKind.JOINT
    return joint_survivor_annuity(
        basis, age, spouse_age, form.survivor_fraction, kind=kind, deferral=deferral
    )


def form_factors(
    basis: Basis,
    form: Form,
    ages: Sequence[float] | np.ndarray,
    spouse_ages: Sequence[float] | np.ndarray | None = None,
    *,
    deferrals: float | Sequence[float] | np.ndarray = 0.0,
    survival_cache: dict[tuple[Any, ...], np.ndarray] | None = None,
) -> np.ndarray:
    """``form_factor`` for many lives at once (a price grid: every date's age), one NumPy pass.

    Element ``i`` equals ``form_factor(basis, form, ages[i], spouse_ages[i], deferral=deferrals[i])``
    to the last bit: the survival of every life at every payment time is one matrix (the same
    elementwise operations as the scalar path), and each life's sum runs over its own payment grid
    with the scalar path's discount vector (``_grid_discount``), in the same order. Conventions other
    than UDD are priced one life at a time. ``survival_cache``: a dict the caller owns, to share the
    survival matrices between the forms and bases of one grid (the same lives on the same table).
    """
    ages_arr = np.asarray(ages, dtype=np.float64)
    count = len(ages_arr)
    defer_arr = np.broadcast_to(np.asarray(deferrals, dtype=np.float64), (count,))
    joint = form.needs_spouse
    spouse_arr: np.ndarray | None = None
    if joint:
        if spouse_ages is None:
            raise ValueError(f"{form.label or form.kind}: the spouse's (beneficiary's) age is needed")
        spouse_arr = np.asarray(spouse_ages, dtype=np.float64)
    if form.kind is FormKind.LUMP_SUM:
        return np.ones(count)
    if count == 0:
        return np.zeros(0)
    if basis.convention is not FractionalConvention.UDD:
        return np.array(
            [
                form_factor(
                    basis,
                    form,
                    float(ages_arr[i]),
                    None if spouse_arr is None else float(spouse_arr[i]),
                    deferral=float(defer_arr[i]),
                )
                for i in range(count)
            ]
        )
    m, timing = basis.frequency, basis.timing
    due = timing is Timing.DUE
    max_age = max(basis.table.max_age, basis.beneficiary_table.max_age)
    certain = float(form.certain_years) if form.kind is FormKind.CERTAIN_AND_LIFE else 0.0
    f = form.survivor_fraction
    # Each life's horizon and payment count exactly as ``_annuity`` and ``_grid`` take them (the
    # same IEEE operations elementwise: max(max_age + 1 - age, certain), ceil(max(h, 0)·m) + 1).
    youngest = ages_arr if spouse_arr is None else np.minimum(ages_arr, spouse_arr)
    horizon_arr = np.maximum(float(max_age + 1) - youngest, certain)
    length_arr = np.ceil(np.maximum(horizon_arr, 0.0) * m).astype(np.int64) + 1
    horizons: list[float] = horizon_arr.tolist()
    defer_list: list[float] = defer_arr.tolist()
    lengths: list[int] = length_arr.tolist()
    width = max(lengths)
    k = np.arange(width, dtype=np.float64)
    steps = (k + (1.0 if timing is Timing.IMMEDIATE else 0.0)) / m  # as ``_grid`` computes them
    # One deferral for every life (a grid's usual case): the payment times are one vector.
    uniform = bool(defer_arr.min() == defer_arr.max())

    def times(columns: int) -> np.ndarray:
        if uniform:
            return defer_arr[0] + steps[:columns]  # type: ignore[no-any-return]
        return defer_arr[:, None] + steps[None, :columns]  # payment times, as ``_grid`` adds them

    cache = survival_cache if survival_cache is not None else {}
    key = (m, timing, defer_arr.tobytes())

    def rows(table: MortalityTable, lives: np.ndarray) -> np.ndarray:
        known = cache.get((table, lives.tobytes(), *key))
        if known is None or known.shape[1] < width:
            known = _gathered(table, lives) if uniform else _survival_rows(table, lives, times(width))
            cache[(table, lives.tobytes(), *key)] = known
        return known[:, :width]

    def _gathered(table: MortalityTable, lives: np.ndarray) -> np.ndarray:
        """The lives' survival rows: a row already made for another set of lives (the same age, table
        and payment times, so the same elements) is copied, and only its missing later payment
        times are made; the other rows are made in one pass."""
        index: dict[float, tuple[np.ndarray, int]] = cache.setdefault(  # type: ignore[assignment]
            ("rows", table, m, timing, float(defer_arr[0])),
            {},  # type: ignore[arg-type]
        )
        ages = lives.tolist()
        found = [index.get(a) for a in ages]
        if not any(found):
            out = _survival_rows(table, lives, times(width))
        else:
            out = np.empty((len(found), width))
            missing: list[int] = []
            short: dict[int, list[int]] = {}  # columns already made → rows to extend
            sources: dict[int, tuple[np.ndarray, list[int], list[int]]] = {}  # one copy per matrix
            for i, f in enumerate(found):
                if f is None:
                    missing.append(i)
                    continue
                source = sources.get(id(f[0]))
                if source is None:
                    source = sources[id(f[0])] = (f[0], [], [])
                source[1].append(i)
                source[2].append(f[1])
            for matrix, to, from_ in sources.values():
                made = min(matrix.shape[1], width)
                out[to, :made] = matrix[from_, :made]
                if made < width:
                    short.setdefault(made, []).extend(to)
            at = times(width)
            if missing:
                out[missing] = _survival_rows(table, lives[missing], at)
            for made, idx in short.items():
                out[idx, made:] = _survival_rows(table, lives[idx], at[made:])
        for i, a in enumerate(ages):
            f = found[i]
            if f is None or f[0].shape[1] < width:
                index[a] = (out, i)
        return out

    def survival(at: np.ndarray | None) -> np.ndarray:
        if at is not None:  # survival to the first payment (a deferred certain period)
            px = _survival_rows(basis.table, ages_arr, at)
            py = None if spouse_arr is None else _survival_rows(basis.beneficiary_table, spouse_arr, at)
        else:
            px = rows(basis.table, ages_arr)
            if spouse_arr is None:
                return px
            py = rows(basis.beneficiary_table, spouse_arr)
            # px·py and py − px·py are the same for every survivor fraction: shared by the forms.
            pair = (basis.table, ages_arr.tobytes(), basis.beneficiary_table, spouse_arr.tobytes(), *key)
            both = cache.get(("both", *pair))
            if both is None or both.shape[1] < width:
                both = cache[("both", *pair)] = px * py
            both = both[:, :width]
            if form.kind is FormKind.CONTINGENT:
                rest = cache.get(("rest", *pair))
                if rest is None or rest.shape[1] < width:
                    rest = cache[("rest", *pair)] = py - both
                return px + f * rest[:, :width]
            return both + f * (px + py - 2.0 * both)  # type: ignore[no-any-return]
        if py is None:
            return px
        both = px * py
        if form.kind is FormKind.CONTINGENT:
            return px + f * (py - both)  # type: ignore[no-any-return]
        return both + f * (px + py - 2.0 * both)  # type: ignore[no-any-return]

    s = survival(None)
    if certain > 0.0:
        # Only the first payments can fall in the certain period (u grows with the payment index).
        c = min(width, int(certain * m) + 2)
        s_start = survival(defer_arr[:, None])
        u = times(c) - defer_arr[:, None]
        in_certain = u < certain - _EPS if due else u <= certain + _EPS
        if survival_cache is not None:  # the matrix is the caller's to share: write to a copy
            s = s.copy()
        s[:, :c] = np.where(in_certain, s_start, s[:, :c])
    out = [0.0] * count
    interest, dot = basis.interest, np.dot
    discounts: dict[tuple[float, float], np.ndarray] = {}
    for i, (h, d, n) in enumerate(zip(horizons, defer_list, lengths, strict=True)):
        v = discounts.get((h, d))
        if v is None:
            v = discounts[(h, d)] = _grid_discount(interest, h, d, m, timing)
        out[i] = float(dot(v, s[i, :n])) / m
    return np.array(out)


def factors_from_rows(
    basis: Basis, survival_cache: dict[tuple[Any, ...], Any]
) -> Callable[[float, Sequence[tuple[Form, float | None]]], list[float | None]] | None:
    """A pricer of one life's factors from the survival rows ``survival_cache`` already holds (a
    price grid's pricing made them): ``price(age, forms)``, for each (form, spouse age) of ``forms``,
    is ``form_factors``' factor of the form (life, certain and life, or a survivor form; no deferral)
    for that life, or None when its rows are not there (the caller prices it with ``form_factors``).
    None when the basis is not one ``form_factors`` prices on the rows (only UDD, payments due, is).

    The same elementwise operations on the same rows as ``form_factors``' matrices, the same discount
    vector and ``dot``, so each factor is the same float; done one life at a time over its own
    payments, it makes no matrix (a comparison of hundreds of dates would otherwise build several of
    a few megabytes each)."""
    m, timing = basis.frequency, basis.timing
    if basis.convention is not FractionalConvention.UDD or timing is not Timing.DUE:
        return None
    lives = survival_cache.get(("rows", basis.table, m, timing, 0.0))
    spouses = survival_cache.get(("rows", basis.beneficiary_table, m, timing, 0.0)) or {}
    if not lives:
        return None
    top = float(max(basis.table.max_age, basis.beneficiary_table.max_age) + 1)
    interest, dot, ceil = basis.interest, np.dot, math.ceil
    in_certain: dict[float, int] = {}  # certain years → how many first payments fall in them
    discounts: dict[float, np.ndarray] = {}  # horizon → ``_grid_discount``'s vector (the same array)
    contingent, joint = FormKind.CONTINGENT, FormKind.JOINT

    def factor(s: np.ndarray, horizon: float) -> float:
        v = discounts.get(horizon)
        if v is None:
            v = discounts[horizon] = _grid_discount(interest, horizon, 0.0, m, timing)
        return float(dot(v, s)) / m

    def price(age: float, forms: Sequence[tuple[Form, float | None]]) -> list[float | None]:
        out: list[float | None] = [None] * len(forms)
        x = lives.get(age)
        if x is None:
            return out
        row, made = x[0][x[1]], x[0].shape[1]
        pairs: dict[float, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}  # spouse → py, px·py, py − px·py
        for j, (form, spouse) in enumerate(forms):
            kind = form.kind
            if kind is contingent or kind is joint:
                y = None if spouse is None else spouses.get(spouse)
                if y is None or spouse is None:
                    continue
                # ``form_factors``' horizon and payment count: max(max_age + 1 − youngest, 0),
                # ceil(h·m) + 1
                horizon = max(top - min(age, spouse), 0.0)
                n = ceil(horizon * m) + 1
                if made < n or y[0].shape[1] < n:
                    continue
                px = row[:n]
                pair = pairs.get(spouse)
                if pair is None:
                    py = y[0][y[1], :n]
                    both = px * py
                    pair = pairs[spouse] = (py, both, py - both)
                py, both, rest = pair
                f = form.survivor_fraction
                s = px + f * rest if kind is contingent else both + f * (px + py - 2.0 * both)
            elif kind is FormKind.LIFE:
                horizon = max(top - age, 0.0)
                n = ceil(horizon * m) + 1
                if made < n:
                    continue
                s = row[:n]
            elif kind is FormKind.CERTAIN_AND_LIFE:
                certain = float(form.certain_years)
                horizon = max(top - age, certain, 0.0)
                n = ceil(horizon * m) + 1
                if made < n:
                    continue
                s = row[:n]
                if certain > 0.0:
                    # The first payments in the certain period are paid if the life reached the
                    # first one (due: its survival to time 0, the row's first element, 1 or 0 as
                    # ``form_factors``' start survival).
                    k = in_certain.get(certain)
                    if k is None:
                        steps = np.arange(int(certain * m) + 2, dtype=np.float64) / m
                        k = in_certain[certain] = int(np.count_nonzero(steps < certain - _EPS))
                    s = s.copy()
                    s[: min(k, n)] = s[0]
            else:
                continue
            out[j] = factor(s, horizon)
        return out

    return price


def _survival_rows(table: MortalityTable, ages: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Row ``i``: ``table.survival(ages[i], t[i])``, or ``t`` itself when it is one vector for every
    life (zeros for a life past the table). The same elementwise operations as the scalar path
    (l(age + t) / l(age)), in as few passes over the matrix as they allow."""
    l0 = table.l(ages)
    alive = l0 > 0.0
    x = ages[:, None] + (t[None, :] if t.ndim == 1 else t)
    # Rounding is monotonic, so min(age) + min(t) is the matrix's least age: check it alone.
    if len(ages) and t.size and float(ages.min()) + float(t.min()) >= table.min_age:
        surv = table.l_from_first_age(x)
    else:
        surv = table.l(x)
    surv /= np.where(alive, l0, 1.0)[:, None]
    if not alive.all():
        surv[~alive] = 0.0
    return surv


def life_annuity_factors(
    basis: Basis,
    ages: Sequence[float] | np.ndarray,
    *,
    deferrals: float | Sequence[float] | np.ndarray = 0.0,
    survival_cache: dict[tuple[Any, ...], np.ndarray] | None = None,
) -> np.ndarray:
    """``life_annuity`` for many ages at once, each element equal to the scalar call (``form_factors``)."""
    return form_factors(basis, Form.life(), ages, deferrals=deferrals, survival_cache=survival_cache)


@dataclass(frozen=True)
class Conversion:
    """A life annuity converted to another form by actuarial equivalence.

    ``amount``: the form's installment (same period as the life amount), or the single sum for a lump
    sum; ``ratio`` = amount / life amount as a float (for a lump sum: frequency × life factor).
    """

    form: Form
    amount: Decimal
    ratio: float
    life_factor: float
    form_factor: float
    basis: str
    trace: Trace = Trace()


def convert_life_annuity(
    life_amount: Decimal,
    basis: Basis,
    form: Form,
    age: float,
    spouse_age: float | None = None,
    *,
    deferral: float = 0.0,
    section: str = "",
) -> Conversion:
    """The amount of ``form`` actuarially equivalent to a life annuity of ``life_amount`` per
    installment (monthly when ``basis.frequency`` is 12), on ``basis``, rounded to cents (half up).

    For ``Form.lump_sum()`` the result is the present value ``life_amount × frequency × äx``.
    ``section`` (the plan section that sets the basis) goes into the one-step ``trace``.
    """
    life = life_annuity(basis, age, deferral=deferral)
    ff = form_factor(basis, form, age, spouse_age, deferral=deferral)
    ratio = life * basis.frequency if form.kind is FormKind.LUMP_SUM else life / ff
    amount = to_money(to_decimal(life_amount) * to_decimal(ratio))
    label = form.label or str(form.kind)
    trace = Trace().add(
        f"Converted the single life annuity to the {label} of equal actuarial value ({basis.describe()})",
        section=section,
        result=money(amount),
        life_annuity_amount=money(to_decimal(life_amount)),
        age=years(age),
        spouse_age=years(spouse_age),
        life_factor=factor_of(round(life, 6), 6),
        form_factor=factor_of(round(ff, 6), 6),
        conversion_factor=factor_of(round(ratio, 6), 6),
    )
    return Conversion(form, amount, ratio, life, ff, basis.describe(), trace)


def present_value(
    amount: Decimal,
    basis: Basis,
    form: Form,
    age: float,
    spouse_age: float | None = None,
    *,
    deferral: float = 0.0,
) -> Decimal:
    """APV, in money, of ``form`` paying ``amount`` per installment (the single sum for a lump sum)."""
    if form.kind is FormKind.LUMP_SUM:
        discount = float(basis.interest.discount(np.array([deferral]))[0])
        return to_money(to_decimal(amount) * to_decimal(discount))
    factor = form_factor(basis, form, age, spouse_age, deferral=deferral) * basis.frequency
    return to_money(to_decimal(amount) * to_decimal(factor))


def lump_sum(life_amount: Decimal, basis: Basis, age: float, *, deferral: float = 0.0) -> Decimal:
    """Single sum equal to the APV of a life annuity of ``life_amount`` per installment starting
    ``deferral`` years from now (e.g. deferred to normal retirement age), rounded to cents."""
    factor = life_annuity(basis, age, deferral=deferral) * basis.frequency
    return to_money(to_decimal(life_amount) * to_decimal(factor))


# ---------------------------------------------------------------------------- relative value (§417(a)(3))

APPROX_EQUAL_LOW = 0.95
APPROX_EQUAL_HIGH = 1.05
# Treas. Reg. §1.417(a)(3)-1(c)(2)(iii)(C) does not apply to explanations given before this date ((f)(2)(iii)).
APPROX_EQUAL_RULE_START = date(2007, 1, 1)


@dataclass(frozen=True)
class RelativeValue:
    """An optional form's APV as a share of the QJSA's APV (Treas. Reg. §1.417(a)(3)-1(c)(2)).

    ``percent`` is 100 × ratio rounded half up to ``places`` (default 1); ``approximately_equal`` is
    decided on the unrounded ratio: 0.95 ≤ ratio ≤ 1.05 ((c)(2)(iii)(C)).
    """

    ratio: float
    percent: Decimal
    approximately_equal: bool
    option_apv: Decimal
    qjsa_apv: Decimal
    trace: Trace = Trace()


def relative_value_of_apvs(
    option_apv: Decimal | float,
    qjsa_apv: Decimal | float,
    *,
    places: int = 1,
    explanation_date: date | None = None,
) -> RelativeValue:
    """Relative value from two APVs. With ``explanation_date`` before 1/1/2007 the "approximately
    equal" description is not available ((f)(2)(iii)) and the flag is False."""
    opt, q = to_decimal(option_apv), to_decimal(qjsa_apv)
    if q <= 0:
        raise ValueError("the QJSA's APV must be positive")
    ratio = float(opt) / float(q)
    percent = (opt / q * 100).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    allowed = explanation_date is None or explanation_date >= APPROX_EQUAL_RULE_START
    approx = allowed and APPROX_EQUAL_LOW <= ratio <= APPROX_EQUAL_HIGH
    trace = Trace().add(
        "Relative value: the option's actuarial present value as a percentage of the QJSA's"
        + ("; approximately equal in value (95%-105%)" if approx else ""),
        section="Treas. Reg. §1.417(a)(3)-1(c)(2)",
        result=percent_of(percent),
        option_present_value=money(opt),
        qjsa_present_value=money(q),
    )
    return RelativeValue(ratio, percent, approx, opt, q, trace)


def relative_value(
    option: Form,
    option_amount: Decimal,
    qjsa: Form,
    qjsa_amount: Decimal,
    basis: Basis,
    age: float,
    spouse_age: float | None = None,
    *,
    deferral: float = 0.0,
    places: int = 1,
    explanation_date: date | None = None,
) -> RelativeValue:
    """Relative value of ``option`` paying ``option_amount`` against the QJSA paying ``qjsa_amount``,
    both valued on ``basis`` (the comparison basis of (c)(2)(iv): the §417(e) basis or one reasonable
    basis applied uniformly). APVs are kept unrounded (to the cent is too coarse for small benefits)."""

    def apv(form: Form, amount: Decimal) -> Decimal:
        if form.kind is FormKind.LUMP_SUM:
            return to_decimal(amount)
        factor = form_factor(basis, form, age, spouse_age, deferral=deferral) * basis.frequency
        return to_decimal(amount) * to_decimal(factor)

    return relative_value_of_apvs(
        apv(option, option_amount), apv(qjsa, qjsa_amount), places=places, explanation_date=explanation_date
    )


@dataclass(frozen=True)
class RelativeValueGroup:
    """Forms whose relative values lie within ``width`` percentage points of each other
    ((c)(2)(iii)(A)); ``disclosed`` is the member whose value is shown (the single sum if the group
    has one, else the lowest), and any value in [low, high] may represent the group ((B))."""

    members: tuple[str, ...]
    low: Decimal
    high: Decimal
    disclosed: str


def group_relative_values(
    items: Sequence[tuple[str, RelativeValue]], *, width: Decimal = Decimal(5), single_sum: str | None = None
) -> tuple[RelativeValueGroup, ...]:
    """Group forms by relative value (Treas. Reg. §1.417(a)(3)-1(c)(2)(iii)(A)), lowest first.

    ``items`` are (form label, relative value); ``single_sum`` names the lump-sum form, if any.
    Greedy from the lowest value: a group takes every next form within ``width`` points of its lowest.
    """
    return groups_of(
        [name for name, _ in items],
        [rv.ratio for _, rv in items],
        [rv.percent for _, rv in items],
        width=width,
        single_sum=single_sum,
    )


def groups_of(
    names: Sequence[str],
    ratios: Sequence[float],
    percents: Sequence[Decimal],
    *,
    width: Decimal = Decimal(5),
    single_sum: str | None = None,
) -> tuple[RelativeValueGroup, ...]:
    """``group_relative_values`` of the forms ``names[i]`` of relative value ``ratios[i]``, shown as
    ``percents[i]`` (for a caller that has them in lists: a grid groups every date's forms)."""
    order = sorted(range(len(ratios)), key=ratios.__getitem__)  # stable: ties keep their order
    limit = _LIMITS.get(width)
    if limit is None:
        limit = float(width) + 1e-12  # the same float for every comparison
    # Usually every form lies within the width of the lowest: one group. With no NaN the order is
    # ascending and (r - lowest) * 100 grows with r (IEEE rounding is monotonic), so the highest
    # form within the width means every form is, as the loop below would find form by form.
    total = sum(ratios)
    if order and total == total and (ratios[order[-1]] - ratios[order[0]]) * 100 <= limit:
        return (
            _group(tuple([names[i] for i in order]), percents[order[0]], percents[order[-1]], single_sum),
        )
    return cast(tuple[RelativeValueGroup, ...], _groups(names, ratios, percents, order, limit, single_sum))


def _group(names: tuple[str, ...], low: Decimal, high: Decimal, single_sum: str | None) -> RelativeValueGroup:
    """RelativeValueGroup(members, low, high, disclosed) without the frozen dataclass's
    field-by-field __init__ (a grid groups every date's forms), its fields as one dict."""
    members = _members(names)
    group = object.__new__(RelativeValueGroup)
    object.__setattr__(
        group,
        "__dict__",
        {
            "members": members,
            "low": low,
            "high": high,
            "disclosed": single_sum if single_sum in members else members[0],
        },
    )
    return group


def _groups(
    names: Sequence[str],
    ratios: Sequence[float],
    percents: Sequence[Decimal],
    order: list[int],
    limit: float,
    single_sum: str | None,
    close: float = 0.0,
) -> tuple[RelativeValueGroup, ...] | None:
    """``groups_of``'s greedy pass over the forms in ``order`` (ascending ratio). With ``close`` (the
    ratios known only to within it, relative): None when a width test lies nearer the width than its
    two ratios could move (``clear_groups``); without, never None."""
    groups: list[RelativeValueGroup] = []
    start = 0  # where the group being formed starts in ``order``
    for end in range(1, len(order) + 1):
        if end < len(order):
            gap = (ratios[order[end]] - ratios[order[start]]) * 100
            if close and not abs(gap - limit) > 400 * close * abs(ratios[order[end]]):
                return None
            if not gap > limit:
                continue
        members = tuple([names[i] for i in order[start:end]])
        groups.append(_group(members, percents[order[start]], percents[order[end - 1]], single_sum))
        start = end
    return tuple(groups)


def clear_groups(
    names: Sequence[str],
    ratios: Sequence[float],
    percents: Sequence[Decimal],
    close: float,
    *,
    single_sum: str | None = None,
) -> tuple[RelativeValueGroup, ...] | None:
    """``groups_of`` for ratios each known only to within ``close`` (relative) of the ratio that
    decides: the groups when no decision turns on that difference (every two ratios farther apart
    than both could move, so the order is the same; every width test farther from the width than its
    two ratios could move), else None (the caller groups the exact ratios)."""
    order = sorted(range(len(ratios)), key=ratios.__getitem__)
    for low, high in zip(order, order[1:], strict=False):
        if not ratios[high] - ratios[low] > 4 * close * abs(ratios[high]):
            return None  # a tie, or two ratios the error could swap (or a NaN)
    return _groups(names, ratios, percents, order, _LIMITS[Decimal(5)], single_sum, close)


_LIMITS = {Decimal(5): float(Decimal(5)) + 1e-12}


@lru_cache(maxsize=1024)
def _members(members: tuple[str, ...]) -> tuple[str, ...]:
    """The first equal tuple of form names seen: one kept for the groups of a grid's dates that
    have the same members (fewer objects live for the garbage collector to walk)."""
    return members


__all__ = [
    "APPROX_EQUAL_HIGH",
    "APPROX_EQUAL_LOW",
    "AgeMethod",
    "Basis",
    "Conversion",
    "FlatRate",
    "Form",
    "FormKind",
    "FractionalConvention",
    "Interest",
    "RelativeValue",
    "RelativeValueGroup",
    "SegmentRates",
    "SurvivorKind",
    "Timing",
    "annuity_certain",
    "attained_age",
    "basis_417e",
    "clear_groups",
    "certain_and_life_annuity",
    "convert_life_annuity",
    "form_factor",
    "form_factors",
    "factors_from_rows",
    "group_relative_values",
    "groups_of",
    "joint_survivor_annuity",
    "life_annuities",
    "life_annuity_factors",
    "life_annuity",
    "lump_sum",
    "plan_basis",
    "ppa_transition_rates",
    "present_value",
    "pure_endowment",
    "relative_value",
    "relative_value_of_apvs",
    "temporary_life_annuity",
]
