"""A statement batch and its items: one item per membership, unique, so each statement exists once."""

from __future__ import annotations

from django.conf import settings as django_settings
from django.db import models
from django.db.models import Q


class StatementBatch(models.Model):
    """The annual statements of one plan for one year (one batch per plan and year: a second request
    resumes the first instead of printing everyone twice)."""

    class Status(models.TextChoices):
        PREPARING = "preparing", "Listing participants"
        RUNNING = "running", "In progress"
        DONE = "done", "Finished"
        DONE_WITH_FAILURES = "done_with_failures", "Finished, some statements failed"

    plan = models.ForeignKey("benefits.Plan", on_delete=models.PROTECT, related_name="statement_batches")
    year = models.PositiveSmallIntegerField()  # the plan year the statements cover
    as_of = models.DateField()  # the statement date
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PREPARING)
    total = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["plan", "year"], name="statement_batch_unique_plan_year")
        ]

    def __str__(self) -> str:
        return f"{self.plan} statements {self.year}"


class StatementBatchItem(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "Waiting"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    batch = models.ForeignKey(StatementBatch, on_delete=models.CASCADE, related_name="items")
    membership = models.ForeignKey("benefits.PlanMembership", on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    document = models.OneToOneField(
        "benefits.GeneratedDocument",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="batch_item",
    )
    error = models.TextField(blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["batch", "pk"]
        indexes = [models.Index(fields=["batch", "status"], name="batch_item_status")]
        constraints = [
            models.UniqueConstraint(fields=["batch", "membership"], name="batch_item_unique_membership"),
            models.CheckConstraint(
                condition=~Q(status="done") | Q(document__isnull=False), name="batch_item_done_has_document"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.batch}: membership {self.membership_id} ({self.get_status_display()})"
