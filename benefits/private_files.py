"""Private files (generated PDFs, claim and consent uploads, import files) through Django's storage API.

Every write and read goes through ``storages["private"]`` (settings.STORAGES): the local folder
``PRIVATE_STORAGE_ROOT`` in the embedded default, or an S3-compatible object store in production
(``PRIVATE_STORAGE_S3_BUCKET``), so every web and worker machine sees the same files. Neither backend
gives a URL: a file reaches a browser only through a view that checked who is asking and streams it.
"""

from __future__ import annotations

import os

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage, storages

ALIAS = "private"


class NoPublicURL:
    """A private file has no URL of its own: it is served by a permission-checked view."""

    def url(self, name, *args, **kwargs):
        raise NotImplementedError("Private files are served only through the application's views.")


class PrivateFileSystemStorage(NoPublicURL, FileSystemStorage):
    """The local folder ``PRIVATE_STORAGE_ROOT``, read at each use (tests point it at a temporary folder)."""

    def __init__(self, location=None, **options):
        options.setdefault("allow_overwrite", True)  # a re-rendered document replaces its own file
        super().__init__(location=location, base_url=None, **options)

    @property
    def base_location(self):
        return self._location or settings.PRIVATE_STORAGE_ROOT

    @property
    def location(self):
        return os.path.abspath(self.base_location)


try:  # django-storages is a runtime dependency; the class is only built where it is installed
    from storages.backends.s3 import S3Storage

    class PrivateS3Storage(NoPublicURL, S3Storage):
        """An S3-compatible bucket: objects private, encrypted at rest by the store (settings.STORAGES)."""

except ImportError:  # pragma: no cover - the folder backend still works without it
    PrivateS3Storage = None


def private_storage():
    return storages[ALIAS]


def save_bytes(name: str, content: bytes) -> str:
    """Write ``content`` under ``name`` (replacing a file of that name); returns the stored name."""
    return private_storage().save(name, ContentFile(content))


def read_bytes(name: str) -> bytes:
    with private_storage().open(name, "rb") as handle:
        return handle.read()


def open_for_download(name: str):
    """A binary file object for a FileResponse, which streams it in chunks and closes it."""
    return private_storage().open(name, "rb")


def exists(name: str) -> bool:
    return private_storage().exists(name)


def safe_name(name: str) -> str:
    """A stored name never leaves the private area: no absolute paths, no '..' parts."""
    parts = name.replace("\\", "/").split("/")
    if not name or name.startswith("/") or any(p in ("", ".", "..") for p in parts):
        raise ValueError("Invalid stored file name.")
    return name
