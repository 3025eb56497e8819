"""Django admin: claims, their documents and decisions are absent (they are read and changed only on
the claim pages, with their permission checks and audit). Administrators verify Beneficiaries of
deceased participants here: adding or changing a link is audited with its old and new values
(``AuditedAdminMixin``); a link is never deleted."""

from django.contrib import admin
from django.utils import timezone

from benefits.admin_audit import AuditedAdminMixin
from elections.models import BeneficiaryLink


@admin.register(BeneficiaryLink)
class BeneficiaryLinkAdmin(AuditedAdminMixin, admin.ModelAdmin):
    list_display = ("beneficiary_name", "relationship", "participant", "user", "verified_at")
    readonly_fields = ("verified_by", "verified_at")
    autocomplete_fields = ()
    actions = None

    def save_model(self, request, obj, form, change):
        if obj.verified_at is None:
            obj.verified_by, obj.verified_at = request.user, timezone.now()
        super().save_model(request, obj, form, change)

    def has_delete_permission(self, request, obj=None):
        return False
