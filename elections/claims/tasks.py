"""Thin Celery tasks for claims (ids only)."""

from __future__ import annotations

from celery import shared_task


@shared_task(ignore_result=True, name="elections.refresh_claim_due_dates")
def refresh_claim_due_dates() -> int:
    """Nightly (beat): keep the stored due date of each open claim current, since a stopped clock's due
    date moves on each day it waits. The queue computes dates afresh; this keeps ordering in SQL right."""
    from elections.claims.services import claims_refresh_due_dates

    return claims_refresh_due_dates()
