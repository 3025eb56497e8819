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
        # The engine imports numpy on first use, so that a census on the command line that prices no
        # annuity never loads it. A server process loads it here, at start: before Celery forks its
        # pool children (who then share it) and before a web worker's first modeler page, so no
        # participant's request waits the 0.1 s of the import. Through the engine's own import, so that
        # its BLAS runs on one thread (``numpy_on_first_use.import_numpy``).
        from benefits.engine.numpy_on_first_use import import_numpy

        import_numpy()
