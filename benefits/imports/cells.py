"""Cell validators: each turns one cell's text into a value or raises ``CellError`` with a plain reason."""

from __future__ import annotations

import re
from datetime import date
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation


class CellError(ValueError):
    pass


# A cell that a spreadsheet would run as a formula when the data is exported and opened again.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
US_DATE = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$")
EARLIEST = date(1900, 1, 1)
LATEST = date(2100, 12, 31)


def text(raw: str, *, max_length: int, required: bool = True) -> str:
    if raw == "":
        if required:
            raise CellError("is required")
        return ""
    if raw.startswith(FORMULA_START):
        raise CellError("must not start with =, +, -, @ (a spreadsheet would run it as a formula)")
    if len(raw) > max_length:
        raise CellError(f"is longer than {max_length} characters")
    if any(ord(c) < 32 and c not in "\n" for c in raw):
        raise CellError("contains control characters")
    return raw


def optional_date(raw: str) -> date | None:
    return None if raw == "" else a_date(raw)


def a_date(raw: str) -> date:
    if raw == "":
        raise CellError("is required")
    m = US_DATE.match(raw)
    try:
        if ISO_DATE.match(raw):
            value = date.fromisoformat(raw)
        elif m:
            value = date(int(m.group(3)), int(m.group(1)), int(m.group(2)))
        else:
            raise ValueError
    except ValueError:
        raise CellError(f"is not a date (write YYYY-MM-DD): {raw[:40]!r}") from None
    if not EARLIEST <= value <= LATEST:
        raise CellError(f"is outside {EARLIEST.year}–{LATEST.year}")
    return value


def a_month(raw: str) -> date:
    """A month as YYYY-MM (or a date, whose month is taken): the first of that month."""
    if re.match(r"^\d{4}-\d{2}$", raw):
        raw = f"{raw}-01"
    return a_date(raw).replace(day=1)


def integer(raw: str, *, low: int, high: int) -> int:
    if raw == "":
        raise CellError("is required")
    if not re.match(r"^-?\d{1,12}(\.0+)?$", raw.replace(",", "")):
        raise CellError(f"is not a whole number: {raw[:40]!r}")
    value = int(Decimal(raw.replace(",", "")))
    if not low <= value <= high:
        raise CellError(f"must be between {low:,} and {high:,} (got {value:,})")
    return value


def year(raw: str) -> int:
    return integer(raw, low=1900, high=2100)


def decimal(raw: str, *, places: int, low: Decimal, high: Decimal) -> Decimal:
    """A number with at most ``places`` decimals, between ``low`` and ``high``; "$" and "," are allowed."""
    if raw == "":
        raise CellError("is required")
    cleaned = raw.replace(",", "").replace("$", "").strip()
    if cleaned.endswith("%"):
        cleaned = cleaned[:-1]
    if not re.match(r"^-?\d{1,15}(\.\d{1,10})?$", cleaned):
        raise CellError(f"is not a number: {raw[:40]!r}")
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        raise CellError(f"is not a number: {raw[:40]!r}") from None
    if value != value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP):
        raise CellError(f"has more than {places} decimal places")
    if not low <= value <= high:
        raise CellError(f"must be between {low:,} and {high:,} (got {value:,})")
    return value.quantize(Decimal(1).scaleb(-places))


def choice(raw: str, options: dict[str, str]) -> str:
    key = raw.strip().lower()
    if key not in options:
        raise CellError(f"must be one of {', '.join(options)} (got {raw[:40]!r})")
    return options[key]
