"""The benefits app's background work, declared beside its services on the job task base class
(``benefits/jobs/base.py``): each task takes its ``Job`` and calls one service with the ids on it.

Time limits: a PDF takes seconds; a modeler run prices up to ~170 dates. The broker's visibility timeout
(settings) stays above the longest limit of any task.
"""

from __future__ import annotations

from celery import shared_task

from benefits.jobs.base import JobTask

# --- PDF documents (benefits/services/documents.py) ------------------------------------------------------


def _document_failed(job, reason: str) -> None:
    from benefits.services.documents import document_mark_failed

    document_mark_failed(job.target_id, reason)


def _document_retried(job) -> None:
    from benefits.services.documents import document_mark_waiting

    document_mark_waiting(job.target_id)


@shared_task(
    base=JobTask,
    name="document.render",
    label="PDF document",
    job_queue="pdf",
    time_limit=180,
    job_failed=_document_failed,
    job_retried=_document_retried,
)
def render_document(job) -> None:
    from benefits.services.documents import document_render

    document_render(job.target_id)


# --- Retirement modeler (benefits/services/modeler.py) ------------------------------------------------


def _modeler_failed(job, reason: str) -> None:
    from benefits.services.modeler import modeler_run_fail

    # The reason (technical) stays on the job for staff; the participant reads what to do.
    modeler_run_fail(
        job.target_id,
        "The model could not be calculated this time. The plan administrator has been told; "
        "you can try again from the modeler.",
    )


def _modeler_retried(job) -> None:
    from benefits.services.modeler import modeler_run_mark_waiting

    modeler_run_mark_waiting(job.target_id)


@shared_task(
    base=JobTask,
    name="modeler.run",
    label="Retirement model",
    time_limit=600,
    job_failed=_modeler_failed,
    job_retried=_modeler_retried,
)
def run_model(job) -> None:
    from benefits.services.modeler import modeler_run_execute

    modeler_run_execute(job.target_id)


# --- E-mail (benefits/mail.py) ----------------------------------------------------------------------------


@shared_task(
    base=JobTask,
    name="mail.send",
    label="E-mail",
    time_limit=60,
    max_attempts=4,  # a mail relay that is down for a while: 5 s, 30 s, 2 min apart
)
def send_mail(job) -> None:
    from benefits.mail import mail_send

    mail_send(job)
