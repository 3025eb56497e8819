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
        parser.add_argument(
            "--in-pay",
            type=float,
            default=0.0,
            metavar="FRACTION",
            help="Put this fraction (0 to 1) of the generated leavers in pay: payment records with six "
            "months of confirmed payments (payments/population.py)",
        )

    def handle(self, *args, count: int, as_of, seed: int, in_pay: float = 0.0, **options):
        if count < 1:
            raise CommandError("count: give a number of participants of at least 1.")
        if not 0 <= in_pay <= 1:
            raise CommandError("--in-pay: give a fraction from 0 to 1, like 0.3.")
        from benefits.services import today

        started = time.monotonic()
        written = generate_population(count, as_of=as_of or today(), seed=seed)
        if in_pay:
            from benefits.demo.population import PREFIX
            from payments.population import put_in_pay

            written.update(put_in_pay(fraction=in_pay, as_of=as_of or today(), prefix=PREFIX, seed=seed))
        seconds = time.monotonic() - started
        rows = ", ".join(f"{v:,} {k}" for k, v in written.items())
        self.stdout.write(
            f"Created {rows} in {seconds:.1f} s ({written['participants'] / seconds:,.0f} participants/s)."
        )
