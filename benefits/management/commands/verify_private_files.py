"""Check every stored private file against the SHA-256 recorded with it (after a restore, a move to the
object store, or any time): generated PDFs, claim uploads, signed consent forms and import files.

Exit 0 with the counts; exit 1 naming each file that is missing or whose bytes differ."""

from __future__ import annotations

import hashlib
import json

from django.apps import apps
from django.core.management.base import BaseCommand, CommandError

from benefits import private_files

# (model, file field, hash field, rows that have a file)
STORED = (
    ("benefits.GeneratedDocument", "file_name", "sha256", {"status": "done"}),
    ("elections.ClaimDocument", "file_name", "sha256", {}),
    ("elections.SpousalConsent", "upload_file", "upload_sha256", {}),
    ("benefits.ImportBatch", "stored_file", "sha256", {}),
)


def verify() -> tuple[dict[str, int], list[str]]:
    counts: dict[str, int] = {}
    problems: list[str] = []
    for label, file_field, hash_field, filters in STORED:
        model = apps.get_model(label)
        rows = (
            model.objects.filter(**filters)
            .exclude(**{file_field: ""})
            .values_list("pk", file_field, hash_field)
        )
        counts[label] = 0
        for pk, name, expected in rows.iterator(chunk_size=500):
            try:
                digest = hashlib.sha256(private_files.read_bytes(name)).hexdigest()
            except (FileNotFoundError, OSError) as exc:
                problems.append(f"{label} {pk}: {name} is missing ({type(exc).__name__})")
                continue
            if expected and digest != expected:
                problems.append(f"{label} {pk}: {name} does not match its SHA-256")
                continue
            counts[label] += 1
    return counts, problems


class Command(BaseCommand):
    help = "Check every stored private file's bytes against its recorded SHA-256."

    def add_arguments(self, parser):
        parser.add_argument("--json", action="store_true", help="end with one line of JSON")

    def handle(self, *args, **options):
        counts, problems = verify()
        for line in problems:
            self.stderr.write(line)
        if options["json"]:
            self.stdout.write(json.dumps({"verified": counts, "problems": problems}))
        else:
            self.stdout.write("Verified " + ", ".join(f"{n} {label}" for label, n in counts.items()) + ".")
        if problems:
            raise CommandError(f"{len(problems)} stored file(s) missing or changed.")
