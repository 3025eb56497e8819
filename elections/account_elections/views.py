"""Pages of the account elections: the diversification election and the contribution rate (the
participant's own), and the history of both (the participant, or plan staff, audited)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse

from accounts import submissions
from accounts.roles import role_required
from benefits import formatting
from benefits.engine_adapter import CalculationError
from benefits.selectors import membership_get_for_owner, participant_get_for_viewer
from elections.account_elections import forms, presenters, selectors, services

participant_only = role_required("participant")


def _refused(form, exc: services.AccountElectionRefused) -> None:
    for name, message in exc.errors.items():
        form.add_error(name if name in form.fields else None, message)


def _submit(request, form, purpose: str, action):
    """Run ``action`` once for this form's token; the redirect on success, else None (form has errors)."""
    try:
        outcome = submissions.submit_once(
            user=request.user,
            raw_token=form.cleaned_data["submission_token"],
            purpose=purpose,
            action=action,
        )
    except services.AccountElectionRefused as exc:
        _refused(form, exc)
        return None
    except submissions.SubmissionRefused as exc:
        form.add_error(None, str(exc))
        return None
    return outcome


@participant_only
def diversification(request, membership_id: int):
    purpose = f"diversify:{membership_id}"
    repeated = submissions.repeat_redirect(request, purpose)
    if repeated is not None:
        return repeated
    membership = membership_get_for_owner(user=request.user, membership_id=membership_id)
    try:
        facts = services.diversification_for(membership)
    except CalculationError as exc:
        return render(
            request,
            "elections/account_elections/diversification.html",
            {"membership": membership, "error": exc},
        )
    form = forms.DiversificationForm(request.POST or None, max_shares=facts.max_shares if facts else None)
    if request.method == "POST" and facts is not None and form.is_valid():

        def elect():
            election = services.diversification_elect(
                user=request.user, membership=membership, shares=form.cleaned_data["shares"], request=request
            )
            return election, reverse("elections:diversification", args=[membership.pk])

        outcome = _submit(request, form, purpose, elect)
        if outcome is not None:
            if not outcome.repeated:
                messages.success(
                    request,
                    f"Your election to diversify {formatting.shares(outcome.result.shares)} shares is recorded. "
                    "A confirmation is being prepared in your documents.",
                )
            return redirect(outcome.url)
    context = presenters.diversification_context(membership, facts)
    context["form"] = form
    return render(request, "elections/account_elections/diversification.html", context)


@participant_only
def deferrals(request, membership_id: int):
    purpose = f"deferral:{membership_id}"
    repeated = submissions.repeat_redirect(request, purpose)
    if repeated is not None:
        return repeated
    membership = membership_get_for_owner(user=request.user, membership_id=membership_id)
    facts = services.deferrals_for(membership)
    form = forms.DeferralRateForm(request.POST or None, program=facts.program if facts else None)
    if request.method == "POST" and facts is not None and form.is_valid():

        def change():
            row = services.deferral_change(
                user=request.user,
                membership=membership,
                percent=form.cleaned_data["percent"],
                request=request,
            )
            return row, reverse("elections:deferrals", args=[membership.pk])

        outcome = _submit(request, form, purpose, change)
        if outcome is not None:
            if not outcome.repeated:
                row = outcome.result
                messages.success(
                    request,
                    f"Your contribution rate changes to {formatting.percent(row.percent)} with the first payroll "
                    f"on or after {formatting.date_words(row.effective_on)}.",
                )
            return redirect(outcome.url)
    context = presenters.deferrals_context(membership, facts)
    context["form"] = form
    return render(request, "elections/account_elections/deferrals.html", context)


@login_required
def history(request, participant_id: int):
    participant = participant_get_for_viewer(user=request.user, participant_id=participant_id)
    services.staff_viewed(
        viewer=request.user,
        participant=participant,
        what="diversification elections and contribution rates",
        request=request,
    )
    return render(
        request,
        "elections/account_elections/history.html",
        {
            "participant": participant,
            "diversifications": selectors.diversification_history(participant),
            "deferrals": selectors.deferral_history(participant),
            "is_staff": request.user.is_plan_staff,
        },
    )
