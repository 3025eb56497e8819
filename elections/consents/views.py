"""A spouse's consent: the participant uploads the signed form; the administrator's queue, review,
verification and refusal; the signed form itself. Thin views over the consents selectors and
services; what the consent names is reached through its ``ConsentSubject`` (never imported here).
Staff views of a consent are audited."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts.roles import role_required
from elections import uploads
from elections.authority import ElectionInvalid, staff_viewed
from elections.consents import forms, selectors, services
from elections.consents.subjects import subject_for, subjects

participant_only = role_required("participant")
administrator_only = role_required("administrator")


def _refused(request, exc: ElectionInvalid) -> None:
    for message in exc.errors.values():
        messages.error(request, message)


def _subject_page(consent) -> str:
    """Where the participant sees what the consent names."""
    return subject_for(consent.subject_field).page(consent)


@participant_only
@require_POST
def consent_upload(request, consent_id: int):
    consent = selectors.consent_get_for_viewer(user=request.user, consent_id=consent_id)
    form = forms.ConsentUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        for field, errs in form.errors.items():
            label = form.fields[field].label if field in form.fields else ""
            messages.error(request, f"{label}: {' '.join(errs)}" if label else " ".join(errs))
        return redirect(_subject_page(consent))
    try:
        upload = uploads.check_upload(form.cleaned_data["document"])
        services.consent_upload(
            consent=consent, user=request.user, upload=upload, details=form.details(), request=request
        )
        messages.success(request, "The consent form is uploaded. The plan administrator will verify it.")
    except uploads.UploadRefused as exc:
        messages.error(request, str(exc))
    except ElectionInvalid as exc:
        _refused(request, exc)
    return redirect(_subject_page(consent))


@login_required
def consent_file(request, consent_id: int):
    consent = selectors.consent_get_for_viewer(user=request.user, consent_id=consent_id)
    if not consent.upload_file:
        raise Http404
    staff_viewed(
        viewer=request.user,
        participant=consent.participant,
        what=f"consent {consent.pk} (signed form)",
        request=request,
        consent_id=consent.pk,
    )
    try:
        handle = uploads.open_stored(consent.upload_file)
    except (uploads.UploadRefused, FileNotFoundError) as exc:
        raise Http404 from exc
    response = FileResponse(
        handle,
        content_type=consent.upload_content_type,
        filename=consent.upload_name or f"consent-{consent.pk}",
    )
    response["Cache-Control"] = "private, no-store"
    return response


@administrator_only
def consent_queue(request):
    context = {"consents": selectors.consents_awaiting_verification()}
    for subject in subjects():
        context |= subject.waiting()
    return render(request, "elections/consents/consent_queue.html", context)


@administrator_only
def consent_review(request, consent_id: int):
    consent = selectors.consent_get_for_viewer(user=request.user, consent_id=consent_id)
    staff_viewed(
        viewer=request.user,
        participant=consent.participant,
        what=f"consent {consent.pk}",
        request=request,
        consent_id=consent.pk,
    )
    context = {
        "consent": consent,
        "problems": {k: v for k, v in services.consent_validity(consent).items() if k != "verified"},
        "reject_form": forms.RejectForm(),
    }
    context |= subject_for(consent.subject_field).review(consent)
    return render(request, "elections/consents/consent_review.html", context)


@administrator_only
@require_POST
def consent_verify(request, consent_id: int):
    consent = selectors.consent_get_for_viewer(user=request.user, consent_id=consent_id)
    try:
        services.consent_verify(consent=consent, actor=request.user, request=request)
        subject = consent.subject
        subject.refresh_from_db()
        messages.success(request, f"Consent verified. It is now “{subject.get_state_display()}”.")
    except ElectionInvalid as exc:
        _refused(request, exc)
    return redirect("elections:consent_review", consent.pk)


@administrator_only
@require_POST
def consent_reject(request, consent_id: int):
    consent = selectors.consent_get_for_viewer(user=request.user, consent_id=consent_id)
    form = forms.RejectForm(request.POST)
    try:
        services.consent_reject(
            consent=consent, actor=request.user, reason=form.data.get("reason", ""), request=request
        )
        messages.info(request, "The participant has been told what to correct.")
    except ElectionInvalid as exc:
        _refused(request, exc)
    return redirect("elections:consent_review", consent.pk)
