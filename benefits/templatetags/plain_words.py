"""Template filters for people's words: ``plain`` (engine text without labels or keys), ``plain_money``
(the same, amounts with "$") and ``day`` ("April 1, 2027" from a date or an ISO string)."""

from __future__ import annotations

import re
from datetime import date, datetime

from django import template

from benefits.presenters.plain import people_date, plain_text
from benefits.presenters.reading_words import reading_label, value_label

register = template.Library()


@register.filter
def plain(value: object) -> str:
    return plain_text(value)


_BARE_MONEY = re.compile(r"(?<![\w.$,%])(\d+)\.(\d{2})(?![\d%])")


@register.filter
def plain_money(value: object) -> str:
    """``plain``, with the bare amounts of an engine's working ("475034.76 × 1.0225%") written as
    money ("$475,034.76 × 1.0225%"); rates and percents keep their own form."""
    return _BARE_MONEY.sub(lambda m: f"${int(m.group(1)):,}.{m.group(2)}", plain_text(value))


@register.filter
def day(value: object) -> str:
    if isinstance(value, datetime):
        value = value.date()
    if isinstance(value, date):
        return people_date(value)
    if isinstance(value, str):
        try:
            return people_date(date.fromisoformat(value[:10]))
        except ValueError:
            return value
    return "" if value is None else str(value)


@register.filter
def reading(name: str) -> str:
    return reading_label(name)


@register.filter
def choice(value: object) -> str:
    return value_label(str(value))


@register.filter
def at(sequence, index: int):
    """``sequence[index]`` (a column's heading beside a row's value), or "" past the end."""
    try:
        return sequence[int(index)]
    except (IndexError, TypeError, ValueError):
        return ""
