"""Pages for committee members and administrators: finding participants, plans, the audit log."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts.roles import role_required, staff_required
from benefits import selectors, services
from benefits.engine.settings import SettingError
from benefits.models import Plan


@staff_required
def staff_participants(request):
    # PostgreSQL refuses NUL in text and nobody's name holds control characters: drop them.
    query = "".join(ch for ch in request.GET.get("q", "") if ch.isprintable())[:100].strip()
    try:
        number = int(request.GET.get("page", "1"))
    except ValueError:
        number = 1
    page = selectors.participants_page(user=request.user, query=query, page=min(max(number, 1), 100_000))
    return render(
        request,
        "benefits/staff_participants.html",
        {"participants": page.rows, "page": page, "query": query},
    )


@role_required("administrator")
def admin_plans(request):
    plans = selectors.plans_for_admin(user=request.user)
    return render(
        request, "benefits/admin_plans.html", {"plans": [selectors.plan_overview(p) for p in plans]}
    )


@role_required("administrator")
def admin_plan_detail(request, key: str):
    plan = get_object_or_404(selectors.plans_for_admin(user=request.user), key=key)
    return render(request, "benefits/admin_plan_detail.html", {"overview": selectors.plan_overview(plan)})


@require_POST
@role_required("administrator")
def admin_plan_confirm_settings(request, key: str):
    plan = get_object_or_404(Plan, key=key)
    try:
        services.plan_confirm_settings(plan=plan, actor=request.user, request=request)
    except services.PlanReadingsIncomplete as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"The plan readings of {plan.name} are confirmed.")
    return redirect("benefits:admin_plan_detail", key=plan.key)


@require_POST
@role_required("administrator")
def admin_plan_update_reading(request, key: str, name: str):
    plan = get_object_or_404(Plan, key=key)
    try:
        if request.POST.get("action") == "reset":
            services.plan_reset_reading(plan=plan, name=name, actor=request.user, request=request)
            messages.success(request, f"{name} is back to the engine's default. Confirm the readings again.")
        else:
            services.plan_update_reading(
                plan=plan, name=name, raw=request.POST.get("value", ""), actor=request.user, request=request
            )
            messages.success(request, f"{name} changed. Confirm the plan's readings again before publishing.")
    except SettingError as exc:
        messages.error(request, f"{name} was not changed: {exc}")
    return redirect(f"{reverse('benefits:admin_plan_detail', args=[plan.key])}#reading-{name}")


@role_required("administrator")
def audit_log(request):
    events = selectors.audit_events_for_admin(user=request.user)
    return render(request, "benefits/audit_log.html", {"events": events})
