"""Role checks for views: a wrong role gets 403, never a page of another role."""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied


def role_required(*roles: str):
    def decorator(view):
        @login_required
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if request.user.role not in roles:
                raise PermissionDenied("This page is not available to your role.")
            return view(request, *args, **kwargs)

        return wrapper

    return decorator


def staff_required(view):
    """Committee members and administrators (the MFA middleware has already checked enrolment)."""
    return role_required("committee", "administrator")(view)
