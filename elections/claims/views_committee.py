"""The committee's pages: the queue and the actions on a claim (each a thin call to a service)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from elections.claims import committee_work, forms, selectors, services
from elections.claims.checks import ClaimInvalid
from elections.claims.models import ClaimState
from elections.claims.views import (
    act_on_claim,
    committee_only,
    information_form_kwargs,
    render_claim_detail,
)


@require_POST
@committee_only
def claim_start_review(request, claim_id: int):
    claim = selectors.claim_get_for_viewer(user=request.user, claim_id=claim_id)
    try:
        services.claim_start_review(claim=claim, actor=request.user, request=request)
    except services.ClaimActionRefused as exc:
        return render_claim_detail(request, claim, status=409, refusal=str(exc))
    except PermissionDenied as exc:
        return render_claim_detail(request, claim, status=403, refusal=str(exc))
    messages.success(request, "Review started.")
    return redirect("elections:claim_detail", claim_id=claim.pk)


@require_POST
@committee_only
def claim_resume(request, claim_id: int):
    claim = selectors.claim_get_for_viewer(user=request.user, claim_id=claim_id)
    try:
        services.claim_resume_without_answer(claim=claim, actor=request.user, request=request)
    except services.ClaimActionRefused as exc:
        return render_claim_detail(request, claim, status=409, refusal=str(exc))
    except PermissionDenied as exc:
        return render_claim_detail(request, claim, status=403, refusal=str(exc))
    messages.success(request, "The clock runs again; decide on the record you have.")
    return redirect("elections:claim_detail", claim_id=claim.pk)


@require_POST
@committee_only
def claim_extend(request, claim_id: int):
    return act_on_claim(
        request,
        claim_id,
        form_class=forms.ExtensionForm,
        form_key="extension_form",
        success="The extension notice was sent to the claimant.",
        action=lambda c, d: services.claim_extend(
            claim=c, actor=request.user, reason=d["reason"], request=request
        ),
    )


@require_POST
@committee_only
def claim_request_information(request, claim_id: int):
    return act_on_claim(
        request,
        claim_id,
        form_class=forms.InformationRequestForm,
        form_key="info_form",
        form_kwargs=information_form_kwargs(
            selectors.claim_get_for_viewer(user=request.user, claim_id=claim_id)
        ),
        success=lambda c: (
            "The request and the extension notice were sent; the clock is stopped until the claimant answers."
            if c.clock().paused
            else "The request was sent; the clock keeps running."
        ),
        action=lambda c, d: services.claim_request_information(
            claim=c,
            actor=request.user,
            what=d["what"],
            respond_by=d["respond_by"],
            extend=d["extend"] == "yes",
            request=request,
        ),
    )


@require_POST
@committee_only
def claim_decide(request, claim_id: int):
    claim = selectors.claim_get_for_viewer(user=request.user, claim_id=claim_id)
    return act_on_claim(
        request,
        claim_id,
        form_class=forms.DecisionForm,
        form_key="decision_form",
        form_kwargs={"review": claim.in_review_stage},
        success=_decision_message,
        action=lambda c, d: services.claim_decide(
            claim=c,
            actor=request.user,
            outcome=d["outcome"],
            reasons=d["reasons"],
            provisions=d["provisions"],
            perfecting_material=d.get("perfecting_material", ""),
            request=request,
        ),
    )


def _decision_message(claim) -> str:
    if claim.state in (ClaimState.UNDER_REVIEW, ClaimState.APPEAL_UNDER_REVIEW):
        return "Your vote was recorded; the decision is made when a majority of the committee's seats agree."
    return "The decision was recorded and its notice sent to the claimant."


DUE_WITHIN_CHOICES = (
    ("", "Any time"),
    ("0", "Today or overdue"),
    ("7", "Within 7 days"),
    ("14", "Within 14 days"),
    ("30", "Within 30 days"),
)


@committee_only
def committee_queue(request):
    from benefits.models import Plan

    include_closed = request.GET.get("all") == "1"
    states = dict(ClaimState.choices)
    state = request.GET.get("state", "")
    state = state if state in states else ""
    due_raw = request.GET.get("due_within", "")
    due_within = int(due_raw) if due_raw in {v for v, _ in DUE_WITHIN_CHOICES if v} else None
    plan_key = request.GET.get("plan", "")
    plans = Plan.objects.order_by("name")
    plan_key = plan_key if plans.filter(key=plan_key).exists() else ""
    mine = request.GET.get("mine") == "1"
    rows = selectors.committee_queue(
        user=request.user,
        today=services.today(),
        include_closed=include_closed,
        plan_key=plan_key,
        state=state,
        due_within=due_within,
        mine=mine,
    )
    return render(
        request,
        "elections/claims/committee_queue.html",
        {
            "rows": rows,
            "include_closed": include_closed,
            "today": services.today(),
            "plans": plans,
            "states": ClaimState.choices,
            "due_choices": DUE_WITHIN_CHOICES,
            "chosen": {
                "plan": plan_key,
                "state": state,
                "due_within": due_raw if due_within is not None else "",
                "mine": mine,
            },
            "filtered": bool(plan_key or state or due_within is not None or mine),
        },
    )


@require_POST
@committee_only
def claim_assign(request, claim_id: int):
    claim = selectors.claim_get_for_viewer(user=request.user, claim_id=claim_id)
    from benefits.form_ids import bounded_id

    raw = request.POST.get("assignee", "").strip()
    assignee_id = bounded_id(raw)
    if raw and assignee_id is None:  # a forged value: the same answer as an unknown member
        return render_claim_detail(
            request, claim, status=400, refusal="Assign to: choose a member of the plan committee."
        )
    try:
        committee_work.claim_assign(claim=claim, actor=request.user, assignee_id=assignee_id, request=request)
    except ClaimInvalid as exc:
        return render_claim_detail(request, claim, status=400, refusal=" ".join(exc.errors.values()))
    messages.success(request, "Assignment saved.")
    return redirect("elections:claim_detail", claim_id=claim.pk)


@require_POST
@committee_only
def claim_add_note(request, claim_id: int):
    claim = selectors.claim_get_for_viewer(user=request.user, claim_id=claim_id)
    try:
        committee_work.claim_note_add(
            claim=claim, actor=request.user, text=request.POST.get("text", ""), request=request
        )
    except ClaimInvalid as exc:
        return render_claim_detail(request, claim, status=400, refusal=" ".join(exc.errors.values()))
    messages.success(request, "Note saved. Only the committee sees internal notes.")
    return redirect("elections:claim_detail", claim_id=claim.pk)
