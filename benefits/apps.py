import logging

from django.apps import AppConfig
from django.conf import settings

logger = logging.getLogger("benefits")


class BenefitsConfig(AppConfig):
    name = "benefits"
    verbose_name = "Plans and benefits"

    def ready(self) -> None:
        database = "embedded SQLite" if settings.EMBEDDED_DATABASE else "PostgreSQL (DATABASE_URL)"
        tasks = "in-process (eager)" if settings.EMBEDDED_TASKS else "Celery workers (CELERY_BROKER_URL)"
        logger.info("Running with database: %s; tasks: %s", database, tasks)
        from benefits.delivery.services import on_document_rendered
        from benefits.services.documents import document_rendered

        document_rendered.connect(on_document_rendered, dispatch_uid="benefits.delivery.document_ready")
