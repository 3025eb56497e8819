"""Loaded regulatory tables (issue 24): their versions, what the engine uses for a year, and the
signal that a load made stored figures stale.

- ``current_table``: the table the engine uses for a year today (the latest loaded version, else the
  shipped default, else for a §417(e)(3) year past the last one the table that stands in), which the
  import's preview compares a file with.
- ``store_versions``: a table import's write: one new ``RegulatoryTable`` version per year.
- ``loaded_assumptions`` (in ``table_reads``, which the engine adapter may import): the latest loaded §417(e)(3) table of each year and every loaded Single
  Life Table, in the engine contract's ``assumptions.mortality_417e_tables`` and
  ``single_life_tables`` shapes (the adapter puts them in every request).
- ``reprice_explanations``: asks the layers above (``table_loaded``) to price again what a load
  made stale; ``benefits.imports.services.tables_recalculate`` is the whole recalculation.
"""

from __future__ import annotations

import hashlib
import json
from datetime import date
from decimal import Decimal

from django.dispatch import Signal
from django.utils import timezone

from benefits.audit import AuditEventType, audit_record
from benefits.imports.models import ImportBatch, ImportChange, RegulatoryTable
from benefits.imports.table_reads import (
    MORTALITY_417E,
    SINGLE_LIFE,
)
from benefits.imports.tasks import recalculate_after_tables


def _dec(value: float | Decimal) -> Decimal:
    return value if isinstance(value, Decimal) else Decimal(repr(float(value)))


def latest_versions(kind: str) -> dict[int, RegulatoryTable]:
    """The latest version of each year loaded for ``kind``."""
    out: dict[int, RegulatoryTable] = {}
    for t in (
        RegulatoryTable.objects.filter(kind=kind).select_related("loaded_by").order_by("year", "version")
    ):
        out[t.year] = t
    return out


def version_words(t: RegulatoryTable) -> str:
    """How a page names a loaded version: "2027 table, Notice 2026-27, loaded 2026-11-27 (version 2)"."""
    years = str(t.year) if t.last_year in (None, t.year) else f"{t.year}–{t.last_year}"
    if t.kind == SINGLE_LIFE and t.last_year is None:
        years = f"{t.year} on"
    return f"{years} table, {t.source}, loaded {timezone.localdate(t.loaded_at).isoformat()} (version {t.version})"


def _slt_version_for(year: int) -> RegulatoryTable | None:
    """The loaded Single Life Table version in force for distribution calendar year ``year``."""
    best: RegulatoryTable | None = None
    for t in RegulatoryTable.objects.filter(kind=SINGLE_LIFE, year__lte=year).order_by("year", "version"):
        if t.last_year is None or t.last_year >= year:
            best = t  # later first years, then later versions, win
    return best


def current_table(kind: str, year: int) -> tuple[str, dict[int, Decimal]]:
    """(what the engine uses for ``year`` today, in words; its value at each age)."""
    if kind == MORTALITY_417E:
        from benefits.engine.mortality import LAST_417E_YEAR, get_table

        loaded = latest_versions(MORTALITY_417E)
        if year in loaded:
            t = loaded[year]
            return f"the loaded {version_words(t)}", {int(a): Decimal(v) for a, v in t.rows}
        earlier = [y for y in loaded if y < year]
        if year > LAST_417E_YEAR and earlier and max(earlier) > LAST_417E_YEAR:
            t = loaded[max(earlier)]
            words = f"the loaded {version_words(t)}, which stands in for {year} until its own table is loaded"
            return words, {int(a): Decimal(v) for a, v in t.rows}
        shipped = min(year, LAST_417E_YEAR)
        table = get_table(f"irs_417e_{shipped}")
        values = {table.min_age + i: _dec(q) for i, q in enumerate(table.qx)}
        if shipped != year:
            return (
                f"the {shipped} table shipped with the calculator, which stands in for {year} until its own "
                "table is loaded",
                values,
            )
        note = " (a provisional recomputation by the published method, not the notice's own table)"
        return f"the {year} table shipped with the calculator" + (note if table.provisional else ""), values
    from benefits.engine import life_expectancy as slt

    t = _slt_version_for(year)
    if t is not None:
        return f"the loaded {version_words(t)}", {int(a): Decimal(v) for a, v in t.rows}
    shipped = slt.SINGLE_LIFE_2002 if year < 2022 else slt.SINGLE_LIFE
    source = slt.SOURCE_2002 if year < 2022 else slt.SOURCE
    return f"the table shipped with the calculator ({source})", dict(enumerate(shipped))


def rows_sha256(rows: list[list[str]]) -> str:
    """The fingerprint of a table's rows as loaded (the same rows give the same version)."""
    return hashlib.sha256(json.dumps(rows, separators=(",", ":")).encode()).hexdigest()


def store_versions(kind_obj, batch: ImportBatch, actor, rows: list[list[str]]) -> list[ImportChange]:
    """One new version per year the file applies to (Single Life Table: one version for its span)."""
    params = kind_obj.params
    if params is None:
        raise ValueError("a table import needs its year and source")
    years = list(params.years) if kind_obj.table_kind == MORTALITY_417E else [params.year]
    sha = rows_sha256(rows)
    changes = []
    loaded_by = actor if getattr(actor, "is_authenticated", False) else None
    for year in years:
        latest = (
            RegulatoryTable.objects.filter(kind=kind_obj.table_kind, year=year).order_by("-version").first()
        )
        last_year = year if kind_obj.table_kind == MORTALITY_417E else params.last_year
        if latest is not None and (latest.sha256, latest.source, latest.last_year) == (
            sha,
            params.source,
            last_year,
        ):
            continue  # the same file loaded again: the latest version already holds it (nothing changes)
        t = RegulatoryTable.objects.create(
            kind=kind_obj.table_kind,
            year=year,
            last_year=last_year,
            version=(latest.version if latest else 0) + 1,
            source=params.source,
            rows=rows,
            sha256=sha,
            batch=batch,
            loaded_by=loaded_by,
        )
        audit_record(
            event_type=AuditEventType.REGULATORY_TABLE_LOADED,
            summary=f"Loaded {t.get_kind_display()} for {year}, version {t.version} ({t.source})",
            actor=actor,
            import_id=batch.pk,
            table_id=t.pk,
            table_kind=t.kind,
            year=year,
            version=t.version,
            source=t.source,
            sha256=sha,
            rows=len(rows),
        )
        changes.append(
            ImportChange(
                batch=batch,
                model="benefits.regulatorytable",
                object_id=t.pk,
                action=ImportChange.Action.CREATED,
                after={"kind": t.kind, "year": t.year, "version": t.version, "sha256": sha},
            )
        )
    return changes


# ------------------------------------------------------------------------------------ recalculation


def enqueue_recalculation(kind: str, years: list[int], actor) -> None:
    recalculate_after_tables.enqueue_on_commit(args={"kind": kind, "years": sorted(years)}, created_by=actor)


# Layers above benefits (the elections' explanations) answer a load through this signal: its
# receivers get ``applies(asd) -> bool`` and return how many stored results they priced again.
table_loaded = Signal()


def reprice_explanations(years: set[int], kind: str) -> int:
    top = max(years)

    def applies(asd: date) -> bool:
        return asd.year in years or (kind == MORTALITY_417E and asd.year > top)

    return sum(int(n or 0) for _, n in table_loaded.send(sender=RegulatoryTable, applies=applies))
