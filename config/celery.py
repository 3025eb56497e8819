"""The Celery app. In the embedded default (no CELERY_BROKER_URL) tasks run in-process, eagerly."""

import os

from celery import Celery
from celery.signals import worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("plan_benefits")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Each area keeps its tasks beside its services (docs/architecture.md); name each area here.
TASK_PACKAGES = (
    "benefits",
    "benefits.batches",
    "benefits.delivery",
    "benefits.imports",
    "benefits.jobs",
    "elections.benefit_elections",
    "elections.claims",
    "taxes",
)
app.autodiscover_tasks()
app.autodiscover_tasks(list(TASK_PACKAGES))


def import_task_modules() -> None:
    """Import every area's ``tasks`` module, so that Celery's registry holds every task.

    Not through ``app.loader.import_default_modules()``: that sends Celery's ``import_modules`` signal,
    on which the Django fix-up runs ``django.setup()`` (and the system checks) again, and a second
    ``django.setup()`` reconfigures logging: in a worker's pool child the root logger's handler is then
    a stream to the child's redirected stderr, and every later log line of that child is lost."""
    import importlib

    for package in TASK_PACKAGES:
        importlib.import_module(f"{package}.tasks")


@worker_process_init.connect
def warm_document_renderer(**kwargs):
    """Each worker child loads WeasyPrint, the fonts and the PDF stylesheet once, at start, so its
    first document is as fast as the rest (benefits/pdf_render.py)."""
    import logging

    try:
        from benefits.pdf_render import warm

        warm()
    except Exception:  # a worker that cannot warm up still renders (and reports) each document
        logging.getLogger(__name__).warning("PDF renderer warm-up failed", exc_info=True)
