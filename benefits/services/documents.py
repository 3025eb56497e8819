"""PDF documents: requested in a transaction, rendered by a Celery task after commit, served by permission.

WeasyPrint is imported inside the render function (after the worker forks: WeasyPrint#684), fetches
only our own static files (CVE-2025-68616: no arbitrary file:// or network URLs), and a missing
stylesheet or font is fatal for a legal document rather than a silent warning.
"""

from __future__ import annotations

import hashlib

from django.db import transaction
from django.dispatch import Signal
from django.template.loader import render_to_string
from django.utils import timezone

from benefits import private_files
from benefits.audit import AuditEventType, audit_record
from benefits.engine import ENGINE_VERSION
from benefits.models import GeneratedDocument, Participant
from benefits.tasks import render_document

# Sent inside the rendering transaction once a PDF is stored (kwargs: document).
document_rendered = Signal()


def document_request(
    *,
    kind: str,
    participant: Participant,
    title: str,
    template_name: str,
    payload: dict,
    requested_by=None,
    request=None,
    plans=None,
) -> GeneratedDocument:
    """Record a document to render and enqueue its rendering job once the transaction commits.

    The payload gets the identification of the plans it speaks about (``plans``, else the plan the
    payload names, else the participant's plans): every PDF prints it through ``pdf/base.html``."""
    from benefits.plan_identity.selectors import document_plans, identity_blocks

    if "plan_identity" not in payload:
        payload = payload | {
            "plan_identity": identity_blocks(
                document_plans(participant=participant, payload=payload, plans=plans)
            )
        }
    with transaction.atomic():
        document = GeneratedDocument.objects.create(
            participant=participant,
            kind=kind,
            title=title,
            template_name=template_name,
            payload=payload,
            engine_version=payload.get("engine_version", ENGINE_VERSION),
            requested_by=requested_by if getattr(requested_by, "is_authenticated", False) else None,
        )
        audit_record(
            event_type=AuditEventType.DOCUMENT_REQUESTED,
            summary=f"{title} requested",
            actor=requested_by,
            participant=participant,
            request=request,
            document_id=document.pk,
            kind=kind,
        )
        document.job = render_document.enqueue_on_commit(
            target_id=document.pk,
            unique_key=f"{render_document.name}:{document.pk}",
            created_by=requested_by,
        )
        document.save(update_fields=["job"])
    return document


class DocumentRenderError(Exception):
    pass


def render_pdf_bytes(template_name: str, context: dict) -> bytes:
    """Render a Django template to PDF bytes (tagged PDF/UA-1, fonts embedded)."""
    from weasyprint.urls import FatalURLFetchingError

    from benefits.pdf_render import write_pdf  # fonts, fetcher and stylesheet made once per process

    html = render_to_string(template_name, context)
    try:
        return write_pdf(html)
    except FatalURLFetchingError as exc:  # a BaseException in WeasyPrint: make it an ordinary error
        raise DocumentRenderError(str(exc)) from None


def document_render(document_id: int) -> GeneratedDocument:
    """Render a pending document; idempotent (a document already rendered is left alone)."""
    from benefits.stored_files import atomic_with_files, write_file

    with atomic_with_files():  # the PDF is removed again if the document is not recorded as done
        document = GeneratedDocument.objects.select_for_update().get(pk=document_id)
        if document.status == GeneratedDocument.Status.DONE:
            return document
        document.attempts += 1
        context = {"document": document, "payload": document.payload, "participant": document.participant}
        pdf = render_pdf_bytes(document.template_name, context)
        relative = f"documents/{document.participant_id}/{document.pk}-{document.kind}.pdf"
        document.file_name = write_file(relative, pdf)
        document.sha256 = hashlib.sha256(pdf).hexdigest()
        document.size = len(pdf)
        document.status = GeneratedDocument.Status.DONE
        document.error = ""
        document.rendered_at = timezone.now()
        document.save()
        audit_record(
            event_type=AuditEventType.DOCUMENT_RENDERED,
            summary=f"{document.title} rendered",
            participant=document.participant,
            document_id=document.pk,
            sha256=document.sha256,
        )
        # Electronic delivery answers (an email waiting for this PDF is queued with the commit);
        # documents know nothing of delivery, which uses them.
        document_rendered.send(sender=GeneratedDocument, document=document)
    return document


def document_mark_waiting(document_id: int) -> None:
    """Staff try its job again: a document not rendered waits again (its page shows it coming)."""
    GeneratedDocument.objects.filter(pk=document_id).exclude(status=GeneratedDocument.Status.DONE).update(
        status=GeneratedDocument.Status.PENDING, error=""
    )


def document_mark_failed(document_id: int, error: str) -> None:
    """A rendering that failed for good is reported on the document, never silently dropped."""
    with transaction.atomic():
        document = GeneratedDocument.objects.select_for_update().get(pk=document_id)
        if document.status == GeneratedDocument.Status.DONE:
            return
        document.status = GeneratedDocument.Status.FAILED
        document.error = error[:2000]
        document.save(update_fields=["status", "error"])
        audit_record(
            event_type=AuditEventType.DOCUMENT_FAILED,
            summary=f"{document.title} failed to render",
            participant=document.participant,
            document_id=document.pk,
            error=error[:500],
        )


def document_open(document: GeneratedDocument):
    """The rendered PDF opened for a streamed download (FileResponse closes it)."""
    return private_files.open_for_download(document.file_name)


def document_bytes(document: GeneratedDocument) -> bytes:
    return private_files.read_bytes(document.file_name)
