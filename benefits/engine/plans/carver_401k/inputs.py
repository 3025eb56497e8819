"""Carver 401(k) plan data read from ``plan_data`` with JSON-pointer errors (money, yearly amounts,
payroll), the benefit settings in force and the vesting percentages from the service rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from benefits.engine.core import ParticipantError
from benefits.engine.money import ZERO, to_decimal, to_money

from .contributions import PayPeriod
from .distributions import AnnuityQuote
from .settings import DEFAULT_SETTINGS, BenefitSettings
from .sources import scheduled_sources


def _money(raw: Any, ptr: str) -> Decimal:
    if isinstance(raw, bool) or raw is None:
        raise ParticipantError(ptr, "must be a decimal string")
    try:
        return to_money(raw)
    except (TypeError, InvalidOperation, ValueError):
        raise ParticipantError(ptr, "must be a decimal string") from None


def _money_map(raw: Any, ptr: str, keys: tuple[str, ...] | None = None) -> dict[str, Decimal]:
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise ParticipantError(ptr, "must be an object")
    out = {}
    for k, v in raw.items():
        if keys is not None and k not in keys:
            raise ParticipantError(f"{ptr}/{k}", f"unknown source {k!r}")
        out[str(k)] = _money(v, f"{ptr}/{k}")
    return out


def _year_map(raw: Any, ptr: str) -> dict[int, Decimal]:
    out = {}
    for k, v in _money_map(raw, ptr).items():
        try:
            out[int(k)] = v
        except ValueError:
            raise ParticipantError(f"{ptr}/{k}", "key must be a year") from None
    return out


def _payroll(pd: Mapping[str, Any], year: int) -> list[PayPeriod]:
    """``plan_data.payroll``: {"YYYY": [{"start", "compensation", "deferral"}]}, the payroll detail
    the per-period match (A6) needs; without it the match is computed from the year's totals."""
    raw = (pd.get("payroll") or {}).get(str(year)) or []
    out = []
    for i, item in enumerate(raw):
        ptr = f"/plan_data/payroll/{year}/{i}"
        try:
            start = date.fromisoformat(item["start"])
        except (KeyError, TypeError, ValueError):
            raise ParticipantError(f"{ptr}/start", "must be an ISO date") from None
        out.append(
            PayPeriod(
                start,
                _money(item.get("compensation"), f"{ptr}/compensation"),
                deferral=_money(item.get("deferral", "0"), f"{ptr}/deferral"),
            )
        )
    return out


def _settings(core: Any) -> BenefitSettings:
    s = (getattr(core, "settings", None) or {}).get("benefits")
    return s if isinstance(s, BenefitSettings) else DEFAULT_SETTINGS


def _percents(core: Any, settings: BenefitSettings) -> tuple[Decimal, dict[str, Decimal]]:
    """The §4.1(c) percentage from the service rules, and any per-source percentage they give."""
    overall = to_decimal(core.vesting.percent) if core is not None else ZERO
    by = {}
    scheduled = scheduled_sources(settings)
    for src, res in (getattr(core, "by_source", None) or {}).items():
        if src in scheduled:
            by[src] = to_decimal(res.percent)
    return overall, by


def _quotes(assumptions: Mapping[str, Any], on: date) -> dict[str, AnnuityQuote]:
    """``assumptions.annuity_quotes``: {form: monthly per $1,000} or {date: {form: monthly per $1,000}}."""
    raw = assumptions.get("annuity_quotes") or {}
    if not isinstance(raw, Mapping):
        raise ParticipantError("/assumptions/annuity_quotes", "must be an object")
    dated = raw.get(on.isoformat())
    table = (
        dated if isinstance(dated, Mapping) else {k: v for k, v in raw.items() if not isinstance(v, Mapping)}
    )
    out = {}
    for form, v in table.items():
        try:
            out[form] = AnnuityQuote(form, to_decimal(str(v)))
        except (InvalidOperation, TypeError):
            raise ParticipantError(
                f"/assumptions/annuity_quotes/{form}", "must be a decimal string"
            ) from None
    return out
