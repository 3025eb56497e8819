"""``manage.py check_files [--delete-orphans] [--older-than MINUTES] [--json]``: files under
PRIVATE_STORAGE_ROOT that no row names, and rows whose file is missing (benefits/stored_files.py).
Exit 0 when files and rows agree, 1 otherwise (files deleted by --delete-orphans no longer count)."""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "List files without rows and rows without files; optionally delete old files without rows."

    def add_arguments(self, parser):
        parser.add_argument("--delete-orphans", action="store_true", help="delete files no row names")
        parser.add_argument(
            "--older-than",
            type=int,
            default=60,
            help="with --delete-orphans: only files older than this many minutes (default 60), so a file "
            "of a transaction still in progress is kept",
        )
        parser.add_argument("--json", action="store_true", help="end with one line of JSON")

    def handle(self, *args, **opts):
        from benefits.stored_files import files_check

        found = files_check(delete_older_than=opts["older_than"] * 60 if opts["delete_orphans"] else None)
        left = [f for f in found["files_without_rows"] if f not in found["deleted"]]
        if opts["json"]:
            self.stdout.write(json.dumps(found))
        else:
            for name in found["files_without_rows"]:
                verb = "deleted" if name in found["deleted"] else "no row names it"
                self.stdout.write(f"file without row ({verb}): {name}")
            for line in found["rows_without_files"]:
                self.stdout.write(f"row without file: {line}")
            self.stdout.write(
                f"{len(found['files_without_rows'])} file(s) without rows ({len(found['deleted'])} deleted), "
                f"{len(found['rows_without_files'])} row(s) without files."
            )
        if left or found["rows_without_files"]:
            sys.exit(1)
