"""WeasyPrint's resources are made once per worker process and warmed at worker start (issue 17)."""

from __future__ import annotations

import io

from pypdf import PdfReader

from benefits import pdf_render


def test_worker_children_warm_the_renderer_at_start():
    from celery.signals import worker_process_init

    from config.celery import warm_document_renderer

    receivers = [r() if callable(r) else r for _, r in worker_process_init.receivers]
    assert warm_document_renderer in receivers


def test_a_warming_child_is_not_killed_as_a_failed_start():
    """Celery kills a pool child that has not reported ready within worker_proc_alive_timeout (4 s by
    default); warming took 3-4 s under load (issue 29), so the window leaves room for it many times over."""
    from django.conf import settings

    from config.celery import app

    assert app.conf.worker_proc_alive_timeout == settings.CELERY_WORKER_PROC_ALIVE_TIMEOUT >= 30


def test_resources_are_made_once_per_process_and_fetchers_per_thread():
    import threading

    assert pdf_render.font_config() is pdf_render.font_config()
    assert pdf_render.fetcher() is pdf_render.fetcher()
    other = []
    thread = threading.Thread(target=lambda: other.append(pdf_render.fetcher()))
    thread.start()
    thread.join()
    assert other[0] is not pdf_render.fetcher()


def test_warm_then_render_with_the_shared_resources():
    pdf_render.warm()
    pdf = pdf_render.write_pdf("<html><body><h1>Statement</h1><p>$1,234.56</p></body></html>")
    text = PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    assert "Statement" in text and "$1,234.56" in text
