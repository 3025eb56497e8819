"""Claim pages: thin views over ``elections.claims.selectors`` (scoped reads) and ``elections.claims.services`` (writes)."""

from __future__ import annotations

from datetime import date

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts import submissions
from accounts.roles import role_required
from benefits import formatting
from benefits.engine_adapter import CalculationError, membership_calculate
from benefits.models import GeneratedDocument
from benefits.services.documents import document_open
from benefits.start_rates import start_dates_overview, start_pricing
from elections import uploads
from elections.claims import (
    checks,
    deadlines,
    forms,
    limits,
    presenters,
    selectors,
    services,
    tax_fields,
)
from elections.claims.consents import CONSENT_TYPES
from elections.claims.models import (
    COMMENCEMENT_CLOSED,
    COMMENCEMENT_TYPES,
    COMMITTEE_OPEN,
    ClaimState,
    ClaimType,
)
from elections.consents import forms as consent_forms
from elections.consents import selectors as consent_selectors
from elections.consents.presenters import open_consent

participant_only = role_required("participant")
# Claims that start payments on a date whose amounts may rest on published interest rates (issue 25).
START_TYPES = (ClaimType.COMMENCEMENT, ClaimType.LUMP_SUM, ClaimType.TERMINATION_DISTRIBUTION)
committee_only = role_required("committee")


@login_required
def claims_home(request):
    if request.user.is_committee:
        return redirect("elections:committee_queue")
    if not request.user.is_participant_role:
        raise PermissionDenied("Claims are decided by the plan committee; administrators do not see them.")
    claims = selectors.claims_for_claimant(user=request.user)
    options = []
    for membership, beneficiary in services.memberships_claimable_by(request.user):
        types = checks.claim_types_offered(membership, beneficiary=beneficiary)
        if types:
            options.append(
                {
                    "membership": membership,
                    "beneficiary": beneficiary,
                    "types": [(t.value, t.label) for t in types],
                }
            )
    today = services.today()
    rows = [
        {"claim": c, "due": c.clock().due(today=today) if c.state in COMMITTEE_OPEN else None} for c in claims
    ]
    return render(request, "elections/claims/claims_home.html", {"rows": rows, "options": options})


def _membership_for(request, membership_id: int):
    for membership, beneficiary in services.memberships_claimable_by(request.user):
        if membership.pk == membership_id:
            return membership, beneficiary
    raise Http404


def _forms_offered(membership, claim_type: str) -> list[str] | None:
    """The forms the plan offers, from the engine at the plan's normal retirement date."""
    if claim_type not in (ClaimType.COMMENCEMENT, ClaimType.TERMINATION_DISTRIBUTION):
        return None
    today = services.today()
    try:
        base = membership_calculate(membership, as_of=today)
        nrd = (
            date.fromisoformat(base["normal_retirement_date"])
            if base.get("normal_retirement_date")
            else today
        )
        result = membership_calculate(
            membership, as_of=today, commencement_dates=[max(today, nrd).replace(day=1)]
        )
    except (CalculationError, ValueError):
        return None
    estimates = result.get("estimates") or []
    return list(estimates[0]["forms"]) if estimates else None


@participant_only
def claim_new(request, membership_id: int, claim_type: str):
    membership, beneficiary = _membership_for(request, membership_id)
    if claim_type not in checks.claim_types_for(membership, beneficiary=beneficiary):
        raise Http404
    offered = _forms_offered(membership, claim_type)
    form = forms.ClaimForm(
        request.POST or None,
        request.FILES or None,
        claim_type=claim_type,
        forms_offered=offered,
        hardship=checks.hardship_rules(membership),
        representation_section=deadlines.plan_rules(membership.plan.key).section(
            "hardship_representation", ""
        ),
    )
    purpose = f"claim:{membership.pk}:{claim_type}"
    repeated = submissions.repeat_redirect(request, purpose)
    if repeated is not None:
        return repeated
    preview = None
    if request.method == "POST" and form.is_valid() and "preview" in request.POST:
        # The amount for the chosen date and form, from the same check filing makes; nothing is filed.
        try:
            preview = presenters.preview_rows(
                checks.check_claim(
                    membership=membership,
                    claim_type=claim_type,
                    details=form.details(),
                    filed_on=services.today(),
                    beneficiary=beneficiary,
                ),
                form.cleaned_data,
            )
        except checks.ClaimInvalid as exc:
            _errors_to_form(form, exc.errors)
    elif request.method == "POST" and form.is_valid():

        def file_claim():
            claim = services.claim_file(
                filer=request.user,
                membership=membership,
                claim_type=claim_type,
                details=form.details(),
                statement=form.cleaned_data.get("statement", ""),
                disability_based=form.cleaned_data.get("disability_based", False),
                files=form.cleaned_data.get("documents") or [],
                request=request,
            )
            return claim, reverse("elections:claim_detail", args=[claim.pk])

        try:
            outcome = submissions.submit_once(
                user=request.user,
                raw_token=form.cleaned_data["submission_token"],
                purpose=purpose,
                action=file_claim,
            )
        except checks.ClaimInvalid as exc:
            _errors_to_form(form, exc.errors)
        except submissions.SubmissionRefused as exc:
            form.add_error(None, str(exc))
        else:
            if not outcome.repeated:
                claim = outcome.result
                messages.success(
                    request,
                    f"Your claim {claim.pk} was received on {formatting.date_words(claim.received_on)}."
                    + _not_yet_priced(claim),
                )
            return redirect(outcome.url)
    context = {
        "form": form,
        "membership": membership,
        "claim_type": claim_type,
        "claim_type_label": ClaimType(claim_type).label,
        "rules": deadlines.plan_rules(membership.plan.key),
        "evidence": form.evidence_list() if claim_type == ClaimType.HARDSHIP else None,
        "figures": _figures(membership, claim_type),
        "preview": preview,
        "can_preview": "form" in form.fields,
        "already": selectors.commencement_claim_for(user=request.user, membership=membership)
        if claim_type in COMMENCEMENT_TYPES
        else None,
        "rollover_notice": tax_fields.notice_context(membership) if "waive_30_days" in form.fields else None,
        # Issue 25: which start dates can be priced on published rates now, and when the others can.
        "start_rates": start_dates_overview(membership.plan, first=services.today())
        if claim_type in START_TYPES
        else None,
        "start_pricing": start_pricing(membership.plan, form.cleaned_data["commencement_date"])
        if preview and form.cleaned_data.get("commencement_date")
        else None,
    }
    return render(request, "elections/claims/claim_new.html", context, status=400 if form.errors else 200)


@require_POST
@participant_only
def claim_from_modeler(request, membership_id: int):
    """Electing from the modeler files the claim to start the benefit, with the chosen date and form:
    the committee decides it, and the election is made from the claim once it is approved (issue 22)."""
    membership, beneficiary = _membership_for(request, membership_id)
    types = checks.claim_types_for(membership, beneficiary=beneficiary)
    claim_type = next(
        (t for t in (ClaimType.COMMENCEMENT, ClaimType.TERMINATION_DISTRIBUTION) if t in types), None
    )
    if claim_type is None:
        raise Http404
    back = request.POST.get("back", "")
    back = back if back.startswith("/") and not back.startswith("//") else reverse("elections:claims_home")
    try:
        start = date.fromisoformat(request.POST.get("asd", ""))
    except ValueError:
        messages.error(request, "Payment start date: choose one of the dates shown.")
        return redirect(back)
    form_key = request.POST.get("form", "")
    purpose = f"claim:{membership.pk}:modeler"

    def file_claim():
        claim = services.claim_file(
            filer=request.user,
            membership=membership,
            claim_type=claim_type,
            details={"commencement_date": start, "form": form_key},
            statement="Filed from the benefit modeler.",
            request=request,
        )
        return claim, reverse("elections:claim_detail", args=[claim.pk])

    try:
        outcome = submissions.submit_once(
            user=request.user,
            raw_token=request.POST.get("submission_token"),
            purpose=purpose,
            action=file_claim,
        )
    except checks.ClaimInvalid as exc:
        for message in exc.errors.values():
            messages.error(request, message)
        return redirect(back)
    except submissions.SubmissionRefused as exc:
        messages.error(request, str(exc))
        return redirect(back)
    if not outcome.repeated:
        claim = outcome.result
        messages.success(
            request,
            f"Your claim {claim.pk} was received on {formatting.date_words(claim.received_on)}. The plan "
            "decides it first; once it is approved you make your election from the claim."
            + _not_yet_priced(claim),
        )
    return redirect(outcome.url)


_PRICED_OR_CLOSED = (*COMMENCEMENT_CLOSED, ClaimState.IN_PAY, ClaimState.PAID)


def claim_start_pricing(claim):
    """For a claim starting payments: whether its start date's interest rates are published (issue 25)."""
    start = claim.details.get("commencement_date")
    if claim.claim_type not in START_TYPES or not start:
        return None
    try:
        return start_pricing(claim.membership.plan, date.fromisoformat(start))
    except ValueError:
        return None


def _not_yet_priced(claim) -> str:
    pricing = claim_start_pricing(claim)
    return f" {pricing.filed_sentence}" if pricing is not None and not pricing.priceable else ""


def _rate_not_published(membership, on, series: str) -> str:
    """A plain sentence in place of a figure whose market rate the administrator has not loaded yet."""
    from benefits.imports.selectors import market_missing

    for missing in market_missing(on=on, plans=[membership.plan]):
        if missing.series.key == series:
            return missing.sentence
    return "Not available yet: the rate it is based on has not been published to this site. Please check again later."


def _pending_and_maximums(membership, claim_type: str, today):
    if claim_type not in limits.MONEY_TYPES:
        return [], None
    pending = limits.other_claims(membership, states=limits.PENDING_AT_FILING)
    if claim_type == ClaimType.ESOP_DISTRIBUTION:
        return pending, None
    try:
        return pending, limits.plan_maximums(membership, on=today)
    except CalculationError:
        return pending, None


def _figures(membership, claim_type: str) -> list[tuple[str, str]]:
    """The engine's figures today that bound this request, shown before the claimant fills the form."""
    today = services.today()
    try:
        result = membership_calculate(membership, as_of=today)
    except CalculationError:
        return []
    pending, now = _pending_and_maximums(membership, claim_type, today)
    # Each kind's maximum in the engine's result (its block, the figure in it).
    blocks = {
        ClaimType.LOAN: ("loan", "maximum_new_loan"),
        ClaimType.HARDSHIP: ("hardship", "maximum_available"),
        ClaimType.WITHDRAWAL_59HALF: ("withdrawal", "maximum"),
    }
    most = {}
    if claim_type in blocks and result.get(blocks[claim_type][0]):
        block, figure = blocks[claim_type]
        engine_value = result[block][figure]
        most[claim_type] = limits.available(now, claim_type, pending) if now is not None else engine_value
    loan: dict = {}
    if claim_type == ClaimType.LOAN and most:
        prime = checks.prime_rate_for(today)
        loan = {
            "loan_terms": limits.loan_terms(membership),
            "prime": prime,
            "loan_rate": checks.loan_rate(membership, prime) if prime is not None else None,
            "rate_missing": ""
            if prime is not None
            else _rate_not_published(membership, today, checks.PRIME_SERIES),
        }
    first_open = None
    if claim_type in (ClaimType.COMMENCEMENT, ClaimType.LUMP_SUM):
        first_open = deadlines.earliest_commencement_for_filing(
            today, deadlines.plan_rules(membership.plan.key)
        )
    return presenters.figure_rows(
        claim_type, result, today=today, pending=pending, most=most, first_open=first_open, **loan
    )


def _errors_to_form(form, errors: dict[str, str]) -> None:
    for field, message in errors.items():
        form.add_error(field if field in form.fields else None, message)


@login_required
def claim_detail(request, claim_id: int):
    if request.user.is_administrator:
        raise PermissionDenied("Claims are decided by the plan committee; administrators do not see them.")
    claim = selectors.claim_get_for_viewer(user=request.user, claim_id=claim_id)
    return render_claim_detail(request, claim)


def _participant_facts(claim, consents: list | None = None) -> list[tuple[str, str]]:
    """What the committee checks before deciding: marital status and the spousal consent on file
    (``consents``: the claim's own consents, when the caller has already read them)."""
    p = claim.participant
    married = p.marital_status == "married"
    facts = [
        (
            "Marital status",
            p.get_marital_status_display()
            if hasattr(p, "get_marital_status_display")
            else p.marital_status.capitalize(),
        )
    ]
    if married:
        spouse = p.spouse_name or "name not on file"
        born = f", born {formatting.date_words(p.spouse_birth_date)}" if (p.spouse_birth_date) else ""
        facts.append(("Spouse", f"{spouse}{born}"))
    from elections.benefit_elections import presenters as election_presenters
    from elections.benefit_elections import selectors as election_selectors
    from elections.benefit_elections.form_rules import election_rules

    status = election_presenters.consent_status(
        claim,
        election=election_selectors.election_for_claim(claim),
        claim_consents=consent_selectors.claim_consents(claim) if consents is None else consents,
        consent_to_claim=claim.claim_type in CONSENT_TYPES,
        election_required=claim.claim_type in claim.plan_rules.election_required_types,
        rules=election_rules(claim.membership.plan.key),
    )
    facts.append(("Spousal consent", status))
    return facts


def _other_claim_rows(user, claim) -> dict:
    """The participant's other open claims, claims in pay or paid, and elections in force, same plan."""
    other = selectors.other_claims_for_committee(user=user, claim=claim)
    return {
        "open": [presenters.claim_row(c) for c in other.open],
        "in_pay": [presenters.claim_row(c) for c in other.in_pay],
        "elections": other.elections_in_force,
        "any": bool(other.open or other.in_pay or other.elections_in_force),
    }


def information_form_kwargs(claim, *, on=None) -> dict:
    """What the request-for-information form tells the committee before it sends: the date the
    decision is due if the clock keeps running, and the extension it may take for missing information."""
    on = on or services.today()
    clock = claim.clock()
    due = clock.due(today=on)
    can = clock.can_extend() and not clock.awaiting_answer and on <= due
    return {"due": due, "extension_days": clock.next_extension_days() if can else None}


def render_claim_detail(request, claim, status: int = 200, **bound):
    today = services.today()
    is_claimant = claim.filed_by_id == request.user.pk
    is_committee = request.user.is_committee
    open_ = claim.state in COMMITTEE_OPEN
    clock = claim.clock()
    review = claim.in_review_stage
    context = {
        "claim": claim,
        "is_claimant": is_claimant,
        "is_committee": is_committee,
        "today": today,
        "due": clock.due(today=today) if open_ else None,
        "flag": deadlines.flag(clock.due(today=today), today=today) if open_ else "",
        "paused": clock.paused,
        "clock_rules": claim.clock_rules,
        "rules": claim.plan_rules,
        "extension_open": is_committee and open_ and clock.can_extend() and not clock.paused,
        "events": presenters.timeline(claim.events.select_related("actor")),
        "detail_rows": presenters.detail_rows(claim),
        "documents": claim.documents.all(),
        "notices": claim.notices.select_related("document"),
        "determinations": claim.determinations.all(),
        "votes": claim.votes.select_related("member") if is_committee else [],
        "deemed_denied_since": services.deemed_denial_since(claim, on=today) if is_claimant else None,
        "can_appeal": is_claimant
        and claim.state == ClaimState.DENIED
        and claim.appeal_by
        and today <= claim.appeal_by,
        "can_answer": is_claimant
        and claim.state in (ClaimState.INFO_REQUESTED, ClaimState.APPEAL_INFO_REQUESTED),
        "can_add_documents": is_claimant and open_,
        "can_request_documents": is_claimant and claim.state != ClaimState.RECEIVED,
        "can_start": is_committee and claim.state in (ClaimState.RECEIVED, ClaimState.APPEALED),
        "can_decide": is_committee
        and claim.state in (ClaimState.UNDER_REVIEW, ClaimState.APPEAL_UNDER_REVIEW),
        "can_resume": is_committee
        and claim.information_due_on is not None
        and today > claim.information_due_on
        and claim.state in (ClaimState.INFO_REQUESTED, ClaimState.APPEAL_INFO_REQUESTED),
        "can_request_info": is_committee
        and claim.state in (ClaimState.UNDER_REVIEW, ClaimState.APPEAL_UNDER_REVIEW),
        "review": review,
        "appeal_form": bound.get("appeal_form") or forms.AppealForm(),
        "answer_form": bound.get("answer_form") or forms.AnswerForm(),
        "documents_form": bound.get("documents_form") or forms.AddDocumentsForm(),
        "decision_form": bound.get("decision_form") or forms.DecisionForm(review=review),
        "extension_form": bound.get("extension_form") or forms.ExtensionForm(),
        "info_form": bound.get("info_form") or forms.InformationRequestForm(**information_form_kwargs(claim)),
        "refusal": bound.get("refusal"),
    }
    context["next_step_text"] = (
        presenters.next_step_for_committee(claim) if is_committee and not is_claimant else claim.next_step
    )
    # Issue 25: a start date whose interest rates are not yet published, said plainly to the claimant.
    pricing = claim_start_pricing(claim) if is_claimant and claim.state not in _PRICED_OR_CLOSED else None
    context["start_pricing"] = pricing if pricing is not None and not pricing.priceable else None
    # The spouse's consent to a loan or withdrawal: its form, its state, and the upload.
    consents = consent_selectors.claim_consents(claim)
    context["spousal_consents"] = consents
    context["open_consent"] = (
        open_consent(consents) if is_claimant and claim.state == ClaimState.ELECTION_REQUIRED else None
    )
    context["consent_upload_form"] = consent_forms.ConsentUploadForm() if context["open_consent"] else None
    if is_committee:
        from elections.claims.committee_work import committee_members

        context["members"] = committee_members()
        context["internal_notes"] = claim.internal_notes.select_related("author")
        context["participant_facts"] = _participant_facts(claim, consents)
        context["other_claims"] = _other_claim_rows(request.user, claim)
    if is_committee and not is_claimant:
        from benefits.services import participant_view_as_staff

        participant_view_as_staff(
            viewer=request.user, participant=claim.participant, page=f"claim {claim.pk}", request=request
        )
    return render(request, "elections/claims/claim_detail.html", context, status=status)


def act_on_claim(
    request, claim_id: int, *, form_class, form_key: str, action, form_kwargs=None, success: str
):
    """Run one POSTed action; on a refusal show the claim again with the message and the bound form."""
    claim = selectors.claim_get_for_viewer(user=request.user, claim_id=claim_id)
    purpose = f"{form_key}:{claim.pk}"
    repeated = submissions.repeat_redirect(request, purpose)
    if repeated is not None:
        return repeated
    form = form_class(request.POST, request.FILES or None, **(form_kwargs or {}))
    if form.is_valid():
        url = reverse("elections:claim_detail", args=[claim.pk])
        try:
            outcome = submissions.submit_once(
                user=request.user,
                raw_token=form.cleaned_data["submission_token"],
                purpose=purpose,
                action=lambda: (action(claim, form.cleaned_data), url),
            )
        except checks.ClaimInvalid as exc:
            _errors_to_form(form, exc.errors)
        except submissions.SubmissionRefused as exc:
            form.add_error(None, str(exc))
        except services.ClaimActionRefused as exc:
            return render_claim_detail(request, claim, status=409, refusal=str(exc), **{form_key: form})
        except PermissionDenied as exc:
            return render_claim_detail(request, claim, status=403, refusal=str(exc), **{form_key: form})
        else:
            if not outcome.repeated:
                messages.success(request, success(outcome.result) if callable(success) else success)
            return redirect(outcome.url)
    return render_claim_detail(request, claim, status=400, **{form_key: form})


@require_POST
@participant_only
def claim_appeal(request, claim_id: int):
    return act_on_claim(
        request,
        claim_id,
        form_class=forms.AppealForm,
        form_key="appeal_form",
        success="Your appeal was received.",
        action=lambda c, d: services.claim_appeal(
            claim=c, actor=request.user, statement=d["statement"], files=d["documents"], request=request
        ),
    )


@require_POST
@participant_only
def claim_answer(request, claim_id: int):
    return act_on_claim(
        request,
        claim_id,
        form_class=forms.AnswerForm,
        form_key="answer_form",
        success="Your answer was received; the committee's clock runs again.",
        action=lambda c, d: services.claim_answer_information(
            claim=c, actor=request.user, response=d["response"], files=d["documents"], request=request
        ),
    )


@require_POST
@participant_only
def claim_add_documents(request, claim_id: int):
    return act_on_claim(
        request,
        claim_id,
        form_class=forms.AddDocumentsForm,
        form_key="documents_form",
        success="Your documents were added to the claim.",
        action=lambda c, d: services.claim_add_documents(
            claim=c, actor=request.user, files=d["documents"], request=request
        ),
    )


@require_POST
@participant_only
def claim_request_documents(request, claim_id: int):
    claim = selectors.claim_get_for_viewer(user=request.user, claim_id=claim_id)
    try:
        services.claim_request_documents(claim=claim, actor=request.user, request=request)
    except services.ClaimActionRefused as exc:
        return render_claim_detail(request, claim, status=409, refusal=str(exc))
    messages.success(request, "The documents relevant to your claim are listed under Notices and documents.")
    return redirect("elections:claim_detail", claim_id=claim.pk)


@login_required
def claim_document_download(request, document_id: int):
    document = selectors.claim_document_get_for_viewer(user=request.user, document_id=document_id)
    services.claim_document_viewed(document=document, viewer=request.user, request=request)
    try:
        handle = uploads.open_stored(document.file_name)
    except (uploads.UploadRefused, FileNotFoundError) as exc:
        raise Http404 from exc
    response = FileResponse(
        handle,
        content_type=document.content_type,
        filename=document.original_name,
        as_attachment=document.content_type != "application/pdf",
    )
    response["Cache-Control"] = "private, no-store"
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = "sandbox"  # an upload never runs script in our origin
    return response


@login_required
def claim_notice_download(request, claim_id: int, notice_id: int):
    claim = selectors.claim_get_for_viewer(user=request.user, claim_id=claim_id)
    notice = claim.notices.select_related("document").filter(pk=notice_id).first()
    if notice is None or notice.document.status != GeneratedDocument.Status.DONE:
        raise Http404
    services.claim_notice_viewed(notice=notice, viewer=request.user, request=request)
    response = FileResponse(
        document_open(notice.document),
        content_type="application/pdf",
        filename=f"claim-{claim.pk}-{notice.kind}.pdf",
    )
    response["Cache-Control"] = "private, no-store"
    return response
