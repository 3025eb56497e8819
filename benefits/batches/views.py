"""Administrators start, follow and retry annual statement batches."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from accounts.roles import role_required
from accounts.submissions import starts_work
from benefits.batches import selectors, services
from benefits.batches.forms import BatchStartForm


@role_required("administrator")
@starts_work("statement_batch_start")
def batch_list(request):
    form = BatchStartForm(request.POST or None, initial={"year": timezone.localdate().year - 1})
    if request.method == "POST" and form.is_valid():
        batch = services.batch_start(
            plan=form.cleaned_data["plan"],
            year=form.cleaned_data["year"],
            actor=request.user,
            request=request,
        )
        messages.success(
            request, f"Annual statements {batch.year} for {batch.plan.name}: {batch.total} queued."
        )
        return redirect("benefits:statement_batch", batch_id=batch.pk)
    rows = [
        {"batch": b, "counts": services.batch_counts(b)}
        for b in selectors.batches_for_admin(user=request.user)
    ]
    return render(request, "benefits/batches/batch_list.html", {"form": form, "rows": rows})


@role_required("administrator")
def batch_detail(request, batch_id: int):
    batch = selectors.batch_get_for_admin(user=request.user, batch_id=batch_id)
    context = {
        "batch": batch,
        "counts": services.batch_counts(batch),
        "failed": selectors.batch_failed_items(batch),
    }
    if request.headers.get("HX-Request"):
        return render(request, "benefits/batches/_progress.html", context)
    return render(request, "benefits/batches/batch_detail.html", context)


@require_POST
@role_required("administrator")
@starts_work("statement_batch_retry")
def batch_retry(request, batch_id: int):
    batch = selectors.batch_get_for_admin(user=request.user, batch_id=batch_id)
    count = services.batch_retry_failed(batch=batch, actor=request.user, request=request)
    messages.success(request, f"{count} failed statement{'s' if count != 1 else ''} queued again.")
    return redirect("benefits:statement_batch", batch_id=batch.pk)
