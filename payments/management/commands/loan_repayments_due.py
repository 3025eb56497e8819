"""Post the loan repayments payroll collected: ``python manage.py loan_repayments_due 2027-01-31 [--json]``.

Run after each payroll. Every scheduled repayment due on or before the date, of a loan that was made
(its disbursement confirmed paid), is posted once for borrowers on the payroll on its due date
(payments/loans.py says how it is credited); repayments of borrowers off the payroll are listed as
awaiting a cash repayment. Running it again posts nothing new. With ``--json`` the last line is
``{"date", "posted", "principal", "interest", "memberships_updated", "awaiting_cash": [...]}``.
"""

from __future__ import annotations

import json
from datetime import date

from django.core.management.base import BaseCommand, CommandError

from payments.loans import loan_repayments_post


class Command(BaseCommand):
    help = "Post the loan repayments collected by payroll up to a date."

    def add_arguments(self, parser):
        parser.add_argument("date", help="The payroll date, YYYY-MM-DD")
        parser.add_argument("--json", action="store_true", help="End with one line of JSON")

    def handle(self, *args, **options):
        try:
            on = date.fromisoformat(options["date"])
        except ValueError:
            raise CommandError(f"date: {options['date']!r} is not a date written as YYYY-MM-DD.") from None
        run = loan_repayments_post(on=on)
        if options["json"]:
            self.stdout.write(json.dumps(run.as_dict()))
            return
        self.stdout.write(
            f"Loan repayments posted up to {on.isoformat()}: {run.posted} "
            f"({run.principal:.2f} principal, {run.interest:.2f} interest)"
        )
        for a in run.awaiting:
            self.stdout.write(f"  awaiting cash repayment: loan {a['loan']} due {a['due']} {a['amount']}")
