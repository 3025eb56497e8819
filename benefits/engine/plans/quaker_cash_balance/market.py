"""Market data the plan refers to but does not contain: always inputs, each with its source.

* §4.4(c) Treasury Rate: "the current annual yield on 10-year Treasury Securities (Constant
  Maturities) for the month of November of the preceding Plan Year" [EXT-3]. Contract key
  ``assumptions.treasury_10y_november`` = ``{"YYYY": percent}``; Plan Year Y uses key Y-1.
* §1.2(e) Applicable Interest Rate: "the annual rate of interest on 30-year Treasury securities for
  the second (2nd) month before the date of distribution" [EXT-1]. Key
  ``assumptions.applicable_interest_rate`` = ``{"YYYY-MM": percent}``, with an optional flat
  ``assumptions.applicable_interest_rate_default`` (percent) for months not listed; without it, a
  month after the last one given holds that last rate (a projection), and a gap is an error.
* §1.2(f) Applicable Mortality Table [EXT-2]: by default the table in force on the ASD (shared
  mortality module); ``assumptions.applicable_mortality_table`` pins one (the SPEC's examples pin
  the Rev. Rul. 95-6 table, assumption A3).
* GAP-4 projections: ``assumptions.treasury_10y_projection`` (percent) for Plan Years after the last
  November given; without it the last known rate is held flat. Either way the value is an estimate.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from types import MappingProxyType
from typing import Any, cast

from benefits.engine.dates import add_months

HUNDRED = Decimal(100)


class MarketDataError(ValueError):
    """Missing or malformed market data; ``field`` is the JSON pointer of the input."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass(frozen=True)
class Rate:
    """An annual rate (a fraction, 0.045 = 4.5%) with where it came from."""

    value: Decimal
    source: str
    estimate: bool = False


def _percent(raw: object, pointer: str) -> Decimal:
    try:
        value = Decimal(str(raw))
    except (InvalidOperation, ValueError) as exc:
        raise MarketDataError(pointer, f"not a percentage: {raw!r}") from exc
    if not value.is_finite():
        raise MarketDataError(pointer, f"not a percentage: {raw!r}")
    return value / HUNDRED


@dataclass(frozen=True)
class MarketData:
    treasury_10y_november: Mapping[int, Decimal] = field(default_factory=lambda: MappingProxyType({}))
    treasury_10y_projection: Decimal | None = None
    applicable_interest_rate: Mapping[tuple[int, int], Decimal] = field(
        default_factory=lambda: MappingProxyType({})
    )
    applicable_interest_rate_default: Decimal | None = None
    applicable_mortality_table: str | None = None
    # Each Treasury Rate once looked up (the data never changes): a ledger asks for every year's.
    _treasury: dict[tuple[int, bool], Rate] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _air: dict[tuple[int, int], Rate] = field(default_factory=dict, init=False, repr=False, compare=False)
    # Values derived from the data alone (each year's quarterly credit rate and its words), made once.
    _derived: dict[object, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def derived[T](self, key: object, compute: Callable[[], T]) -> T:
        """``compute()``, made once for this data and ``key`` (which names everything else it reads)."""
        try:
            return cast(T, self._derived[key])
        except KeyError:
            value = self._derived[key] = compute()
            return value

    # -- §4.4(c) ---------------------------------------------------------------------------------
    def treasury_rate(self, plan_year: int, *, allow_estimate: bool) -> Rate:
        """The Treasury Rate for Plan Year ``plan_year`` (November of the year before)."""
        key = (plan_year, allow_estimate)
        rate = self._treasury.get(key)
        if rate is None:
            rate = self._treasury[key] = self._treasury_rate(plan_year, allow_estimate)
        return rate

    def _treasury_rate(self, plan_year: int, allow_estimate: bool) -> Rate:
        november = plan_year - 1
        if november in self.treasury_10y_november:
            return Rate(
                self.treasury_10y_november[november],
                f"10-year Treasury CMT, November {november} (assumptions.treasury_10y_november)",
            )
        pointer = f"/assumptions/treasury_10y_november/{november}"
        if not allow_estimate:
            raise MarketDataError(pointer, f"the November {november} 10-year Treasury yield is missing")
        if self.treasury_10y_projection is not None:
            return Rate(
                self.treasury_10y_projection,
                "projection assumption (assumptions.treasury_10y_projection)",
                estimate=True,
            )
        known = [y for y in self.treasury_10y_november if y < november]
        if not known:
            raise MarketDataError(pointer, f"the November {november} 10-year Treasury yield is missing")
        last = max(known)
        return Rate(
            self.treasury_10y_november[last],
            f"November {last} yield held flat for projection (GAP-4)",
            estimate=True,
        )

    # -- §1.2(e) ---------------------------------------------------------------------------------
    def applicable_interest_rate_for(self, distribution: date) -> Rate:
        """The 30-year Treasury rate for the 2nd calendar month before the distribution month (each
        month's looked up once: the data never changes, and a census asks for the same months)."""
        key = (distribution.year, distribution.month)
        rate = self._air.get(key)
        if rate is None:
            rate = self._air[key] = self._applicable_interest_rate_for(distribution)
        return rate

    def _applicable_interest_rate_for(self, distribution: date) -> Rate:
        look = add_months(date(distribution.year, distribution.month, 1), -2)
        key = (look.year, look.month)
        if key in self.applicable_interest_rate:
            return Rate(
                self.applicable_interest_rate[key],
                f"30-year Treasury rate for {look:%Y-%m} (assumptions.applicable_interest_rate)",
            )
        if self.applicable_interest_rate_default is not None:
            return Rate(
                self.applicable_interest_rate_default,
                f"flat rate for {look:%Y-%m} (assumptions.applicable_interest_rate_default)",
                estimate=True,
            )
        if self.applicable_interest_rate and key > max(self.applicable_interest_rate):
            last = max(self.applicable_interest_rate)
            return Rate(
                self.applicable_interest_rate[last],
                f"{last[0]}-{last[1]:02d} rate held flat for {look:%Y-%m} (projection, GAP-4)",
                estimate=True,
            )
        raise MarketDataError(
            f"/assumptions/applicable_interest_rate/{look:%Y-%m}",
            f"the 30-year Treasury rate for {look:%Y-%m} is missing (§1.2(e))",
        )

    @classmethod
    def from_assumptions(cls, assumptions: Mapping[str, Any] | None) -> MarketData:
        """Parse the request's ``assumptions`` object (percent strings or numbers); the same
        assumptions (by value and type) give the same, shared ``MarketData``: a census parses its
        request's once; the very assumptions object of the last call, unchanged since, gives its
        ``MarketData`` without a key (a census passes its header's object for every participant)."""
        global _LAST
        last = _LAST  # one tuple, read once (another thread may replace it)
        if (
            last is not None
            and last[0] is assumptions
            and _unchanged(cast(Mapping[object, object], assumptions), last[1])
        ):
            return last[2]
        try:
            key = _frozen(assumptions)
        except TypeError:  # something unhashable: parse it (and raise what is wrong with it)
            return cls._parse(assumptions)
        market = _PARSED.get(key)
        if market is None:
            market = cls._parse(assumptions)
            if len(_PARSED) >= 64:
                _PARSED.clear()
            _PARSED[key] = market
        snapshot = _snapshot(assumptions)
        _LAST = None if snapshot is None else (assumptions, snapshot, market)
        return market

    @classmethod
    def _parse(cls, assumptions: Mapping[str, Any] | None) -> MarketData:
        a = assumptions or {}
        nov: dict[int, Decimal] = {}
        raw_nov = a.get("treasury_10y_november") or {}
        if not isinstance(raw_nov, Mapping):
            raise MarketDataError("/assumptions/treasury_10y_november", "must be an object")
        for key, raw in raw_nov.items():
            pointer = f"/assumptions/treasury_10y_november/{key}"
            if not str(key).isdigit():
                raise MarketDataError(pointer, "keys must be years YYYY")
            nov[int(key)] = _percent(raw, pointer)
        air: dict[tuple[int, int], Decimal] = {}
        raw_air = a.get("applicable_interest_rate") or {}
        if not isinstance(raw_air, Mapping):
            raise MarketDataError("/assumptions/applicable_interest_rate", "must be an object")
        for key, raw in raw_air.items():
            pointer = f"/assumptions/applicable_interest_rate/{key}"
            parts = str(key).split("-")
            if len(parts) != 2 or not all(p.isdigit() for p in parts) or not 1 <= int(parts[1]) <= 12:
                raise MarketDataError(pointer, "keys must be months YYYY-MM")
            air[(int(parts[0]), int(parts[1]))] = _percent(raw, pointer)
        proj = a.get("treasury_10y_projection")
        dflt = a.get("applicable_interest_rate_default")
        table = a.get("applicable_mortality_table")
        return cls(
            treasury_10y_november=MappingProxyType(nov),
            treasury_10y_projection=None
            if proj is None
            else _percent(proj, "/assumptions/treasury_10y_projection"),
            applicable_interest_rate=MappingProxyType(air),
            applicable_interest_rate_default=None
            if dflt is None
            else _percent(dflt, "/assumptions/applicable_interest_rate_default"),
            applicable_mortality_table=None if table is None else str(table),
        )


_PARSED: dict[object, MarketData] = {}
_SCALARS = frozenset({str, int, float, bool, Decimal, type(None)})
Snapshot = tuple[tuple[object, object, tuple[tuple[object, object], ...] | None], ...]
# The last assumptions object parsed (kept alive, so ``is`` names it), its snapshot and its data.
_LAST: tuple[object, Snapshot, MarketData] | None = None


def _snapshot(assumptions: object) -> Snapshot | None:
    """Each item of the assumptions, a text-to-text object (the yearly rates) with its items: what
    ``_unchanged`` compares. None unless every value is that or a scalar (which cannot change)."""
    if type(assumptions) is not dict and type(assumptions) is not MappingProxyType:
        return None
    items: list[tuple[object, object, tuple[tuple[object, object], ...] | None]] = []
    for k, v in cast(Mapping[object, object], assumptions).items():
        if type(v) in _SCALARS:
            items.append((k, v, None))
        elif type(v) is dict and {*map(type, v), *map(type, v.values())} <= {str}:
            items.append((k, v, tuple(v.items())))
        else:
            return None
    return tuple(items)


def _unchanged(assumptions: Mapping[object, object], snapshot: Snapshot) -> bool:
    """Whether the assumptions still hold what ``snapshot`` saw: the same keys, the same scalar
    objects, each text object the same (equal to text only text is, so still text to text)."""
    if len(assumptions) != len(snapshot):
        return False
    for (k, v), (k0, v0, items) in zip(assumptions.items(), snapshot, strict=True):
        if k != k0 or type(k) is not str:
            return False
        if items is None:
            if v is not v0:
                return False
        elif type(v) is not dict or len(v) != len(items) or tuple(v.items()) != items:
            return False
    return True


def _frozen(value: object) -> object:
    """A hashable copy of decoded JSON that keeps what parsing can tell apart: each value's type and
    its exact text (``1``, ``1.0``, ``"1"``, ``True`` and ``Decimal("1.00")`` parse differently).
    TypeError for anything but JSON's values and Decimals (not worth a key: parsed every time)."""
    if type(value) in _SCALARS:
        return (type(value), repr(value))
    if isinstance(value, Mapping):
        if type(value) is dict and {*map(type, value), *map(type, value.values())} <= {str}:
            # Text keys to text values (the yearly rates): their items are their exact text.
            return ("{str}", tuple(value.items()))
        if all(type(k) is str for k in value):  # text keys: their exact text
            return ("{str:}", tuple([(k, _frozen(v)) for k, v in value.items()]))
        return ("{}", tuple([(_frozen(k), _frozen(v)) for k, v in value.items()]))
    if isinstance(value, list | tuple):
        return ("[]", tuple([_frozen(v) for v in value]))
    raise TypeError(f"not a JSON value: {type(value).__name__}")
