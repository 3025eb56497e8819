"""Files under PRIVATE_STORAGE_ROOT written together with the rows that name them (issue 30).

A file must not outlive a transaction that rolled back. A service that writes files does its change in
``atomic_with_files()`` (``transaction.atomic()`` that keeps a list of the files written in it) and
writes each file with ``write_file``: the file is written at once, so a full disk fails the change
before anything commits, and every file written inside the block is removed if the block does not
commit. A nested block hands its files to the enclosing one, so an outer rollback removes them too.
Writes are atomic (a temporary file renamed into place): a reader never sees half a file.

What no code can undo (a process killed between its write and its commit) is found by ``files_check``
(``manage.py check_files``): files without rows, and rows without files."""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from django.conf import settings
from django.db import transaction

PART = ".part-"  # a temporary name while a file is being written
_written: ContextVar[tuple[list[Path], ...]] = ContextVar("stored_files_written", default=())


def private_path(relative: str) -> Path:
    return Path(settings.PRIVATE_STORAGE_ROOT) / relative


def _write_now(path: Path, content: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(f"{path.name}{PART}{uuid.uuid4().hex}")
    try:
        part.write_bytes(content)
        os.replace(part, path)
    finally:
        part.unlink(missing_ok=True)


def write_file(relative: str, content: bytes, *, keep_existing: bool = False) -> str:
    """Write ``content`` at ``relative`` (under PRIVATE_STORAGE_ROOT); returns ``relative``. Inside
    ``atomic_with_files`` the file is removed if that block does not commit. ``keep_existing``: a
    content-addressed file already there is left alone (and not removed on a rollback: not ours)."""
    path = private_path(relative)
    if keep_existing and path.exists():
        return relative
    _write_now(path, content)
    blocks = _written.get()
    if blocks:
        blocks[-1].append(path)
    return relative


@contextmanager
def atomic_with_files() -> Iterator[None]:
    """``transaction.atomic()`` that removes the files ``write_file`` wrote in it unless it commits."""
    mine: list[Path] = []
    token = _written.set((*_written.get(), mine))
    try:
        with transaction.atomic():
            yield
    except BaseException:
        for path in mine:
            path.unlink(missing_ok=True)
        raise
    finally:
        _written.reset(token)
    enclosing = _written.get()
    if enclosing:  # a savepoint: the enclosing block may still roll back
        enclosing[-1].extend(mine)


# --- The check: files without rows, rows without files ----------------------------------------------


def stored_names() -> dict[str, str]:
    """Every file a row names (relative path → which row), across the apps."""
    from benefits.imports.models import ImportBatch
    from benefits.models import GeneratedDocument
    from elections.benefit_elections.models import SpousalConsent
    from elections.claims.models import ClaimDocument

    names: dict[str, str] = {}
    sources = (
        (GeneratedDocument.objects.exclude(file_name=""), "file_name", "document"),
        (ClaimDocument.objects.exclude(file_name=""), "file_name", "claim document"),
        (SpousalConsent.objects.exclude(upload_file=""), "upload_file", "spousal consent"),
        (ImportBatch.objects.exclude(stored_file=""), "stored_file", "import"),
    )
    for queryset, column, words in sources:
        for pk, name in queryset.values_list("pk", column).iterator():
            names.setdefault(name, f"{words} {pk}")
    return names


def files_check(*, delete_older_than: float | None = None) -> dict[str, list]:
    """``{"files_without_rows": [...], "rows_without_files": [...], "deleted": [...]}``.

    With ``delete_older_than`` (seconds), files without rows older than that are removed: a file that
    young may belong to a transaction still in progress, so it is left for the next check."""
    root = Path(settings.PRIVATE_STORAGE_ROOT)
    names = stored_names()
    on_disk = {str(p.relative_to(root)): p for p in root.rglob("*") if p.is_file()} if root.exists() else {}
    orphans = sorted(set(on_disk) - set(names))
    missing = sorted(f"{names[n]}: {n}" for n in set(names) - set(on_disk))
    deleted = []
    if delete_older_than is not None:
        cutoff = time.time() - delete_older_than
        for name in orphans:
            path = on_disk[name]
            if path.stat().st_mtime < cutoff:
                path.unlink(missing_ok=True)
                deleted.append(name)
    return {"files_without_rows": orphans, "rows_without_files": missing, "deleted": deleted}
