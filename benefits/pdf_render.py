"""WeasyPrint's per-process resources, made once: the font configuration, the static-only fetcher, the
static files it serves; and ``warm()``, which a Celery worker child runs at start.

A fresh WeasyPrint render pays for fontconfig and Pango loading the system fonts, an HTTPS-capable URL
opener (an SSL context with the CA store) and a static-file search for the stylesheet. None of these
change between documents, so each worker child makes them once (``config/celery.py`` calls ``warm``
on ``worker_process_init``) and every document costs only its own layout (``bench/bench_pdf.py``).
"""

from __future__ import annotations

import functools
import threading
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders

_local = threading.local()


@functools.cache
def _static_path(relative: str) -> str | None:
    """A static file's path (the files do not move while a process runs)."""
    found = finders.find(relative)
    return str(found) if found else None


@functools.cache
def _fetcher_class():
    from weasyprint.urls import FatalURLFetchingError, URLFetcher

    class StaticOnlyFetcher(URLFetcher):
        """Serve /static/ files from the project's static folders; refuse every other URL."""

        def fetch(self, url, headers=None):
            prefix = "file://" + settings.STATIC_URL
            if url.startswith(prefix) or url.startswith(settings.STATIC_URL):
                found = _static_path(url.split(settings.STATIC_URL, 1)[1])
                if found:
                    return super().fetch(Path(found).as_uri(), headers)
            raise FatalURLFetchingError(f"Refused to fetch {url!r} while rendering a document")

    return StaticOnlyFetcher


def fetcher():
    """This thread's fetcher (an URL opener is not shared between threads)."""
    instance = getattr(_local, "fetcher", None)
    if instance is None:
        instance = _local.fetcher = _fetcher_class()()
    return instance


@functools.cache
def font_config():
    from weasyprint.text.fonts import FontConfiguration

    return FontConfiguration()


def write_pdf(html: str) -> bytes:
    """HTML to PDF/A-3u bytes with this process's resources (FatalURLFetchingError on a refused URL)."""
    from weasyprint import HTML

    return HTML(string=html, base_url="file://" + settings.STATIC_URL, url_fetcher=fetcher()).write_pdf(
        pdf_variant="pdf/a-3u", font_config=font_config()
    )


def warm() -> None:
    """Load everything a first document would: WeasyPrint, the fonts, the fetcher, the stylesheet, the
    PDF templates."""
    from django.template.loader import render_to_string

    write_pdf(render_to_string("pdf/base.html", {"document": None, "payload": {}, "participant": None}))
