"""Issue the year's Forms 1099-R exactly once: ``python manage.py forms_1099r 2026 [--json] [--csv FILE]``.

With ``--json`` the last line is ``{"issued": n, "already_issued": m, "failed": [...]}``. ``--csv``
writes the payer's file of every form in force for the year (docs/payments/form-1099r.md).
"""

from __future__ import annotations

import csv
import json
from datetime import date

from django.core.management.base import BaseCommand, CommandError

from benefits import formatting
from taxes.presenters import CSV_COLUMNS, csv_row
from taxes.services import forms_issue, latest_forms, today


def write_csv(year: int, path: str) -> int:
    forms = latest_forms(year)
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=CSV_COLUMNS)
        writer.writeheader()
        for f in forms:
            writer.writerow(csv_row(f))
    return len(forms)


class Command(BaseCommand):
    help = (
        "Issue every Form 1099-R for a calendar year exactly once (recipient copies on the documents page)."
    )

    def add_arguments(self, parser):
        parser.add_argument("year", type=int)
        parser.add_argument("--json", action="store_true", help="end with one JSON line of counts")
        parser.add_argument("--csv", metavar="FILE", help="also write the payer's file of the year's forms")

    def handle(self, *args, year: int, json: bool = False, csv: str | None = None, **options):
        if not 2000 <= year <= today().year:
            raise CommandError(
                f"year: a calendar year from 2000 to {today().year} (payments must have been made)."
            )
        report = forms_issue(year)
        for line in report.corrected:
            self.stdout.write(f"corrected: {line}")
        for f in report.failed:
            self.stdout.write(f"failed: {f['payee']} code {f['code']}: {f['reason']}")
        # Recipient copies by January 31 (General Instructions for Certain Information Returns, 2026, Part H).
        deadline = date(year + 1, 1, 31)
        if today() > deadline and report.issued:
            self.stdout.write(f"note: recipient copies were due by {formatting.date_words(deadline)}.")
        if csv:
            n = write_csv(year, csv)
            self.stdout.write(f"payer file: {n} forms written to {csv}")
        if json:
            self.stdout.write(_json(report.as_json()))
        else:
            self.stdout.write(
                f"issued {report.issued}, already issued {report.already_issued}, failed {len(report.failed)}"
            )


def _json(data: dict) -> str:
    return json.dumps(data, sort_keys=False)
