"""Add N synthetic participants across the five plans, for scale runs (benefits/demo/population.py)."""

from __future__ import annotations

import time
from datetime import date

from django.core.management.base import BaseCommand, CommandError

from benefits.demo.population import generate_population


class Command(BaseCommand):
    help = "Create N realistic synthetic participants across the five plans (bulk inserts; not real people)."

    def add_arguments(self, parser):
        parser.add_argument("count", type=int)
        parser.add_argument(
            "--as-of", type=date.fromisoformat, default=None, help="YYYY-MM-DD (default today)"
        )
        parser.add_argument("--seed", type=int, default=2026)

    def handle(self, *args, count: int, as_of, seed: int, **options):
        if count < 1:
            raise CommandError("count: give a number of participants of at least 1.")
        from benefits.services import today

        started = time.monotonic()
        written = generate_population(count, as_of=as_of or today(), seed=seed)
        seconds = time.monotonic() - started
        rows = ", ".join(f"{v:,} {k}" for k, v in written.items())
        self.stdout.write(
            f"Created {rows} in {seconds:.1f} s ({written['participants'] / seconds:,.0f} participants/s)."
        )
