"""Template filters for people's words: ``plain`` (engine text without labels or keys), ``plain_money``
(the same, amounts with "$") and ``day`` ("April 1, 2027" from a date or an ISO string)."""

from __future__ import annotations

import re

from django import template

from benefits import formatting
from benefits.presenters.plain import plain_text
from benefits.presenters.reading_words import reading_label, value_label
from benefits.templatetags import formatting as formatting_filters

register = template.Library()


@register.filter
def plain(value: object) -> str:
    return plain_text(value)


_BARE_MONEY = re.compile(r"(?<![\w.$,%])(\d+)\.(\d{2})(?![\d%])")


@register.filter
def plain_money(value: object) -> str:
    """``plain``, with the bare amounts of an engine's working ("475034.76 × 1.0225%") written as
    money ("$475,034.76 × 1.0225%"); rates and percents keep their own form."""
    return _BARE_MONEY.sub(lambda m: formatting.money(f"{m.group(1)}.{m.group(2)}"), plain_text(value))


# The formatting module's filter, kept under this library's name for templates that load it.
register.filter("day", formatting_filters.day)


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
