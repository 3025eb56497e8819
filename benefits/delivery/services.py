"""Electronic delivery: the participant's consent (Treas. Reg. §1.401(a)-21(b)) and the delivery of each
notice or statement — an email that it is ready, or a paper copy recorded for the administrator to mail.

Exactly once: a document has one ``DocumentDelivery`` (database constraint); its email is one job row
(``delivery.email:<id>``), and the job sends only while the delivery is "sending", under a row lock, and
marks it sent in the same transaction, so a duplicate message or a retry after success sends nothing.
A mail relay failure is an ``OSError`` (``smtplib.SMTPException`` is one): the job is retried with
backoff and, after its attempts, fails visibly on the staff jobs page and the mailing list.
"""

from __future__ import annotations

import hmac
import secrets
from datetime import date

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.core.mail import EmailMessage
from django.db import transaction
from django.db.models import Max
from django.urls import reverse
from django.utils import timezone

from benefits.audit import AuditEventType, audit_record, client_ip
from benefits.delivery import disclosures, selectors
from benefits.delivery.models import DeliveryConsent, DeliveryTest, DocumentDelivery
from benefits.delivery.tasks import send_delivery_email
from benefits.models import GeneratedDocument, Participant
from benefits.presenters.plain import people_date
from benefits.services.documents import document_request

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread
CODE_LENGTH = 6


class DeliveryInvalid(Exception):
    """Refused whole: ``errors`` maps each field to the rule it broke, in words for the participant."""

    def __init__(self, errors: dict[str, str]) -> None:
        super().__init__("; ".join(errors.values()))
        self.errors = errors


def _require_owner(participant: Participant, actor) -> None:
    """The participant changes their own delivery; once the record shows a date of death, nobody but a
    plan administrator does (a login still linked to the record is no longer the participant's)."""
    if not getattr(actor, "is_authenticated", False):
        raise PermissionDenied("Only the participant may change how their documents are delivered.")
    if participant.death_date is not None:
        if not actor.is_administrator:
            raise PermissionDenied(
                "This participant has died: only a plan administrator may change how documents are delivered."
            )
        return
    if participant.user_id != actor.pk:
        raise PermissionDenied("Only the participant may change how their documents are delivered.")


def _require_administrator(actor) -> None:
    if not getattr(actor, "is_authenticated", False) or not actor.is_administrator:
        raise PermissionDenied("Only a plan administrator may record a mailing.")


# ------------------------------------------------------------------------------------ consent


def current_consent(participant: Participant) -> DeliveryConsent | None:
    """The participant's latest choice (consent or withdrawal), or None if they never chose."""
    return DeliveryConsent.objects.filter(participant=participant).order_by("-version").first()


def active_consent(participant: Participant) -> DeliveryConsent | None:
    """The consent emails rely on now: the latest version, if it is a consent."""
    return _if_consent(current_consent(participant))


def _if_consent(latest: DeliveryConsent | None) -> DeliveryConsent | None:
    return latest if latest is not None and latest.action == DeliveryConsent.Action.CONSENT else None


def _new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def delivery_test_start(*, participant: Participant, actor, request=None) -> DeliveryTest:
    """A test PDF with a code in it (rendered by a worker like every document)."""
    _require_owner(participant, actor)
    code = _new_code()
    with transaction.atomic():
        document = document_request(
            kind="delivery_test",
            participant=participant,
            title="Electronic delivery test document",
            template_name="pdf/delivery_test.html",
            payload={"code": code, "participant_name": participant.full_name},
            requested_by=actor,
            request=request,
        )
        test = DeliveryTest.objects.create(participant=participant, code=code, document=document)
        audit_record(
            event_type=AuditEventType.DELIVERY_TEST_REQUESTED,
            summary=f"{participant.participant_number} asked for the electronic delivery test document",
            actor=actor,
            participant=participant,
            request=request,
            test_id=test.pk,
            document_id=document.pk,
        )
    return test


def _next_version(participant: Participant) -> int:
    top = DeliveryConsent.objects.filter(participant=participant).aggregate(v=Max("version"))["v"]
    return (top or 0) + 1


def delivery_consent_give(
    *,
    participant: Participant,
    actor,
    email: str,
    code: str,
    acknowledged: bool,
    request=None,
) -> DeliveryConsent:
    """Record a consent: the disclosures as shown, the address, and the code read from the test PDF."""
    _require_owner(participant, actor)
    errors: dict[str, str] = {}
    if not acknowledged:
        errors["acknowledged"] = (
            "Confirm that you have read what electronic delivery means before consenting."
        )
    if not email:
        errors["email"] = "Email address: enter the address the emails should go to."
    with transaction.atomic():
        Participant.objects.select_for_update().filter(pk=participant.pk).first()  # one version at a time
        test = selectors.open_tests(participant).select_for_update().first()
        entered = (code or "").strip().upper().replace(" ", "")
        if test is None or test.document.status != GeneratedDocument.Status.DONE:
            errors["code"] = "Code: open the test document first, then enter the code printed in it."
        elif not hmac.compare_digest(entered.encode(), test.code.encode()):  # bytes: str refuses non-ASCII
            errors["code"] = (
                "Code: that is not the code in your test document. Open it and copy the code exactly."
            )
        if errors:
            raise DeliveryInvalid(errors)
        assert test is not None
        now = timezone.now()
        test.used_at = now
        test.save(update_fields=["used_at"])
        consent = DeliveryConsent.objects.create(
            participant=participant,
            version=_next_version(participant),
            action=DeliveryConsent.Action.CONSENT,
            email=email,
            disclosures=disclosures.snapshot(),
            demonstration={
                "method": "Opened the test PDF and entered the code printed in it",
                "document_id": test.document_id,
                "document_sha256": test.document.sha256,
                "code_entered_at": now.isoformat(),
            },
            test=test,
            recorded_by=actor,
            ip_address=client_ip(request),
        )
        audit_record(
            event_type=AuditEventType.DELIVERY_CONSENT_GIVEN,
            summary=f"{participant.participant_number} consented to electronic delivery (version {consent.version})",
            actor=actor,
            participant=participant,
            request=request,
            consent_id=consent.pk,
            version=consent.version,
            disclosures_version=disclosures.VERSION,
        )
    return consent


def delivery_consent_withdraw(*, participant: Participant, actor, request=None) -> DeliveryConsent:
    """Withdraw: from now on every document is mailed; emails not yet sent become paper copies."""
    _require_owner(participant, actor)
    with transaction.atomic():
        Participant.objects.select_for_update().filter(pk=participant.pk).first()
        if active_consent(participant) is None:
            raise DeliveryInvalid(
                {"action": "You have not consented to electronic delivery, so there is nothing to withdraw."}
            )
        consent = DeliveryConsent.objects.create(
            participant=participant,
            version=_next_version(participant),
            action=DeliveryConsent.Action.WITHDRAW,
            disclosures=disclosures.snapshot(),
            recorded_by=actor,
            ip_address=client_ip(request),
        )
        audit_record(
            event_type=AuditEventType.DELIVERY_CONSENT_WITHDRAWN,
            summary=f"{participant.participant_number} withdrew consent to electronic delivery (version {consent.version})",
            actor=actor,
            participant=participant,
            request=request,
            consent_id=consent.pk,
            version=consent.version,
        )
    return consent


# ------------------------------------------------------------------------------------ delivering a document


def _queue_email(delivery: DocumentDelivery) -> None:
    delivery.job = send_delivery_email.enqueue_on_commit(
        target_id=delivery.pk, unique_key=f"{send_delivery_email.name}:{delivery.pk}"
    )
    delivery.state = DocumentDelivery.State.SENDING
    delivery.save(update_fields=["job", "state"])


def delivery_arrange(*, document: GeneratedDocument, actor=None, request=None) -> DocumentDelivery:
    """How ``document`` (a notice or statement just issued) reaches its participant: an email that it is
    ready if they consented, else a paper copy to mail. Call inside the issuing transaction; once per
    document (a second call returns the first arrangement)."""
    existing = DocumentDelivery.objects.filter(document=document).first()
    if existing is not None:
        return existing
    participant = document.participant
    latest = current_consent(participant)  # one read: the channel and, for paper, the reason
    consent = _if_consent(latest)
    with transaction.atomic():
        if consent is not None:
            delivery = DocumentDelivery.objects.create(
                document=document,
                participant=participant,
                channel=DocumentDelivery.Channel.EMAIL,
                state=DocumentDelivery.State.WAITING,
                consent=consent,
                email=consent.email,
            )
            if document.status == GeneratedDocument.Status.DONE:
                _queue_email(delivery)
        else:
            delivery = DocumentDelivery.objects.create(
                document=document,
                participant=participant,
                channel=DocumentDelivery.Channel.PAPER,
                state=DocumentDelivery.State.TO_MAIL,
                paper_reason=(
                    "Withdrew consent to electronic delivery"
                    if latest
                    else "No consent to electronic delivery"
                ),
            )
        audit_record(
            event_type=AuditEventType.DELIVERY_ARRANGED,
            summary=f"{document.title}: {delivery.get_channel_display().lower()}",
            actor=actor,
            participant=participant,
            request=request,
            delivery_id=delivery.pk,
            document_id=document.pk,
            channel=delivery.channel,
            consent_id=consent.pk if consent else None,
        )
    return delivery


def on_document_rendered(sender, *, document: GeneratedDocument, **kwargs) -> None:
    """``benefits.services.documents.document_rendered``: see ``delivery_document_ready``."""
    delivery_document_ready(document)


def delivery_document_ready(document: GeneratedDocument) -> None:
    """The PDF is rendered: an email waiting for it is queued (inside the rendering transaction)."""
    delivery = (
        DocumentDelivery.objects.select_for_update()
        .filter(document=document, state=DocumentDelivery.State.WAITING)
        .first()
    )
    if delivery is not None:
        _queue_email(delivery)


def documents_page_url(participant: Participant) -> str:
    return settings.SITE_URL + reverse("elections:documents", args=[participant.pk])


def email_message(delivery: DocumentDelivery, email: str) -> EmailMessage:
    """Says a document is ready and where; never its content or figures, never an attachment."""
    participant = delivery.participant
    document = delivery.document
    preferences = settings.SITE_URL + reverse("benefits:delivery_preferences", args=[participant.pk])
    body = (
        f"Dear {participant.first_name},\n\n"
        f"A new document is on your documents page: {document.title}, dated {people_date(timezone.localdate(document.created_at))}.\n\n"
        f"Sign in and open your documents page to read it:\n{documents_page_url(participant)}\n\n"
        "For your privacy this email does not contain the document or any of its figures.\n\n"
        "You receive this email because you chose electronic delivery. You may ask the plan administrator "
        "for a paper copy of any document free of charge, or withdraw your consent at any time here:\n"
        f"{preferences}\n"
    )
    return EmailMessage(
        subject=f"{settings.ACCOUNT_EMAIL_SUBJECT_PREFIX}A new document is ready for you",
        body=body,
        to=[email],
    )


def delivery_email_job(job) -> None:
    """Its task's body: send the "document ready" email once, or turn it into paper if consent was withdrawn."""
    with transaction.atomic():
        delivery = (
            DocumentDelivery.objects.select_for_update(of=("self",))
            .select_related("participant", "document")
            .filter(pk=job.target_id)
            .first()
        )
        if delivery is None or delivery.state != DocumentDelivery.State.SENDING:
            return  # sent already (a duplicate message), or mailed on paper meanwhile
        consent = active_consent(delivery.participant)
        if consent is None:
            delivery.channel = DocumentDelivery.Channel.PAPER
            delivery.state = DocumentDelivery.State.TO_MAIL
            delivery.paper_reason = "Consent to electronic delivery withdrawn before the email was sent"
            delivery.save(update_fields=["channel", "state", "paper_reason"])
            audit_record(
                event_type=AuditEventType.DELIVERY_TO_PAPER,
                summary=f"{delivery.document.title}: consent withdrawn, to be mailed on paper",
                participant=delivery.participant,
                delivery_id=delivery.pk,
            )
            return
        # The latest consent's address (the participant may have given a new one since issue).
        email_message(delivery, consent.email).send(fail_silently=False)
        delivery.state = DocumentDelivery.State.SENT
        delivery.sent_at = timezone.now()
        delivery.email = consent.email
        delivery.consent = consent
        delivery.save(update_fields=["state", "sent_at", "email", "consent"])
        audit_record(
            event_type=AuditEventType.DELIVERY_EMAIL_SENT,
            summary=f"{delivery.document.title}: email that it is ready sent",
            participant=delivery.participant,
            delivery_id=delivery.pk,
            document_id=delivery.document_id,
            consent_id=consent.pk,
        )


def delivery_email_failed(job, reason: str) -> None:
    """After its attempts the email is marked failed where the administrator's mailing list shows it."""
    DocumentDelivery.objects.filter(pk=job.target_id, state=DocumentDelivery.State.SENDING).update(
        state=DocumentDelivery.State.FAILED
    )


def delivery_email_retry(job) -> None:
    DocumentDelivery.objects.filter(pk=job.target_id, state=DocumentDelivery.State.FAILED).update(
        state=DocumentDelivery.State.SENDING
    )


def delivery_mark_mailed(
    *, delivery: DocumentDelivery, actor, mailed_on: date | None = None, request=None
) -> DocumentDelivery:
    """The administrator mailed the paper copy (a document to mail, or one whose email failed)."""
    _require_administrator(actor)
    with transaction.atomic():
        delivery = (
            DocumentDelivery.objects.select_for_update(of=("self",))
            .select_related("document", "participant")
            .get(pk=delivery.pk)
        )
        if delivery.state == DocumentDelivery.State.MAILED:
            return delivery
        if delivery.state not in (DocumentDelivery.State.TO_MAIL, DocumentDelivery.State.FAILED):
            raise DeliveryInvalid({"delivery": "This document is not waiting to be mailed."})
        delivery.channel = DocumentDelivery.Channel.PAPER
        delivery.state = DocumentDelivery.State.MAILED
        delivery.mailed_on = mailed_on or timezone.localdate()
        delivery.mailed_by = actor
        delivery.save(update_fields=["channel", "state", "mailed_on", "mailed_by"])
        audit_record(
            event_type=AuditEventType.DELIVERY_MAILED,
            summary=f"{delivery.document.title} mailed to {delivery.participant.participant_number}",
            actor=actor,
            participant=delivery.participant,
            request=request,
            delivery_id=delivery.pk,
            mailed_on=delivery.mailed_on.isoformat(),
        )
    return delivery
