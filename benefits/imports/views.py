"""Administrators' pages: upload a file, see its preview, import it, roll it back; market-rate status."""

from __future__ import annotations

from datetime import date

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from accounts.roles import role_required
from benefits.imports import selectors, services
from benefits.imports.forms import ApplyForm, UploadForm
from benefits.imports.kinds import KINDS
from benefits.imports.models import ImportBatch

RUNNING = (ImportBatch.Status.CHECKING, ImportBatch.Status.APPLYING)
ERRORS_SHOWN = 1_000


def _batch(request, batch_id: int) -> ImportBatch:
    try:
        return selectors.batch_for_admin(user=request.user, batch_id=batch_id)
    except ImportBatch.DoesNotExist:
        raise Http404 from None


@role_required("administrator")
def imports_home(request, form: UploadForm | None = None, status: int = 200):
    return render(
        request,
        "benefits/imports/home.html",
        {
            "form": form or UploadForm(),
            "batches": selectors.batches_for_admin(user=request.user),
            "kinds": KINDS.values(),
        },
        status=status,
    )


@require_POST
@role_required("administrator")
def imports_upload(request):
    form = UploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return imports_home(request, form=form, status=400)
    upload = form.cleaned_data["file"]
    batch = services.import_create(
        kind=form.cleaned_data["kind"],
        file_name=upload.name,
        content=upload.read(),
        actor=request.user,
        request=request,
        params=form.cleaned_data.get("params"),
    )
    return redirect("benefits:import_detail", batch_id=batch.pk)


@role_required("administrator")
def import_detail(request, batch_id: int):
    batch = _batch(request, batch_id)
    if request.headers.get("HX-Request"):
        if batch.status not in RUNNING:
            response = HttpResponse(status=204)
            response["HX-Refresh"] = "true"
            return response
        done, total = selectors.batch_progress(batch)
        return render(
            request, "benefits/imports/_progress.html", {"batch": batch, "done": done, "total": total}
        )
    done, total = selectors.batch_progress(batch)
    kind = KINDS[batch.kind]
    return render(
        request,
        "benefits/imports/detail.html",
        {
            "batch": batch,
            "kind": kind,
            "running": batch.status in RUNNING,
            "done": done,
            "total": total,
            "errors": batch.errors[:ERRORS_SHOWN],
            "errors_hidden": max(0, batch.error_count - ERRORS_SHOWN),
            "apply_form": ApplyForm(),
            "table": selectors.table_comparison(user=request.user, batch=batch),
        },
    )


@require_POST
@role_required("administrator")
def import_apply(request, batch_id: int):
    batch = _batch(request, batch_id)
    form = ApplyForm(request.POST)
    form.is_valid()
    try:
        batch = services.import_request_apply(
            batch=batch,
            actor=request.user,
            valid_rows_only=form.cleaned_data.get("valid_rows_only", False),
            request=request,
        )
    except services.ImportRefused as exc:
        messages.error(request, str(exc))
    else:
        if batch.status == ImportBatch.Status.APPLYING:
            messages.info(
                request, f"Importing {batch.file_name}: this page shows the result when it is done."
            )
    return redirect("benefits:import_detail", batch_id=batch.pk)


@require_POST
@role_required("administrator")
def import_rollback(request, batch_id: int):
    batch = _batch(request, batch_id)
    try:
        services.import_rollback(batch=batch, actor=request.user, request=request)
    except services.RollbackRefused as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            f"Import {batch.pk} ({batch.file_name}) is rolled back: every row it changed is restored.",
        )
    return redirect("benefits:import_detail", batch_id=batch.pk)


@role_required("administrator")
def market_rates(request):
    on = timezone.localdate()
    raw = request.GET.get("on", "")
    if raw:
        try:
            on = date.fromisoformat(raw)
        except ValueError:
            messages.error(request, "Date: write it as YYYY-MM-DD, for example 2026-12-01.")
    return render(
        request,
        "benefits/imports/market_rates.html",
        {
            "series": selectors.market_overview(user=request.user),
            "missing": selectors.market_missing_for_admin(user=request.user, on=on),
            "on": on,
        },
    )


@role_required("administrator")
def regulatory_tables(request):
    return render(
        request,
        "benefits/imports/regulatory_tables.html",
        selectors.regulatory_tables_for_admin(user=request.user, today=timezone.localdate()),
    )
