"""Jobs staff need to see: failed ones, and open ones that have waited too long."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Count, Q, QuerySet
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


def worker_health(*, now=None) -> dict:
    """Whether the workers and the sweeper are taking work, in words for the Background work page.

    ``idle_minutes``: work has waited longer than JOBS_IDLE_ALERT_SECONDS and no job started meanwhile
    (no worker is taking work). ``sweeper_quiet_since``: the sweeper has not run for three periods (or
    never), so waiting work is not being sent again. Both None when all is well or tasks run in-process."""
    from datetime import datetime

    from django.conf import settings
    from django.core.cache import cache
    from django.db.models import Max, Min

    from benefits.jobs.services import SWEPT_AT_KEY

    health = {"idle_minutes": None, "waiting": 0, "sweeper_quiet": False, "swept_at": None}
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return health
    now = now or timezone.now()
    alert = timedelta(seconds=settings.JOBS_IDLE_ALERT_SECONDS)
    waiting = Job.objects.filter(status__in=(Job.Status.PENDING, Job.Status.QUEUED)).aggregate(
        n=Count("pk"), oldest=Min("created_at")
    )
    last_start = Job.objects.aggregate(at=Max("started_at"))["at"]
    if waiting["n"] and waiting["oldest"] < now - alert and (last_start is None or last_start < now - alert):
        since = max(waiting["oldest"], last_start) if last_start else waiting["oldest"]
        health["idle_minutes"] = max(1, int((now - since).total_seconds() // 60))
        health["waiting"] = waiting["n"]
    swept = cache.get(SWEPT_AT_KEY)
    health["swept_at"] = datetime.fromisoformat(swept) if swept else None
    quiet = timedelta(seconds=3 * settings.JOBS_SWEEP_SECONDS)
    health["sweeper_quiet"] = health["swept_at"] is None or health["swept_at"] < now - quiet
    return health
