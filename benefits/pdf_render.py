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

from django.conf import settings

from benefits.pdf_static import static_fetcher

_local = threading.local()


def fetcher():
    """This thread's fetcher (an URL opener is not shared between threads)."""
    instance = getattr(_local, "fetcher", None)
    if instance is None:
        # Through the configured static storage, hashed manifest names included (benefits/pdf_static.py).
        instance = _local.fetcher = static_fetcher()
    return instance


@functools.cache
def font_config():
    from weasyprint.text.fonts import FontConfiguration

    return FontConfiguration()


# PDF/UA-1 (ISO 14289-1): a tagged PDF (structure tree, marked content, the document's language and
# title shown) that assistive technology reads in order. Every notice, statement, consent form and
# letter is one; tests/elections/test_pdf_accessibility.py checks the tags on each kind the demo makes.
PDF_VARIANT = "pdf/ua-1"


def write_pdf(html: str) -> bytes:
    """HTML to tagged PDF/UA-1 bytes with this process's resources (FatalURLFetchingError on a refused
    URL)."""
    from weasyprint import HTML

    return HTML(string=html, base_url="file://" + settings.STATIC_URL, url_fetcher=fetcher()).write_pdf(
        pdf_variant=PDF_VARIANT, pdf_tags=True, font_config=font_config()
    )


def warm() -> None:
    """Load everything a first document would: WeasyPrint, the fonts, the fetcher, the stylesheet, the
    PDF templates."""
    from django.template.loader import render_to_string

    write_pdf(render_to_string("pdf/base.html", {"document": None, "payload": {}, "participant": None}))
