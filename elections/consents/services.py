"""Every write to a spouse's consent: the form issued for one thing, the signed form uploaded, the
administrator's verification or refusal, a certified exception. Each checks who may act, records one
audit event in one transaction, and then lets the thing consented to take effect through its
``ConsentSubject`` (``elections/consents/subjects.py``): nothing here imports the areas that ask for
consents.
"""

from __future__ import annotations

import uuid
from datetime import date

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from benefits.audit import AuditEventType, audit_record
from benefits.locking import lock_row
from benefits.services.documents import document_request
from benefits.stored_files import atomic_with_files, write_file
from elections.authority import ElectionInvalid, require_administrator, require_owner
from elections.consents.models import SpousalConsent
from elections.consents.subjects import subject_for

SUBJECT_FIELDS = ("election", "designation", "claim")

CONSENT_FIELDS = (
    "signed_on",
    "witness",
    "witness_name",
    "notary_commission_number",
    "notary_commission_state",
    "notary_commission_expires",
    "witnessing",
    "remote_live_audio_video",
    "remote_identity_shown",
    "remote_same_day_transmission",
)


def today() -> date:
    return timezone.localdate()


def consent_open(
    *,
    subject: dict,
    participant,
    spouse_name: str,
    title: str,
    template_name: str,
    payload: dict,
    actor,
    request=None,
) -> SpousalConsent:
    """A consent record for the spouse of record to one thing (``subject``: ``{"election": e}``,
    ``{"designation": d}`` or ``{"claim": c}``), with the consent form (a PDF) that names it."""
    consent = SpousalConsent.objects.create(**subject, spouse_name=spouse_name)
    (thing,) = subject.values()
    membership = getattr(thing, "membership", None)  # a designation for all plans has none
    consent.form_document = document_request(
        kind="spousal_consent_form",
        participant=participant,
        title=title,
        template_name=template_name,
        payload=payload,
        plans=membership.plan if membership is not None else None,
        requested_by=actor,
        request=request,
    )
    consent.save(update_fields=["form_document"])
    return consent


def consent_validity(consent: SpousalConsent, *, on: date | None = None) -> dict[str, str]:
    """Why this consent does not (yet) make what it names effective; empty when it does. ``on`` is the
    day it would take effect (a loan is made, a withdrawal paid, a designation verified)."""
    return subject_for(consent.subject_field).consent_problems(consent, on=on or today())


def awaiting_consent(consent: SpousalConsent, thing=None) -> bool:
    """Whether the election, designation or claim ``consent`` names still waits for a consent
    (``thing``: that row, when the caller holds it locked)."""
    return subject_for(consent.subject_field).awaiting_consent(
        thing if thing is not None else consent.subject
    )


def subject_try_effective(consent: SpousalConsent, *, actor, on: date | None = None, request=None) -> bool:
    """A verified consent (or certified exception) lets what it names take effect."""
    return subject_for(consent.subject_field).try_effective(
        consent.subject, actor=actor, on=on, request=request
    )


def _store_upload(folder: str, upload) -> str:
    # Removed again if the upload's transaction does not commit (benefits/stored_files.py).
    return write_file(f"consents/{folder}/{uuid.uuid4().hex}.{upload.extension}", upload.content)


def _no_longer_waiting(consent: SpousalConsent) -> ElectionInvalid:
    return ElectionInvalid(
        {"election": f"This {consent.subject_words.rsplit(' ', 1)[0]} is no longer waiting for a consent."}
    )


def consent_upload(*, consent: SpousalConsent, user, upload, details: dict, request=None) -> SpousalConsent:
    """The participant uploads the signed, witnessed form with what it says; refused whole if the form
    as described could not be valid."""
    subject = consent.subject
    require_owner(subject.participant, user)
    if not awaiting_consent(consent):
        raise _no_longer_waiting(consent)
    if consent.state not in (SpousalConsent.State.AWAITING_FORM, SpousalConsent.State.REJECTED):
        raise ElectionInvalid({"upload": "This consent has already been sent for verification."})
    with atomic_with_files():
        consent = SpousalConsent.objects.select_for_update().get(pk=consent.pk)
        _recheck_awaiting_form(consent)
        for f in CONSENT_FIELDS:
            if f in details:
                setattr(consent, f, details[f])
        consent.upload_file = "pending"  # counted as present for the check below
        problems = {k: v for k, v in consent_validity(consent).items() if k != "verified"}
        if problems:
            raise ElectionInvalid(problems)
        folder = str(consent.election_id) if consent.election_id else consent.subject_words.replace(" ", "-")
        consent.upload_file = _store_upload(folder, upload)
        consent.upload_name, consent.upload_content_type, consent.upload_sha256 = (
            upload.original_name,
            upload.content_type,
            upload.sha256,
        )
        consent.uploaded_by, consent.uploaded_at = user, timezone.now()
        consent.state, consent.rejected_reason = SpousalConsent.State.AWAITING_VERIFICATION, ""
        consent.save()
        audit_record(
            event_type=AuditEventType.CONSENT_UPLOADED,
            summary=f"Spousal consent for {consent.subject_words} uploaded",
            actor=user,
            participant=subject.participant,
            request=request,
            consent_id=consent.pk,
            sha256=consent.upload_sha256,
        )
    return consent


def _recheck_awaiting_form(consent: SpousalConsent) -> None:
    """Under the consent's lock: a second upload sent at the same time, or one after the election was
    revoked or replaced, is refused and writes nothing (no row change, no file, no audit event)."""
    subject = lock_row(consent.subject)
    if consent.state not in (SpousalConsent.State.AWAITING_FORM, SpousalConsent.State.REJECTED):
        raise ElectionInvalid({"upload": "This consent has already been sent for verification."})
    if not awaiting_consent(consent, subject):
        raise _no_longer_waiting(consent)


def consent_verify(*, consent: SpousalConsent, actor, request=None, on: date | None = None) -> SpousalConsent:
    """The administrator checks the uploaded form against the record and verifies it."""
    require_administrator(actor)
    if actor is None:
        raise PermissionDenied("A consent is verified by a person.")
    with transaction.atomic():
        consent = SpousalConsent.objects.select_for_update().get(pk=consent.pk)
        if consent.state != SpousalConsent.State.AWAITING_VERIFICATION:
            raise ElectionInvalid(
                {"state": f"This consent is “{consent.get_state_display()}”, not waiting for verification."}
            )
        if not awaiting_consent(consent, lock_row(consent.subject)):  # revoked or replaced meanwhile
            raise ElectionInvalid(
                {
                    "state": f"The {consent.subject_words} is no longer waiting for a consent: nothing was verified."
                }
            )
        problems = {k: v for k, v in consent_validity(consent, on=on).items() if k != "verified"}
        if problems:
            raise ElectionInvalid(problems)
        consent.state, consent.verified_by, consent.verified_at = (
            SpousalConsent.State.VERIFIED,
            actor,
            timezone.now(),
        )
        consent.save(update_fields=["state", "verified_by", "verified_at"])
        audit_record(
            event_type=AuditEventType.CONSENT_VERIFIED,
            summary=f"Spousal consent {consent.pk} for {consent.subject_words} verified",
            actor=actor,
            participant=consent.participant,
            request=request,
            consent_id=consent.pk,
            election_id=consent.election_id,
            designation_id=consent.designation_id,
            claim_id=consent.claim_id,
        )
        subject_try_effective(consent, actor=actor, on=on, request=request)
    return consent


def consent_reject(*, consent: SpousalConsent, actor, reason: str, request=None) -> SpousalConsent:
    require_administrator(actor)
    if not reason.strip():
        raise ElectionInvalid({"reason": "Reason: tell the participant what is wrong with the form."})
    with transaction.atomic():
        consent = SpousalConsent.objects.select_for_update().get(pk=consent.pk)
        if consent.state != SpousalConsent.State.AWAITING_VERIFICATION:
            raise ElectionInvalid({"state": "Only a consent waiting for verification can be sent back."})
        consent.state, consent.rejected_reason = SpousalConsent.State.REJECTED, reason.strip()
        consent.save(update_fields=["state", "rejected_reason"])
        audit_record(
            event_type=AuditEventType.CONSENT_REJECTED,
            summary=f"Spousal consent {consent.pk} not accepted",
            actor=actor,
            participant=consent.participant,
            request=request,
            consent_id=consent.pk,
            reason=reason.strip(),
        )
    return consent


def consent_exception_certify(
    *,
    election=None,
    designation=None,
    claim=None,
    actor,
    exception: str,
    certification: str,
    request=None,
    on: date | None = None,
) -> SpousalConsent:
    """A plan representative certifies that consent cannot be obtained (§417(a)(2)(B); Q&A-27), for an
    election, a beneficiary designation or a loan/withdrawal claim."""
    require_administrator(actor)
    if actor is None:
        raise PermissionDenied("An exception is certified by a person.")
    subject = {"election": election, "designation": designation, "claim": claim}
    subject = {k: v for k, v in subject.items() if v is not None}
    if len(subject) != 1:
        raise ValueError("An exception is certified for exactly one election, designation or claim.")
    [(field, thing)] = subject.items()
    if not subject_for(field).awaiting_consent(thing):
        raise ElectionInvalid({"state": "This is not waiting for a spouse's consent."})
    errors = {}
    if exception not in SpousalConsent.ExceptionReason.values:
        errors["exception"] = "Circumstance: choose one of the exceptions the law allows."
    if len(certification.strip()) < 20:
        errors["certification"] = (
            "Certification: state the facts you relied on (the court order, the search made)."
        )
    if errors:
        raise ElectionInvalid(errors)
    with transaction.atomic():
        consent = SpousalConsent.objects.create(
            **subject,
            kind=SpousalConsent.Kind.EXCEPTION,
            spouse_name=getattr(thing, "spouse_name", "") or thing.participant.spouse_name,
            exception=exception,
            certification=certification.strip(),
            state=SpousalConsent.State.VERIFIED,
            verified_by=actor,
            verified_at=timezone.now(),
        )
        audit_record(
            event_type=AuditEventType.CONSENT_EXCEPTION_CERTIFIED,
            summary=f"Consent exception certified for {consent.subject_words}: {consent.get_exception_display()}",
            actor=actor,
            participant=thing.participant,
            request=request,
            consent_id=consent.pk,
            election_id=consent.election_id,
            designation_id=consent.designation_id,
            claim_id=consent.claim_id,
            exception=exception,
        )
        subject_try_effective(consent, actor=actor, on=on, request=request)
    return consent
