"""Form 1099-R as issued: one row per payee, year, box-7 code and version.

Exactly once: a database uniqueness rule over (plan, participant, payee, year, code, version). Version 1 is
the original; a payment reversed after the form was issued leads to a corrected form (version 2, 3…)
with the CORRECTED box checked and the new totals (2026 Instructions for Forms 1099-R and 5498,
"Corrected Returns"). The recipient's copy is a ``GeneratedDocument`` on the documents page.
"""

from __future__ import annotations

from django.conf import settings as django_settings
from django.db import models

from benefits.models import GeneratedDocument, Participant, Plan


class Form1099R(models.Model):
    plan = models.ForeignKey(Plan, on_delete=models.PROTECT, related_name="+")  # the payer (the plan's trust)
    participant = models.ForeignKey(Participant, on_delete=models.PROTECT, related_name="forms_1099r")
    payee_name = models.CharField(max_length=200)
    payee_relationship = models.CharField(max_length=60, default="participant")
    year = models.PositiveSmallIntegerField()
    code = models.CharField(max_length=2)  # box 7
    version = models.PositiveSmallIntegerField(default=1)
    corrected = models.BooleanField(default=False)
    gross = models.DecimalField(max_digits=14, decimal_places=2)  # box 1
    taxable = models.DecimalField(max_digits=14, decimal_places=2)  # box 2a
    taxable_not_determined = models.BooleanField(default=False)  # box 2b
    total_distribution = models.BooleanField(default=False)  # box 2b
    withheld = models.DecimalField(max_digits=14, decimal_places=2)  # box 4
    employee_contributions = models.DecimalField(max_digits=14, decimal_places=2)  # box 5
    instalments = models.JSONField(default=list)  # the confirmed paid instalments summed (ids)
    document = models.ForeignKey(
        GeneratedDocument, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    issued_on = models.DateField()
    issued_at = models.DateTimeField(auto_now_add=True)
    issued_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["year", "participant_id", "payee_name", "code", "version"]
        constraints = [
            models.UniqueConstraint(
                fields=["plan", "participant", "payee_name", "payee_relationship", "year", "code", "version"],
                name="form_1099r_exactly_once",
            )
        ]

    def __str__(self) -> str:
        return f"Form 1099-R {self.year} code {self.code} for {self.payee_name} (v{self.version})"

    @property
    def boxes(self) -> tuple:
        return (
            self.gross,
            self.taxable,
            self.withheld,
            self.employee_contributions,
            self.taxable_not_determined,
        )
