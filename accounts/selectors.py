"""Scoped reads for the accounts pages."""

from __future__ import annotations

from django.db.models import QuerySet
from django.http import Http404

from accounts.models import User


def users_for_admin(*, user) -> QuerySet[User]:
    if not user.is_authenticated or not user.is_administrator:
        raise Http404
    return User.objects.order_by("role", "email")


def role_requests_pending(*, user) -> QuerySet:
    """Requests waiting for approval that this staff member may see: administrators all of them, a
    committee member those for the committee role. Anyone else: 404."""
    from accounts.models import RoleRequest

    if not user.is_authenticated or not user.is_plan_staff:
        raise Http404
    qs = RoleRequest.objects.filter(status=RoleRequest.Status.PENDING).select_related("requested_by", "user")
    if not user.is_administrator:
        qs = qs.filter(role=User.Role.COMMITTEE)
    return qs.order_by("requested_at")
