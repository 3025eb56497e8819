"""The Celery app. In the embedded default (no CELERY_BROKER_URL) tasks run in-process, eagerly."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("plan_benefits")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# An app's areas keep their own tasks module (docs/architecture.md); name each area here.
app.autodiscover_tasks(["elections.claims", "elections.benefit_elections", "benefits.imports"])
