"""The §417(e)(3) basis the law prescribes for a distribution date (minimum present values).

Every minimum present value (a lump sum, the §411(a)(11)(B) involuntary cash-out test, the
default relative-value basis) is valued on the basis in force for the plan year (before 2008) or the
stability period (from 2008) that contains the annuity starting date:

- plan years beginning 1995–2007 (GATT / RPA '94): the annual rate on 30-year Treasury securities for
  the plan's look-back month (former §417(e)(3)(A)(ii)(II)), with the applicable mortality table
  then in force (Rev. Rul. 95-6 before 12/31/2002; the Rev. Rul. 2001-62 table after, which the
  engine does not have: an error, see ``mortality``);
- plan years beginning 2008–2011 (PPA 2006 §302(b), 120 Stat. 920–921, former §417(e)(3)(D)(iii)):
  each of the three segment rates is the §430(h)(2)(G) transition blend
  ``p × segment rate + (100% − p) × the 30-year Treasury rate`` with the applicable percentage
  p = 20% (2008), 40% (2009), 60% (2010), 80% (2011) — the rates are blended, not two present
  values; the 30-year Treasury rate is the one the pre-2008 rules would use (§430(h)(2)(G)(i)(II)
  read with "section 417(e)(3)(A)(ii)(II)", PPA §302(b));
- from 2012: the three segment rates of the look-back month (§417(e)(3)(C)–(D)): payments due in
  the first 5 years at the first rate, 5–20 years at the second, beyond 20 at the third
  (§430(h)(2)(B); ``actuarial.SegmentRates``).

A plan's own pre-2006 words ("the 30-year Treasury rate") are overridden by the statute for plan
years from 2008: the plan supplies only its look-back month and its plan year or stability period.
Plans before 1995 used the PBGC basis, which is not in the engine (an error naming the date).

Market data are inputs (docs/engine-cli.md): ``assumptions.treasury_30y_monthly`` and
``assumptions.segment_rates`` (``{"YYYY-MM": [s1, s2, s3]}``), in percent. A missing month raises
``MissingMarketData`` with the JSON pointer of the input, so the caller can block only the figures
that need it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from benefits.engine.actuarial import Basis, FlatRate, Interest, SegmentRates
from benefits.engine.mortality import MortalityTable, applicable_417e_table, latest_417e_table
from benefits.engine.trace import Trace

HUNDRED = Decimal(100)
TREASURY_KEY = "treasury_30y_monthly"
SEGMENTS_KEY = "segment_rates"
FIRST_PLAN_YEAR = date(1995, 1, 1)  # GATT / RPA '94: the 30-year Treasury rate from 1995 plan years
PPA_FIRST_YEAR = 2008
FULL_SEGMENTS_YEAR = 2012
# PPA 2006 §302(b), former §417(e)(3)(D)(iii): the applicable percentage by plan year.
PHASE_IN = {2008: Decimal("0.20"), 2009: Decimal("0.40"), 2010: Decimal("0.60"), 2011: Decimal("0.80")}
SECTION = "IRC §417(e)(3); Treas. Reg. §1.417(e)-1(d)"


class MissingMarketData(LookupError):
    """A market rate the basis needs was not supplied; ``field`` is the JSON pointer of the input."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


class BasisNotAvailable(LookupError):
    """The law's basis for the date is not in the engine (before 1995, or a table not confirmed)."""


@dataclass(frozen=True)
class StatutoryBasis:
    """The §417(e)(3) basis for one distribution, with the words and trace step that explain it."""

    basis: Basis
    regime: str  # "treasury_30y" | "phase_in" | "segment_rates"
    lookback_month: str
    period_start: date
    rates_percent: tuple[Decimal, ...]  # the rate(s) applied: one flat rate, or three segment rates
    table: MortalityTable
    words: str
    trace: Trace


def lookback(on: date, months_before: int) -> str:
    """``YYYY-MM`` of the calendar month ``months_before`` months before ``on``'s month."""
    index = on.year * 12 + on.month - 1 - months_before
    return f"{index // 12:04d}-{index % 12 + 1:02d}"


def _percent(raw: object, pointer: str) -> Decimal:
    try:
        value = Decimal(str(raw))
    except (InvalidOperation, ValueError):
        raise MissingMarketData(pointer, f"not a percentage: {raw!r}") from None
    if not value.is_finite() or not Decimal(-10) < value < Decimal(30):
        raise MissingMarketData(pointer, f"not a plausible annual rate in percent: {raw!r}")
    return value


def treasury_rate(assumptions: Mapping[str, Any] | None, month: str) -> Decimal:
    """The 30-year Treasury rate (percent) for ``month`` from ``assumptions.treasury_30y_monthly``."""
    given = (assumptions or {}).get(TREASURY_KEY) or {}
    pointer = f"/assumptions/{TREASURY_KEY}/{month}"
    raw = given.get(month) if isinstance(given, Mapping) else None
    if raw is None or raw == "":
        raise MissingMarketData(
            pointer, f"the 30-year Treasury rate for {month} is needed and was not supplied"
        )
    return _percent(raw, pointer)


def missing_segment_rates(month: str) -> MissingMarketData:
    """The error for a month whose segment rates were not given (a modeler grid's projected months
    are noted with it without raising it)."""
    return MissingMarketData(
        f"/assumptions/{SEGMENTS_KEY}/{month}",
        f"the §417(e)(3) segment rates for {month} are needed and were not supplied",
    )


def segment_rates(assumptions: Mapping[str, Any] | None, month: str) -> tuple[Decimal, Decimal, Decimal]:
    """The three §417(e)(3) segment rates (percent) for ``month`` from ``assumptions.segment_rates``."""
    given = (assumptions or {}).get(SEGMENTS_KEY) or {}
    pointer = f"/assumptions/{SEGMENTS_KEY}/{month}"
    raw = given.get(month) if isinstance(given, Mapping) else None
    if raw is None:
        raise missing_segment_rates(month)
    if not isinstance(raw, list | tuple) or len(raw) != 3:
        raise MissingMarketData(pointer, "must be a list of the three segment rates [s1, s2, s3] in percent")
    a, b, c = (_percent(x, f"{pointer}/{i}") for i, x in enumerate(raw))
    return a, b, c


def phase_in_rates(
    year: int, segments: tuple[Decimal, Decimal, Decimal], treasury: Decimal
) -> tuple[Decimal, Decimal, Decimal]:
    """PPA 2006 §302(b) transition: each segment rate blended with the 30-year Treasury rate,
    p × segment + (1 − p) × Treasury, p = 20/40/60/80% for plan years beginning in 2008–2011."""
    p = PHASE_IN[year]
    a, b, c = (p * s + (1 - p) * treasury for s in segments)
    return a, b, c


def _fmt(rate: Decimal) -> str:
    return f"{rate.normalize():f}%"


def statutory_basis(
    distribution: date,
    assumptions: Mapping[str, Any] | None,
    *,
    lookback_month: str,
    period_start: date | None = None,
    projection: bool = False,
    traced: bool = True,
    **options: object,
) -> StatutoryBasis:
    """The §417(e)(3) basis for a distribution on ``distribution``.

    ``lookback_month`` (``YYYY-MM``) is the plan's look-back month for this distribution;
    ``period_start`` the first day of the plan year (before 2008) or stability period (from 2008)
    containing it (default: 1 January of its year). ``projection=True`` (a modelled future date) uses
    the latest published mortality table past the last one, saying so. ``options`` go to ``Basis``
    (frequency, timing, convention).

    ``traced`` false (a price grid that reads only the basis): the basis is unlabelled and the trace
    empty, neither made (the words are still given).

    Raises ``MissingMarketData`` (with the JSON pointer of the missing rate) or ``BasisNotAvailable``.
    """
    start = period_start or date(distribution.year, 1, 1)
    if start > distribution:
        raise ValueError("the plan year / stability period cannot start after the distribution")
    if start < FIRST_PLAN_YEAR:
        raise BasisNotAvailable(
            f"the §417(e)(3) basis for a plan year beginning {start.isoformat()} is the PBGC basis "
            "(plan years before 1995), which the engine does not have"
        )
    try:
        table = applicable_417e_table(distribution, period_start=start)
    except LookupError as exc:
        if not (projection and start.year > PPA_FIRST_YEAR):
            raise BasisNotAvailable(str(exc)) from None
        table = latest_417e_table(start.year)
    year = start.year
    interest: Interest
    rates: tuple[Decimal, ...]
    if year < PPA_FIRST_YEAR:
        t = treasury_rate(assumptions, lookback_month)
        regime, rates = "treasury_30y", (t,)
        interest = FlatRate(float(t / HUNDRED))
        words = (
            f"{table.name} and the 30-year Treasury rate for {lookback_month}, {_fmt(t)} "
            f"(plan year beginning {start.isoformat()}: §417(e)(3) before the Pension Protection Act)"
        )
    elif year < FULL_SEGMENTS_YEAR:
        seg = segment_rates(assumptions, lookback_month)
        t = treasury_rate(assumptions, lookback_month)
        rates = phase_in_rates(year, seg, t)
        regime = "phase_in"
        interest = SegmentRates(*(float(r / HUNDRED) for r in rates))
        pct = PHASE_IN[year] * HUNDRED
        words = (
            f"{table.name} and the {year} transition segment rates for {lookback_month}: "
            f"{pct.normalize():f}% of each segment rate ({', '.join(_fmt(s) for s in seg)}) plus "
            f"{(HUNDRED - pct).normalize():f}% of the 30-year Treasury rate ({_fmt(t)}) = "
            f"{' / '.join(_fmt(r) for r in rates)} (PPA 2006 §302(b))"
        )
    else:
        rates = segment_rates(assumptions, lookback_month)
        regime = "segment_rates"
        interest = SegmentRates(*(float(r / HUNDRED) for r in rates))
        words = (
            f"{table.name} and the §417(e)(3) segment rates for {lookback_month}: "
            f"{' / '.join(_fmt(r) for r in rates)} (payments in years 0–5 / 5–20 / after 20)"
        )
    basis = Basis(table, interest, label=words if traced else "", **options)  # type: ignore[arg-type]
    if not traced:
        return StatutoryBasis(basis, regime, lookback_month, start, tuple(rates), table, words, _UNTRACED)
    trace = Trace().add(
        f"Minimum present value basis for a distribution on {distribution.isoformat()}: {words}",
        section=SECTION + (", PPA 2006 §302(b)" if regime == "phase_in" else ""),
        result=" / ".join(_fmt(r) for r in rates),
        lookback_month=lookback_month,
        plan_year_or_stability_period_start=start,
        mortality_table=table.name,
        mortality_table_source=table.source,
        provisional_table=table.provisional,
    )
    return StatutoryBasis(basis, regime, lookback_month, start, tuple(rates), table, words, trace)


_UNTRACED = Trace()

__all__ = [
    "BasisNotAvailable",
    "MissingMarketData",
    "PHASE_IN",
    "StatutoryBasis",
    "lookback",
    "phase_in_rates",
    "segment_rates",
    "statutory_basis",
    "treasury_rate",
]
