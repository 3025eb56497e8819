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
from benefits.presenters.plain import plain_text
from benefits.presenters.reading_words import reading_label


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
    from benefits.presenters.readings import readings_in_words

    overview = selectors.plan_overview(plan)
    readings = readings_in_words(overview.readings)
    return render(
        request,
        "benefits/admin_plan_detail.html",
        {
            "overview": overview,
            "readings": readings,
            "unset_required": [r for r in readings if r.unconfirmed],
        },
    )


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
            messages.success(
                request, f"{reading_label(name)} is back to the usual reading. Confirm the readings again."
            )
        else:
            services.plan_update_reading(
                plan=plan, name=name, raw=request.POST.get("value", ""), actor=request.user, request=request
            )
            messages.success(
                request,
                f"{reading_label(name)} changed. Confirm the plan's readings again before publishing.",
            )
    except SettingError as exc:
        messages.error(request, f"{reading_label(name)} was not changed: {plain_text(str(exc))}")
    return redirect(f"{reverse('benefits:admin_plan_detail', args=[plan.key])}#reading-{name}")


@role_required("administrator")
def audit_log(request):
    from benefits.presenters import audit_log as log

    filters, errors = log.Filters.from_query(request.GET)
    if errors:
        filters = log.Filters()
    events = selectors.audit_events_filtered(
        user=request.user,
        who=filters.who,
        what=filters.what,
        plan=filters.plan,
        start=filters.start,
        end=filters.end,
    )
    if request.GET.get("format") == "csv" and not errors:
        return log.csv_response(events)
    page = log.page_of(events, request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "benefits/audit_log.html",
        {
            "page": page,
            "rows": [log.present(e) for e in page.object_list],
            "filters": {k: request.GET.get(k, "") for k in ("who", "what", "plan", "start", "end")},
            "errors": errors,
            "event_choices": log.event_choices(selectors.audit_event_types_stored(user=request.user)),
            "plans": Plan.objects.order_by("name"),
            "query": query.urlencode(),
        },
    )
