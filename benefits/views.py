"""Participant pages. Every read goes through ``benefits.selectors``, scoped to the requesting user."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render

from benefits import selectors, services


def _viewing_context(request, participant, page: str) -> dict:
    """Staff see a participant's page read-only, under a banner, and each view is audited."""
    staff_view = request.user.is_plan_staff
    if staff_view:
        services.participant_view_as_staff(
            viewer=request.user, participant=participant, page=page, request=request
        )
    return {"participant": participant, "staff_view": staff_view}


@login_required
def dashboard(request):
    participant = selectors.participant_for_user(request.user)
    if participant is None:
        return redirect("home")
    return _render_dashboard(request, participant)


@login_required
def participant_dashboard(request, participant_id: int):
    participant = selectors.participant_get_for_viewer(user=request.user, participant_id=participant_id)
    return _render_dashboard(request, participant)


def _render_dashboard(request, participant):
    context = _viewing_context(request, participant, "dashboard")
    context["memberships"] = selectors.memberships_for_participant(participant)
    return render(request, "benefits/dashboard.html", context)
