"""What the loaded regulatory tables add to every engine request: a read only, importing no service or
task, so the engine adapter can call it (the adapter sits below the services)."""

from __future__ import annotations

from django.utils import timezone

from benefits.imports.models import RegulatoryTable

MORTALITY_417E = RegulatoryTable.TableKind.MORTALITY_417E
SINGLE_LIFE = RegulatoryTable.TableKind.SINGLE_LIFE


def loaded_assumptions() -> dict:
    """Both loaded-table assumptions from one query (every request built from the database reads
    them: the dashboard's query count stays fixed)."""
    rows = list(RegulatoryTable.objects.order_by("kind", "year", "version"))
    out: dict = {}
    latest_417e = {t.year: t for t in rows if t.kind == MORTALITY_417E}
    if latest_417e:
        out["mortality_417e_tables"] = {
            str(year): {
                "source": t.source,
                "version": str(t.version),
                "loaded": timezone.localdate(t.loaded_at).isoformat(),
                "qx": {str(a): str(q) for a, q in t.rows},
            }
            for year, t in latest_417e.items()
        }
    life = [t for t in rows if t.kind == SINGLE_LIFE]
    if life:
        out["single_life_tables"] = [
            {
                "from": t.year,
                "through": t.last_year,
                "source": t.source,
                "version": str(t.version),
                "loaded": timezone.localdate(t.loaded_at).isoformat(),
                "life_expectancy": {str(a): str(v) for a, v in t.rows},
            }
            for t in life
        ]
    return out
