"""Thin Celery tasks for taxes (HackSoft style: they call a service and pass no objects).

``forms_1099r_prior_year``: every January the beat schedule (``CELERY_BEAT_SCHEDULE`` in
config/settings/base.py) issues the previous calendar year's Forms 1099-R, before the recipients' copies
are due on January 31 (Code §6041(d) and the General Instructions for Certain Information Returns (2026),
Part H: statements to recipients by January 31). ``forms_issue`` issues each form exactly once (a
database uniqueness rule), so a second run in the month — kept to catch instalments the paying agent
confirmed late — issues only what is new or corrected.
"""

from __future__ import annotations

import logging

from celery import shared_task

logger = logging.getLogger(__name__)


@shared_task(ignore_result=True, name="taxes.forms_1099r_prior_year")
def forms_1099r_prior_year() -> dict:
    from taxes.services import forms_issue, today

    year = today().year - 1
    report = forms_issue(year)
    logger.info("Forms 1099-R for %s: %s", year, report.as_json())
    return report.as_json()
