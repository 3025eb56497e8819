from datetime import date

from django.core.management.base import BaseCommand
from django.utils import timezone

from benefits.demo.loader import load_demo


class Command(BaseCommand):
    help = "Load the five plans, demo participants with their histories, and the demo logins (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument("--as-of", type=date.fromisoformat, default=None, help="history up to this date")

    def handle(self, *args, as_of=None, **options):
        counts = load_demo(as_of=as_of or timezone.localdate())
        self.stdout.write(
            self.style.SUCCESS(
                f"Loaded {counts['plans']} plans, {counts['participants']} participants, {counts['users']} demo logins, {counts['claims']} claims."
            )
        )
