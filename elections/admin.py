"""Django admin: claims are read-only here (they change only through the services and their audit);
administrators verify Beneficiaries of deceased participants."""

from django.contrib import admin
from django.utils import timezone

from elections.models import BeneficiaryLink, Claim, ClaimEvent


class ClaimEventInline(admin.TabularInline):
    model = ClaimEvent
    extra = 0
    can_delete = False
    readonly_fields = ("at", "actor", "actor_label", "action", "from_state", "to_state", "note", "due_on")

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Claim)
class ClaimAdmin(admin.ModelAdmin):
    list_display = ("pk", "claim_type", "participant", "state", "received_on", "due_on")
    list_filter = ("state", "claim_type")
    inlines = [ClaimEventInline]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(BeneficiaryLink)
class BeneficiaryLinkAdmin(admin.ModelAdmin):
    list_display = ("beneficiary_name", "relationship", "participant", "user", "verified_at")
    readonly_fields = ("verified_by", "verified_at")
    autocomplete_fields = ()

    def save_model(self, request, obj, form, change):
        if obj.verified_at is None:
            obj.verified_by, obj.verified_at = request.user, timezone.now()
        super().save_model(request, obj, form, change)
