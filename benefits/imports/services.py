"""Every write of the import area: record a file, check it, apply it whole, roll it back, recalculate.

An import is applied in one transaction: all its rows or none. With ``valid_rows_only`` the rows with
errors are left out and the rest are still applied as one transaction. Each row written keeps its
before-image (``ImportChange``), so a rollback restores exactly what the import changed.
"""

from __future__ import annotations

import hashlib
import logging
from collections import defaultdict
from datetime import date
from pathlib import Path

from django.core.cache import cache
from django.db import IntegrityError, connection, models, transaction
from django.db.models.deletion import Collector
from django.utils import timezone

from benefits import private_files
from benefits.audit import AuditEventType, audit_record
from benefits.db_stats import analyze_on_commit
from benefits.imports import bulk
from benefits.imports.checking import Checked, Progress, check_file
from benefits.imports.kinds import KINDS, get_kind
from benefits.imports.kinds.base import Target
from benefits.imports.models import ImportBatch, ImportChange
from benefits.imports.tables import MORTALITY_417E, reprice_explanations
from benefits.imports.tasks import apply_import, check_import, recalculate_results
from benefits.models import CalculationResult, ModelerRun
from benefits.services.modeler import modeler_run_execute
from benefits.stored_files import atomic_with_files, write_file

logger = logging.getLogger(__name__)

MAX_BYTES = 50 * 1024 * 1024
WRITE_BATCH = 2_000
ERRORS_KEPT = 5_000  # a preview keeps (and shows) this many errors; the count is always exact


class ImportRefused(Exception):
    """The import cannot be applied (errors without valid-rows-only, a wrong state): nothing changed."""


class RollbackRefused(Exception):
    pass


def _require_admin(actor) -> None:
    if actor is not None and getattr(actor, "role", None) != "administrator":
        raise PermissionError("Only administrators import data.")


# ------------------------------------------------------------------------------------ the file


def _store(content: bytes, sha: str, file_name: str) -> str:
    suffix = ".xlsx" if file_name.lower().endswith(".xlsx") else ".csv"
    # Named by its hash: a copy already stored is shared, and kept if this import does not commit.
    return write_file(f"imports/{sha}{suffix}", content, keep_existing=True)


def kind_of(batch: ImportBatch):
    """The batch's kind, bound to the fields given with its file (a regulatory table's year and source)."""
    kind = get_kind(batch.kind)
    bind = getattr(kind, "bind", None)
    return bind(batch.params) if bind is not None else kind


def batch_content(batch: ImportBatch) -> bytes:
    content = private_files.read_bytes(batch.stored_file)
    if hashlib.sha256(content).hexdigest() != batch.sha256:
        raise ImportRefused("The stored copy of the file does not match its hash; upload it again.")
    return content


def import_create(
    *,
    kind: str,
    file_name: str,
    content: bytes,
    actor=None,
    origin: str = "web",
    valid_rows_only: bool = False,
    request=None,
    params: dict | None = None,
) -> ImportBatch:
    """Record an uploaded file (who, when, name, SHA-256); checking it is ``import_check``.

    ``params``: what a kind needs beside its file (a regulatory table: its year(s) and source)."""
    _require_admin(actor)
    if kind not in KINDS:
        raise ValueError(f"Unknown kind {kind!r}: the kinds are {', '.join(KINDS)}.")
    if getattr(KINDS[kind], "whole_file", False):
        valid_rows_only = False  # a table is imported whole or not at all
        if not (params or {}).get("year") or not (params or {}).get("source"):
            raise ImportRefused(
                "A table needs the year(s) it applies to and its source (notice or regulation)."
            )
    if len(content) > MAX_BYTES:
        raise ImportRefused(f"The file is larger than {MAX_BYTES // (1024 * 1024)} MB; split it.")
    sha = hashlib.sha256(content).hexdigest()
    with atomic_with_files():
        batch = ImportBatch.objects.create(
            kind=kind,
            file_name=Path(file_name).name[:255] or "upload",
            sha256=sha,
            size=len(content),
            stored_file=_store(content, sha, file_name),
            origin=origin,
            uploaded_by=actor if getattr(actor, "is_authenticated", False) else None,
            valid_rows_only=valid_rows_only,
            params=dict(params or {}),
        )
        audit_record(
            event_type=AuditEventType.IMPORT_UPLOADED,
            summary=f"Uploaded {batch.file_name} ({KINDS[kind].label}) for import {batch.pk}",
            actor=actor,
            request=request,
            import_id=batch.pk,
            kind=kind,
            file_name=batch.file_name,
            sha256=sha,
            **({"table": dict(params)} if params else {}),
        )
        if origin == "web":
            # Every file uploaded from a page, however small, is checked by a background job: the
            # request never waits on a file's check (a small workbook can unpack to millions of cells).
            check_import.enqueue_on_commit(target_id=batch.pk, created_by=actor)
    return batch


def _progress(batch_id: int) -> Progress:
    """Progress goes to the cache, not the batch row: the apply transaction hides its own row updates."""

    def report(done: int, total: int) -> None:
        cache.set(progress_key(batch_id), (done, total), timeout=3600)

    return report


def progress_key(batch_id: int) -> str:
    return f"imports:progress:{batch_id}"


def _record_check(batch: ImportBatch, checked: Checked) -> None:
    batch.rows_total = checked.rows_total
    batch.created, batch.updated, batch.unchanged = checked.created, checked.updated, checked.unchanged
    batch.error_count = len(checked.errors)
    batch.errors = [p.as_dict() for p in checked.errors[:ERRORS_KEPT]]
    batch.diffs = checked.diffs()[:ERRORS_KEPT]


def import_check(batch_id: int, *, progress: bool = True) -> ImportBatch:
    """Check the stored file and record the preview (counts, diffs, errors). Writes only the batch row."""
    batch = ImportBatch.objects.get(pk=batch_id)
    checked = check_file(
        kind_of(batch), batch.file_name, batch_content(batch), _progress(batch.pk) if progress else None
    )
    _record_check(batch, checked)
    batch.status = ImportBatch.Status.PREVIEWED
    batch.save()
    cache.delete(progress_key(batch.pk))
    return batch


def import_request_apply(*, batch: ImportBatch, actor, valid_rows_only: bool, request=None) -> ImportBatch:
    """Mark the batch as being imported and hand it to a background job (which checks the file again
    and writes it whole): the request never waits on the check or the write."""
    _require_admin(actor)
    batch = ImportBatch.objects.get(pk=batch.pk)
    if batch.status != ImportBatch.Status.PREVIEWED:
        raise ImportRefused("This file has already been imported, or is being imported.")
    if batch.error_count and (not valid_rows_only or getattr(kind_of(batch), "whole_file", False)):
        raise ImportRefused(
            f"The file has {batch.error_count} error{'s' if batch.error_count != 1 else ''}: nothing was imported. "
            "Fix the file and upload it again, or choose to import only the valid rows."
        )
    with transaction.atomic():
        updated = ImportBatch.objects.filter(pk=batch.pk, status=ImportBatch.Status.PREVIEWED).update(
            status=ImportBatch.Status.APPLYING, valid_rows_only=valid_rows_only, applied_by=actor
        )
        if not updated:
            raise ImportRefused("This file has already been imported, or is being imported.")
        audit_record(
            event_type=AuditEventType.IMPORT_REQUESTED,
            summary=f"Asked to import {batch.file_name} ({KINDS[batch.kind].label}), import {batch.pk}",
            actor=actor,
            request=request,
            import_id=batch.pk,
            kind=batch.kind,
            sha256=batch.sha256,
            valid_rows_only=valid_rows_only,
            old_status=ImportBatch.Status.PREVIEWED,
            new_status=ImportBatch.Status.APPLYING,
        )
        apply_import.enqueue_on_commit(target_id=batch.pk, created_by=actor)
    batch.refresh_from_db()
    return batch


def import_apply(
    batch_id: int, *, actor=None, valid_rows_only: bool | None = None, request=None
) -> ImportBatch:
    """Check the file again and write every valid row in one transaction, keeping before-images.

    Refused (``ImportRefused``, nothing written but the new preview) when the file has errors and
    ``valid_rows_only`` is not chosen. The batch carries the check as ``batch.checked``.
    """
    _require_admin(actor)
    try:
        with transaction.atomic():
            batch, checked, refused = _apply_locked(
                batch_id, actor=actor, valid_rows_only=valid_rows_only, request=request
            )
    except IntegrityError as exc:
        # Another writer created one of these rows between the check and the write (the lock covers
        # imports of one kind; the database's uniqueness rule covers everything else): nothing was written.
        raise ImportRefused(
            "Some of these rows were written by another import at the same moment: nothing was imported. "
            "Check the file again and import it."
        ) from exc
    cache.delete(progress_key(batch.pk))
    batch.checked = checked
    if refused is not None:
        refused.checked = checked
        raise refused
    return batch


def imports_one_at_a_time(kind: str) -> None:
    """Wait until no other import (or rollback) of ``kind`` is writing, then hold that turn until this
    transaction ends (a PostgreSQL advisory lock): the second of two imports of one file checks it again
    after the first committed, finds its rows there, and creates nothing."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [f"benefits.imports:{kind}"])


def _apply_locked(batch_id: int, *, actor, valid_rows_only: bool | None, request):
    """``import_apply``'s body, inside its transaction, holding the batch row and the kind's turn."""
    refused = None
    batch = ImportBatch.objects.select_for_update().get(pk=batch_id)
    imports_one_at_a_time(batch.kind)
    if batch.status not in (
        ImportBatch.Status.PREVIEWED,
        ImportBatch.Status.APPLYING,
        ImportBatch.Status.CHECKING,
    ):
        raise ImportRefused("This file has already been imported.")
    if valid_rows_only is not None:
        batch.valid_rows_only = valid_rows_only
    actor = actor or batch.applied_by
    kind = kind_of(batch)
    report = _progress(batch.pk)
    checked = check_file(kind, batch.file_name, batch_content(batch), report)
    _record_check(batch, checked)
    if checked.errors and (not batch.valid_rows_only or getattr(kind, "whole_file", False)):
        batch.status = ImportBatch.Status.PREVIEWED
        batch.save()
        n = len(checked.errors)
        refused = ImportRefused(
            f"The file has {n} error{'s' if n != 1 else ''}: nothing was imported. Fix the file and upload it "
            "again, or choose to import only the valid rows."
        )
    else:
        touched = [t for r in checked.rows for t in r.targets if t.instance is None or t.changes]
        touched += [t for t in checked.derived if t.changes]
        write = getattr(kind, "write", None)  # a kind that stores the file its own way (a table version)
        changes = write(checked, batch, actor) if write is not None else _write(batch, checked, report)
        ImportChange.objects.bulk_create(changes, batch_size=WRITE_BATCH)
        kind.applied(checked, batch, actor)
        # Only rows the import wrote make stored results stale: a file re-imported unchanged touches none.
        affected = kind.memberships_affected(touched) if touched else set()
        _invalidate(affected)
        batch.status = ImportBatch.Status.APPLIED
        batch.applied_at = timezone.now()
        batch.applied_by = actor if getattr(actor, "is_authenticated", False) else None
        batch.save()
        audit_record(
            event_type=AuditEventType.IMPORT_APPLIED,
            summary=(
                f"Imported {batch.file_name} ({kind.label}): {batch.created} new, {batch.updated} changed, "
                f"{batch.unchanged} unchanged"
                + (f", {batch.error_count} rows with errors left out" if batch.error_count else "")
            ),
            actor=actor,
            request=request,
            import_id=batch.pk,
            kind=batch.kind,
            file_name=batch.file_name,
            sha256=batch.sha256,
            created=batch.created,
            updated=batch.updated,
            unchanged=batch.unchanged,
            errors=batch.error_count,
            valid_rows_only=batch.valid_rows_only,
            rows_written=len(changes),
        )
        _enqueue_recalculation(affected)
        # Statistics for the tables a large file filled (benefits/db_stats.py).
        analyze_on_commit({ch.model for ch in changes} | {ImportChange}, rows=len(changes))
    return batch, checked, refused


def import_mark_failed(batch_id: int, message: str) -> None:
    """A background check or apply that failed: reported on the batch (its transaction wrote nothing)."""
    with transaction.atomic():
        batch = ImportBatch.objects.select_for_update().get(pk=batch_id)
        if batch.status in (ImportBatch.Status.APPLIED, ImportBatch.Status.ROLLED_BACK):
            return
        batch.status = ImportBatch.Status.FAILED
        batch.failure = message[:2000]
        batch.save(update_fields=["status", "failure"])
        audit_record(
            event_type=AuditEventType.IMPORT_FAILED,
            summary=f"Import {batch.pk} of {batch.file_name} failed",
            import_id=batch.pk,
            message=message[:500],
        )


# ------------------------------------------------------------------------------------ writing


def _json(value: object) -> object:
    from datetime import date
    from decimal import Decimal

    if isinstance(value, Decimal):
        return f"{value:f}"
    if isinstance(value, date):
        return value.isoformat()
    return value


def _image(obj: models.Model, names) -> dict:
    out = {}
    for name in names:
        f = obj._meta.get_field(name)
        out[f.attname] = _json(getattr(obj, f.attname))
    return out


def _resolve(lookup: dict) -> dict:
    return {k: (v.instance if isinstance(v, Target) else v) for k, v in lookup.items()}


def _label(model: type[models.Model]) -> str:
    return model._meta.label_lower


def _write(batch: ImportBatch, checked: Checked, report: Progress | None) -> list[ImportChange]:
    changes: list[ImportChange] = []
    phases = max((len(r.targets) for r in checked.rows), default=0)
    groups = [[r.targets[i] for r in checked.rows if len(r.targets) > i] for i in range(phases)] + [
        checked.derived
    ]
    total = sum(len(g) for g in groups) or 1
    done = 0
    for targets in groups:
        creates: dict[type, list[Target]] = defaultdict(list)
        updates: dict[type, list[Target]] = defaultdict(list)
        for t in targets:
            if t.instance is None:
                creates[t.model].append(t)
            elif t.changes:
                updates[t.model].append(t)
        for model, ts in creates.items():
            objs = [model(**_resolve(t.lookup), **t.values) for t in ts]
            for start in range(0, len(objs), WRITE_BATCH):
                model.objects.bulk_create(objs[start : start + WRITE_BATCH])
                done += len(objs[start : start + WRITE_BATCH])
                if report:
                    report(total + done, total * 2)
            for t, obj in zip(ts, objs, strict=True):
                t.instance = obj
                names = list(t.lookup) + list(t.values)
                changes.append(
                    ImportChange(
                        batch=batch,
                        model=_label(model),
                        object_id=obj.pk,
                        action=ImportChange.Action.CREATED,
                        after=_image(obj, names),
                    )
                )
        for model, ts in updates.items():
            fields: set[str] = set()
            for t in ts:
                names = list(t.changes)
                before = _image(t.instance, names)
                for name in names:
                    setattr(t.instance, name, t.values[name])
                fields.update(names)
                changes.append(
                    ImportChange(
                        batch=batch,
                        model=_label(model),
                        object_id=t.instance.pk,
                        action=ImportChange.Action.UPDATED,
                        before=before,
                        after=_image(t.instance, names),
                    )
                )
            bulk.bulk_update(model, [t.instance for t in ts], sorted(fields))
            done += len(ts)
            if report:
                report(total + done, total * 2)
    return changes


# ------------------------------------------------------------------------------------ rollback


def _restore_value(model: type[models.Model], attname: str, value: object) -> object:
    f = model._meta.get_field(attname)
    return value if f.is_relation else f.to_python(value)


def import_rollback(*, batch: ImportBatch, actor, request=None) -> ImportBatch:
    """Restore every row the import changed to its before-image and remove the rows it added.

    Refused (nothing changed) when a row has changed since, or when rows added later depend on a row
    this import added: rolling back must never undo someone else's work.
    """
    from django.apps import apps

    _require_admin(actor)
    with transaction.atomic():
        batch = ImportBatch.objects.select_for_update().get(pk=batch.pk)
        imports_one_at_a_time(batch.kind)
        if batch.status != ImportBatch.Status.APPLIED:
            raise RollbackRefused("Only an applied import can be rolled back.")
        changes = list(batch.changes.order_by("-pk"))
        by_model: dict[str, dict[int, ImportChange]] = defaultdict(dict)
        for ch in changes:
            by_model[ch.model][ch.object_id] = ch
        conflicts: list[str] = []
        current: dict[str, dict[int, models.Model]] = {}
        for label, chs in by_model.items():
            model = apps.get_model(label)
            ids = list(chs)
            objs = {}
            for start in range(0, len(ids), 5000):
                objs.update(model.objects.in_bulk(ids[start : start + 5000]))
            current[label] = objs
            later = ImportChange.objects.filter(
                model=label, batch__status=ImportBatch.Status.APPLIED, batch_id__gt=batch.pk
            )
            for start in range(0, len(ids), 5000):
                hit = later.filter(object_id__in=ids[start : start + 5000]).select_related("batch").first()
                if hit:
                    conflicts.append(
                        f"import {hit.batch_id} ({hit.batch.file_name}) changed the same rows later"
                    )
                    break
            for object_id, ch in chs.items():
                obj = objs.get(object_id)
                if obj is None:
                    conflicts.append(f"{model._meta.verbose_name} {object_id} has been deleted since")
                elif _image(obj, [model._meta.get_field(a).name for a in ch.after]) != ch.after:
                    conflicts.append(f"{model._meta.verbose_name} {obj} has been changed since")
                if len(conflicts) > 5:
                    break
        created = [(ch.model, ch.object_id) for ch in changes if ch.action == ImportChange.Action.CREATED]
        created_set = set(created)
        if created and not conflicts:
            dependants: list[tuple[str, int]] = []
            for label in {m for m, _ in created}:
                collector = Collector(using="default")
                collector.collect(
                    [current[label][i] for m, i in created if m == label and i in current[label]]
                )
                dependants += [(_label(type(o)), o.pk) for objs in collector.data.values() for o in objs]
                for qs in collector.fast_deletes:
                    dependants += [(_label(qs.model), pk) for pk in qs.values_list("pk", flat=True)]
            extra = [d for d in dependants if d not in created_set and d[0] != "benefits.calculationresult"]
            if extra:
                conflicts.append(f"{len(extra)} row(s) added since depend on rows this import added")
        if conflicts:
            raise RollbackRefused("This import cannot be rolled back: " + "; ".join(conflicts[:5]) + ".")
        affected = _affected_by_changes(changes, current)
        for ch in changes:  # newest first: children before the rows they belong to
            model = apps.get_model(ch.model)
            obj = current[ch.model][ch.object_id]
            if ch.action == ImportChange.Action.CREATED:
                obj.delete()
            else:
                for attname, value in ch.before.items():
                    setattr(obj, attname, _restore_value(model, attname, value))
                obj.save(update_fields=[model._meta.get_field(a).name for a in ch.before])
        kind_of(batch).rolled_back(batch, actor)
        _invalidate(affected)
        batch.status = ImportBatch.Status.ROLLED_BACK
        batch.rolled_back_at = timezone.now()
        batch.rolled_back_by = actor if getattr(actor, "is_authenticated", False) else None
        batch.save()
        audit_record(
            event_type=AuditEventType.IMPORT_ROLLED_BACK,
            summary=f"Rolled back import {batch.pk} ({batch.file_name}): {len(changes)} row(s) restored",
            actor=actor,
            request=request,
            import_id=batch.pk,
            kind=batch.kind,
            file_name=batch.file_name,
            sha256=batch.sha256,
            rows_restored=len(changes),
        )
        _enqueue_recalculation(affected)
    return batch


def _affected_by_changes(changes: list[ImportChange], current) -> set[int] | None:
    ids: set[int] = set()
    for ch in changes:
        if ch.model == "benefits.marketrate":
            return None
        obj = current[ch.model].get(ch.object_id)
        if ch.model == "benefits.planmembership":
            ids.add(ch.object_id)
        elif ch.model == "benefits.participant" and obj is not None:
            ids.update(obj.memberships.values_list("pk", flat=True))
        elif obj is not None and hasattr(obj, "membership_id"):
            ids.add(obj.membership_id)
    return ids


# ------------------------------------------------------------------------------------ recalculation


def _invalidate(membership_ids: set[int] | None) -> None:
    """Stored results of these memberships no longer match their data: drop them (recomputed later)."""
    if membership_ids is not None and not membership_ids:
        return
    results = CalculationResult.objects.all()
    if membership_ids is not None:
        results = results.filter(membership_id__in=membership_ids)
    results.delete()


def _enqueue_recalculation(membership_ids: set[int] | None) -> None:
    ids = None if membership_ids is None else sorted(membership_ids)
    if ids == []:
        return
    recalculate_results.enqueue_on_commit(args={"membership_ids": ids})


def results_recalculate(membership_ids: list[int] | None) -> dict[str, int]:
    """Compute and store today's result for each membership (what the dashboard asks for first)."""
    from benefits.engine_adapter import CalculationError, membership_calculate
    from benefits.models import PlanMembership

    today = timezone.localdate()
    memberships = PlanMembership.objects.select_related("participant", "plan").order_by("pk")
    if membership_ids is not None:
        memberships = memberships.filter(pk__in=membership_ids)
    done = failed = 0
    for m in memberships.iterator(chunk_size=500):
        try:
            membership_calculate(m, as_of=today)
            done += 1
        except CalculationError:
            failed += 1  # the data cannot be calculated: the participant's pages say why
    return {"calculated": done, "not_calculable": failed}


# ------------------------------------------------------------------------------------ command line


def import_run(
    *,
    kind: str,
    file_name: str,
    content: bytes,
    dry_run: bool,
    valid_rows_only: bool,
    actor=None,
    params: dict | None = None,
) -> tuple[ImportBatch | None, Checked]:
    """The command's import: a dry run only checks; otherwise the file is recorded and applied here."""
    if dry_run:
        k = get_kind(kind)
        bind = getattr(k, "bind", None)
        return None, check_file(bind(params) if bind is not None else k, file_name, content)
    batch = import_create(
        kind=kind,
        file_name=file_name,
        content=content,
        actor=actor,
        origin="command",
        valid_rows_only=valid_rows_only,
        params=params,
    )
    try:
        batch = import_apply(batch.pk, actor=actor, valid_rows_only=valid_rows_only)
    except ImportRefused as exc:
        if getattr(exc, "checked", None) is None:
            raise  # refused before any check (e.g. a collision with another writer): the command says why
        return ImportBatch.objects.get(pk=batch.pk), exc.checked
    return batch, batch.checked


# ------------------------------------------------------------------------------------ tables


def _uses_years(result: dict, years: set[int], kind: str) -> bool:
    """Whether a stored result priced a date the loaded table applies to (a §417(e)(3) table also
    stands in for every later year, so a later date counts too)."""
    top = max(years)
    for e in result.get("estimates") or []:
        try:
            y = date.fromisoformat(str(e.get("commencement_date", ""))[:10]).year
        except ValueError:
            continue
        if y in years or (kind == MORTALITY_417E and y > top):
            return True
    return False


def tables_recalculate(kind: str, years: list[int]) -> dict[str, int]:
    """What a table load (or its rollback) makes stale, recalculated (docs/import/README.md):

    1. every stored engine result (``CalculationResult``, a cache keyed by the request, which now
       carries the table) is dropped and today's result of every membership is computed again;
    2. every finished modeler run with a date in the table's year(s) (a §417(e)(3) table: or later,
       where it stands in) is priced again in place, so its grid (cached by the run's finish time)
       is rendered afresh; saved quotes keep the figures they were saved with;
    3. every §417(a)(3) explanation issued for a start date in those years that no election has
       been signed on is priced again: if a figure changed, a new version is issued (its PDF, its
       delivery, an audit event), and the participant's unsigned draft moves to it.
    """
    ys = set(years)
    CalculationResult.objects.all().delete()
    out = dict(results_recalculate(None))
    rerun = 0
    for run in (
        ModelerRun.objects.filter(status=ModelerRun.Status.DONE).order_by("pk").iterator(chunk_size=100)
    ):
        if not _uses_years(run.result or {}, ys, kind):
            continue
        ModelerRun.objects.filter(pk=run.pk).update(status=ModelerRun.Status.RUNNING)
        modeler_run_execute(run.pk)
        rerun += 1
    out["modeler_runs"] = rerun
    out["explanations"] = reprice_explanations(ys, kind)
    return out
