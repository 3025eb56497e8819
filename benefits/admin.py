"""Django admin for plan data. Whatever staff open or change here is audited (``AuditedAdminMixin``);
plan readings change only on the validated, audited readings page, so they are read-only here."""

from django.contrib import admin

from benefits import models
from benefits.admin_audit import AuditedAdminMixin


@admin.register(models.Employer)
class EmployerAdmin(AuditedAdminMixin, admin.ModelAdmin):
    list_display = ["name", "ein"]


@admin.register(models.Plan)
class PlanAdmin(AuditedAdminMixin, admin.ModelAdmin):
    list_display = ["name", "key", "kind", "employer", "settings_confirmed_at"]
    # The readings page validates each value against the engine, audits it and asks for confirmation.
    readonly_fields = ["key", "kind", "settings", "settings_confirmed_at", "settings_confirmed_by"]

    def has_delete_permission(self, request, obj=None):
        return False


class EmploymentPeriodInline(admin.TabularInline):
    model = models.EmploymentPeriod
    extra = 0


@admin.register(models.Participant)
class ParticipantAdmin(AuditedAdminMixin, admin.ModelAdmin):
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


class HoursInline(admin.TabularInline):
    model = models.HoursOfService
    extra = 0


class CompensationInline(admin.TabularInline):
    model = models.Compensation
    extra = 0


class BalanceInline(admin.TabularInline):
    model = models.AccountBalance
    extra = 0


class TransactionInline(admin.TabularInline):
    model = models.AccountTransaction
    extra = 0
    fields = ["date", "source", "kind", "amount", "shares", "memo"]
    ordering = ["-date", "source"]


@admin.register(models.PlanMembership)
class PlanMembershipAdmin(AuditedAdminMixin, admin.ModelAdmin):
    list_display = ["participant", "plan", "entry_date"]
    list_filter = ["plan"]
    inlines = [HoursInline, CompensationInline, BalanceInline, TransactionInline]


@admin.register(models.MarketRate)
class MarketRateAdmin(AuditedAdminMixin, admin.ModelAdmin):
    list_display = ["series", "period", "percent", "source"]
    list_filter = ["series"]


@admin.register(models.AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    list_display = ["event_time", "event_type", "acting_user", "participant", "summary"]
    list_filter = ["event_type"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
