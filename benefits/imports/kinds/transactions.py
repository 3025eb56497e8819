"""Dated account movements keyed by participant, plan, source, date and type (contributions, loans, ESOP)."""

from __future__ import annotations

from benefits.models import AccountTransaction


def existing_transactions(keys: list[tuple], kinds: tuple[str, ...]) -> dict[tuple, AccountTransaction]:
    ids = {k[0] for k in keys}
    rows = AccountTransaction.objects.filter(membership_id__in=ids, kind__in=kinds).order_by("pk")
    out: dict[tuple, AccountTransaction] = {}
    for t in rows:
        out.setdefault((t.membership_id, t.source, t.date, t.kind), t)
    return out
