"""Private files written together with the rows that name them (issue 30), through the private
storage (``benefits.private_files``: the local folder or the object store).

A file must not outlive a transaction that rolled back. A service that writes files does its change in
``atomic_with_files()`` (``transaction.atomic()`` that keeps a list of the files written in it) and
writes each file with ``write_file``: the file is written at once, so a full disk or an unreachable
store fails the change before anything commits, and every file written inside the block is removed if
the block does not commit. A nested block hands its files to the enclosing one, so an outer rollback
removes them too. The folder backend writes a temporary file and renames it into place, and an object
store publishes an object whole, so a reader never sees half a file.

What no code can undo (a process killed between its write and its commit) is found by ``files_check``
(``manage.py check_files``): files without rows, and rows without files."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from datetime import UTC, datetime, timedelta

from django.db import transaction

from benefits import private_files

_written: ContextVar[tuple[list[str], ...]] = ContextVar("stored_files_written", default=())


def write_file(relative: str, content: bytes, *, keep_existing: bool = False) -> str:
    """Write ``content`` at ``relative`` in the private storage; returns the stored name. Inside
    ``atomic_with_files`` the file is removed if that block does not commit. ``keep_existing``: a
    content-addressed file already there is left alone (and not removed on a rollback: not ours)."""
    if keep_existing and private_files.exists(relative):
        return relative
    name = private_files.save_bytes(relative, content)
    blocks = _written.get()
    if blocks:
        blocks[-1].append(name)
    return name


@contextmanager
def atomic_with_files() -> Iterator[None]:
    """``transaction.atomic()`` that removes the files ``write_file`` wrote in it unless it commits."""
    mine: list[str] = []
    token = _written.set((*_written.get(), mine))
    try:
        with transaction.atomic():
            yield
    except BaseException:
        storage = private_files.private_storage()
        for name in mine:
            with suppress(Exception):  # the rollback stands even if the store cannot delete now
                storage.delete(name)
        raise
    finally:
        _written.reset(token)
    enclosing = _written.get()
    if enclosing:  # a savepoint: the enclosing block may still roll back
        enclosing[-1].extend(mine)


# --- The check: files without rows, rows without files ----------------------------------------------


def stored_names() -> dict[str, str]:
    """Every file a row names (relative path → which row), across the apps."""
    from django.apps import apps  # the apps above benefits, by label: benefits imports none of them

    ImportBatch = apps.get_model("benefits", "ImportBatch")
    GeneratedDocument = apps.get_model("benefits", "GeneratedDocument")
    ClaimDocument = apps.get_model("elections", "ClaimDocument")
    SpousalConsent = apps.get_model("elections", "SpousalConsent")

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


def _stored_files(storage, folder: str = "") -> Iterator[str]:
    """Every file name in the private storage (the folder or the bucket), walked with the storage API."""
    try:
        folders, files = storage.listdir(folder)
    except FileNotFoundError:
        return
    for name in files:
        yield f"{folder}/{name}" if folder else name
    for sub in folders:
        yield from _stored_files(storage, f"{folder}/{sub}" if folder else sub)


def files_check(*, delete_older_than: float | None = None) -> dict[str, list]:
    """``{"files_without_rows": [...], "rows_without_files": [...], "deleted": [...]}``.

    With ``delete_older_than`` (seconds), files without rows older than that are removed: a file that
    young may belong to a transaction still in progress, so it is left for the next check."""
    storage = private_files.private_storage()
    names = stored_names()
    stored = set(_stored_files(storage))
    orphans = sorted(stored - set(names))
    missing = sorted(f"{names[n]}: {n}" for n in set(names) - stored)
    deleted = []
    if delete_older_than is not None:
        cutoff = datetime.now(UTC) - timedelta(seconds=delete_older_than)
        for name in orphans:
            if storage.get_modified_time(name) < cutoff:
                storage.delete(name)
                deleted.append(name)
    return {"files_without_rows": orphans, "rows_without_files": missing, "deleted": deleted}
