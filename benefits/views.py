"""Participant pages. Every read goes through ``benefits.selectors``, scoped to the requesting user."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse

from benefits import selectors, services
from benefits.engine_adapter import memberships_calculate, plan_offers
from benefits.presenters.dashboard import plan_summaries
from benefits.presenters.dashboard import totals as plan_totals
from benefits.start_rates import start_dates_overview


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
    memberships = selectors.memberships_for_participant(participant)
    context["memberships"] = memberships
    today = services.today()
    memberships = list(memberships)
    results = memberships_calculate(memberships, as_of=today)
    offers = [plan_offers(m.plan.key) for m in memberships]
    context["summaries"] = plan_summaries(memberships, results, offers, as_of=today)
    context["totals"] = plan_totals(context["summaries"])
    context["as_of"] = services.today()
    context["waiting"] = _waiting_items(request.user, participant)
    context["payments"] = _payments(participant, context["summaries"])
    return render(request, "benefits/dashboard.html", context)


def _payments(participant, summaries) -> dict:
    """The payment records (the payments app, above this one: imported here only), in words on each
    plan's card; a benefit scheduled or in pay is not offered a new start in the modeler."""
    from payments import presenters, selectors

    payments, instalments = selectors.payments_for_participant(participant)
    page = presenters.participant_page(payments, instalments)
    words = presenters.words_by_membership(payments, instalments)
    for s in summaries:
        if s.membership.pk in words:
            s.payment_words = words[s.membership.pk]
            if not s.plan.is_account_plan:
                s.has_estimates = False
    return page


def _waiting_items(user, participant) -> list[dict]:
    """The participant's open claims from the elections app (its own scoped selector); staff see
    claims in the committee queue instead, so nothing is listed on their read-only view."""
    if not user.is_participant_role:
        return []
    try:
        from elections.claims.selectors import claims_for_claimant
        from elections.models import COMMITTEE_OPEN, ClaimState
    except ImportError:  # the elections app is optional for this page
        return []
    needs_you = {
        ClaimState.INFO_REQUESTED: "The committee asked you for information",
        ClaimState.APPEAL_INFO_REQUESTED: "The committee asked you for information on your appeal",
        ClaimState.ELECTION_REQUIRED: "Approved: you need to make your election",
    }
    items = []
    for claim in claims_for_claimant(user=user).filter(state__in=[*needs_you, *COMMITTEE_OPEN]):
        items.append(
            {
                "url": reverse("elections:claim_detail", args=[claim.pk]),
                "title": f"{claim.get_claim_type_display()} · {claim.membership.plan.name}",
                "state": needs_you.get(claim.state, claim.get_state_display()),
                "action": claim.state in needs_you,
                "next_step": claim.next_step,
            }
        )
    return sorted(items, key=lambda i: not i["action"])


@login_required
def document_download(request, document_id: int):
    """Serve a generated PDF to its participant or to plan staff (audited); 404 for anyone else."""
    from django.http import FileResponse, Http404

    from benefits.models import GeneratedDocument
    from benefits.services import document_open

    document = selectors.document_get_for_viewer(user=request.user, document_id=document_id)
    if document.status != GeneratedDocument.Status.DONE:
        raise Http404("This document is not ready.")
    if request.user.is_plan_staff:
        services.participant_view_as_staff(
            viewer=request.user,
            participant=document.participant,
            page=f"document {document.pk}",
            request=request,
        )
    response = FileResponse(
        document_open(document),
        content_type="application/pdf",
        filename=f"{document.kind}-{document.pk}.pdf",
    )
    response["Cache-Control"] = "private, no-store"
    return response


# ------------------------------------------------------------------ plan pages (portal)
# Each page takes the participant id: a participant may open only their own (404 otherwise);
# plan staff open any read-only, and each view is audited by ``_viewing_context``.

import functools  # noqa: E402
import hashlib  # noqa: E402
import logging  # noqa: E402
import uuid  # noqa: E402
from datetime import date  # noqa: E402
from pathlib import Path  # noqa: E402
from urllib.parse import urlencode  # noqa: E402

from django.contrib import messages  # noqa: E402
from django.core.exceptions import PermissionDenied  # noqa: E402
from django.db import transaction  # noqa: E402
from django.http import HttpResponse  # noqa: E402
from django.views.decorators.http import require_POST  # noqa: E402

from accounts.submissions import starts_work  # noqa: E402
from benefits.engine_adapter import (  # noqa: E402
    CalculationError,
    estimate_traces,
    membership_calculate,
    result_is_current,
    vesting_figures,
)
from benefits.forms import ModelerForm  # noqa: E402
from benefits.models import ModelerRun  # noqa: E402
from benefits.presenters.chart import line_chart  # noqa: E402
from benefits.presenters.labels import field_words, form_label  # noqa: E402
from benefits.presenters.missing import missing_sentences  # noqa: E402
from benefits.presenters.modeler import estimate_href, grid  # noqa: E402
from benefits.presenters.statements import statement_payload  # noqa: E402
from benefits.presenters.traces import presented, trace_steps  # noqa: E402
from benefits.presenters.vesting import vesting_page  # noqa: E402
from benefits.statement_inputs import PeriodError, account_periods, statement_figures  # noqa: E402


def _plan_context(request, membership, page: str) -> dict:
    context = _viewing_context(request, membership.participant, f"{page} of {membership.plan.key}")
    context.update(membership=membership, plan=membership.plan, as_of=services.today())
    return context


def _calculation_error(context: dict, exc: CalculationError) -> dict:
    context["calc_error"] = {"field": field_words(exc.field), "message": str(exc)}
    return context


@login_required
def plan_vesting(request, participant_id: int, plan_key: str):
    membership = selectors.membership_get_for_viewer(
        user=request.user, participant_id=participant_id, plan_key=plan_key
    )
    context = _plan_context(request, membership, "vesting")
    try:
        context["v"] = vesting_page(*vesting_figures(membership, as_of=context["as_of"]))
    except CalculationError as exc:
        _calculation_error(context, exc)
    return render(request, "benefits/vesting.html", context)


def _statement_year(raw, today: date) -> int:
    try:
        year = int(raw or today.year)
    except ValueError:
        return today.year
    return year if 2000 <= year <= today.year else today.year


PERIOD_FIELDS = ("year", "start", "end")


def _period_query(data) -> str:
    return urlencode({k: data[k] for k in PERIOD_FIELDS if data.get(k)})


@login_required
def plan_statement(request, participant_id: int, plan_key: str):
    membership = selectors.membership_get_for_viewer(
        user=request.user, participant_id=participant_id, plan_key=plan_key
    )
    context = _plan_context(request, membership, "statement")
    year = _statement_year(request.GET.get("year"), context["as_of"])
    is_account = membership.plan.is_account_plan
    try:
        figures = statement_figures(
            membership, today=context["as_of"], year=year, period_data=request.GET if is_account else None
        )
        context["s"] = statement_payload(figures)
    except CalculationError as exc:
        _calculation_error(context, exc)
    except PeriodError as exc:
        context["period_error"] = {"field": exc.field, "message": str(exc)}
    if is_account:
        context["periods"] = account_periods(membership, context["as_of"])
        context["period_input"] = {k: request.GET.get(k, "") for k in PERIOD_FIELDS}
        shown = (context.get("s") or {}).get("activity") or {}
        # The date fields show what was asked (kept when refused), else the period shown.
        context["period_values"] = {
            "start": context["period_input"]["start"] or shown.get("start", ""),
            "end": context["period_input"]["end"] or shown.get("end", ""),
            "year": context["period_input"]["year"] or shown.get("year") or "",
        }
        context["period_date_fields"] = (("start", "Start date"), ("end", "End date"))
        context["period_query"] = {k: v for k, v in context["period_input"].items() if v}
    if membership.plan.kind == membership.plan.Kind.CASH_BALANCE:
        context["years"] = list(range(context["as_of"].year, 1999, -1))
        context["year"] = year
    context["documents"] = selectors.statements_for_membership(membership)
    return render(request, "benefits/statement.html", context)


@login_required
@require_POST
@starts_work("statement_pdf")
def plan_statement_pdf(request, participant_id: int, plan_key: str):
    membership = selectors.membership_get_for_viewer(
        user=request.user, participant_id=participant_id, plan_key=plan_key
    )
    today = services.today()
    year = _statement_year(request.POST.get("year"), today)
    url = reverse("benefits:plan_statement", args=[participant_id, plan_key])
    is_account = membership.plan.is_account_plan
    try:
        payload = statement_payload(
            statement_figures(
                membership, today=today, year=year, period_data=request.POST if is_account else None
            )
        )
    except CalculationError as exc:
        messages.error(
            request, f"The statement cannot be prepared: {field_words(exc.field)} is missing or unusable."
        )
        return redirect("benefits:plan_statement", participant_id=participant_id, plan_key=plan_key)
    except PeriodError as exc:
        messages.error(request, f"The statement PDF was not created: {exc}")
        return redirect(f"{url}?{_period_query(request.POST)}")
    document = services.statement_print(
        membership=membership, payload=payload, actor=request.user, request=request
    )
    _say_when_committed(
        request,
        document,
        ready="Your statement PDF is ready.",
        waiting="Your statement PDF is being prepared; it will appear in the list below.",
    )
    if payload["kind"] == "cash_balance":
        return redirect(f"{url}?year={year}")
    if is_account and _period_query(request.POST):
        return redirect(f"{url}?{_period_query(request.POST)}")
    return redirect(url)


@login_required
def plan_modeler(request, participant_id: int, plan_key: str):
    membership = selectors.membership_get_for_viewer(
        user=request.user, participant_id=participant_id, plan_key=plan_key
    )
    plan = membership.plan
    if plan.kind not in (plan.Kind.FINAL_AVERAGE_PAY, plan.Kind.CASH_BALANCE):
        from django.http import Http404

        raise Http404("The retirement modeler is for pension plans.")
    today = services.today()
    blocked = _modeler_blocked(membership, today)
    if request.method == "POST" and request.user.is_plan_staff:
        raise PermissionDenied("Plan staff have a read-only view of the modeler.")
    from accounts import submissions

    purpose = f"modeler:{membership.pk}"
    repeated = submissions.repeat_redirect(request, purpose) if blocked is None else None
    if repeated is not None:
        return repeated
    if request.method == "POST" and blocked is None:
        form = ModelerForm(request.POST, membership=membership, as_of=today)
        if form.is_valid():
            try:
                inputs = form.inputs()
            except CalculationError as exc:
                form.add_error(
                    None, f"The plan cannot be calculated: {field_words(exc.field)} is missing or unusable."
                )
            else:

                def create_run():
                    run = services.modeler_run_create(
                        membership=membership, actor=request.user, inputs=inputs, as_of=today, request=request
                    )
                    return run, reverse("benefits:modeler_run", args=[participant_id, run.pk])

                try:
                    outcome = submissions.submit_once(
                        user=request.user,
                        raw_token=form.cleaned_data["submission_token"],
                        purpose=purpose,
                        action=create_run,
                    )
                except submissions.SubmissionRefused as exc:
                    form.add_error(None, str(exc))
                else:
                    return redirect(outcome.url)
        status = 400
    else:
        form = ModelerForm(membership=membership, as_of=today)
        status = 200
    context = (
        _plan_context(request, membership, "modeler")
        if request.method == "GET"
        else {
            "participant": membership.participant,
            "staff_view": False,
            "membership": membership,
            "plan": plan,
            "as_of": today,
        }
    )
    context["form"] = form
    context["blocked"] = blocked
    context["quotes"] = selectors.quotes_for_membership(membership)
    # Issue 25: which start dates can be priced on published interest rates now, and when the others.
    context["start_rates"] = start_dates_overview(plan, first=today)
    return render(request, "benefits/modeler.html", context, status=status)


def _modeler_blocked(membership, today: date) -> str | None:
    """Why there is nothing to model (the engine's own figures say so), or None."""
    try:
        result = membership_calculate(membership, as_of=today)
    except CalculationError as exc:
        return f"This plan cannot be calculated yet: {field_words(exc.field)} is missing or unusable. {exc}"
    if (result.get("vesting") or {}).get("vested_percent") == "0":
        return (
            "You are not vested in this plan yet, so no benefit would be payable from it if you left now. "
            "Your vesting page shows when you would be."
        )
    return None


def _grid_context(result: dict, participant, estimate_url_name: str, owner_id: int, chosen: str = "") -> dict:
    href = estimate_href(reverse(estimate_url_name, args=[participant.pk, owner_id, 0]))
    g = grid(result, participant.birth_date, href, chosen=chosen)
    normal = g["normal"]
    series = [k for k in (normal, g["chosen"], "life", "js100", "lump_sum") if k]
    series = list(dict.fromkeys(series))
    return {"grid": g, "chart": line_chart(g, series)}


logger = logging.getLogger(__name__)


@functools.cache
def _grid_fingerprint() -> str:
    """What the grid's HTML depends on besides the stored result: its template and presenters. A
    deploy that changes any of them renders the fragments afresh."""
    from django.template.loader import get_template

    import benefits.presenters.chart as chart_module
    import benefits.presenters.labels as labels_module
    import benefits.presenters.modeler as modeler_module

    digest = hashlib.sha256(get_template("benefits/_grid.html").template.source.encode())
    for module in (chart_module, labels_module, modeler_module):
        digest.update(Path(module.__file__).read_bytes())
    return digest.hexdigest()[:16]


GRID_CACHE_SECONDS = 7 * 24 * 3600


def _chosen_form(request) -> str:
    """The form a person asked to compare with the normal form: one of the forms the pages name, or
    nothing. It is part of the grid's cache key, so any other value is dropped (the grid would ignore
    it anyway): the keys the cache can hold stay bounded to what the page offers (issue 26)."""
    from benefits.presenters.labels import FORM_LABELS, FORM_ORDER

    value = request.GET.get("form", "")
    return value if value in FORM_ORDER or value in FORM_LABELS else ""


def _grid_html(
    owner, participant, estimate_url_name: str, *, with_notes: bool = False, chosen: str = ""
) -> tuple[str, list, list[str]]:
    """The finished grid of a modeler run or quote, rendered once and then served from the cache: the
    stored result never changes, so neither does its HTML (a 181-date grid is a thousand cells). If
    the cache is down, the grid is rendered as usual.

    Returns the HTML, each estimate's date and whether it has forms, and the sentences on missing
    inputs: everything the page needs from the stored result, so that a cached grid never loads it
    (5 MB of JSON for 181 dates with their traces: most of the page's time when it was read)."""
    from django.core.cache import cache
    from django.template.loader import render_to_string
    from django.utils.safestring import mark_safe

    # The finish time is part of the key: a run priced again (a newly loaded table) renders afresh.
    stamp = int(owner.finished_at.timestamp()) if getattr(owner, "finished_at", None) else 0
    key = f"grid:v3:{_grid_fingerprint()}:{estimate_url_name}:{owner.pk}:{stamp}:{chosen}"
    try:
        cached = cache.get(key)
    except Exception:  # a cache outage must not take the page down
        logger.warning("grid cache unavailable; rendering %s", key, exc_info=True)
        cached = None
    if cached is None:
        context = {
            "participant": participant,
            "result_notes": owner.result.get("notes") if with_notes else (),
        }
        context.update(_grid_context(owner.result, participant, estimate_url_name, owner.pk, chosen))
        # Each estimate's date and its forms' keys: what the page's claim offer needs, so a cached
        # grid never reads the (large) result.
        estimates = [
            {"commencement_date": e["commencement_date"], "forms": list(e.get("forms") or ())}
            for e in owner.result.get("estimates") or []
        ]
        missing = missing_sentences(owner.result)
        cached = (str(render_to_string("benefits/_grid.html", context)), estimates, missing)
        try:
            cache.set(key, cached, GRID_CACHE_SECONDS)
        except Exception:
            logger.warning("grid cache unavailable; %s not stored", key, exc_info=True)
    html, estimates, missing = cached
    return mark_safe(html), estimates, missing  # noqa: S308 - our own template's output


@login_required
def modeler_run(request, participant_id: int, run_id: int):
    run = selectors.run_get_for_viewer(
        user=request.user, participant_id=participant_id, run_id=run_id, with_result=False
    )
    finished = run.status in (ModelerRun.Status.DONE, ModelerRun.Status.FAILED)
    if request.headers.get("HX-Request"):
        # The progress poll: once the run is finished, reload the page to show the results.
        if finished:
            response = HttpResponse(status=204)
            response["HX-Refresh"] = "true"
            return response
        return render(
            request,
            "benefits/_modeler_progress.html",
            {"run": run, "participant": run.membership.participant},
        )
    context = _plan_context(request, run.membership, f"modeler run {run.pk}")
    context["run"] = run
    context["submission_token"] = uuid.uuid4().hex  # the quote form's one-time token
    # A model made by an earlier engine is never shown: its figures may no longer be right.
    context["stale"] = run.status == ModelerRun.Status.DONE and not result_is_current(run.engine_version)
    if run.status == ModelerRun.Status.DONE and not context["stale"]:
        html, estimates, missing = _grid_html(
            run,
            run.membership.participant,
            "benefits:modeler_estimate",
            with_notes=True,
            chosen=_chosen_form(request),
        )
        context["grid_html"] = html
        context["missing"] = missing
        if request.user.is_participant_role:
            from elections.benefit_elections.form_rules import election_rules
            from elections.benefit_elections.presenters import electable_dates, start_form_choices
            from elections.claims.selectors import benefit_start_for

            # One start per benefit (issue 22): what already starts it is shown instead of a new start.
            start = benefit_start_for(user=request.user, membership=run.membership)
            context["benefit_start"] = start
            if not start.exists and _can_file_start(run.membership):
                context["elect_dates"] = electable_dates(
                    election_rules(run.membership.plan.key), {"estimates": estimates}
                )
                context["start_rates"] = start_dates_overview(run.membership.plan, first=services.today())
                context["elect_forms"] = start_form_choices({"estimates": estimates})
                context["claim_token"] = uuid.uuid4().hex
    return render(request, "benefits/modeler_run.html", context)


def _can_file_start(membership) -> bool:
    """Whether the modeler can file a claim to start this benefit: a DB or cash balance commencement,
    or an account distribution once employment has ended."""
    from elections.claims.checks import claim_types_for
    from elections.claims.models import ClaimType

    types = claim_types_for(membership, beneficiary=False)
    if ClaimType.COMMENCEMENT in types:
        return True
    return ClaimType.TERMINATION_DISTRIBUTION in types and membership.participant.termination_date is not None


EXTRA_TRACES = (("cash_out", "Cash-out test"), ("preretirement_spouse_benefit", "Spouse's benefit"))


def _estimate_context(result: dict, index: int, *, trace: str = "", name: str | None = None) -> dict:
    """One start date's forms with their amounts explained. A form's calculation is shown only when
    asked for (``trace`` names the form), so the page never repeats every trace."""
    from django.http import Http404

    from benefits.presenters.forms_explained import after_death, level_income_change, level_income_words

    estimates = result.get("estimates") or []
    if not 0 <= index < len(estimates):
        raise Http404
    e = estimates[index]
    changes_on = level_income_change(result, index)
    forms = []
    for key, f in (e.get("forms") or {}).items():
        rv = f.get("relative_value")
        forms.append(
            {
                "key": key,
                "label": form_label(key),
                "f": f,
                "after_death": after_death(key, f),
                "level_income": level_income_words(f, changes_on) if key == "ss_level" else "",
                "relative_value": str(rv.get("percent", ""))
                if isinstance(rv, dict)
                else (str(rv) if rv else ""),
                "steps": presented(trace_steps(result, f"estimates[{index}].forms.{key}"), name=name)
                if trace == key
                else [],
            }
        )
    extra = [
        {
            "key": key,
            "label": label,
            "steps": presented(trace_steps(result, f"estimates[{index}].{key}"), name=name)
            if trace == key
            else [],
        }
        for key, label in EXTRA_TRACES
        if key in e
    ]
    error_steps = presented(trace_steps(result, f"estimates[{index}]"), name=name) if e.get("error") else []
    here = f"/estimates/{index}/"  # the missing inputs that block, or change the basis of, this estimate
    missing = []
    for m in result.get("missing") or []:
        kept = {k: [p for p in m.get(k, []) if p.startswith(here)] for k in ("blocks", "fallback")}
        if kept["blocks"] or kept["fallback"]:
            missing.append({**m, **kept})
    mine = {**result, "missing": missing}
    return {
        "estimate": e,
        "forms": forms,
        "extra": extra,
        "error_steps": error_steps,
        "index": index,
        "missing": missing_sentences(mine),
        "trace": trace,
        "has_relative_value": any(f["relative_value"] for f in forms),
        "relative_value_words": (e.get("relative_value_basis") or {}).get("words", ""),
    }


def _render_estimate(request, context: dict):
    """The whole page, or (for htmx) only the calculation asked for."""
    trace = context["trace"]
    if trace and request.headers.get("HX-Request"):
        chosen = next((x for x in [*context["forms"], *context["extra"]] if x["key"] == trace), None)
        if chosen is None:
            from django.http import Http404

            raise Http404
        return render(request, "benefits/_trace_list.html", {"steps": chosen["steps"], "trace_note": True})
    return render(request, "benefits/estimate_detail.html", context)


def _viewer_name(request, participant) -> str | None:
    """Staff read the participant's name in a calculation; the participant reads "you"."""
    return participant.first_name if request.user.is_plan_staff else None


@login_required
def modeler_estimate(request, participant_id: int, run_id: int, index: int):
    run = selectors.run_get_for_viewer(user=request.user, participant_id=participant_id, run_id=run_id)
    if run.status != ModelerRun.Status.DONE or not result_is_current(run.engine_version):
        return redirect("benefits:modeler_run", participant_id=participant_id, run_id=run_id)
    context = _plan_context(request, run.membership, f"modeler run {run.pk} estimate {index}")
    name = _viewer_name(request, run.membership.participant)
    result = estimate_traces(run.result, run.request, index)  # the steps of this one date, on demand
    context.update(_estimate_context(result, index, trace=request.GET.get("trace", ""), name=name))
    context["back_url"] = reverse("benefits:modeler_run", args=[participant_id, run.pk])
    return _render_estimate(request, context)


@login_required
@require_POST
def quote_save(request, participant_id: int, run_id: int):
    from accounts import submissions

    run = selectors.run_get_for_viewer(user=request.user, participant_id=participant_id, run_id=run_id)
    if request.user.is_plan_staff:
        raise PermissionDenied("Plan staff have a read-only view of the modeler.")
    purpose = f"quote:{run.pk}"
    repeated = submissions.repeat_redirect(request, purpose)
    if repeated is not None:
        return repeated
    back = reverse("benefits:modeler_run", args=[participant_id, run.pk])
    if run.status != ModelerRun.Status.DONE:
        messages.error(request, "This model is not finished yet: save it as a quote once its results show.")
        return redirect(back)

    def save():
        quote = services.quote_save(run=run, actor=request.user, request=request)
        return quote, reverse("benefits:quote_detail", args=[participant_id, quote.pk])

    try:
        outcome = submissions.submit_once(
            user=request.user, raw_token=request.POST.get("submission_token"), purpose=purpose, action=save
        )
    except submissions.SubmissionRefused as exc:
        messages.error(request, str(exc))
        return redirect(back)
    if not outcome.repeated:
        messages.success(request, "Quote saved. You can print it as a PDF.")
    return redirect(outcome.url)


@login_required
def quote_detail(request, participant_id: int, quote_id: int):
    quote = selectors.quote_get_for_viewer(
        user=request.user, participant_id=participant_id, quote_id=quote_id, with_result=False
    )
    context = _plan_context(request, quote.membership, f"quote {quote.pk}")
    context["quote"] = quote
    context["grid_html"], _estimates, _missing = _grid_html(
        quote, quote.participant, "benefits:quote_estimate", chosen=_chosen_form(request)
    )
    return render(request, "benefits/quote.html", context)


@login_required
def quote_estimate(request, participant_id: int, quote_id: int, index: int):
    quote = selectors.quote_get_for_viewer(
        user=request.user, participant_id=participant_id, quote_id=quote_id
    )
    context = _plan_context(request, quote.membership, f"quote {quote.pk} estimate {index}")
    name = _viewer_name(request, quote.participant)
    # The steps are worked out again only by the engine that made the quote's figures, from its run's request.
    run = quote.modeler_run if result_is_current(quote.engine_version) else None
    result = estimate_traces(quote.result, run.request if run is not None else None, index)
    context.update(_estimate_context(result, index, trace=request.GET.get("trace", ""), name=name))
    context["back_url"] = reverse("benefits:quote_detail", args=[participant_id, quote.pk])
    return _render_estimate(request, context)


def _say_when_committed(request, document, *, ready: str, waiting: str) -> None:
    """Tell the person whether the PDF is ready, read once the request's work has committed (a PDF
    rendered at once is then done; one handed to a worker is still being prepared)."""

    def say() -> None:
        document.refresh_from_db(fields=["status"])
        if document.status == document.Status.DONE:
            messages.success(request, ready)
        else:
            messages.info(request, waiting)

    transaction.on_commit(say)


@login_required
@require_POST
@starts_work("quote_pdf")
def quote_pdf(request, participant_id: int, quote_id: int):
    quote = selectors.quote_get_for_viewer(
        user=request.user, participant_id=participant_id, quote_id=quote_id
    )
    document = services.quote_print(quote=quote, actor=request.user, request=request)
    _say_when_committed(
        request,
        document,
        ready="Your quote PDF is ready.",
        waiting="Your quote PDF is being prepared; reload this page in a moment.",
    )
    return redirect("benefits:quote_detail", participant_id=participant_id, quote_id=quote.pk)
