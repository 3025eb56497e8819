"""Record ids read from a form or a query string: ASCII digits, at most 18 of them (inside PostgreSQL's
bigint), so a forged id is "not found", never a 500 (``int()`` of 5,001 digits raises, and a 20-digit
one overflows the column: issue 26)."""

from __future__ import annotations

MAX_ID_DIGITS = 18


def bounded_id(raw: object) -> int | None:
    """The id, or None when ``raw`` is not one (empty, a sign, non-ASCII digits, too long, zero)."""
    text = raw.strip() if isinstance(raw, str) else ""
    if not text or len(text) > MAX_ID_DIGITS or not (text.isascii() and text.isdigit()):
        return None
    value = int(text)
    return value or None
