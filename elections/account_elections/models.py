"""Diversification elections and deferral rate changes. Every version is kept: a new election in the same
window supersedes the one before it (never edited), and every rate change is a row of the history."""

from __future__ import annotations

from django.conf import settings as django_settings
from django.db import models
from django.db.models import Q

from benefits.models import GeneratedDocument, Participant, PlanMembership


class DiversificationElection(models.Model):
    """One version of a participant's election for one Plan Year's window of the qualified election
    period; the window, the maximum and the percentage are the engine's on the day it was made."""

    class State(models.TextChoices):
        CURRENT = "current", "In force"
        SUPERSEDED = "superseded", "Replaced by a later election"

    participant = models.ForeignKey(
        Participant, on_delete=models.PROTECT, related_name="diversification_elections"
    )
    membership = models.ForeignKey(
        PlanMembership, on_delete=models.PROTECT, related_name="diversification_elections"
    )
    plan_year = models.PositiveSmallIntegerField()
    qep_year = models.PositiveSmallIntegerField()  # 1 to 6 in the qualified election period
    window_opens = models.DateField()
    window_closes = models.DateField()
    complete_by = models.DateField()
    percent = models.DecimalField(max_digits=5, decimal_places=2)
    last_year = models.BooleanField(default=False)
    shares = models.DecimalField(max_digits=16, decimal_places=4)
    max_shares = models.DecimalField(max_digits=16, decimal_places=4)
    shares_allocated = models.DecimalField(max_digits=16, decimal_places=4)
    shares_previously_elected = models.DecimalField(max_digits=16, decimal_places=4)
    version = models.PositiveSmallIntegerField(default=1)
    state = models.CharField(max_length=12, choices=State.choices, default=State.CURRENT)
    supersedes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="superseded_by"
    )
    made_on = models.DateField()
    made_at = models.DateTimeField(auto_now_add=True)
    made_by = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    engine_version = models.CharField(max_length=20)
    confirmation = models.ForeignKey(
        GeneratedDocument, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-made_at", "-pk"]
        constraints = [
            # One election in force per window: a second one supersedes the first.
            models.UniqueConstraint(
                fields=["membership", "plan_year"],
                condition=Q(state="current"),
                name="diversification_one_current_per_window",
            ),
            models.UniqueConstraint(
                fields=["membership", "plan_year", "version"], name="diversification_version_unique"
            ),
            models.CheckConstraint(condition=Q(shares__gt=0), name="diversification_shares_positive"),
            models.CheckConstraint(
                condition=Q(shares__lte=models.F("max_shares")), name="diversification_within_max"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.participant} diversification {self.plan_year} v{self.version}: {self.shares}"


class DeferralElection(models.Model):
    """One deferral rate the participant chose (or the rate on the payroll record when the history
    starts), with the day it was made and the payroll it takes effect with."""

    participant = models.ForeignKey(Participant, on_delete=models.PROTECT, related_name="deferral_elections")
    membership = models.ForeignKey(
        PlanMembership, on_delete=models.PROTECT, related_name="deferral_elections"
    )
    kind = models.CharField(max_length=20)  # the plan's deferral kind (before_tax; roth where offered)
    percent = models.DecimalField(max_digits=5, decimal_places=2)
    previous_percent = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True)
    filed_on = models.DateField()
    effective_on = models.DateField()
    made_at = models.DateTimeField(auto_now_add=True)
    made_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    from_payroll_record = models.BooleanField(default=False)  # the starting rate, not a change made here

    class Meta:
        ordering = ["-filed_on", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(percent__gte=0) & Q(percent__lte=100), name="deferral_percent_range"
            ),
            models.CheckConstraint(
                condition=Q(effective_on__gte=models.F("filed_on")), name="deferral_effective_after_filing"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.participant} {self.kind} {self.percent}% from {self.effective_on}"
