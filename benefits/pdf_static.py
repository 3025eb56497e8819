"""Static files for WeasyPrint: resolved through the configured static storage, nothing else fetched.

Templates write ``{% static 'css/pdf.css' %}``, which in production is the hashed manifest name
(``/static/css/pdf.3f2a….css``) of a file that exists only in ``STATIC_ROOT`` after ``collectstatic``;
in development and tests it is the plain name of a source file. So a name is looked up in the storage
first (hashed names included), then among the source folders (the finders), with a hashed name's
plain form as the last resort. Any other URL (``file://`` elsewhere, ``http(s)://``, ``data:`` aside)
is refused (CVE-2025-68616): a legal document must not embed what a payload points at.
"""

from __future__ import annotations

import mimetypes
import posixpath
import re
from pathlib import Path
from urllib.parse import unquote

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.exceptions import SuspiciousFileOperation

# ManifestStaticFilesStorage's hashed names: "name.<12 hex>.ext".
_HASHED = re.compile(r"^(?P<stem>.+)\.[0-9a-f]{12}(?P<ext>\.[^./]+)$")


class StaticNotFound(LookupError):
    pass


def static_name(url: str) -> str | None:
    """The storage name a URL refers to, or None when the URL is not one of our static files."""
    static_url = settings.STATIC_URL
    if url.startswith("file://"):
        path = url[len("file://") :]
    elif url.startswith(static_url):
        path = url
    else:
        return None
    path = path.split("#", 1)[0].split("?", 1)[0]
    if not path.startswith(static_url):
        return None
    name = unquote(path[len(static_url) :])
    normalized = posixpath.normpath(name)
    if not name or normalized.startswith("../") or normalized == ".." or normalized.startswith("/"):
        return None
    return normalized


def static_source(name: str) -> tuple[bytes, str]:
    """The bytes and MIME type of the static file stored as ``name`` (hashed or not)."""
    content = _from_storage(name)
    if content is None:
        content = _from_finders(name)
    if content is None:
        match = _HASHED.match(name)
        if match:
            content = _from_finders(match["stem"] + match["ext"])
    if content is None:
        raise StaticNotFound(name)
    mime = mimetypes.guess_type(name)[0] or "application/octet-stream"
    return content, mime


def _from_storage(name: str) -> bytes | None:
    try:
        if not staticfiles_storage.exists(name):
            return None
        with staticfiles_storage.open(name) as handle:
            return handle.read()
    except (SuspiciousFileOperation, OSError, ValueError):
        return None


def _from_finders(name: str) -> bytes | None:
    try:
        found = finders.find(name)
    except SuspiciousFileOperation:
        return None
    if not found:
        return None
    return Path(found).read_bytes()


def static_fetcher():
    """A WeasyPrint URL fetcher serving only our static files (built lazily: WeasyPrint loads late)."""
    from weasyprint.urls import FatalURLFetchingError, URLFetcher, URLFetcherResponse

    class StaticOnlyFetcher(URLFetcher):
        def fetch(self, url, headers=None):
            if url.startswith("data:"):
                return super().fetch(url, headers)
            name = static_name(url)
            if name is not None:
                try:
                    body, mime = static_source(name)
                except StaticNotFound:
                    pass
                else:
                    return URLFetcherResponse(url, body=body, headers={"Content-Type": mime})
            raise FatalURLFetchingError(f"Refused to fetch {url!r} while rendering a document")

    return StaticOnlyFetcher()
