"""One import of one file, and the before-image of every row it changed (so it can be rolled back)."""

from __future__ import annotations

from django.conf import settings as django_settings
from django.db import models


class ImportBatch(models.Model):
    """A file an administrator (or the ``import_data`` command) loaded: its hash, counts and outcome."""

    class Status(models.TextChoices):
        CHECKING = "checking", "Being checked"
        PREVIEWED = "previewed", "Checked, not imported"
        APPLYING = "applying", "Being imported"
        APPLIED = "applied", "Imported"
        FAILED = "failed", "Failed"
        ROLLED_BACK = "rolled_back", "Rolled back"

    kind = models.CharField(max_length=40)
    file_name = models.CharField(max_length=255)
    sha256 = models.CharField(max_length=64, db_index=True)
    size = models.PositiveBigIntegerField(default=0)
    stored_file = models.CharField(
        max_length=300, blank=True
    )  # its name in the private storage (benefits/private_files.py)
    origin = models.CharField(max_length=20, default="web")  # "web" or "command"
    uploaded_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.CHECKING)
    valid_rows_only = models.BooleanField(default=False)
    rows_total = models.PositiveIntegerField(default=0)
    created = models.PositiveIntegerField(default=0)
    updated = models.PositiveIntegerField(default=0)
    unchanged = models.PositiveIntegerField(default=0)
    error_count = models.PositiveIntegerField(default=0)
    # Every error as {"row", "column", "message"}; the diff of each changed row as {"row", "key", "changes"}.
    errors = models.JSONField(default=list, blank=True)
    diffs = models.JSONField(default=list, blank=True)
    failure = models.TextField(blank=True)
    applied_at = models.DateTimeField(null=True, blank=True)
    applied_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # What the file itself does not say: a regulatory table's year(s) and source (``kinds/tables.py``).
    params = models.JSONField(default=dict, blank=True)
    rolled_back_at = models.DateTimeField(null=True, blank=True)
    rolled_back_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"Import {self.pk}: {self.kind} {self.file_name} ({self.get_status_display()})"


class ImportChange(models.Model):
    """One row an applied import created or updated, with its values before and after."""

    class Action(models.TextChoices):
        CREATED = "created", "Created"
        UPDATED = "updated", "Updated"

    batch = models.ForeignKey(ImportBatch, on_delete=models.CASCADE, related_name="changes")
    model = models.CharField(max_length=60)  # "benefits.hoursofservice"
    object_id = models.BigIntegerField()
    action = models.CharField(max_length=10, choices=Action.choices)
    before = models.JSONField(null=True, blank=True)  # field -> value (JSON form); null when created
    after = models.JSONField(default=dict)

    class Meta:
        ordering = ["batch", "pk"]
        indexes = [models.Index(fields=["model", "object_id"], name="import_change_object")]

    def __str__(self) -> str:
        return f"{self.action} {self.model} {self.object_id}"


class RegulatoryTable(models.Model):
    """One loaded version of a regulatory table (issue 24): the §417(e)(3) applicable mortality table
    for a year, or the Single Life Table from a year. Never edited: a new load of the same kind and year
    is a new version, and the engine reads the latest version of each year (the shipped table before
    any is loaded). ``rows`` is ``[[age, value], ...]`` as the file gave them (decimal strings)."""

    class TableKind(models.TextChoices):
        MORTALITY_417E = "mortality_417e", "§417(e)(3) applicable mortality table"
        SINGLE_LIFE = "single_life", "Single Life Table (Treas. Reg. §1.401(a)(9)-9)"

    kind = models.CharField(max_length=20, choices=TableKind.choices)
    year = models.PositiveSmallIntegerField()  # the (first) year the table applies to
    last_year = models.PositiveSmallIntegerField(
        null=True, blank=True
    )  # Single Life Table: through; null: on
    version = models.PositiveSmallIntegerField()
    source = models.CharField(max_length=300)  # the notice or regulation, e.g. "Notice 2026-27"
    rows = models.JSONField()
    sha256 = models.CharField(max_length=64)  # of the rows as loaded (canonical JSON)
    batch = models.ForeignKey(ImportBatch, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    loaded_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    loaded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["kind", "year", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["kind", "year", "version"], name="regulatory_table_version_once")
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.year}, version {self.version} ({self.source})"
