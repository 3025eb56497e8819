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


@login_required
def document_download(request, document_id: int):
    """Serve a generated PDF to its participant or to plan staff (audited); 404 for anyone else."""
    from django.http import FileResponse, Http404

    from benefits.documents import document_path
    from benefits.models import GeneratedDocument

    document = selectors.document_get_for_viewer(user=request.user, document_id=document_id)
    if document.status != GeneratedDocument.Status.DONE:
        raise Http404("This document is not ready.")
    if request.user.is_plan_staff:
        services.participant_view_as_staff(
            viewer=request.user, participant=document.participant, page=f"document {document.pk}", request=request
        )
    response = FileResponse(
        document_path(document).open("rb"),
        content_type="application/pdf",
        filename=f"{document.kind}-{document.pk}.pdf",
    )
    response["Cache-Control"] = "private, no-store"
    return response
