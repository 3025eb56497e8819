"""Plan settings: the SPECs' GAP readings as named, documented, overridable values.

Each plan declares frozen dataclasses whose fields carry ``metadata`` made with ``setting(...)``:
the plan section, the GAP number, the alternative reading, and whether the value is REQUIRED
(no default can stand in for the plan text; ``None`` then means "not confirmed" and the app must
ask an administrator). Helpers here list, validate and override them without naming any plan.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

# A reading is a count, an age, a year, a percent, a rate or a dollar threshold: none is negative
# and none reaches these bounds, so a value outside them is a typing slip, never a plan's choice.
READING_INT_MAX = 100_000
READING_DECIMAL_MAX = Decimal("10000000")
READING_DATE_MIN, READING_DATE_MAX = date(1900, 1, 1), date(2199, 12, 31)


class SettingError(ValueError):
    """A setting name or value is invalid; ``name`` is the setting's name."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(message)
        self.name = name


def setting(
    default: Any,
    *,
    section: str,
    gap: str = "",
    alternative: str = "",
    required: bool = False,
    help: str = "",
) -> Any:
    """A dataclass field for a plan setting, with its documentation as metadata."""
    meta = {
        "section": section,
        "gap": gap,
        "alternative": alternative,
        "required": required,
        "help": help,
    }
    if isinstance(default, list | dict | set):
        raise TypeError("settings defaults must be immutable (use a tuple)")
    return dataclasses.field(default=default, metadata=meta)


def describe(cls: type) -> list[dict[str, Any]]:
    """One row per setting of a settings class: name, default, documentation (for the web app)."""
    hints = typing.get_type_hints(cls)
    rows = []
    for f in dataclasses.fields(cls):
        rows.append(
            {
                "name": f.name,
                "type": _type_name(hints.get(f.name)),
                "default": f.default,
                **f.metadata,
            }
        )
    return rows


def unconfirmed(settings: Any) -> tuple[str, ...]:
    """Names of REQUIRED settings still ``None`` (not confirmed by an administrator)."""
    return tuple(
        f.name
        for f in dataclasses.fields(settings)
        if f.metadata.get("required") and getattr(settings, f.name) is None
    )


def field_names(cls: type) -> frozenset[str]:
    return frozenset(f.name for f in dataclasses.fields(cls))


def override(settings: Any, values: Mapping[str, Any]) -> Any:
    """A copy of ``settings`` with ``values`` (JSON-like) converted to each field's type."""
    hints = typing.get_type_hints(type(settings))
    names = field_names(type(settings))
    changes = {}
    for name, raw in values.items():
        if name not in names:
            raise SettingError(name, f"unknown setting {name!r}")
        changes[name] = _convert(name, hints[name], raw)
    return dataclasses.replace(settings, **changes)


def _type_name(tp: object) -> str:
    return getattr(tp, "__name__", None) or str(tp).replace("typing.", "")


def _convert(name: str, tp: Any, raw: Any) -> Any:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        if raw is None and type(None) in args:
            return None
        errors = []
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _convert(name, arg, raw)
            except SettingError as exc:
                errors.append(str(exc))
        raise SettingError(name, "; ".join(errors) or f"{name}: bad value")
    if origin is tuple:
        if not isinstance(raw, list | tuple):
            raise SettingError(name, f"{name} must be a list")
        if len(args) == 2 and args[1] is Ellipsis or len(args) <= 1:  # tuple[X, ...]: any length
            item = args[0] if args else Any
            return tuple(raw if item is Any else [_convert(name, item, v) for v in raw])
        if len(raw) != len(args):  # tuple[X, Y]: one value per position
            raise SettingError(name, f"{name} must be a list of {len(args)} values")
        return tuple(_convert(name, arg, v) for arg, v in zip(args, raw, strict=True))
    if origin is typing.Literal:
        if raw not in args:
            raise SettingError(name, f"{name} must be one of {', '.join(map(repr, args))}")
        return raw
    if tp is bool:
        if not isinstance(raw, bool):
            raise SettingError(name, f"{name} must be true or false")
        return raw
    if tp is int:
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise SettingError(name, f"{name} must be an integer")
        if not 0 <= raw <= READING_INT_MAX:
            raise SettingError(name, f"{name} must be a whole number from 0 to {READING_INT_MAX:,}")
        return raw
    if tp is str:
        if not isinstance(raw, str):
            raise SettingError(name, f"{name} must be a string")
        return raw
    if tp is Decimal:
        try:
            if isinstance(raw, bool | float) or (isinstance(raw, str) and len(raw) > 40):
                raise InvalidOperation
            if isinstance(raw, int) and abs(raw) > READING_DECIMAL_MAX:
                raise SettingError(name, f"{name} must be a number from 0 to {READING_DECIMAL_MAX:,}")
            value = Decimal(str(raw))
        except (InvalidOperation, ValueError, TypeError) as exc:
            if isinstance(exc, SettingError):
                raise
            raise SettingError(name, f"{name} must be a decimal string") from None
        if not value.is_finite():
            raise SettingError(name, f"{name} must be a finite number (not NaN or infinity)")
        if not 0 <= value <= READING_DECIMAL_MAX:
            raise SettingError(name, f"{name} must be a number from 0 to {READING_DECIMAL_MAX:,}")
        return value
    if tp is date:
        if isinstance(raw, date):
            day = raw
        else:
            try:
                day = date.fromisoformat(raw)
            except (TypeError, ValueError):
                raise SettingError(name, f"{name} must be an ISO date") from None
        if not READING_DATE_MIN <= day <= READING_DATE_MAX:
            raise SettingError(
                name,
                f"{name} must lie between {READING_DATE_MIN.isoformat()} and {READING_DATE_MAX.isoformat()}",
            )
        return day
    return raw
