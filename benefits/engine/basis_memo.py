"""The §417(a)(3) comparison bases of a grid's dates, kept between requests.

``relative_value.comparison_basis`` for an ASD depends on the date, the plan's comparison rules, the
participant's marital status (which form is compared), the pinned mortality table and the market data
it reads (the segment rates, the plan's rate and its default), never on anyone's benefit: the
modeler's participants of one plan share the months of their grids and the request's market data,
and a grid of hundreds of dates formed each basis (its words and sentences) again on every request.

``dates_memo`` gives the memo of one such context, the dict ``{asd: (basis, note)}`` the caller
fills (``memo_of`` any other basis made from the date and the market data alone, as carver-db's
§417(e)(3) cash-out basis of each date), or None where a basis may not be reused: while regulatory
reads are recorded (a traced figure lists each read) or a §417(e)(3) table is loaded as an input (the
table choice then depends on it), or when a market-data value cannot be told apart from another by a key (the key keeps
each value's type and text: "4.60" and "4.6", 4.6 and Decimal("4.6") write different words). The
plan's reading of Rev. Rul. 2001-62 (``revrul_2001_62_reading``: which table a 2003-2007 ASD is
valued on, and whether the plan confirmed it) is part of every key.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import suppress
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from benefits.engine.mortality import MortalityTable, loaded_417e_signature, revrul_2001_62_state
from benefits.engine.parameters import current_reads

if TYPE_CHECKING:
    from benefits.engine.relative_value import ComparisonRules

CONTEXTS = 64  # market-data sets and plans kept (the oldest dropped first)
DATES = 4096  # dates kept in one context

_MEMOS: dict[tuple[Any, ...], dict[Any, Any]] = {}


class _Unkeyable(Exception):
    """A market-data value the key cannot hold faithfully."""


def _frozen(value: object, depth: int = 0) -> object:
    """``value`` as a hashable key that tells apart any two values the bases could read differently."""
    kind = type(value)
    if value is None or kind in (str, int, bool):
        return (kind, value)
    if kind in (float, Decimal):
        return (kind, repr(value))  # equal numbers, different texts (and -0.0): told apart
    if depth < 2 and isinstance(value, Mapping):
        return ("map", tuple((_frozen(k, 2), _frozen(v, depth + 1)) for k, v in value.items()))
    if depth < 2 and kind in (list, tuple):
        return (kind, tuple(_frozen(v, 2) for v in value))  # type: ignore[attr-defined]
    raise _Unkeyable


def dates_memo(
    assumptions: Mapping[str, Any] | None,
    rules: ComparisonRules,
    *,
    married: bool,
    table: MortalityTable | None,
) -> dict[Any, Any] | None:
    """The memo of the comparison bases for this context (see the module), or None."""
    keys = (rules.segment_rates_key, rules.rate_key, rules.rate_default_key)
    return memo_of((rules, married, table), assumptions, keys)


def memo_of(
    context: tuple[Any, ...], assumptions: Mapping[str, Any] | None, keys: tuple[str | None, ...]
) -> dict[Any, Any] | None:
    """The memo of one context: ``context`` (hashable) and the market data under ``keys`` (None: no
    key) the kept values are made from, or None where nothing may be kept (see the module)."""
    if current_reads() is not None or loaded_417e_signature():
        return None
    a = assumptions or {}
    try:
        key = (
            *context,
            revrul_2001_62_state(),  # the table of a 2003-2007 ASD is the plan's reading's
            *(None if k is None else _frozen(a.get(k)) for k in keys),
        )
        memo = _MEMOS.get(key)
    except (_Unkeyable, TypeError):  # TypeError: a value unhashable all the same
        return None
    if memo is None:
        if len(_MEMOS) >= CONTEXTS:
            # the oldest context dropped (another thread may have dropped it, or changed the dict, first)
            with suppress(StopIteration, RuntimeError):
                _MEMOS.pop(next(iter(_MEMOS)), None)
        memo = _MEMOS.setdefault(key, {})
    return memo


def forget() -> None:
    """Drop every kept basis (a benchmark's first request of its market data; a test's fresh start)."""
    _MEMOS.clear()
