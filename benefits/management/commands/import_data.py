"""``manage.py import_data KIND FILE [--dry-run] [--valid-rows-only] [--json]``: scripted data loads.

Exit 0 when applied (or, with --dry-run, when the file has no errors), 1 when the file has errors
and nothing was applied, 2 on bad usage. With --json the last line of output is
``{"created": n, "updated": n, "unchanged": n, "errors": [{"row", "column", "message"}]}``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from benefits.imports.kinds import KINDS


class Command(BaseCommand):
    help = "Import a CSV or XLSX file of one kind: " + ", ".join(KINDS) + "."

    def add_arguments(self, parser):
        parser.add_argument("kind", help="What the file holds: " + ", ".join(KINDS) + ".")
        parser.add_argument("file", help="The CSV (UTF-8) or XLSX file.")
        parser.add_argument("--dry-run", action="store_true", help="Check and count only; change nothing.")
        parser.add_argument(
            "--valid-rows-only",
            action="store_true",
            help="Import the valid rows and leave out rows with errors.",
        )
        parser.add_argument(
            "--json", action="store_true", help="End with one line of JSON: counts and errors."
        )
        parser.add_argument(
            "--years", default="", help="A regulatory table: the year(s) it applies to (2027)."
        )
        parser.add_argument("--source", default="", help="A regulatory table: its notice or regulation.")

    def handle(self, *args, **opts):
        from benefits.imports.services import ImportRefused, import_run

        kind = opts["kind"]
        if kind not in KINDS:
            raise CommandError(f"Unknown kind {kind!r}: the kinds are {', '.join(KINDS)}.", returncode=2)
        params = None
        if getattr(KINDS[kind], "whole_file", False):
            from benefits.imports.kinds.tables import ParamsInvalid, parse_params

            try:
                params = parse_params(kind, opts["years"], opts["source"])
            except ParamsInvalid as exc:
                raise CommandError(str(exc), returncode=2) from None
        path = Path(opts["file"])
        try:
            content = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"Cannot read {path}: {exc.strerror}.", returncode=2) from None
        try:
            batch, checked = import_run(
                kind=kind,
                file_name=path.name,
                content=content,
                dry_run=opts["dry_run"],
                valid_rows_only=opts["valid_rows_only"],
                params=params,
            )
        except ImportRefused as exc:
            raise CommandError(str(exc), returncode=2) from None
        summary = checked.summary()
        applied = batch is not None and batch.status == "applied"
        failed = bool(checked.errors) and not (applied or (opts["dry_run"] and opts["valid_rows_only"]))
        if not opts["json"]:
            for e in summary["errors"]:
                where = f"row {e['row']}" if e["row"] else "file"
                self.stderr.write(f"{where}: {e['message']}")
            verb = "would be" if opts["dry_run"] else ("were" if applied else "would have been")
            self.stdout.write(
                f"{path.name}: {summary['created']} new, {summary['updated']} changed, {summary['unchanged']} "
                f"unchanged {verb} imported; {len(summary['errors'])} error(s)."
                + (f" Import {batch.pk}." if batch is not None else "")
                + (" Nothing was imported." if failed and not opts["dry_run"] else "")
            )
        else:
            self.stdout.write(json.dumps(summary))
        if failed:
            sys.exit(1)
