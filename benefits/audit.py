"""Audit events: every write service records one inside its own transaction.

``AuditEventType`` is the one list of event types. The stored value (``AuditEvent.event_type``) is the
member's value, unchanged from before the list existed; the model field keeps no ``choices`` so that a
new type needs no migration. Add a member here for a new kind of write, then pass it to ``audit_record``,
which refuses any other string.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from benefits.models import AuditEvent, Participant


class AuditEventType(models.TextChoices):
    # accounts
    IDENTITY_LINKED = "identity.linked", "Identity linked to a participant record"
    IDENTITY_LINK_FAILED = "identity.link_failed", "Identity check failed"
    ACCOUNT_ROLE_CHANGED = "account.role_changed", "Role changed"
    ACCOUNT_DEACTIVATED = "account.deactivated", "Login deactivated"
    ACCOUNT_ACTIVATED = "account.activated", "Login reactivated"
    # four eyes on power (issue 26): a staff role or a staff login is requested, then decided by another
    ROLE_REQUESTED = "account.role_requested", "Staff role requested"
    STAFF_LOGIN_REQUESTED = "account.staff_login_requested", "Staff login requested"
    ROLE_REQUEST_APPROVED = "account.role_request_approved", "Staff role request approved"
    ROLE_REQUEST_REFUSED = "account.role_request_refused", "Staff role request refused or withdrawn"
    # authentication (OWASP ASVS V7.2): written by accounts/auth_audit.py from Django's and allauth's signals
    AUTH_SIGNED_IN = "auth.signed_in", "Signed in"
    AUTH_SIGN_IN_FAILED = "auth.sign_in_failed", "Sign-in failed"
    AUTH_SIGNED_OUT = "auth.signed_out", "Signed out"
    AUTH_PASSWORD_CHANGED = "auth.password_changed", "Password changed"
    AUTH_PASSWORD_RESET = "auth.password_reset", "Password reset by e-mail link"
    AUTH_EMAIL_CHANGED = "auth.email_changed", "Sign-in e-mail address changed"
    AUTH_EMAIL_ADDRESSES = "auth.email_addresses", "E-mail address added, removed or confirmed"
    AUTH_SIGNED_UP = "auth.signed_up", "Login created by sign-up"
    AUTH_MFA_ENROLLED = "auth.mfa_enrolled", "Two-factor method set up"
    AUTH_MFA_REMOVED = "auth.mfa_removed", "Two-factor method removed"
    AUTH_MFA_RECOVERY_CODES_RESET = "auth.mfa_recovery_codes_reset", "New recovery codes generated"
    AUTH_MFA_FAILED = "auth.mfa_failed", "Two-factor code refused"
    AUTH_RECOVERY_CODE_USED = "auth.recovery_code_used", "Recovery code used to sign in"
    # the Django admin: what staff open or change there (issue 15)
    ADMIN_VIEWED = "admin.viewed", "Record opened in the Django admin"
    ADMIN_CHANGED = "admin.changed", "Record changed in the Django admin"
    ADMIN_ADDED = "admin.added", "Record added in the Django admin"
    # benefits: plans and their readings
    PLAN_READING_CHANGED = "plan.reading_changed", "Plan reading changed"
    PLAN_SETTINGS_CONFIRMED = "plan.settings_confirmed", "Plan readings confirmed"
    PLAN_IDENTITY_CHANGED = (
        "plan.identity_changed",
        "Plan identification changed (number, sponsor, administrator)",
    )
    # benefits: participants' pages, modeler, documents
    PARTICIPANT_VIEWED_BY_STAFF = "participant.viewed_by_staff", "Participant page viewed by plan staff"
    MODELER_RUN_REQUESTED = "modeler.run_requested", "Retirement model requested"
    QUOTE_SAVED = "quote.saved", "Retirement quote saved"
    DOCUMENT_REQUESTED = "document.requested", "Document requested"
    DOCUMENT_RENDERED = "document.rendered", "Document rendered"
    DOCUMENT_FAILED = "document.failed", "Document could not be rendered"
    # benefits: background jobs and statement batches
    JOB_FAILED = "job.failed", "Background job failed"
    JOB_RETRIED = "job.retried", "Background job tried again"
    STATEMENT_BATCH_STARTED = "statement_batch.started", "Annual statement batch started or resumed"
    STATEMENT_BATCH_RETRIED = "statement_batch.retried", "Failed statements of a batch queued again"
    STATEMENT_BATCH_STATEMENT_ISSUED = "statement_batch.statement_issued", "Annual statement issued"
    STATEMENT_BATCH_STATEMENT_FAILED = "statement_batch.statement_failed", "Annual statement failed"
    STATEMENT_BATCH_FINISHED = "statement_batch.finished", "Annual statement batch finished"
    # benefits: data imports (benefits/imports/)
    IMPORT_UPLOADED = "import.uploaded", "Data file uploaded for import"
    IMPORT_REQUESTED = "import.requested", "Data file import requested"
    IMPORT_APPLIED = "import.applied", "Data file imported"
    IMPORT_FAILED = "import.failed", "Data import failed"
    IMPORT_ROLLED_BACK = "import.rolled_back", "Data import rolled back"
    REGULATORY_TABLE_LOADED = "regulatory_table.loaded", "Regulatory table version loaded"
    NOTICE_REPRICED = "notice.repriced", "Explanation issued again on a newly loaded table"
    # elections: claims (``claim.<action>``; the action is also the claim timeline's ``ClaimEvent.action``)
    CLAIM_FILED = "claim.filed", "Claim filed"
    CLAIM_START_REVIEW = "claim.start_review", "Claim review started"
    CLAIM_START_APPEAL_REVIEW = "claim.start_appeal_review", "Appeal review started"
    CLAIM_EXTENDED = "claim.extended", "Claim decision period extended"
    CLAIM_INFORMATION_REQUESTED = "claim.information_requested", "Information requested from the claimant"
    CLAIM_INFORMATION_REQUESTED_WITH_EXTENSION = (
        "claim.information_requested_with_extension",
        "Time extended because information is missing; information requested from the claimant",
    )
    CLAIM_INFORMATION_ANSWERED = "claim.information_answered", "Claimant answered the information request"
    CLAIM_INFORMATION_NOT_ANSWERED = (
        "claim.information_not_answered",
        "Information request not answered in time",
    )
    CLAIM_DOCUMENTS_REQUESTED = "claim.documents_requested", "Claimant asked for the claim documents"
    CLAIM_DOCUMENTS_ADDED = "claim.documents_added", "Documents added to a claim"
    CLAIM_VOTE_RECORDED = "claim.vote_recorded", "Committee vote recorded"
    CLAIM_APPROVE = "claim.approve", "Claim approved"
    CLAIM_DENY = "claim.deny", "Claim denied"
    CLAIM_APPEALED = "claim.appealed", "Claim appealed"
    CLAIM_APPEALED_DEEMED_DENIAL = "claim.appealed_deemed_denial", "Deemed denial appealed"
    CLAIM_APPROVE_ON_REVIEW = "claim.approve_on_review", "Claim approved on review"
    CLAIM_DENY_ON_REVIEW = "claim.deny_on_review", "Claim denied on review"
    CLAIM_HANDED_TO_ELECTION = "claim.handed_to_election", "Approved claim handed to the benefit election"
    CLAIM_DOCUMENT_VIEWED = "claim.document_viewed", "Claim document viewed"
    CLAIM_NOTICE_VIEWED = "claim.notice_viewed", "Claim notice viewed"
    CLAIM_ASSIGNED = "claim.assigned", "Claim assigned to a committee member"
    CLAIM_NOTE_ADDED = "claim.note_added", "Internal note added to a claim"
    CLAIM_ELECTION_EFFECTIVE = (
        "claim.election_effective",
        "Claim's payment scheduled: its election took effect",
    )
    CLAIM_PAYMENT_SCHEDULED = "claim.payment_scheduled", "Claim's payment scheduled (no election needed)"
    CLAIM_PAYMENT_CONFIRMED = "claim.payment_confirmed", "Claim in pay, paid or loan made: payment confirmed"
    CLAIM_PAYMENT_UNCONFIRMED = "claim.payment_unconfirmed", "Claim's payment confirmation rolled back"
    CLAIM_PAYMENTS_ENDED = "claim.payments_ended", "Claim paid out: the payee's stream ended at death"
    CLAIM_ELECTION_REVOKED = "claim.election_revoked", "Claim back to election required: election revoked"
    CLAIM_CONSENT_REQUESTED = (
        "claim.consent_requested",
        "Spouse's consent form issued for a loan or withdrawal",
    )
    CLAIM_CONSENT_COMPLETE = (
        "claim.consent_complete",
        "Loan or withdrawal scheduled for payment: the spouse's consent is verified",
    )
    # elections: notices (§417(a)(3), QPSA, §402(f)) and their batches
    NOTICE_ISSUED = "notice.issued", "Notice issued"
    NOTICE_BATCH_CREATED = "notice_batch.created", "Notice batch started"
    NOTICE_BATCH_FINISHED = "notice_batch.finished", "Notice batch finished"
    NOTICE_BATCH_RETRIED = "notice_batch.retried", "Failed notices of a batch retried"
    NOTICE_BATCH_RESUMED = "notice_batch.resumed", "Notice batch resumed"
    # elections: benefit elections and spousal consent
    ELECTION_STARTED = "election.started", "Election started"
    ELECTION_STEP_SAVED = "election.step_saved", "Election step saved"
    ELECTION_SIGNED = "election.signed", "Election signed"
    ELECTION_EFFECTIVE = "election.effective", "Election took effect"
    ELECTION_REVOKED = "election.revoked", "Election revoked"
    ELECTION_VIEWED_BY_STAFF = "election.viewed_by_staff", "Election, consent or notice viewed by plan staff"
    CONSENT_UPLOADED = "consent.uploaded", "Signed spousal consent uploaded"
    CONSENT_VERIFIED = "consent.verified", "Spousal consent verified"
    CONSENT_REJECTED = "consent.rejected", "Spousal consent sent back"
    CONSENT_EXCEPTION_CERTIFIED = "consent.exception_certified", "Spousal consent exception certified"
    # elections: account elections (ESOP diversification, 401(k) deferral rates)
    DIVERSIFICATION_ELECTED = "diversification.elected", "ESOP diversification election made"
    DEFERRAL_RATE_CHANGED = "deferral.rate_changed", "401(k) contribution rate changed"
    ACCOUNT_ELECTIONS_VIEWED_BY_STAFF = (
        "account_elections.viewed_by_staff",
        "Diversification elections or contribution rates viewed by plan staff",
    )
    # electronic delivery (Treas. Reg. §1.401(a)-21) and how each document reached the participant
    DELIVERY_TEST_REQUESTED = "delivery.test_requested", "Electronic delivery test document requested"
    DELIVERY_CONSENT_GIVEN = "delivery.consent_given", "Consent to electronic delivery given"
    DELIVERY_CONSENT_WITHDRAWN = "delivery.consent_withdrawn", "Consent to electronic delivery withdrawn"
    DELIVERY_ARRANGED = "delivery.arranged", "Document delivery arranged (email or paper)"
    DELIVERY_EMAIL_SENT = "delivery.email_sent", "Document-ready email sent"
    DELIVERY_TO_PAPER = "delivery.to_paper", "Document delivery changed to paper"
    DELIVERY_MAILED = "delivery.mailed", "Paper copy mailed"
    # payments: payment records, pay dates, instruction files (payments/)
    PAYMENT_SCHEDULED = "payment.scheduled", "Payment record scheduled"
    PAYMENT_CANCELLED = "payment.cancelled", "Payment record cancelled before payment"
    PAYMENT_STATE_CHANGED = "payment.state_changed", "Payment state changed"
    PAYMENT_INSTRUCTED = "payment.instructed", "Payment instruction file exported"
    PAYMENT_DESTINATION_GIVEN = (
        "payment.destination_given",
        "A continuing payee gave the bank account for their payments",
    )
    PAYMENT_DESTINATION_CORRECTED = (
        "payment.destination_corrected",
        "Returned payment: bank account corrected",
    )
    PAYMENTS_VIEWED_BY_STAFF = "payments.viewed_by_staff", "Payments of a pay date viewed by plan staff"
    PAYEE_DEATH_RECORDED = "payment.death_recorded", "Death of a payee recorded: the stream stopped"
    PAYMENT_INSTALMENT_CHANGED = "payment.instalment_changed", "Instalment cancelled or to be recovered"
    PARTICIPANT_DEATH_RECORDED = "participant.death_recorded", "Participant's date of death recorded"
    # elections: beneficiary designations
    DESIGNATION_SIGNED = "designation.signed", "Beneficiary designation signed"
    DESIGNATION_EFFECTIVE = "designation.effective", "Beneficiary designation took effect"
    DESIGNATION_WITHDRAWN = "designation.withdrawn", "Beneficiary designation withdrawn before it took effect"
    DESIGNATION_VIEWED_BY_STAFF = (
        "designation.viewed_by_staff",
        "Beneficiary designations viewed by plan staff",
    )
    # taxes around payments: Form 1099-R (issue 27)
    FORM_1099R_ISSUED = "tax_form.issued", "Form 1099-R issued"
    FORM_1099R_CORRECTED = "tax_form.corrected", "Corrected Form 1099-R issued"
    LOAN_DEEMED_DISTRIBUTED = "loan.deemed_distributed", "Loan in default: deemed distribution posted"
    LOAN_OFFSET = "loan.offset", "Loan in default: offset against the account posted"
    LOAN_PENDING_CHANGED = (
        "loan.pending_changed",
        "Loan approved and not yet paid out: the amount counted against the loan limit changed",
    )


def client_ip(request) -> str | None:
    """The client's address: behind ``ALLAUTH_TRUSTED_PROXY_COUNT`` proxies, the address the nearest
    trusted proxy saw (X-Forwarded-For), never the proxy's own; otherwise REMOTE_ADDR."""
    if request is None:
        return None
    from allauth.account.adapter import get_adapter

    try:
        return get_adapter(request).get_client_ip(request) or None
    except Exception:  # noqa: BLE001 - a forged or short X-Forwarded-For: fall back to the socket's peer
        return request.META.get("REMOTE_ADDR") or None


def audit_record(
    *,
    event_type: AuditEventType,
    summary: str,
    actor=None,
    participant: Participant | None = None,
    request=None,
    **extra_data: object,
) -> AuditEvent:
    """Write one audit event. Call it inside the transaction of the change it records.

    ``event_type`` must be an ``AuditEventType``: a string outside the list raises ``ValueError``.
    """
    event_type = AuditEventType(event_type)
    acting_user = actor if actor is not None and getattr(actor, "is_authenticated", False) else None
    return AuditEvent.objects.create(
        event_time=timezone.now(),
        event_type=event_type.value,
        acting_user=acting_user,
        participant=participant,
        summary=summary[:300],
        extra_data=extra_data,
        ip_address=client_ip(request),
    )


def audit_record_many(*, event_type: AuditEventType, rows: list[dict], actor=None, request=None) -> int:
    """One audit event per row in bulk, for a change made to many records at once (a pay date's
    confirmation file). Each row: ``summary``, ``participant_id`` and its extra data."""
    event_type = AuditEventType(event_type)
    acting_user = actor if actor is not None and getattr(actor, "is_authenticated", False) else None
    now, ip = timezone.now(), client_ip(request)
    events = [
        AuditEvent(
            event_time=now,
            event_type=event_type.value,
            acting_user=acting_user,
            participant_id=row.pop("participant_id", None),
            summary=row.pop("summary")[:300],
            extra_data=row,
            ip_address=ip,
        )
        for row in rows
    ]
    AuditEvent.objects.bulk_create(events, batch_size=5000)
    return len(events)
