"""Reads of the import area, scoped to the requesting administrator."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Max, QuerySet

from benefits.imports.market import SERIES, Missing, Series, missing_rates
from benefits.imports.models import ImportBatch
from benefits.models import MarketRate, Plan


def _admin(user) -> None:
    if getattr(user, "role", None) != "administrator":
        raise PermissionDenied("Imports are for administrators.")


def batches_for_admin(*, user, limit: int = 50) -> QuerySet[ImportBatch]:
    _admin(user)
    return ImportBatch.objects.select_related("uploaded_by", "applied_by", "rolled_back_by")[:limit]


def batch_for_admin(*, user, batch_id: int) -> ImportBatch:
    _admin(user)
    return ImportBatch.objects.select_related("uploaded_by", "applied_by", "rolled_back_by").get(pk=batch_id)


def batch_progress(batch: ImportBatch) -> tuple[int, int]:
    from benefits.imports.services import progress_key

    return cache.get(progress_key(batch.pk)) or (0, 0)


@dataclass(frozen=True)
class SeriesStatus:
    series: Series
    latest: MarketRate | None
    months: int


def market_overview(*, user) -> list[SeriesStatus]:
    """Each series the plans use, with its latest month and value (or none at all)."""
    _admin(user)
    counts = {
        r["series"]: r
        for r in MarketRate.objects.values("series").annotate(n=Count("pk"), last=Max("period"))
    }
    out = []
    for key, series in SERIES.items():
        info = counts.get(key)
        latest = MarketRate.objects.filter(series=key, period=info["last"]).first() if info else None
        out.append(SeriesStatus(series, latest, info["n"] if info else 0))
    return out


def _available(months: set[date]) -> set[tuple[str, date]]:
    return set(MarketRate.objects.filter(period__in=months).values_list("series", "period"))


def market_missing_for_admin(*, user, on: date) -> list[Missing]:
    """Every rate some plan needs on ``on`` that is not loaded."""
    _admin(user)
    return market_missing(on=on, plans=list(Plan.objects.all()))


def market_missing(*, on: date, plans: list[Plan]) -> list[Missing]:
    from benefits.engine.market_needs import market_needs

    months = {n.month for p in plans for n in market_needs(p.key, on, p.settings)}
    available = _available(months)
    return [m for p in plans for m in missing_rates(p, on, available)]


def table_comparison(*, user, batch: ImportBatch) -> dict | None:
    """A regulatory table's preview against the table in use: the year(s) and source given, what it
    is compared with, how many ages change and the largest difference (None for other kinds)."""
    from decimal import Decimal, InvalidOperation

    from benefits.imports.kinds import KINDS
    from benefits.imports.models import RegulatoryTable
    from benefits.imports.tables import current_table, version_words

    _admin(user)
    kind = KINDS.get(batch.kind)
    if not getattr(kind, "whole_file", False) or not batch.params.get("year"):
        return None
    params = batch.params
    largest: tuple[Decimal, str] | None = None
    for d in batch.diffs:
        for old, new in d.get("changes", {}).values():
            try:
                diff = abs(Decimal(new) - Decimal(old))
            except (InvalidOperation, TypeError):
                continue
            if largest is None or diff > largest[0]:
                largest = (diff, d.get("key", ""))
    years = str(params["year"])
    if params.get("last_year") and params["last_year"] != params["year"]:
        years = f"{params['year']}–{params['last_year']}"
    elif kind.name == "single_life" and not params.get("last_year"):
        years = f"{params['year']} on"
    versions = [version_words(t) for t in RegulatoryTable.objects.filter(batch=batch).order_by("year")]
    return {
        "years": years,
        "source": params.get("source", ""),
        "compared_with": current_table(kind.table_kind, int(params["year"]))[0]
        if batch.status == ImportBatch.Status.PREVIEWED
        else "",
        "changed": batch.updated,
        "new": batch.created,
        "largest": f"{largest[0]:f}" if largest else "",
        "largest_at": largest[1] if largest else "",
        "versions": versions,
    }


def regulatory_tables_for_admin(*, user, today: date) -> dict:
    """Every loaded table version, newest first, and what the calculator uses for this year and the
    next (a loaded version, the shipped table, or the table that stands in)."""
    from benefits.imports.models import RegulatoryTable
    from benefits.imports.tables import MORTALITY_417E, SINGLE_LIFE, current_table

    _admin(user)
    years = (today.year, today.year + 1)
    return {
        "versions": list(
            RegulatoryTable.objects.select_related("loaded_by", "batch").order_by("kind", "-year", "-version")
        ),
        "in_use": [
            (label, year, current_table(kind, year)[0])
            for kind, label in (
                (MORTALITY_417E, "§417(e)(3) applicable mortality table"),
                (SINGLE_LIFE, "Single Life Table"),
            )
            for year in years
        ],
    }
