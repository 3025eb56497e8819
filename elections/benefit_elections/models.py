"""Notices the law requires before payment, the participant's election, the spouse's consent.

* ``Notice``: one §417(a)(3) explanation (QJSA), QPSA explanation or §402(f) rollover notice for one
  participant, plan and annuity starting date. Exactly once: a database uniqueness rule over
  (participant, plan, kind, ASD, version) — a second issue of the same version fails in the database,
  not only in code. The figures are the engine's, stored with the engine version and a fingerprint of
  the request, and the PDF is a ``GeneratedDocument`` (rendered in a Celery task, SHA-256 kept).
* ``NoticeBatch`` / ``NoticeBatchItem``: a batch chosen by rule; each item is pending, issued, already
  issued or failed (with the reason); a batch resumes from its pending items.
* ``ElectionDraft``: the participant's working copy through the steps; nothing legal rests on it.
* ``Election``: a signed election. Its content is never edited; a new version supersedes it.
* The spouse's consent to an election or a designation is ``elections.consents.models.SpousalConsent``.
* ``BeneficiaryDesignation``: a participant's beneficiaries under one plan, versioned like elections:
  never edited, in effect only once any consent it needs is verified, then superseding the last.
"""

from __future__ import annotations

from django.conf import settings as django_settings
from django.db import models

from benefits import formatting
from benefits.models import GeneratedDocument, Participant, Plan, PlanMembership


class NoticeKind(models.TextChoices):
    QJSA_EXPLANATION = "qjsa_explanation", "Explanation of your payment options (§417(a)(3))"
    QPSA_EXPLANATION = "qpsa_explanation", "Explanation of the survivor benefit before retirement"
    ROLLOVER_402F = "rollover_402f", "Your rollover options (§402(f) notice)"
    DISTRIBUTION_EXPLANATION = "distribution_explanation", "Explanation of your distribution choices"


class Notice(models.Model):
    participant = models.ForeignKey(Participant, on_delete=models.PROTECT, related_name="notices")
    plan = models.ForeignKey(Plan, on_delete=models.PROTECT, related_name="notices")
    membership = models.ForeignKey(PlanMembership, on_delete=models.PROTECT, related_name="notices")
    kind = models.CharField(max_length=30, choices=NoticeKind.choices)
    # The annuity starting date the notice is for (for a QPSA explanation: the first day of the plan
    # year in which the participant reaches 35, the date its waiver period opens).
    asd = models.DateField()
    version = models.PositiveSmallIntegerField(default=1)
    content = models.JSONField(default=dict)  # the explanation as computed (figures, rules, dates)
    engine_version = models.CharField(max_length=20, blank=True)
    engine_fingerprint = models.CharField(max_length=64, blank=True)  # sha256 of request + engine version
    document = models.ForeignKey(
        GeneratedDocument, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    issued_on = models.DateField()  # the date the explanation is provided (drives the 30/7/180-day rules)
    issued_at = models.DateTimeField(auto_now_add=True)
    issued_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    batch = models.ForeignKey(
        "NoticeBatch", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    delivery = models.CharField(max_length=40, default="portal")  # "portal", "portal+email"
    emailed_at = models.DateTimeField(null=True, blank=True)
    # Given on stand-in rates (issue 25): the look-back months ("YYYY-MM") whose interest rates were
    # not yet published when it was given; the latest published month stood in for them. A final
    # explanation (``replaces`` this one) follows once they are loaded, and the election waits for it.
    provisional = models.BooleanField(default=False)
    provisional_months = models.JSONField(default=list, blank=True)
    # The provisional explanation this final one is given again for: one final re-explanation per
    # provisional explanation, by the database's uniqueness rule on this column.
    replaces = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="final_explanation"
    )

    class Meta:
        ordering = ["-issued_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["participant", "plan", "kind", "asd", "version"], name="notice_exactly_once"
            ),
            models.CheckConstraint(
                condition=models.Q(replaces__isnull=True) | models.Q(provisional=False),
                name="notice_final_replaces_provisional",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} for {formatting.date_words(self.asd)} (v{self.version})"


class BatchRule(models.TextChoices):
    ASD_WITHIN = "asd_within", "Annuity starting date in the next N days"
    AWAITING_ELECTION = "awaiting_election", "Approved claims awaiting an election"
    REACHING_35 = "reaching_35", "Participants reaching age 35 (QPSA explanation)"
    # Issue 25: queued when an administrator loads the rates provisional explanations waited for.
    RATES_PUBLISHED = "rates_published", "Final explanations once the interest rates are published"


class NoticeBatch(models.Model):
    class State(models.TextChoices):
        PENDING = "pending", "Waiting to start"
        RUNNING = "running", "Running"
        DONE = "done", "Finished"

    plan = models.ForeignKey(Plan, on_delete=models.PROTECT, related_name="notice_batches")
    rule = models.CharField(max_length=30, choices=BatchRule.choices)
    within_days = models.PositiveSmallIntegerField(null=True, blank=True)
    as_of = models.DateField()
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    # When the rule's choice of people was complete (items are committed a chunk at a time before).
    selected_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"Batch {self.pk}: {self.get_rule_display()} ({self.plan.key})"


class NoticeBatchItem(models.Model):
    class State(models.TextChoices):
        PENDING = "pending", "Waiting"
        ISSUED = "issued", "Issued"
        ALREADY_ISSUED = "already_issued", "Already issued"
        FAILED = "failed", "Failed"

    batch = models.ForeignKey(NoticeBatch, on_delete=models.CASCADE, related_name="items")
    membership = models.ForeignKey(PlanMembership, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=30, choices=NoticeKind.choices)
    asd = models.DateField()
    state = models.CharField(max_length=20, choices=State.choices, default=State.PENDING)
    failure_reason = models.TextField(blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    notice = models.ForeignKey(Notice, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["batch", "membership", "kind"], name="batch_item_once")
        ]
        indexes = [
            # A run's next item (``services.batch_item_next``): the first waiting one of the batch, read
            # from the front of this index instead of sorting the batch's items each time (issue 31:
            # that read grew with the batch, so 100,000 notices cost a sort of up to 100,000 rows each).
            models.Index(
                fields=["batch", "id"], condition=models.Q(state="pending"), name="batch_item_next_pending"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.membership} {self.state}"


class PaymentMethod(models.TextChoices):
    DIRECT_DEPOSIT = "direct_deposit", "Direct deposit to my bank account"
    DIRECT_ROLLOVER = "direct_rollover", "Direct rollover to an IRA or another plan"


class ElectionDraft(models.Model):
    """The participant's answers while moving through the steps; replaced by a signed ``Election``."""

    participant = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="election_drafts")
    membership = models.ForeignKey(PlanMembership, on_delete=models.CASCADE, related_name="+")
    claim = models.ForeignKey(
        "elections.Claim", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    notice = models.ForeignKey(Notice, on_delete=models.PROTECT, related_name="+")
    asd = models.DateField()
    answers = models.JSONField(default=dict)
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self) -> str:
        return f"Election draft {self.pk} for {self.asd}"


class Election(models.Model):
    """A signed election. The content fields are never changed after signing (``save`` refuses); only
    the lifecycle fields below ``# lifecycle`` move, through the services."""

    class State(models.TextChoices):
        AWAITING_CONSENT = "awaiting_consent", "Waiting for your spouse's verified consent"
        WAITING_PERIOD = "waiting_period", "Signed: waiting for the 30-day period to end"
        EFFECTIVE = "effective", "In effect"
        REVOKED = "revoked", "Revoked"
        SUPERSEDED = "superseded", "Replaced by a later election"

    participant = models.ForeignKey(Participant, on_delete=models.PROTECT, related_name="elections")
    membership = models.ForeignKey(PlanMembership, on_delete=models.PROTECT, related_name="elections")
    claim = models.ForeignKey(
        "elections.Claim", null=True, blank=True, on_delete=models.PROTECT, related_name="elections"
    )
    notice = models.ForeignKey(Notice, on_delete=models.PROTECT, related_name="elections")
    asd = models.DateField()
    version = models.PositiveSmallIntegerField()
    form = models.CharField(max_length=20)
    form_label = models.CharField(max_length=100)
    figures = models.JSONField(default=dict)  # the engine's figures for the form on the ASD
    spouse_name = models.CharField(max_length=200, blank=True)  # the spouse of record when signed
    married = models.BooleanField(default=False)
    contingent_annuitant = models.JSONField(default=dict, blank=True)  # name, birth_date, relationship
    beneficiaries = models.JSONField(default=list, blank=True)  # [{name, relationship, percent, kind}]
    payment_method = models.CharField(max_length=20, choices=PaymentMethod.choices)
    payment = models.JSONField(default=dict)  # bank (masked) or rollover destination
    withholding = models.JSONField(default=dict)  # W-4P or W-4R choices
    waive_30_days = models.BooleanField(default=False)
    needs_consent = models.BooleanField(default=False)
    consent_reasons = models.JSONField(default=list, blank=True)
    signed_on = models.DateField()
    signed_at = models.DateTimeField()
    signed_by = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    signed_ip = models.GenericIPAddressField(null=True, blank=True)
    # When the participant confirmed having read this election's explanation (``notice``), before signing.
    explanation_read_at = models.DateTimeField(null=True, blank=True)
    # lifecycle
    state = models.CharField(max_length=20, choices=State.choices)
    effective_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    superseded_by = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="supersedes"
    )

    LIFECYCLE = frozenset({"state", "effective_at", "revoked_at", "superseded_by"})

    class Meta:
        ordering = ["-signed_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["membership", "asd", "version"], name="election_version_once"),
            # One election in force per benefit (issue 22): a new one supersedes the last (whatever its
            # start date), never stands beside it; PostgreSQL refuses the second of two parallel signings.
            models.UniqueConstraint(
                fields=["membership"],
                condition=models.Q(state__in=("awaiting_consent", "waiting_period", "effective")),
                name="one_election_in_force_per_benefit",
            ),
        ]

    def __str__(self) -> str:
        return (
            f"Election {self.pk}: {self.form_label} from {formatting.date_words(self.asd)} (v{self.version})"
        )

    def save(self, *args, **kwargs):
        if self.pk is not None:
            fields = kwargs.get("update_fields")
            if fields is None or not set(fields) <= self.LIFECYCLE:
                raise ValueError("A signed election is never edited: make a new version instead.")
        return super().save(*args, **kwargs)

    @property
    def is_single_sum(self) -> bool:
        # An ESOP's single sums are "lump_sum_..." (shares and cash, all in shares, cash).
        return self.form in ("lump_sum", "direct_rollover") or self.form.startswith("lump_sum_")


class BeneficiaryDesignation(models.Model):
    """Who receives a death benefit under one plan; a new designation supersedes the last. The content
    is never edited (``save`` refuses); only the lifecycle fields move, through the services."""

    class State(models.TextChoices):
        AWAITING_CONSENT = "awaiting_consent", "Waiting for your spouse's verified consent"
        EFFECTIVE = "effective", "In effect"
        SUPERSEDED = "superseded", "Replaced by a later designation"
        WITHDRAWN = "withdrawn", "Withdrawn before it took effect"

    participant = models.ForeignKey(Participant, on_delete=models.PROTECT, related_name="designations")
    membership = models.ForeignKey(PlanMembership, on_delete=models.PROTECT, related_name="designations")
    version = models.PositiveSmallIntegerField()
    beneficiaries = models.JSONField(default=list)  # [{name, relationship, percent, kind}]
    needs_consent = models.BooleanField(default=False)
    consent_reasons = models.JSONField(default=list, blank=True)
    married = models.BooleanField(default=False)
    spouse_name = models.CharField(max_length=200, blank=True)  # the spouse of record when signed
    election = models.ForeignKey(Election, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    signed_on = models.DateField(null=True)
    signed_at = models.DateTimeField()
    signed_by = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    signed_ip = models.GenericIPAddressField(null=True, blank=True)
    # lifecycle
    state = models.CharField(max_length=20, choices=State.choices, default=State.AWAITING_CONSENT)
    effective_at = models.DateTimeField(null=True, blank=True)
    superseded_at = models.DateTimeField(null=True, blank=True)

    LIFECYCLE = frozenset({"state", "effective_at", "superseded_at"})

    class Meta:
        ordering = ["-signed_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["membership", "version"], name="designation_version_once")
        ]

    def __str__(self) -> str:
        return f"Beneficiary designation v{self.version} ({self.membership})"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            fields = kwargs.get("update_fields")
            if fields is None or not set(fields) <= self.LIFECYCLE:
                raise ValueError("A signed designation is never edited: make a new version instead.")
        return super().save(*args, **kwargs)
