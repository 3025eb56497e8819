"""Electronic delivery consent and the delivery of each document.

* ``DeliveryTest``: a test PDF with a code in it. Entering the code shows the participant can open the
  format documents come in (Treas. Reg. §1.401(a)-21(b)(2)(iii): consent given "in a manner that
  reasonably demonstrates" access to the electronic medium).
* ``DeliveryConsent``: one version of the participant's choice — consent or withdrawal — with the exact
  disclosures they were shown and the demonstration. Versions are never edited; the latest one rules.
* ``DocumentDelivery``: how one document reached the participant: an email that it is ready (its own
  background job) or a paper copy to mail. One row per document, by database constraint.
"""

from __future__ import annotations

from django.conf import settings as django_settings
from django.db import models
from django.db.models import Q


class DeliveryTest(models.Model):
    participant = models.ForeignKey("benefits.Participant", on_delete=models.CASCADE, related_name="+")
    code = models.CharField(max_length=12)
    document = models.OneToOneField(
        "benefits.GeneratedDocument", on_delete=models.PROTECT, related_name="delivery_test"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"Delivery test {self.pk} for participant {self.participant_id}"


class DeliveryConsent(models.Model):
    """One version of a participant's electronic delivery choice; a new version supersedes the last."""

    class Action(models.TextChoices):
        CONSENT = "consent", "Consented to electronic delivery"
        WITHDRAW = "withdraw", "Withdrew consent: paper by mail"

    participant = models.ForeignKey(
        "benefits.Participant", on_delete=models.PROTECT, related_name="delivery_consents"
    )
    version = models.PositiveIntegerField()
    action = models.CharField(max_length=10, choices=Action.choices)
    email = models.EmailField(blank=True)  # where the "document ready" emails go (consent only)
    disclosures = models.JSONField(default=dict)  # the words shown, as shown, with their version
    demonstration = models.JSONField(
        default=dict, blank=True
    )  # the test document and when its code was entered
    test = models.ForeignKey(DeliveryTest, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(auto_now_add=True)
    recorded_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    ip_address = models.GenericIPAddressField(null=True, blank=True)

    class Meta:
        ordering = ["-version"]
        constraints = [
            models.UniqueConstraint(fields=["participant", "version"], name="delivery_consent_version_once"),
            # A consent always carries its email address and its demonstration (the test it passed).
            models.CheckConstraint(
                condition=Q(action="withdraw") | (~Q(email="") & Q(test__isnull=False)),
                name="delivery_consent_has_email_and_test",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_action_display()} (version {self.version})"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise ValueError("A delivery consent is never edited: record a new version instead.")
        return super().save(*args, **kwargs)


class DocumentDelivery(models.Model):
    class Channel(models.TextChoices):
        EMAIL = "email", "Email that it is ready"
        PAPER = "paper", "Paper copy by mail"

    class State(models.TextChoices):
        WAITING = "waiting", "Waiting for the document to be ready"
        SENDING = "sending", "Email being sent"
        SENT = "sent", "Email sent"
        FAILED = "failed", "Email could not be sent"
        TO_MAIL = "to_mail", "To be mailed"
        MAILED = "mailed", "Mailed"

    document = models.OneToOneField(
        "benefits.GeneratedDocument", on_delete=models.PROTECT, related_name="delivery"
    )
    participant = models.ForeignKey("benefits.Participant", on_delete=models.PROTECT, related_name="+")
    channel = models.CharField(max_length=10, choices=Channel.choices)
    state = models.CharField(max_length=10, choices=State.choices)
    consent = models.ForeignKey(
        DeliveryConsent, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )  # the consent the email relies on
    email = models.EmailField(blank=True)
    paper_reason = models.CharField(max_length=200, blank=True)
    job = models.OneToOneField(
        "benefits.Job", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    mailed_on = models.DateField(null=True, blank=True)
    mailed_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["channel", "state"], name="delivery_channel_state")]

    def __str__(self) -> str:
        return f"{self.get_channel_display()}: {self.get_state_display()} (document {self.document_id})"
