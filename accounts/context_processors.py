"""Navigation per role, for the shared layout."""

from __future__ import annotations

from django.urls import reverse


def navigation(request) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"nav_items": []}
    items: list[tuple[str, str]] = [("Home", reverse("home"))]
    if user.is_participant_role:
        if hasattr(user, "participant"):
            items.append(("My plans", reverse("benefits:dashboard")))
            items.append(("My claims", reverse("elections:claims_home")))
            items.append(("My payments", reverse("payments:mine")))
            items.append(("My documents", reverse("elections:documents", args=[user.participant.pk])))
        else:
            items.append(("Link your plan record", reverse("accounts:link_identity")))
            if user.beneficiary_links.exists():
                items.append(("My claims", reverse("elections:claims_home")))
                items.append(("My payments", reverse("payments:mine")))
    else:
        items.append(("Participants", reverse("benefits:staff_participants")))
    if user.is_committee:
        items.append(("Claims queue", reverse("elections:committee_queue")))
    if user.is_administrator:
        items.append(("Plans", reverse("benefits:admin_plans")))
        items.append(("Notices", reverse("elections:notice_batches")))
        items.append(("Payments", reverse("payments:pay_date")))
        items.append(("Loans in arrears", reverse("taxes:loans_in_arrears")))
        items.append(("Consents", reverse("elections:consent_queue")))
        items.append(("Data imports", reverse("benefits:imports_home")))
        items.append(("Market rates", reverse("benefits:market_rates")))
        items.append(("Audit log", reverse("benefits:audit_log")))
        items.append(("Users and roles", reverse("accounts:users")))
        items.append(("Annual statements", reverse("benefits:statement_batches")))
        items.append(("Documents to mail", reverse("benefits:delivery_mailing")))
    if user.is_plan_staff:
        items.append(("Background work", reverse("benefits:staff_jobs")))
        items.append(("Role requests", reverse("accounts:role_requests")))
    items.append(("Security", reverse("mfa_index")))
    from django.conf import settings

    from accounts.middleware import idle_limit

    return {
        "nav_items": items,
        "idle_seconds": idle_limit(user),
        "idle_warning_seconds": settings.SESSION_IDLE_WARNING,
    }
