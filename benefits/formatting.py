"""The one place amounts, percents, share counts and dates become text for people (issue 23 item 5).

Every page, PDF and message prints through these functions (the template filters in
``benefits.templatetags.formatting`` call them; presenters and message builders import them), so an
amount reads one way everywhere:

- money: ``-$1,234.50`` (the minus before the dollar sign, US style), ``$0.00``, ``$12,345,678.90``;
  rounded half up to cents, whatever the Decimal's exponent (``Decimal("5E+1")`` is ``$50.00``);
- percents: ``50%``, ``2.5%``, ``1.0225%`` (at most four decimals, no trailing zeros, never ``5E+1%``);
- share counts: ``1,250.0000`` (grouped, four decimals fixed: the plans keep shares to four places);
- dates: ``April 1, 2027``; months ``April 2027``; moments ``April 1, 2027 at 2:05 p.m.``.

Written with the standard library's Decimal formatting for the en_US conventions the product uses
(the only locale it prints), so it adds no dependency. Non-numbers pass through as text; ``None`` and
``""`` print as "" so a missing figure shows as a blank, never as "None".
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

MINUS = "-"
SHARE_PLACES = 4
PERCENT_MAX_PLACES = 4


def to_decimal(value: object) -> Decimal | None:
    """``value`` as a finite Decimal (from a Decimal, int, float's text or a string), else None."""
    if value is None or value == "" or isinstance(value, bool):
        return None
    if isinstance(value, Decimal):
        d = value
    else:
        try:
            d = Decimal(str(value).strip().replace(",", "").replace("$", ""))
        except (InvalidOperation, ValueError):
            return None
    return d if d.is_finite() else None


def _quantize(d: Decimal, places: int) -> Decimal:
    return d.quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP)


def number(value: object, places: int = 2) -> str:
    """A grouped number with ``places`` decimals fixed: ``1,234,567.50``; ``-0.00`` never prints."""
    d = to_decimal(value)
    if d is None:
        return "" if value in (None, "") else str(value)
    q = _quantize(d, places)
    if q == 0:
        q = abs(q)
    text = f"{abs(q):,.{places}f}"
    return f"{MINUS}{text}" if q < 0 else text


def money(value: object, places: int = 2) -> str:
    """``-$1,234.50``: dollars and cents, rounded half up, the minus before the dollar sign."""
    d = to_decimal(value)
    if d is None:
        return "" if value in (None, "") else str(value)
    q = _quantize(d, places)
    text = f"${abs(q):,.{places}f}"
    return f"{MINUS}{text}" if q < 0 else text


def percent(value: object, max_places: int = PERCENT_MAX_PLACES) -> str:
    """``2.5%``: a percent (already in percent units, 2.5 for 2.5%) with at most ``max_places``
    decimals and no trailing zeros."""
    d = to_decimal(value)
    if d is None:
        return "" if value in (None, "") else f"{value}%"
    q = _quantize(d, max_places)
    if q == 0:
        q = abs(q)
    text = f"{abs(q):,.{max_places}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return f"{MINUS}{text}%" if q < 0 else f"{text}%"


def rate_percent(value: object, max_places: int = PERCENT_MAX_PLACES) -> str:
    """A rate given as a fraction (0.025) as a percent: ``2.5%``."""
    d = to_decimal(value)
    return percent(d * 100 if d is not None else value, max_places)


def shares(value: object, places: int = SHARE_PLACES) -> str:
    """``1,250.5000``: a share count, grouped, with the plan's four decimals fixed."""
    return number(value, places)


def share_price(value: object) -> str:
    """A price per share: cents when it has none finer (``$11.40``), else four places (``$11.4025``)."""
    d = to_decimal(value)
    if d is None:
        return "" if value in (None, "") else str(value)
    return money(d, 2 if _quantize(d, 2) == d else SHARE_PLACES)


def shares_with_value(count: object, price: object, on: object = None) -> str:
    """``1,250.0000 shares, worth $52,500.00 at $42.00 a share (valued December 31, 2026)``."""
    c, p = to_decimal(count), to_decimal(price)
    text = f"{shares(count)} shares"
    if c is None or p is None:
        return text
    worth = f"{text}, worth {money(c * p)} at {share_price(p)} a share"
    when = date_words(on)
    return f"{worth} (valued {when})" if when else worth


def _as_date(value: object) -> date | None:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str) and len(value) >= 10:
        try:
            return date.fromisoformat(value[:10])
        except ValueError:
            return None
    return None


def date_words(value: object) -> str:
    """``April 1, 2027`` from a date, a datetime or an ISO string; other text passes through."""
    d = _as_date(value)
    if d is None:
        return "" if value in (None, "") else str(value)
    return f"{d:%B} {d.day}, {d.year}"


def month_words(value: object) -> str:
    """``April 2027``."""
    d = _as_date(value)
    if d is None:
        return "" if value in (None, "") else str(value)
    return f"{d:%B} {d.year}"


def time_words(value: datetime) -> str:
    """``2:05 p.m.``, ``12:00 a.m.`` (the clock time of an already local datetime)."""
    hour = value.hour % 12 or 12
    half = "a.m." if value.hour < 12 else "p.m."
    return f"{hour}:{value.minute:02d} {half}"


def moment_words(value: object) -> str:
    """``April 1, 2027 at 2:05 p.m.`` for a (local) datetime; a date prints as ``date_words``."""
    if isinstance(value, datetime):
        return f"{date_words(value)} at {time_words(value)}"
    return date_words(value)
