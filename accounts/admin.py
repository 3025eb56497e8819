"""Django admin for logins: read-only (issue 26). It shows accounts but writes nothing.

E-mail, password, role and flags change only on the audited pages: the owner's own account pages
(allauth, each change an ``auth.*`` audit event), the administrators' users page (roles with a second
administrator's approval, access). Nobody is deleted here: a user who has acted stays in the log.
MFA secrets are never shown. Django's groups are not used (roles are ``User.role``), so they are absent.
"""

from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.contrib.auth.models import Group

from accounts.models import SubmissionToken, User
from benefits.admin_audit import ReadOnlyAdminMixin

for model in (Group, EmailAddress, Authenticator):  # replaced or dropped: their admins write
    if admin.site.is_registered(model):
        admin.site.unregister(model)


@admin.register(User)
class UserAdmin(ReadOnlyAdminMixin, BaseUserAdmin):
    ordering = ["email"]
    list_display = ["email", "role", "is_active", "last_login"]
    list_filter = ["role", "is_active"]
    search_fields = ["email"]
    fieldsets = (
        (None, {"fields": ("email", "role")}),
        ("Status", {"fields": ("is_active", "is_staff", "is_superuser")}),
        ("Dates", {"fields": ("last_login", "date_joined")}),
    )
    readonly_fields = ["email", "role", "is_staff", "is_superuser", "is_active", "last_login", "date_joined"]
    actions = None

    def get_urls(self):
        # Not BaseUserAdmin's extra "change password" page: a password is changed by its owner only.
        return admin.ModelAdmin.get_urls(self)


@admin.register(EmailAddress)
class EmailAddressAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("email", "user", "primary", "verified")
    search_fields = ("email",)
    actions = None


@admin.register(Authenticator)
class AuthenticatorAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Which logins have which second factor; the secrets themselves are never displayed."""

    list_display = ("user", "type", "created_at", "last_used_at")
    list_filter = ("type",)
    fields = ("user", "type", "created_at", "last_used_at")
    readonly_fields = fields
    actions = None


@admin.register(SubmissionToken)
class SubmissionTokenAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("purpose", "user", "created_at", "result_url")
    actions = None
