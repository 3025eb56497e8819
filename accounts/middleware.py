"""Committee members and administrators reach no page of their role until MFA is enrolled."""

from __future__ import annotations

from allauth.mfa.utils import is_mfa_enabled
from django.contrib import messages
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.cache import patch_cache_control

# Paths a staff user without MFA may still use: login/logout, MFA enrolment, and static files.
ALLOWED_PREFIXES = ("/accounts/", "/static/", "/favicon.ico")


class StaffMFARequiredMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if (
            user is not None
            and user.is_authenticated
            and getattr(user, "is_plan_staff", False)
            and not request.path.startswith(ALLOWED_PREFIXES)
            and not is_mfa_enabled(user)
        ):
            messages.warning(
                request,
                "Your role requires two-factor authentication. Set up an authenticator app to continue.",
            )
            return redirect(reverse("mfa_activate_totp"))
        return self.get_response(request)


class NoStoreMiddleware:
    """Pages for a logged-in person (participant or staff) are never kept by a browser or a proxy cache:
    a shared computer's back button or history must not show someone's benefits."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if (
            not request.path.startswith("/static/")
            and "no-store" not in response.get("Cache-Control", "")
            and ((user is not None and user.is_authenticated) or request.path.startswith("/accounts/"))
        ):
            patch_cache_control(response, private=True, no_store=True, no_cache=True, max_age=0)
        return response
