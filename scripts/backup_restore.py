#!/usr/bin/env python3
"""Backup and restore, end to end (docs/operations.md): a demo with documents is backed up, restored into
a fresh database and a fresh private-files folder (or bucket), and the restored system is checked.

1. A source database (`BACKUP_CHECK_DATABASE`_src) with the demo, its notices and annual statements
   rendered to PDF into a private-files folder (or, with BACKUP_CHECK_OBJECT_STORE=s3, a bucket of an
   S3-compatible server started on loopback: moto).
2. The backup as docs/operations.md gives it: `pg_dump --format=custom` and a tar of the folder (or a copy
   of every object into a backup bucket).
3. The restore: a new database with `pg_restore`, the files into a new folder (or bucket).
4. The checks on the restored system: `manage.py verify_private_files` (every document's bytes against its
   stored SHA-256, none missing), the same counts as the source, and every participant with a login
   signing in and downloading each of their documents through the application (bytes hashed again);
   the committee member and the administrator signing in with password and TOTP (multi-factor), each of
   their pages answering and a participant's document downloading as staff see it.

Environment: BACKUP_CHECK_PG (default postgres://postgres@127.0.0.1:5432), BACKUP_CHECK_DATABASE (default
plan_benefits_backup; `_src` and `_restored` are appended), BACKUP_CHECK_OBJECT_STORE=s3, BACKUP_CHECK_KEEP=1.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = str(ROOT / ".venv/bin/python") if (ROOT / ".venv/bin/python").exists() else sys.executable
BIN = Path(PY).parent

# Run on the restored system: each participant with a login signs in and downloads every document.
PAGES_CHECK = """
import hashlib, json
from django.test import Client
from accounts.models import User
from benefits.models import GeneratedDocument
seen = 0
for user in User.objects.filter(role="participant", participant__isnull=False, is_active=True):
    client = Client()
    client.force_login(user)
    for path in ("/", "/benefits/", "/claims/"):
        status = client.get(path, follow=True).status_code
        assert status == 200, (user.email, path, status)
    for doc in GeneratedDocument.objects.filter(participant=user.participant, status="done"):
        resp = client.get(f"/benefits/documents/{doc.pk}/")
        body = b"".join(resp.streaming_content)
        assert resp.status_code == 200 and hashlib.sha256(body).hexdigest() == doc.sha256, doc.pk
        seen += 1
print(json.dumps({"downloaded": seen}))
"""

# Run on the restored system: the committee member and the administrator sign in the real way (password,
# then a TOTP code from their restored authenticators) and each of their pages answers, with a
# participant's page and a document as staff see them. The demo's TOTP secrets are README.md's.
STAFF_CHECK = """
import base64, hashlib, hmac, json, struct, time
from django.test import Client
from django.urls import reverse
from benefits.models import GeneratedDocument, StatementBatch

def totp(secret):
    counter = int(time.time() // 30)
    digest = hmac.new(base64.b32decode(secret), struct.pack(">Q", counter), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    return f"{(struct.unpack('>I', digest[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000:06d}"

def sign_in(email, secret):
    client = Client()
    resp = client.post("/accounts/login/", {"login": email, "password": "demo-pass-2026"})
    assert resp.status_code == 302 and resp["Location"] == "/accounts/2fa/authenticate/", (email, resp)
    if 30 - time.time() % 30 < 3:  # a code from the last moments of its step could arrive in the next
        time.sleep(30 - time.time() % 30 + 0.1)
    resp = client.post("/accounts/2fa/authenticate/", {"code": totp(secret)})
    assert resp.status_code == 302 and not resp["Location"].startswith("/accounts/"), (email, resp)
    return client

doc = GeneratedDocument.objects.filter(status="done", participant__isnull=False).order_by("pk").first()
seen_as_staff = [
    reverse("benefits:participant_dashboard", args=[doc.participant_id]),
    reverse("benefits:staff_participants"),
    reverse("benefits:staff_jobs"),
    reverse("accounts:role_requests"),
]
pages = {
    "committee": (
        "committee@demo.test",
        base64.b32encode(b"demo-committee-2026!").decode(),
        [reverse("elections:committee_queue"), *seen_as_staff],
    ),
    "administrator": (
        "admin@demo.test",
        base64.b32encode(b"demo-admin-totp-2026").decode(),
        [
            *seen_as_staff,
            reverse("accounts:users"),
            reverse("benefits:admin_plans"),
            reverse("benefits:audit_log"),
            reverse("benefits:statement_batches"),
            reverse("benefits:statement_batch", args=[StatementBatch.objects.order_by("pk").first().pk]),
            reverse("benefits:delivery_mailing"),
            reverse("benefits:imports_home"),
            reverse("benefits:market_rates"),
            reverse("elections:notice_batches"),
            reverse("elections:consent_queue"),
            reverse("payments:pay_date"),
            "/django-admin/",
        ],
    ),
}
answered = {}
for role, (email, secret, paths) in pages.items():
    client = sign_in(email, secret)
    for path in paths:
        status = client.get(path).status_code
        assert status == 200, (role, path, status)
    resp = client.get(reverse("benefits:document_download", args=[doc.pk]))
    body = b"".join(resp.streaming_content)
    assert resp.status_code == 200 and hashlib.sha256(body).hexdigest() == doc.sha256, (role, doc.pk)
    answered[role] = len(paths) + 1
print(json.dumps(answered))
"""


def log(message: str) -> None:
    print(f"[backup {time.strftime('%H:%M:%S')}] {message}", flush=True)


def run(*args: str, env: dict | None = None) -> str:
    result = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True)
    if result.returncode:
        raise SystemExit(
            f"{' '.join(args[:4])} … failed ({result.returncode}):\n{result.stdout}\n{result.stderr}"
        )
    return result.stdout


def recreate(pg: str, name: str) -> str:
    run("psql", f"{pg}/postgres", "-q", "-c", f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    run("psql", f"{pg}/postgres", "-q", "-c", f'CREATE DATABASE "{name}"')
    return f"{pg}/{name}"


def app_env(database_url: str, private: Path, store: dict | None) -> dict:
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CELERY_", "PRIVATE_STORAGE_"))
    }
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.local",  # tasks in-process: no broker needed here
        DATABASE_URL=database_url,
        PRIVATE_STORAGE_ROOT=str(private),
        DJANGO_ALLOWED_HOSTS="testserver,127.0.0.1,localhost",
        DEMO_PLAN_YEAR_CLAIMS="0",
        PYTHONPATH=str(ROOT),
        **(store or {}),
    )
    return env


def manage(env: dict, *args: str) -> str:
    return run(PY, "manage.py", *args, env=env)


def main() -> int:
    pg = os.environ.get("BACKUP_CHECK_PG", "postgres://postgres@127.0.0.1:5432")
    name = os.environ.get("BACKUP_CHECK_DATABASE", "plan_benefits_backup")
    use_s3 = os.environ.get("BACKUP_CHECK_OBJECT_STORE", "") == "s3"
    work = Path(tempfile.mkdtemp(prefix="backup-check-"))
    started = time.monotonic()
    server = None
    try:
        source_store = restored_store = None
        if use_s3:
            sys.path.insert(0, str(ROOT))
            from tests.objectstore import moto_s3

            server = moto_s3("benefits-private", "benefits-backup", "benefits-restored")
            store = server.__enter__()
            source_store = store.environ
            restored_store = {**store.environ, "PRIVATE_STORAGE_S3_BUCKET": "benefits-restored"}

        # 1. A demo with documents.
        source = app_env(recreate(pg, f"{name}_src"), work / "private", source_store)
        manage(source, "migrate", "--noinput")
        manage(source, "load_demo")
        manage(source, "issue_notices", "carver-db")
        for plan in ("carver-db", "carver-401k"):
            manage(source, "statement_batch", plan, "2025", "--wait")
        before = json.loads(manage(source, "verify_private_files", "--json").splitlines()[-1])["verified"]
        if before["benefits.GeneratedDocument"] < 3:
            raise SystemExit(f"the demo rendered too few documents to check a restore: {before}")
        log(f"source: {before}")

        # 2. The backup (docs/operations.md).
        run(
            "pg_dump",
            "--format=custom",
            "--no-owner",
            "--file",
            str(work / "db.dump"),
            source["DATABASE_URL"],
        )
        if use_s3:
            client = store.client
            for key in store.object_keys():
                client.copy_object(
                    Bucket="benefits-backup", Key=key, CopySource={"Bucket": "benefits-private", "Key": key}
                )
        else:
            run("tar", "-C", str(work / "private"), "-czf", str(work / "private.tar.gz"), ".")
        log(f"backed up: db.dump {(work / 'db.dump').stat().st_size:,} bytes")

        # 3. The restore into a fresh database and storage.
        restored = app_env(recreate(pg, f"{name}_restored"), work / "restored-private", restored_store)
        run(
            "pg_restore",
            "--no-owner",
            "--exit-on-error",
            "--dbname",
            restored["DATABASE_URL"],
            str(work / "db.dump"),
        )
        if use_s3:
            for obj in client.list_objects_v2(Bucket="benefits-backup").get("Contents", []):
                client.copy_object(
                    Bucket="benefits-restored",
                    Key=obj["Key"],
                    CopySource={"Bucket": "benefits-backup", "Key": obj["Key"]},
                )
        else:
            (work / "restored-private").mkdir()
            run("tar", "-C", str(work / "restored-private"), "-xzf", str(work / "private.tar.gz"))
        log("restored into a fresh database and " + ("bucket" if use_s3 else "folder"))

        # 4. The restored system: every file against its hash, the same counts, pages and downloads.
        manage(restored, "migrate", "--check")
        after = json.loads(manage(restored, "verify_private_files", "--json").splitlines()[-1])["verified"]
        if after != before:
            raise SystemExit(f"restored files differ: {after} != {before}")
        pages = json.loads(manage(restored, "shell", "-c", PAGES_CHECK).splitlines()[-1])
        log(
            f"restored: {after}; participants downloaded {pages['downloaded']} documents, each matching its hash"
        )
        staff = json.loads(manage(restored, "shell", "-c", STAFF_CHECK).splitlines()[-1])
        log(
            f"restored: the committee member ({staff['committee']} pages) and the administrator "
            f"({staff['administrator']} pages) signed in with password and TOTP; each page answered"
        )
    finally:
        if server is not None:
            server.__exit__(None, None, None)
        if not os.environ.get("BACKUP_CHECK_KEEP"):
            shutil.rmtree(work, ignore_errors=True)
    log(f"passed in {time.monotonic() - started:.0f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
