"""Planner statistics after bulk loads: a table filled by bulk inserts has none until autovacuum gets to
it, and meanwhile PostgreSQL plans the dashboard's reads as scans of every membership (issue 31:
39 ms instead of 2 ms at 104,000 memberships). The loaders call ``analyze`` on what they filled."""

from __future__ import annotations

from collections.abc import Iterable

from django.apps import apps
from django.db import connection, models, transaction

# A handful of rows changes no plan; autovacuum's own threshold takes care of those.
ANALYZE_AFTER_ROWS = 500


def _table(model: type[models.Model] | str) -> str:
    if isinstance(model, str):
        model = apps.get_model(model)
    return model._meta.db_table


def analyze(tables: Iterable[type[models.Model] | str]) -> list[str]:
    """ANALYZE each model's table (a model class or "app.model" label); returns the tables analyzed."""
    names = sorted({_table(t) for t in tables})
    with connection.cursor() as cursor:
        for name in names:
            cursor.execute(f"ANALYZE {connection.ops.quote_name(name)}")
    return names


def analyze_on_commit(tables: Iterable[type[models.Model] | str], *, rows: int) -> None:
    """After the current transaction commits (the statistics then describe the rows written)."""
    if rows >= ANALYZE_AFTER_ROWS:
        tables = list(tables)
        transaction.on_commit(lambda: analyze(tables))
