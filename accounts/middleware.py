"""Committee members and administrators reach no page of their role until MFA is enrolled."""

from __future__ import annotations

from allauth.mfa.utils import is_mfa_enabled
from django.contrib import messages
from django.http import HttpResponseBadRequest
from django.shortcuts import redirect
from django.template.loader import render_to_string
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


class RefuseNulInFormsMiddleware:
    """A form value with a NUL character is refused whole, naming the field, before any view sees it.

    PostgreSQL cannot store NUL in text, and no field of any form here can need one; refusing it here
    covers every form, including the few that read a raw value (a rejection reason, a search)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        field = _field_with_nul(request.POST) if request.method == "POST" else None
        if field is None:
            return self.get_response(request)
        name = field.replace("\x00", "").replace("_", " ").strip() or "a field"
        problem = (
            f"The field “{name}” contains a character that cannot be used (a null character, "
            "often left by copying from another program)."
        )
        return HttpResponseBadRequest(render_to_string("400.html", {"problem": problem}, request=request))


def _field_with_nul(data) -> str | None:
    """The first field whose name or any value holds a NUL. ``request.POST`` is parsed once per request
    and cached: the CSRF check reads the same parse; uploaded files are in ``request.FILES``, not here."""
    for key, values in data.lists():
        if "\x00" in key or any("\x00" in v for v in values):
            return key
    return None
