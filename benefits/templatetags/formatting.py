"""Template filters over ``benefits.formatting`` (loaded for every template as a builtin in
settings): ``money``, ``number``, ``percent``, ``rate_percent``, ``shares``, ``day``, ``month``,
``moment`` and ``clock``. Datetimes are shown in the site's time zone, as Django's ``date`` does."""

from __future__ import annotations

from datetime import datetime

from django import template
from django.utils import timezone

from benefits import formatting

register = template.Library()


def _local(value: object) -> object:
    if isinstance(value, datetime) and timezone.is_aware(value):
        return timezone.localtime(value)
    return value


@register.filter
def money(value: object) -> str:
    return formatting.money(value)


@register.filter
def number(value: object, places: object = 2) -> str:
    return formatting.number(value, int(places))


@register.filter
def percent(value: object) -> str:
    return formatting.percent(value)


@register.filter
def rate_percent(value: object) -> str:
    return formatting.rate_percent(value)


@register.filter
def shares(value: object) -> str:
    return formatting.shares(value)


@register.filter
def share_price(value: object) -> str:
    return formatting.share_price(value)


@register.filter
def day(value: object) -> str:
    return formatting.date_words(_local(value))


@register.filter
def month(value: object) -> str:
    return formatting.month_words(_local(value))


@register.filter
def moment(value: object) -> str:
    return formatting.moment_words(_local(value))


@register.filter
def clock(value: object) -> str:
    value = _local(value)
    return formatting.time_words(value) if isinstance(value, datetime) else ""
