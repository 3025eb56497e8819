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


class LoanDistribution(models.Model):
    """A plan loan not repaid, as posted: a §72(p) deemed distribution or a loan offset, on the day the
    plan's cure period ended (``benefits.engine.taxes.loans``). Once per loan and kind (database rule);
    a Form 1099-R line of the year of ``on`` (code L, or M for a qualified plan loan offset)."""

    class Kind(models.TextChoices):
        DEEMED = "deemed_distribution", "Deemed distribution (Code §72(p))"
        OFFSET = "loan_offset", "Loan offset"

    loan = models.ForeignKey("payments.Loan", on_delete=models.PROTECT, related_name="tax_events")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    missed_due = models.DateField()  # the first scheduled repayment not made
    on = models.DateField()  # the default date: the end of the plan's cure period
    principal = models.DecimalField(max_digits=14, decimal_places=2)
    interest = models.DecimalField(max_digits=14, decimal_places=2)  # accrued and unpaid
    amount = models.DecimalField(max_digits=14, decimal_places=2)  # box 1: principal and interest
    qualified_offset = models.BooleanField(default=False)  # Code §402(c)(3)(C)
    reason = models.CharField(max_length=400)
    declared_at = models.DateTimeField(auto_now_add=True)
    declared_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["on", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["loan", "kind"], name="loan_distribution_once_per_kind"),
            models.CheckConstraint(condition=models.Q(amount__gt=0), name="loan_distribution_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} of loan {self.loan_id} on {self.on}: {self.amount}"
