"""The job row: what to run, its state, its attempts and why it failed."""

from __future__ import annotations

from django.db import models
from django.db.models import Q


class Job(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "Waiting to start"  # committed, not (yet) accepted by the broker
        QUEUED = "queued", "Queued"  # accepted by the broker
        RUNNING = "running", "In progress"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    OPEN = (Status.PENDING, Status.QUEUED, Status.RUNNING)

    kind = models.CharField(
        max_length=60, db_index=True
    )  # the Celery name of its task, e.g. "document.render"
    target_id = models.BigIntegerField(null=True, blank=True)  # the row the job works on
    args = models.JSONField(default=dict, blank=True)
    # One open job per piece of work: e.g. "document.render:42". Creating it again returns the same row.
    unique_key = models.CharField(max_length=120, null=True, blank=True, unique=True)
    queue = models.CharField(max_length=40, default="default")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING, db_index=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    max_attempts = models.PositiveSmallIntegerField(default=3)
    time_limit = models.PositiveIntegerField(default=180)  # seconds, hard limit of one attempt
    # The Celery message id of the execution that holds the job (a redelivery of that message may resume it).
    task_id = models.CharField(max_length=64, blank=True)
    worker = models.CharField(max_length=200, blank=True)
    error = models.TextField(blank=True)  # why it failed, in words staff can act on
    enqueue_error = models.CharField(max_length=300, blank=True)  # why the last send to the broker failed
    created_at = models.DateTimeField(auto_now_add=True)
    enqueued_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    # Written every JOBS_HEARTBEAT_SECONDS by the execution that holds the job; the sweeper puts back a
    # running job whose heartbeat stopped (its worker is gone), whatever the broker or the workers say.
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        "accounts.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["status", "enqueued_at"], name="job_status_enqueued")]
        constraints = [
            models.CheckConstraint(condition=Q(max_attempts__gte=1), name="job_max_attempts_positive"),
            models.CheckConstraint(condition=Q(time_limit__gte=1), name="job_time_limit_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} ({self.get_status_display()})"

    @property
    def is_open(self) -> bool:
        return self.status in self.OPEN

    @property
    def waiting_for_broker(self) -> bool:
        """Committed but not yet handed to a worker queue (the broker was unreachable)."""
        return self.status == self.Status.PENDING and bool(self.enqueue_error)
