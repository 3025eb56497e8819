"""Statement batches for administrators."""

from __future__ import annotations

from django.db.models import QuerySet
from django.http import Http404

from benefits.batches.models import StatementBatch, StatementBatchItem


def _require(user) -> None:
    if not user.is_authenticated or not user.is_administrator:
        raise Http404


def batches_for_admin(*, user) -> QuerySet[StatementBatch]:
    _require(user)
    return StatementBatch.objects.select_related("plan")


def batch_get_for_admin(*, user, batch_id: int) -> StatementBatch:
    _require(user)
    try:
        return StatementBatch.objects.select_related("plan").get(pk=batch_id)
    except StatementBatch.DoesNotExist as exc:
        raise Http404 from exc


def batch_failed_items(batch: StatementBatch, limit: int = 200) -> QuerySet[StatementBatchItem]:
    return batch.items.filter(status=StatementBatchItem.Status.FAILED).select_related(
        "membership__participant"
    )[:limit]
