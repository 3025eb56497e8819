"""Pages for committee members and administrators: finding participants, plans, the audit log."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from accounts.roles import role_required, staff_required
from benefits import selectors, services
from benefits.models import Plan


@staff_required
def staff_participants(request):
    query = request.GET.get("q", "").strip()
    participants = selectors.participants_for_staff(user=request.user, query=query)
    return render(
        request,
        "benefits/staff_participants.html",
        {"participants": participants, "query": query},
    )


@role_required("administrator")
def admin_plans(request):
    plans = selectors.plans_for_admin(user=request.user)
    return render(request, "benefits/admin_plans.html", {"plans": [services.plan_overview(p) for p in plans]})


@role_required("administrator")
def admin_plan_detail(request, key: str):
    plan = get_object_or_404(selectors.plans_for_admin(user=request.user), key=key)
    return render(request, "benefits/admin_plan_detail.html", {"overview": services.plan_overview(plan)})


@require_POST
@role_required("administrator")
def admin_plan_confirm_settings(request, key: str):
    plan = get_object_or_404(Plan, key=key)
    services.plan_confirm_settings(plan=plan, actor=request.user, request=request)
    messages.success(request, f"The plan readings of {plan.name} are confirmed.")
    return redirect("benefits:admin_plan_detail", key=plan.key)


@role_required("administrator")
def audit_log(request):
    events = selectors.audit_events_for_admin(user=request.user)
    return render(request, "benefits/audit_log.html", {"events": events})
