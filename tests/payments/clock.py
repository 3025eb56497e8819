"""The clock of a confirmation file: the paying agent reports a payment once it is made, so a test that
confirms a payment dated ahead of the real today imports its file on that day (a paid or returned date
after today is refused, ``payments/confirmations.py``)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import date, datetime, time

import time_machine
from django.utils import timezone


def _day(value: date | str) -> date | None:
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value))
    except ValueError:  # a row testing a bad date: the import names it
        return None


@contextmanager
def on_the_day(days: Iterable[date | str]) -> Iterator[None]:
    """The clock moved to noon of the latest of ``days`` when it is later than today; else left alone."""
    latest = max((d for d in map(_day, days) if d is not None), default=None)
    if latest is None or latest <= timezone.localdate():
        yield
        return
    noon = timezone.make_aware(datetime.combine(latest, time(12)), timezone.get_default_timezone())
    with time_machine.travel(noon, tick=True):
        yield
