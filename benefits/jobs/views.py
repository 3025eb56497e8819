"""Background work for plan staff: jobs that failed or wait too long, with a retry."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts.roles import staff_required
from accounts.submissions import starts_work
from benefits.jobs import selectors, services
from benefits.jobs.base import job_label


@staff_required
def staff_jobs(request):
    jobs = [
        {"job": job, "label": job_label(job)} for job in selectors.jobs_needing_attention(user=request.user)
    ]
    return render(
        request,
        "benefits/jobs/staff_jobs.html",
        {"jobs": jobs, "counts": selectors.job_counts(), "health": selectors.worker_health()},
    )


@require_POST
@staff_required
@starts_work("job_retry")
def staff_job_retry(request, job_id: int):
    job = selectors.job_get_for_staff(user=request.user, job_id=job_id)
    services.job_retry(job=job, actor=request.user, request=request)
    messages.success(request, f"Job {job.pk} will be tried again.")
    return redirect("benefits:staff_jobs")
