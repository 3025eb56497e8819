"""The spouse's consent (Code §417(a)(2), §417(a)(4)): one model for every thing a spouse consents to.

A ``SpousalConsent`` names exactly one election, beneficiary designation or loan/withdrawal claim (a
database constraint), or records an administrator's certified exception. The table is the one it has
always had (``elections_spousalconsent``): the model moved between modules of the same app, so no row
moved and no migration was needed.
"""

from __future__ import annotations

from django.conf import settings as django_settings
from django.db import models

from benefits.models import GeneratedDocument


class SpousalConsent(models.Model):
    """The spouse's consent to one election, beneficiary designation or loan/withdrawal claim
    (§417(a)(2), §417(a)(4)), or a certified exception to it. Exactly one of the three is set."""

    class Kind(models.TextChoices):
        CONSENT = "consent", "Spouse's written consent"
        EXCEPTION = "exception", "Consent not required (certified exception)"

    class State(models.TextChoices):
        AWAITING_FORM = "awaiting_form", "Waiting for the signed form"
        AWAITING_VERIFICATION = "awaiting_verification", "Waiting for the administrator to verify"
        VERIFIED = "verified", "Verified"
        REJECTED = "rejected", "Not accepted"

    class Witness(models.TextChoices):
        NOTARY = "notary", "A notary public"
        PLAN_REPRESENTATIVE = "plan_representative", "A plan representative"

    class Witnessing(models.TextChoices):
        IN_PERSON = "in_person", "In person"
        REMOTE = "remote", "Remotely, by live audio-video"

    class ExceptionReason(models.TextChoices):
        NO_SPOUSE = "no_spouse", "There is no spouse"
        CANNOT_LOCATE = "cannot_locate", "The spouse cannot be located"
        LEGAL_SEPARATION = "legal_separation", "Legally separated (court order)"
        ABANDONMENT = "abandonment", "Abandoned (court order)"

    # The three things a spouse consents to, named by model label only: the consents area imports
    # none of the areas that call it (docs/architecture.md).
    election = models.ForeignKey(
        "elections.Election", null=True, blank=True, on_delete=models.PROTECT, related_name="consents"
    )
    designation = models.ForeignKey(
        "elections.BeneficiaryDesignation",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="consents",
    )
    claim = models.ForeignKey(
        "elections.Claim", null=True, blank=True, on_delete=models.PROTECT, related_name="consents"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.CONSENT)
    state = models.CharField(max_length=25, choices=State.choices, default=State.AWAITING_FORM)
    spouse_name = models.CharField(max_length=200, blank=True)
    form_document = models.ForeignKey(
        GeneratedDocument, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # As the spouse and witness signed it (entered with the upload, checked by the administrator)
    signed_on = models.DateField(null=True, blank=True)
    witness = models.CharField(max_length=25, choices=Witness.choices, blank=True)
    witness_name = models.CharField(max_length=200, blank=True)
    notary_commission_number = models.CharField(max_length=60, blank=True)
    notary_commission_state = models.CharField(max_length=2, blank=True)
    notary_commission_expires = models.DateField(null=True, blank=True)
    witnessing = models.CharField(max_length=10, choices=Witnessing.choices, blank=True)
    remote_live_audio_video = models.BooleanField(default=False)
    remote_identity_shown = models.BooleanField(default=False)
    remote_same_day_transmission = models.BooleanField(default=False)
    # The uploaded signed form (PDF/JPEG/PNG, checked by content), outside the web root
    upload_name = models.CharField(max_length=200, blank=True)
    upload_content_type = models.CharField(max_length=40, blank=True)
    upload_sha256 = models.CharField(max_length=64, blank=True)
    upload_file = models.CharField(max_length=300, blank=True)
    uploaded_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    uploaded_at = models.DateTimeField(null=True, blank=True)
    # Exceptions (§417(a)(2)(B); Treas. Reg. §1.401(a)-20 Q&A-27): the administrator's certification
    exception = models.CharField(max_length=20, choices=ExceptionReason.choices, blank=True)
    certification = models.TextField(blank=True)
    verified_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    verified_at = models.DateTimeField(null=True, blank=True)
    rejected_reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(election__isnull=False, designation__isnull=True, claim__isnull=True)
                    | models.Q(election__isnull=True, designation__isnull=False, claim__isnull=True)
                    | models.Q(election__isnull=True, designation__isnull=True, claim__isnull=False)
                ),
                name="consent_to_exactly_one_thing",
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} for {self.subject_words} ({self.get_state_display()})"

    @property
    def subject(self):
        """What the spouse consents to: the election, the designation or the claim."""
        return self.election or self.designation or self.claim

    @property
    def participant(self):
        return self.subject.participant

    @property
    def subject_words(self) -> str:
        if self.election_id:
            return f"election {self.election_id}"
        if self.designation_id:
            return f"beneficiary designation {self.designation_id}"
        return f"claim {self.claim_id}"

    @property
    def subject_field(self) -> str:
        """Which of the three it names: ``election``, ``designation`` or ``claim``."""
        if self.election_id:
            return "election"
        return "designation" if self.designation_id else "claim"
