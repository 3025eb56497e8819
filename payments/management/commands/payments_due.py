"""List everything due on a pay date: ``python manage.py payments_due 2027-01-01 [--json]``.

The instalments due on the date are created first (idempotent: one per payment and pay date, a unique
index), so a run twice lists the same instructions. With ``--json`` the last line is
``{"pay_date": ..., "payments": [{"payment", "payee", "plan", "kind", "gross", "withholding", "net",
"method", "state"}]}``.
"""

from __future__ import annotations

import json
from datetime import date

from django.core.management.base import BaseCommand, CommandError

from payments import presenters, selectors, services


class Command(BaseCommand):
    help = "List the payments due on a pay date (gross, federal withholding, net, method)."

    def add_arguments(self, parser):
        parser.add_argument("date", help="The pay date, YYYY-MM-DD")
        parser.add_argument("--json", action="store_true", help="End with one line of JSON")

    def handle(self, *args, **options):
        try:
            pay_date = date.fromisoformat(options["date"])
        except ValueError:
            raise CommandError(f"date: {options['date']!r} is not a date written as YYYY-MM-DD.") from None
        services.instalments_make_due(pay_date)
        due = selectors.due_on(None, pay_date)
        if options["json"]:
            self.stdout.write(json.dumps(presenters.due_json(pay_date, due)))
            return
        self.stdout.write(f"Payments due on {presenters.day(pay_date)}: {len(due)}")
        for r in (presenters.due_row(i) for i in due):
            self.stdout.write(
                f"{r['payment']:>8}  {r['payee'][:30]:30}  {r['plan_key']:20}  {r['kind']:18}  "
                f"{r['gross']:>12}  {r['withholding']:>10}  {r['net']:>12}  {r['method']:16}  {r['destination']}  {r['state']}"
            )
