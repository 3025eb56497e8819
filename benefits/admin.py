from django.contrib import admin

from benefits import models


@admin.register(models.Employer)
class EmployerAdmin(admin.ModelAdmin):
    list_display = ["name", "ein"]


@admin.register(models.Plan)
class PlanAdmin(admin.ModelAdmin):
    list_display = ["name", "key", "kind", "employer", "settings_confirmed_at"]
    readonly_fields = ["settings_confirmed_at", "settings_confirmed_by"]


class EmploymentPeriodInline(admin.TabularInline):
    model = models.EmploymentPeriod
    extra = 0


@admin.register(models.Participant)
class ParticipantAdmin(admin.ModelAdmin):
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
class PlanMembershipAdmin(admin.ModelAdmin):
    list_display = ["participant", "plan", "entry_date"]
    list_filter = ["plan"]
    inlines = [HoursInline, CompensationInline, BalanceInline, TransactionInline]


@admin.register(models.MarketRate)
class MarketRateAdmin(admin.ModelAdmin):
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
