"""Committee members and administrators reach no page of their role until MFA is enrolled."""

from __future__ import annotations

from allauth.mfa.utils import is_mfa_enabled
from django.contrib import messages
from django.http import HttpResponse, HttpResponseBadRequest
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


class IdleTimeoutMiddleware:
    """A session idle for longer than its role's limit ends (OWASP ASVS V3.3.2), beside the absolute
    expiry (``SESSION_COOKIE_AGE``): 15 minutes for plan staff, 30 for participants (settings
    ``SESSION_IDLE_TIMEOUT_STAFF`` and ``SESSION_IDLE_TIMEOUT_PARTICIPANT``, in seconds). The page warns
    ``SESSION_IDLE_WARNING`` seconds before (``static/js/idle-warning.js``). The last activity is stored
    at most once a minute, so a page's requests do not each write the session. A progress bar's own
    polling (htmx, marked with the ``X-Progress-Poll`` header) is not activity: a page left open on a
    running batch must still time out."""

    KEY = "last_activity"
    WRITE_EVERY = 60
    POLL_HEADER = "X-Progress-Poll"

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        import time

        from django.conf import settings
        from django.contrib.auth import logout

        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return self.get_response(request)
        now = int(time.time())
        last = request.session.get(self.KEY)
        limit = idle_limit(user)
        if isinstance(last, int) and now - last > limit:
            logout(request)
            messages.info(
                request,
                f"You were signed out after {limit // 60} minutes without activity. Sign in again to continue.",
            )
            login = (
                f"{reverse(settings.LOGIN_URL)}?next={request.path}"
                if request.method == "GET"
                else reverse(settings.LOGIN_URL)
            )
            if request.headers.get("HX-Request"):
                response = HttpResponse(status=200)
                response["HX-Redirect"] = login
                return response
            return redirect(login)
        polling = request.headers.get(self.POLL_HEADER) == "true" and isinstance(last, int)
        if not polling and (not isinstance(last, int) or now - last >= self.WRITE_EVERY):
            request.session[self.KEY] = now
        return self.get_response(request)


def idle_limit(user) -> int:
    from django.conf import settings

    if getattr(user, "is_plan_staff", False):
        return settings.SESSION_IDLE_TIMEOUT_STAFF
    return settings.SESSION_IDLE_TIMEOUT_PARTICIPANT


class EnumerationTimingMiddleware:
    """Sign-up and password reset answer in the same time whether or not the address has a login: a
    POST to either page takes at least ``ACCOUNT_ENUMERATION_MIN_SECONDS`` (the words are already the
    same: allauth's ``ACCOUNT_PREVENT_ENUMERATION``; the e-mail that follows says which). With the same
    password hashing on both paths (``accounts.adapters``), what is left to pad is small."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        import time

        from django.conf import settings

        floor = settings.ACCOUNT_ENUMERATION_MIN_SECONDS
        if request.method != "POST" or floor <= 0 or request.path not in _timed_paths():
            return self.get_response(request)
        started = time.monotonic()
        response = self.get_response(request)
        left = floor - (time.monotonic() - started)
        if left > 0:
            time.sleep(left)
        return response


def _timed_paths() -> set[str]:
    return {reverse("account_signup"), reverse("account_reset_password")}
