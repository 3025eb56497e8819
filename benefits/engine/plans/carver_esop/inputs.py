"""Carver ESOP plan data read from ``plan_data`` with JSON-pointer errors."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from benefits.engine.core import ParticipantError
from benefits.engine.money import to_decimal


def _error(field: str, message: str) -> ParticipantError:
    """A bad ``plan_data`` value: the JSON pointer and the rule."""
    return ParticipantError(field, message)


def _dec(pd: Mapping[str, Any], key: str) -> Decimal:
    try:
        v = pd[key]
        return to_decimal(str(v) if isinstance(v, float) else v)
    except (InvalidOperation, TypeError) as exc:
        raise _error(f"/plan_data/{key}", f"plan_data.{key} is not a number") from exc
