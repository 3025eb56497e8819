"""Pages for notices, elections and beneficiaries: thin views over selectors (scoped reads) and
services (writes); a consent's own pages are in ``elections/consents/views.py``. Staff views of an
election, a designation or a participant's documents are audited."""

from __future__ import annotations

from datetime import date

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts.roles import role_required
from accounts.submissions import starts_work
from benefits import formatting
from benefits.models import Plan, PlanMembership
from benefits.selectors import membership_get_for_owner, participant_get_for_viewer
from elections.account_elections import selectors as account_selectors
from elections.authority import staff_viewed
from elections.benefit_elections import form_rules, forms, presenters, review_figures, selectors, services
from elections.benefit_elections.explanation import ExplanationUnavailable
from elections.benefit_elections.models import NoticeBatch
from elections.consents import forms as consent_forms
from elections.consents import services as consent_services

participant_only = role_required("participant")
administrator_only = role_required("administrator")

# The election begins with the explanation itself: the participant confirms having read it first.
STEPS = ("explanation", "form", "beneficiaries", "payment", "review")


def _refused(request, exc: services.ElectionInvalid) -> None:
    for message in exc.errors.values():
        messages.error(request, message)


# ------------------------------------------------------------------------------------ documents


@login_required
def documents(request, participant_id: int):
    participant = participant_get_for_viewer(user=request.user, participant_id=participant_id)
    staff_viewed(viewer=request.user, participant=participant, what="documents page", request=request)
    context = selectors.documents_for_participant(participant)
    context.update(
        participant=participant,
        notices=selectors.notices_for_participant(participant),
        elections=selectors.elections_for_participant(participant),
        is_staff=request.user.is_plan_staff,
        has_account_elections=account_selectors.has_account_elections(participant),
    )
    return render(request, "elections/benefit_elections/documents.html", context)


@login_required
def notice_detail(request, notice_id: int):
    notice = selectors.notice_get_for_viewer(user=request.user, notice_id=notice_id)
    staff_viewed(
        viewer=request.user,
        participant=notice.participant,
        what=f"notice {notice.pk}",
        request=request,
        notice_id=notice.pk,
    )
    can_elect = (
        request.user.is_participant_role
        and notice.kind == "qjsa_explanation"
        and notice.asd > services.today()
        and not services.election_waits_words(notice)
    )
    return render(
        request,
        "elections/benefit_elections/notice_detail.html",
        {
            "notice": notice,
            "c": presenters.notice_context(notice),
            "can_elect": can_elect,
            "final_notice": selectors.final_explanation_for(notice) if notice.provisional else None,
        },
    )


# ------------------------------------------------------------------------------------ the election


@participant_only
@require_POST
def election_start(request, membership_id: int):
    membership = get_object_or_404(
        PlanMembership.objects.select_related("participant", "plan"),
        pk=membership_id,
        participant__user=request.user,
    )
    try:
        asd = date.fromisoformat(request.POST.get("asd", ""))
    except ValueError:
        messages.error(request, "Payment start date: give a date like 2027-04-01.")
        return redirect("benefits:dashboard")
    claim = None
    if request.POST.get("claim"):
        from benefits.form_ids import bounded_id
        from elections.models import Claim

        claim_id = bounded_id(request.POST["claim"])
        if claim_id is None:  # a forged id is simply not found (never a 500)
            raise Http404
        claim = get_object_or_404(Claim, pk=claim_id, filed_by=request.user)
    try:
        draft = services.draft_start(
            user=request.user, membership=membership, asd=asd, claim=claim, request=request
        )
    except services.ElectionWaits as exc:
        # Issue 25: the explanation is given on the latest published rates; the participant reads it.
        messages.info(request, exc.errors["explanation"])
        return redirect("elections:notice_detail", exc.notice.pk)
    except services.ElectionInvalid as exc:
        _refused(request, exc)
        return redirect(reverse("elections:claim_detail", args=[claim.pk]) if claim else "benefits:dashboard")
    except ExplanationUnavailable as exc:
        messages.error(request, f"The explanation for that date cannot be prepared: {exc}")
        return redirect(reverse("elections:claim_detail", args=[claim.pk]) if claim else "benefits:dashboard")
    return redirect("elections:election_step", draft.pk, "explanation")


def _next_step(draft, step: str) -> str:
    i = STEPS.index(step) + 1
    if STEPS[i] == "beneficiaries" and not form_rules.asks_beneficiaries_step(draft):
        i += 1
    return STEPS[i]


@participant_only
def election_step(request, draft_id: int, step: str):
    if step not in STEPS:
        raise Http404
    draft = selectors.draft_get_for_owner(user=request.user, draft_id=draft_id)
    content = draft.notice.content
    row = services.form_row(draft, draft.answers.get("form", ""))
    if step != "explanation" and services.explanation_read_at(draft) is None:
        return redirect("elections:election_step", draft.pk, "explanation")
    if step not in ("explanation", "form") and row is None:
        return redirect("elections:election_step", draft.pk, "form")
    participant = draft.participant
    form = None
    if step == "explanation":
        form = forms.ExplanationReadForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            services.draft_explanation_read(draft=draft, user=request.user, request=request)
            return redirect("elections:election_step", draft.pk, "form")
    elif step == "form":
        form = forms.FormChoiceForm(
            request.POST or None,
            rows=content["forms"],
            needs_waiver=content["window"]["needs_waiver"],
            options=content.get("account_options") or {},
            initial={
                "form": draft.answers.get("form") or content.get("qjsa_form"),
                **(draft.answers.get("installments") or {}),
            },
        )
    elif step == "beneficiaries" and services.needs_beneficiaries(row["form"]) == "annuitant":
        form = forms.AnnuitantForm(
            request.POST or None,
            spouse_name=participant.spouse_name if participant.marital_status == "married" else "",
            initial=draft.answers.get("annuitant") or None,
        )
    elif step == "beneficiaries":
        form = forms.BeneficiariesForm(
            request.POST or None,
            spouse_name=participant.spouse_name if participant.marital_status == "married" else "",
        )
    elif step == "payment":
        form = forms.PaymentForm(request.POST or None, needs=services.payment_needs(draft, row))
    if request.method == "POST" and form is not None and form.is_valid():
        if step == "form":
            answers = {
                "form": form.cleaned_data["form"],
                "waive_30_days": form.cleaned_data.get("waive_30_days", False),
                "installments": form.choice(),
            }
        elif isinstance(form, forms.AnnuitantForm):
            answers = {"annuitant": form.annuitant()}
        elif step == "beneficiaries":
            answers = {"beneficiaries": form.beneficiaries()}
        else:
            answers = form.answers()
        problems = {}
        if isinstance(form, forms.AnnuitantForm):
            from elections.benefit_elections import annuitants

            problems = annuitants.check(draft, row["form"], answers["annuitant"])[0]
            for key, message in problems.items():
                form.add_error(form.field_for(key), message)
        if not problems:
            services.draft_save(draft=draft, user=request.user, step=step, answers=answers, request=request)
            return redirect("elections:election_step", draft.pk, _next_step(draft, step))
    context = {
        "draft": draft,
        "step": step,
        "form": form,
        "asks_annuitant": step == "beneficiaries" and isinstance(form, forms.AnnuitantForm),
        "annuitant_source": form_rules.election_rules(draft.membership.plan.key).annuitant_source,
        "c": presenters.notice_context(draft.notice),
        "row": row,
        "needs": services.payment_needs(draft, row) if row else None,
        "steps": presenters.step_list(step, asks_beneficiaries=form_rules.asks_beneficiaries_step(draft)),
        "notice": draft.notice,
        "explanation_read_at": services.explanation_read_at(draft),
    }
    if step == "review":
        context["review"] = presenters.review(draft, review_figures.review_figures(draft))
        context["problems"] = services.validate_election(draft, on=services.today())
        context["sign_form"] = forms.SignForm()
    return render(request, f"elections/benefit_elections/step_{step}.html", context)


@participant_only
@require_POST
def election_sign(request, draft_id: int):
    from accounts import submissions

    # A second click finds the first signature (the signed draft itself is no longer open).
    purpose = f"election_sign:{draft_id}"
    repeated = submissions.repeat_redirect(request, purpose)
    if repeated is not None:
        return repeated
    draft = selectors.draft_get_for_owner(user=request.user, draft_id=draft_id)
    form = forms.SignForm(request.POST)
    if not form.is_valid():
        expired = [e for e in form.non_field_errors() if e == submissions.EXPIRED]
        messages.error(
            request,
            expired[0]
            if expired
            else "To sign, re-enter your password and confirm that you make this election.",
        )
        return redirect("elections:election_step", draft.pk, "review")

    def sign():
        election = services.election_sign(
            draft=draft, user=request.user, password=form.cleaned_data["password"], request=request
        )
        return election, reverse("elections:election_detail", args=[election.pk])

    try:
        outcome = submissions.submit_once(
            user=request.user, raw_token=form.cleaned_data["submission_token"], purpose=purpose, action=sign
        )
    except services.ElectionInvalid as exc:
        _refused(request, exc)
        return redirect("elections:election_step", draft.pk, "review")
    except submissions.SubmissionRefused as exc:
        messages.error(request, str(exc))
        return redirect("elections:election_step", draft.pk, "review")
    if not outcome.repeated:
        messages.success(
            request,
            "Your election is signed."
            + (" Your spouse's consent is needed next." if outcome.result.needs_consent else ""),
        )
    return redirect(outcome.url)


@login_required
def election_detail(request, election_id: int):
    election = selectors.election_get_for_viewer(user=request.user, election_id=election_id)
    staff_viewed(
        viewer=request.user,
        participant=election.participant,
        what=f"election {election.pk}",
        request=request,
        election_id=election.pk,
    )
    consents = [
        (c, {k: v for k, v in consent_services.consent_validity(c).items() if k != "verified"})
        for c in selectors.election_consents(election)
    ]
    context = presenters.election_context(
        election, request.user, consents=consents, window=form_rules.election_window(election)
    )
    context["upload_form"] = consent_forms.ConsentUploadForm() if request.user.is_participant_role else None
    context["exception_form"] = consent_forms.ExceptionForm() if context.pop("takes_exception") else None
    return render(request, "elections/benefit_elections/election_detail.html", context)


@participant_only
@require_POST
def election_revoke(request, election_id: int):
    election = selectors.election_get_for_viewer(user=request.user, election_id=election_id)
    try:
        services.election_revoke(election=election, user=request.user, request=request)
        messages.success(
            request, "Your election is revoked. Make a new election before the payment start date."
        )
    except services.ElectionInvalid as exc:
        _refused(request, exc)
    return redirect("elections:election_detail", election.pk)


# ------------------------------------------------------------------------------------ administrators


@administrator_only
@starts_work("notice_batch_start")
def notice_batches(request):
    plans = Plan.objects.order_by("name")
    form = forms.BatchForm(request.POST or None, plans=plans)
    if request.method == "POST" and form.is_valid():
        plan = get_object_or_404(Plan, key=form.cleaned_data["plan"])
        try:
            batch = services.batch_create(
                plan=plan,
                rule=form.cleaned_data["rule"],
                within_days=form.cleaned_data.get("within_days"),
                actor=request.user,
                request=request,
            )
            return redirect("elections:notice_batch", batch.pk)
        except services.ElectionInvalid as exc:
            for field, message in exc.errors.items():
                form.add_error(field if field in form.fields else None, message)
    return render(
        request,
        "elections/benefit_elections/notice_batches.html",
        {
            "form": form,
            "batches": [
                presenters.batch_summary(selectors.batch_progress(b)) for b in selectors.batches_recent()
            ],
        },
    )


@administrator_only
@require_POST
@starts_work("notice_issue_one")
def notice_issue_one(request):
    number = request.POST.get("participant_number", "").strip()
    plan_key = request.POST.get("plan", "")
    kind = request.POST.get("kind", "qjsa_explanation")
    membership = (
        PlanMembership.objects.filter(participant__participant_number=number, plan__key=plan_key)
        .select_related("participant", "plan")
        .first()
    )
    try:
        asd = date.fromisoformat(request.POST.get("asd", ""))
    except ValueError:
        asd = None
    if (
        membership is None
        or asd is None
        or kind not in ("qjsa_explanation", "qpsa_explanation", "rollover_402f")
    ):
        messages.error(
            request,
            "Issue one notice: give a participant number in that plan, a kind of notice and a payment start date (YYYY-MM-DD).",
        )
        return redirect("elections:notice_batches")
    try:
        outcome = services.notice_issue(
            membership=membership, kind=kind, asd=asd, actor=request.user, request=request
        )
        if outcome.created:
            messages.success(request, f"Issued to {membership.participant.full_name}.")
        else:
            messages.info(
                request,
                f"Already issued to {membership.participant.full_name} on {formatting.date_words(outcome.notice.issued_on)}.",
            )
    except ExplanationUnavailable as exc:
        messages.error(request, f"Not issued: {exc}")
    return redirect("elections:notice_batches")


@administrator_only
def notice_batch(request, batch_id: int):
    batch = get_object_or_404(NoticeBatch.objects.select_related("plan"), pk=batch_id)
    context = {"b": presenters.batch_summary(selectors.batch_progress(batch, items=True))}
    template = (
        "elections/benefit_elections/_batch_progress.html"
        if request.headers.get("HX-Request")
        else "elections/benefit_elections/notice_batch.html"
    )
    return render(request, template, context)


@administrator_only
@require_POST
@starts_work("notice_batch_retry")
def notice_batch_retry(request, batch_id: int):
    batch = get_object_or_404(NoticeBatch, pk=batch_id)
    n = services.batch_retry_failed(batch=batch, actor=request.user, request=request)
    messages.info(request, f"{n} failed notice(s) queued again.")
    return redirect("elections:notice_batch", batch.pk)


@administrator_only
@require_POST
@starts_work("notice_batch_resume")
def notice_batch_resume(request, batch_id: int):
    batch = get_object_or_404(NoticeBatch, pk=batch_id)
    services.batch_resume(batch=batch, actor=request.user, request=request)
    messages.info(request, "The batch is queued again; notices already issued are not issued twice.")
    return redirect("elections:notice_batch", batch.pk)


@administrator_only
@require_POST
def consent_exception(request, election_id: int):
    election = selectors.election_get_for_viewer(user=request.user, election_id=election_id)
    _certify_exception(request, election=election)
    return redirect("elections:election_detail", election.pk)


def _certify_exception(request, **subject) -> None:
    """The administrator's certification that the spouse's consent is not required (an election's
    or a designation's), from the posted form; a refusal is shown as messages."""
    form = consent_forms.ExceptionForm(request.POST)
    try:
        consent_services.consent_exception_certify(
            **subject,
            actor=request.user,
            exception=form.data.get("exception", ""),
            certification=form.data.get("certification", ""),
            request=request,
        )
        messages.success(request, "Exception certified.")
    except services.ElectionInvalid as exc:
        _refused(request, exc)


# ------------------------------------------------------------------------------------ beneficiaries


def _designation_plans(participant) -> list[dict]:
    from elections.benefit_elections import beneficiaries

    out = []
    for membership in selectors.memberships_of(participant):
        rules = beneficiaries.plan_rules(membership)
        if rules is None:
            continue  # the plan takes beneficiaries only with a benefit election
        out.append(
            {
                "membership": membership,
                "rules": rules,
                "designations": selectors.designations_for_membership(membership),
            }
        )
    return out


@login_required
def beneficiaries(request, participant_id: int):
    from elections.benefit_elections.beneficiaries import staff_viewed_designations

    participant = participant_get_for_viewer(user=request.user, participant_id=participant_id)
    staff_viewed_designations(viewer=request.user, participant=participant, request=request)
    plans = presenters.beneficiaries_context(_designation_plans(participant), request.user)
    is_owner = request.user.is_participant_role
    return render(
        request,
        "elections/benefit_elections/beneficiaries.html",
        {
            "participant": participant,
            "plans": plans,
            "is_owner": is_owner,
            "married": participant.marital_status == participant.MaritalStatus.MARRIED,
            "upload_form": consent_forms.ConsentUploadForm() if is_owner else None,
            "exception_form": consent_forms.ExceptionForm() if request.user.is_administrator else None,
        },
    )


@participant_only
def beneficiaries_change(request, membership_id: int):
    from accounts import submissions
    from benefits.engine.beneficiaries import RELATIONSHIPS
    from elections.benefit_elections import beneficiaries as designations

    membership = membership_get_for_owner(user=request.user, membership_id=membership_id)
    rules = designations.plan_rules(membership)
    if rules is None:
        raise Http404
    purpose = f"designation_sign:{membership.pk}"
    repeated = submissions.repeat_redirect(request, purpose)
    if repeated is not None:
        return repeated
    form = forms.DesignationForm(
        request.POST or None, relationships=RELATIONSHIPS, natural_persons_only=rules.natural_persons_only
    )
    if request.method == "POST" and form.is_valid():

        def sign():
            d = designations.designation_sign(
                membership=membership,
                user=request.user,
                rows=form.rows(),
                password=form.cleaned_data["password"],
                request=request,
            )
            return d, reverse("elections:beneficiaries", args=[membership.participant_id])

        try:
            outcome = submissions.submit_once(
                user=request.user,
                raw_token=form.cleaned_data["submission_token"],
                purpose=purpose,
                action=sign,
            )
        except services.ElectionInvalid as exc:
            form.add_service_errors(exc.errors)
        except submissions.SubmissionRefused as exc:
            form.add_error(None, str(exc))
        else:
            if not outcome.repeated:
                messages.success(
                    request,
                    "Your new beneficiaries are signed. They take effect when your spouse's consent is verified."
                    if outcome.result.needs_consent
                    else "Your new beneficiaries are in effect.",
                )
            return redirect(outcome.url)
    participant = membership.participant
    return render(
        request,
        "elections/benefit_elections/beneficiaries_change.html",
        {
            "membership": membership,
            "participant": participant,
            "rules": rules,
            "form": form,
            "married": participant.marital_status == participant.MaritalStatus.MARRIED,
        },
        status=400 if form.errors else 200,
    )


@participant_only
@require_POST
def designation_withdraw(request, designation_id: int):
    from elections.benefit_elections.beneficiaries import designation_withdraw as withdraw

    designation = selectors.designation_get_for_viewer(user=request.user, designation_id=designation_id)
    try:
        withdraw(designation=designation, user=request.user, request=request)
        messages.info(request, "That designation is withdrawn; the one in effect before stays in effect.")
    except services.ElectionInvalid as exc:
        _refused(request, exc)
    return redirect("elections:beneficiaries", designation.participant_id)


@administrator_only
@require_POST
def designation_exception(request, designation_id: int):
    designation = selectors.designation_get_for_viewer(user=request.user, designation_id=designation_id)
    _certify_exception(request, designation=designation)
    return redirect("elections:beneficiaries", designation.participant_id)
