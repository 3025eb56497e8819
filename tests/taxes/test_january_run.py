"""The prior year's Forms 1099-R scheduled by Celery beat in January, before the January 31 deadline for
recipients' copies (Code §6041(d); General Instructions for Certain Information Returns (2026), Part H);
run twice, it issues each form once."""

from __future__ import annotations

from datetime import date
from unittest import mock

import pytest
from celery.schedules import crontab
from django.conf import settings

from taxes.models import Form1099R
from taxes.tasks import forms_1099r_prior_year
from tests.factories import MembershipFactory, ParticipantFactory, PlanFactory
from tests.taxes.helpers import make_payment, pay


def test_the_beat_schedule_runs_it_in_january_before_the_31st():
    entry = settings.CELERY_BEAT_SCHEDULE["forms-1099r-prior-year"]
    assert entry["task"] == "taxes.forms_1099r_prior_year"
    schedule = entry["schedule"]
    assert isinstance(schedule, crontab)
    assert schedule.month_of_year == {1}
    assert schedule.day_of_month and max(schedule.day_of_month) < 31


@pytest.mark.django_db
def test_running_twice_issues_once():
    plan = PlanFactory(key="carver-401k", name="Carver 401(k) Savings Plan", kind="401k")
    m = MembershipFactory(plan=plan, participant=ParticipantFactory(birth_date=date(1950, 1, 1)))
    pay(make_payment(m, gross="5000.00"), date(2026, 3, 2))
    with mock.patch("taxes.services.today", return_value=date(2027, 1, 5)):
        first = forms_1099r_prior_year.apply().result
        second = forms_1099r_prior_year.apply().result
    assert first == {"issued": 1, "already_issued": 0, "failed": []}
    assert second == {"issued": 0, "already_issued": 1, "failed": []}
    assert Form1099R.objects.filter(year=2026).count() == 1
