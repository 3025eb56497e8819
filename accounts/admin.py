"""Django admin for logins: it shows accounts but cannot go around the product's rules.

Roles change only on the in-app page (``accounts:users``, an MFA-authenticated administrator, never on
themselves, audited with the old and the new role); here the role and the staff flags are read-only.
A user who has acted (audit events) is deactivated, never deleted. MFA secrets are never shown.
"""

from allauth.mfa.models import Authenticator
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from accounts.models import SubmissionToken, User
from benefits.models import AuditEvent


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    ordering = ["email"]
    list_display = ["email", "role", "is_active", "last_login"]
    list_filter = ["role", "is_active"]
    search_fields = ["email"]
    fieldsets = (
        (None, {"fields": ("email", "password", "role")}),
        ("Status", {"fields": ("is_active", "is_staff", "is_superuser")}),
        ("Dates", {"fields": ("last_login", "date_joined")}),
    )
    # A new login is a participant; any other role is given on the audited in-app page.
    add_fieldsets = ((None, {"classes": ("wide",), "fields": ("email", "password1", "password2")}),)
    readonly_fields = ["role", "is_staff", "is_superuser", "is_active", "last_login", "date_joined"]
    actions = None  # no bulk delete

    def get_readonly_fields(self, request, obj=None):
        return self.readonly_fields if obj is not None else []

    def has_delete_permission(self, request, obj=None):
        if obj is None:
            return False
        return not AuditEvent.objects.filter(acting_user=obj).exists()


if admin.site.is_registered(Authenticator):  # allauth's own admin would show the secrets
    admin.site.unregister(Authenticator)


@admin.register(Authenticator)
class AuthenticatorAdmin(admin.ModelAdmin):
    """Which logins have which second factor; the secrets themselves are never displayed."""

    list_display = ("user", "type", "created_at", "last_used_at")
    list_filter = ("type",)
    fields = ("user", "type", "created_at", "last_used_at")
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(SubmissionToken)
class SubmissionTokenAdmin(admin.ModelAdmin):
    list_display = ("purpose", "user", "created_at", "result_url")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
