"""Django admin for plan data: read-only (issue 26). Plan data arrives through the data import (every
row checked against the engine's input ranges, the old values kept, audited, reversible), plan readings
on the readings page; what staff open here is audited (``AuditedAdminMixin``). A membership's history
is shown read-only, so a long one is never a form over Django's field limit."""

from django.contrib import admin

from benefits import models
from benefits.admin_audit import AuditedAdminMixin, ReadOnlyAdminMixin


class ReadOnlyInline(ReadOnlyAdminMixin, admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = False

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in self.model._meta.fields if not f.primary_key]


class AuditedReadOnlyAdmin(AuditedAdminMixin, ReadOnlyAdminMixin, admin.ModelAdmin):
    actions = None


@admin.register(models.Employer)
class EmployerAdmin(AuditedReadOnlyAdmin):
    list_display = ["name", "ein"]


@admin.register(models.Plan)
class PlanAdmin(AuditedReadOnlyAdmin):
    list_display = ["name", "key", "kind", "employer", "settings_confirmed_at"]
    # The readings page validates each value against the engine, audits it and asks for confirmation.
    readonly_fields = ["key", "kind", "settings", "settings_confirmed_at", "settings_confirmed_by"]


class EmploymentPeriodInline(ReadOnlyInline):
    model = models.EmploymentPeriod


@admin.register(models.Participant)
class ParticipantAdmin(AuditedReadOnlyAdmin):
    list_display = [
        "participant_number",
        "last_name",
        "first_name",
        "birth_date",
        "hire_date",
        "termination_date",
    ]
    search_fields = ["participant_number", "last_name", "first_name"]
    exclude = ["ssn_hash"]
    readonly_fields = ["ssn_last4", "user"]
    inlines = [EmploymentPeriodInline]


class HoursInline(ReadOnlyInline):
    model = models.HoursOfService


class CompensationInline(ReadOnlyInline):
    model = models.Compensation


class BalanceInline(ReadOnlyInline):
    model = models.AccountBalance


class TransactionInline(ReadOnlyInline):
    model = models.AccountTransaction
    fields = ["date", "source", "kind", "amount", "shares", "memo"]
    ordering = ["-date", "source"]

    def get_readonly_fields(self, request, obj=None):
        return self.fields


@admin.register(models.PlanMembership)
class PlanMembershipAdmin(AuditedReadOnlyAdmin):
    list_display = ["participant", "plan", "entry_date"]
    list_filter = ["plan"]
    inlines = [HoursInline, CompensationInline, BalanceInline, TransactionInline]


@admin.register(models.MarketRate)
class MarketRateAdmin(AuditedReadOnlyAdmin):
    list_display = ["series", "period", "percent", "source"]
    list_filter = ["series"]


@admin.register(models.AuditEvent)
class AuditEventAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["event_time", "event_type", "acting_user", "participant", "summary"]
    list_filter = ["event_type"]
    actions = None
