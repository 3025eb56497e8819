"""Start (or resume) the annual statements of a plan from the command line; --wait follows the progress."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError

from benefits.batches.services import batch_counts, batch_start
from benefits.models import Plan


class Command(BaseCommand):
    help = "Prepare every participant's annual statement of a plan for a year (resumes an earlier batch)."

    def add_arguments(self, parser):
        parser.add_argument("plan", help="the plan's key, e.g. carver-db")
        parser.add_argument("year", type=int)
        parser.add_argument("--wait", action="store_true", help="follow the progress until the batch ends")

    def handle(self, *args, plan: str, year: int, wait: bool, **options):
        try:
            plan_row = Plan.objects.get(key=plan)
        except Plan.DoesNotExist:
            raise CommandError(f"plan: no plan has the key {plan!r}.") from None
        started = time.monotonic()
        batch = batch_start(plan=plan_row, year=year)
        self.stdout.write(f"batch {batch.pk}: {batch.total} statements")
        while wait:
            batch.refresh_from_db()
            counts = batch_counts(batch)
            self.stdout.write(f"{time.monotonic() - started:7.1f}s  {counts}")
            if batch.finished_at:
                break
            time.sleep(5)
