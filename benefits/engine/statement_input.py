"""Reading ``plan_data.statement`` (project-added) for the account plans' statements on the CLI.

Every bad value raises ``ParticipantError`` whose field is the JSON pointer inside the participant
(``/plan_data/statement/transactions/3/kind``); the request runner prefixes ``/participants/<i>``, so
one participant's bad statement never stops the others. Money is a decimal string (ints accepted,
floats refused: they are not exact), dates ISO 8601.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from .core import CoreResult, ParticipantError, core_with_settings
from .money import to_decimal, to_money

BASE = "/plan_data/statement"
_MISSING = object()


def section(plan_data: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The statement inputs, or None when the participant asks for no statement."""
    raw = plan_data.get("statement")
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise ParticipantError(BASE, "statement must be an object")
    return raw


def _get(obj: Mapping[str, Any], key: str, ptr: str, default: Any) -> Any:
    raw = obj.get(key, _MISSING)
    if raw is _MISSING or raw is None:
        if default is _MISSING:
            raise ParticipantError(f"{ptr}/{key}", f"{key} is required")
        return default
    return raw


def get_date(obj: Mapping[str, Any], key: str, ptr: str) -> date:
    raw = _get(obj, key, ptr, _MISSING)
    try:
        return date.fromisoformat(raw)
    except (TypeError, ValueError):
        raise ParticipantError(f"{ptr}/{key}", f"{key} must be an ISO date (YYYY-MM-DD)") from None


def get_decimal(obj: Mapping[str, Any], key: str, ptr: str, default: Any = _MISSING) -> Decimal:
    raw = _get(obj, key, ptr, default)
    if isinstance(raw, Decimal):
        return raw
    try:
        if isinstance(raw, float):
            raise TypeError
        value = to_decimal(raw)
        if not value.is_finite():
            raise InvalidOperation
    except (TypeError, InvalidOperation, ValueError):
        raise ParticipantError(f"{ptr}/{key}", f"{key} must be a decimal string") from None
    return value


def get_money(obj: Mapping[str, Any], key: str, ptr: str, default: Any = _MISSING) -> Decimal:
    return to_money(get_decimal(obj, key, ptr, default))


def get_money_map(obj: Mapping[str, Any], key: str, ptr: str, keys: Collection[str]) -> dict[str, Decimal]:
    raw = obj.get(key)
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise ParticipantError(f"{ptr}/{key}", f"{key} must be an object {{source: amount}}")
    for k in raw:
        if k not in keys:
            raise ParticipantError(f"{ptr}/{key}/{k}", f"unknown source {k!r}: one of {', '.join(keys)}")
    return {str(k): get_money(raw, k, f"{ptr}/{key}") for k in raw}


def get_choice(obj: Mapping[str, Any], key: str, ptr: str, allowed: Collection[str]) -> str:
    raw = _get(obj, key, ptr, _MISSING)
    if raw not in allowed:
        raise ParticipantError(f"{ptr}/{key}", f"{key} must be one of {', '.join(allowed)} (not {raw!r})")
    return str(raw)


def get_items(obj: Mapping[str, Any], key: str, ptr: str) -> list[tuple[str, Mapping[str, Any]]]:
    """A list of objects as (pointer of the item, item); absent means empty."""
    raw = obj.get(key)
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise ParticipantError(f"{ptr}/{key}", f"{key} must be a list")
    out = []
    for i, item in enumerate(raw):
        if not isinstance(item, Mapping):
            raise ParticipantError(f"{ptr}/{key}/{i}", "each item must be an object")
        out.append((f"{ptr}/{key}/{i}", item))
    return out


def get_period(obj: Mapping[str, Any], as_of: date) -> tuple[date, date]:
    """``start`` and ``end`` (inclusive); a statement describes the past, so it ends by ``as_of``."""
    start, end = get_date(obj, "start", BASE), get_date(obj, "end", BASE)
    if end < start:
        raise ParticipantError(f"{BASE}/end", "end is before start")
    if end > as_of:
        raise ParticipantError(f"{BASE}/end", f"end is after as_of ({as_of.isoformat()})")
    return start, end


def core_at(
    core: CoreResult,
    participant: Any,
    as_of: date,
    end: date,
    core_fn: Callable[..., CoreResult],
    *,
    uses_benefit_settings: bool = False,
) -> CoreResult:
    """The plan's service/vesting result on the period's last day (the request's when that is as_of)."""
    if end == as_of:
        return core
    try:
        return core_with_settings(
            core_fn, participant, end, core.settings, uses_benefit_settings=uses_benefit_settings
        )
    except ParticipantError as exc:
        raise ParticipantError(f"{BASE}/end", f"no vesting result at the period end: {exc}") from None


def shares_str(value: Decimal) -> str:
    """Shares as an exact decimal string (never rounded: share counts carry their own places)."""
    return format(to_decimal(value), "f")
