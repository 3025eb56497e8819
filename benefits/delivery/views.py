"""The participant's electronic delivery page, and the administrator's list of paper copies to mail."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts import submissions
from accounts.roles import role_required
from benefits.delivery import disclosures, selectors, services
from benefits.delivery.forms import ConsentForm, MarkMailedForm, WithdrawForm
from benefits.selectors import participant_get_for_viewer
from benefits.services import participant_view_as_staff

participant_only = role_required("participant")
administrator_only = role_required("administrator")


def _page(request, participant, *, consent_form=None, status=200):
    staff_view = request.user.is_plan_staff
    if staff_view:
        participant_view_as_staff(
            viewer=request.user, participant=participant, page="electronic delivery", request=request
        )
    test = selectors.open_test(participant)
    if request.headers.get("HX-Request") and request.GET.get("part") == "test":  # the 2-second poll
        return render(
            request,
            "benefits/delivery/_test.html",
            {"participant": participant, "staff_view": staff_view, "test": test},
        )
    latest = services.current_consent(participant)
    context = {
        "participant": participant,
        "staff_view": staff_view,
        "latest": latest,
        "consented": latest is not None and latest.action == latest.Action.CONSENT,
        "history": selectors.consent_history(participant),
        "deliveries": selectors.recent_deliveries(participant),
        "disclosures": disclosures.DISCLOSURES,
        "test": test,
        "consent_form": consent_form
        or ConsentForm(initial={"email": (latest.email if latest and latest.email else participant.email)}),
        "withdraw_form": WithdrawForm(),
    }
    return render(request, "benefits/delivery/preferences.html", context, status=status)


@login_required
def delivery_preferences(request, participant_id: int):
    participant = participant_get_for_viewer(user=request.user, participant_id=participant_id)
    return _page(request, participant)


@participant_only
@require_POST
@submissions.starts_work("delivery_test")
def delivery_test(request, participant_id: int):
    participant = participant_get_for_viewer(user=request.user, participant_id=participant_id)
    services.delivery_test_start(participant=participant, actor=request.user, request=request)
    messages.success(
        request, "Your test document is being prepared. Open it, then enter the code printed in it."
    )
    return redirect(reverse("benefits:delivery_preferences", args=[participant.pk]) + "#delivery-test")


@participant_only
@require_POST
def delivery_consent(request, participant_id: int):
    purpose = f"delivery_consent:{participant_id}"
    repeated = submissions.repeat_redirect(request, purpose)
    if repeated is not None:
        return repeated
    participant = participant_get_for_viewer(user=request.user, participant_id=participant_id)
    form = ConsentForm(request.POST)
    if not form.is_valid():
        return _page(request, participant, consent_form=form, status=400)
    url = reverse("benefits:delivery_preferences", args=[participant.pk])

    def give():
        consent = services.delivery_consent_give(
            participant=participant,
            actor=request.user,
            email=form.cleaned_data["email"],
            code=form.cleaned_data["code"],
            acknowledged=form.cleaned_data["acknowledged"],
            request=request,
        )
        return consent, url

    try:
        outcome = submissions.submit_once(
            user=request.user, raw_token=form.cleaned_data["submission_token"], purpose=purpose, action=give
        )
    except services.DeliveryInvalid as exc:
        for field, message in exc.errors.items():
            form.add_error(field if field in form.fields else None, message)
        return _page(request, participant, consent_form=form, status=400)
    except submissions.SubmissionRefused as exc:
        messages.error(request, str(exc))
        return redirect(url)
    if not outcome.repeated:
        messages.success(
            request,
            f"Thank you. From now on we email {outcome.result.email} when a new document is on your documents page.",
        )
    return redirect(outcome.url)


@participant_only
@require_POST
def delivery_withdraw(request, participant_id: int):
    purpose = f"delivery_withdraw:{participant_id}"
    repeated = submissions.repeat_redirect(request, purpose)
    if repeated is not None:
        return repeated
    participant = participant_get_for_viewer(user=request.user, participant_id=participant_id)
    url = reverse("benefits:delivery_preferences", args=[participant.pk])
    form = WithdrawForm(request.POST)
    if not form.is_valid():
        messages.error(request, submissions.EXPIRED)
        return redirect(url)

    def withdraw():
        return services.delivery_consent_withdraw(
            participant=participant, actor=request.user, request=request
        ), url

    try:
        outcome = submissions.submit_once(
            user=request.user,
            raw_token=form.cleaned_data["submission_token"],
            purpose=purpose,
            action=withdraw,
        )
    except services.DeliveryInvalid as exc:
        for message in exc.errors.values():
            messages.error(request, message)
        return redirect(url)
    except submissions.SubmissionRefused as exc:
        messages.error(request, str(exc))
        return redirect(url)
    if not outcome.repeated:
        messages.success(
            request, "Your consent is withdrawn. From now on your documents are mailed to you on paper."
        )
    return redirect(outcome.url)


@administrator_only
def delivery_mailing(request):
    rows = list(selectors.deliveries_to_mail(user=request.user))
    return render(
        request,
        "benefits/delivery/mailing.html",
        {
            "to_mail": [r for r in rows if r.state == r.State.TO_MAIL],
            "failed": [r for r in rows if r.state == r.State.FAILED],
            "mailed": selectors.recently_mailed(user=request.user),
        },
    )


@administrator_only
@require_POST
def delivery_mark_mailed(request, delivery_id: int):
    delivery = selectors.delivery_get_for_admin(user=request.user, delivery_id=delivery_id)
    form = MarkMailedForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for e in errors:
                messages.error(request, e)
        return redirect("benefits:delivery_mailing")
    try:
        services.delivery_mark_mailed(
            delivery=delivery, actor=request.user, mailed_on=form.cleaned_data["mailed_on"], request=request
        )
    except services.DeliveryInvalid as exc:
        for message in exc.errors.values():
            messages.error(request, message)
        return redirect("benefits:delivery_mailing")
    messages.success(
        request, f"Recorded: {delivery.document.title} mailed to {delivery.participant.full_name}."
    )
    return redirect("benefits:delivery_mailing")
