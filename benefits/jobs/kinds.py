"""The job kinds of the benefits app: what runs, on which queue, within what time, and who is told.

Time limits: a PDF takes seconds; a modeler run prices up to ~170 dates; a statement-batch chunk renders
``CHUNK_SIZE`` PDFs. The broker's visibility timeout (settings) stays above the longest of them.
"""

from __future__ import annotations

from benefits.jobs.registry import JobKind, register_job_kind

DOCUMENT_RENDER = "document.render"
MODELER_RUN = "modeler.run"
STATEMENT_BATCH_CHUNK = "statement_batch.chunk"
DELIVERY_EMAIL = "delivery.email"


def register() -> None:
    register_job_kind(
        JobKind(
            name=DOCUMENT_RENDER,
            label="PDF document",
            run="benefits.jobs.kinds:document_render_job",
            queue="pdf",
            time_limit=180,
            on_failed="benefits.jobs.kinds:document_job_failed",
            on_retry="benefits.jobs.kinds:document_job_retry",
        )
    )
    register_job_kind(
        JobKind(
            name=MODELER_RUN,
            label="Retirement model",
            run="benefits.jobs.kinds:modeler_run_job",
            queue="default",
            time_limit=600,
            on_failed="benefits.jobs.kinds:modeler_job_failed",
            on_retry="benefits.jobs.kinds:modeler_job_retry",
        )
    )
    register_job_kind(
        JobKind(
            name=STATEMENT_BATCH_CHUNK,
            label="Annual statements (part of a batch)",
            run="benefits.batches.services:batch_chunk_run",
            queue="pdf",
            time_limit=900,
            max_attempts=5,
            on_failed="benefits.batches.services:batch_chunk_failed",
        )
    )
    register_job_kind(
        JobKind(
            name=DELIVERY_EMAIL,
            label="Email that a document is ready",
            run="benefits.delivery.services:delivery_email_job",
            queue="default",
            time_limit=120,
            max_attempts=5,  # a mail relay that is down for a while: 5 s, 30 s, 2 min, 2 min apart
            on_failed="benefits.delivery.services:delivery_email_failed",
            on_retry="benefits.delivery.services:delivery_email_retry",
        )
    )

    from benefits.mail import MAIL_SEND

    register_job_kind(
        JobKind(
            name=MAIL_SEND,
            label="E-mail",
            run="benefits.mail:mail_send_job",
            queue="default",
            time_limit=60,
            max_attempts=4,  # a mail relay that is down for a while: 5 s, 30 s, 2 min apart
        )
    )


def document_render_job(job) -> None:
    from benefits.services.documents import document_render

    document_render(job.target_id)


def document_job_failed(job, reason: str) -> None:
    from benefits.services.documents import document_mark_failed

    document_mark_failed(job.target_id, reason)


def document_job_retry(job) -> None:
    from benefits.models import GeneratedDocument

    GeneratedDocument.objects.filter(pk=job.target_id).exclude(status=GeneratedDocument.Status.DONE).update(
        status=GeneratedDocument.Status.PENDING, error=""
    )


def modeler_run_job(job) -> None:
    from benefits.services.modeler import modeler_run_execute

    modeler_run_execute(job.target_id)


def modeler_job_failed(job, reason: str) -> None:
    from benefits.services.modeler import modeler_run_fail

    # The reason (technical) stays on the job for staff; the participant reads what to do.
    modeler_run_fail(
        job.target_id,
        "The model could not be calculated this time. The plan administrator has been told; "
        "you can try again from the modeler.",
    )


def modeler_job_retry(job) -> None:
    from benefits.models import ModelerRun

    ModelerRun.objects.filter(pk=job.target_id).exclude(status=ModelerRun.Status.DONE).update(
        status=ModelerRun.Status.PENDING, error="", progress_done=0, finished_at=None
    )
