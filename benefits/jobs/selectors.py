"""Jobs staff need to see: failed ones, and open ones that have waited too long."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Q, QuerySet
from django.http import Http404
from django.utils import timezone

from benefits.jobs.models import Job


def jobs_needing_attention(*, user, waiting_after: int = 600) -> QuerySet[Job]:
    if not user.is_authenticated or not user.is_plan_staff:
        raise Http404
    old = timezone.now() - timedelta(seconds=waiting_after)
    return Job.objects.filter(
        Q(status=Job.Status.FAILED)
        | Q(status__in=Job.OPEN, created_at__lt=old)
        | ~Q(enqueue_error="")
        | Q(status__in=Job.OPEN) & ~Q(error="")  # being tried again after a failure: say why
    ).exclude(status=Job.Status.DONE)[:200]


def job_get_for_staff(*, user, job_id: int) -> Job:
    if not user.is_authenticated or not user.is_plan_staff:
        raise Http404
    try:
        return Job.objects.get(pk=job_id)
    except Job.DoesNotExist as exc:
        raise Http404 from exc


def job_counts() -> dict[str, int]:
    from django.db.models import Count

    return dict(Job.objects.values_list("status").annotate(n=Count("pk")).order_by())
