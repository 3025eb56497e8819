"""Scoped reads for the accounts pages."""

from __future__ import annotations

from django.db.models import QuerySet
from django.http import Http404

from accounts.models import User


def users_for_admin(*, user) -> QuerySet[User]:
    if not user.is_authenticated or not user.is_administrator:
        raise Http404
    return User.objects.order_by("role", "email")
