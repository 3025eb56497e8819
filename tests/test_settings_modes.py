"""The embedded default, production's refusals, and `check --deploy` (each in a fresh process)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOOD_KEY = "k" * 20 + "-production-secret-key-for-tests-0123456789"


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(
            ("DJANGO_", "DATABASE_URL", "CELERY_", "REDIS_URL", "SSN_", "MFA_", "EMAIL_", "PRIVATE_STORAGE_")
        )
    }
    clean.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=120
    )


def test_embedded_default_logs_sqlite_and_in_process_tasks(tmp_path):
    result = run_manage("check", DJANGO_SETTINGS_MODULE="config.settings.local", APP_VAR_DIR=str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "embedded SQLite" in result.stderr and "in-process" in result.stderr


def test_configured_mode_logs_postgresql_and_workers():
    result = run_manage(
        "check",
        DJANGO_SETTINGS_MODULE="config.settings.local",
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/postgres",
        CELERY_BROKER_URL="redis://127.0.0.1:6379/14",
    )
    assert result.returncode == 0, result.stderr
    assert "PostgreSQL" in result.stderr and "Celery workers" in result.stderr


def test_production_refuses_debug():
    result = run_manage(
        "check",
        DJANGO_SETTINGS_MODULE="config.settings.production",
        DJANGO_DEBUG="true",
        DJANGO_SECRET_KEY=GOOD_KEY,
        SSN_HASH_KEY="another-key",
    )
    assert result.returncode != 0 and "DJANGO_DEBUG must be off" in result.stderr


def test_production_refuses_the_default_secret_key():
    result = run_manage(
        "check", DJANGO_SETTINGS_MODULE="config.settings.production", SSN_HASH_KEY="another-key"
    )
    assert result.returncode != 0 and "DJANGO_SECRET_KEY" in result.stderr


def test_production_refuses_a_missing_ssn_hash_key():
    result = run_manage(
        "check", DJANGO_SETTINGS_MODULE="config.settings.production", DJANGO_SECRET_KEY=GOOD_KEY
    )
    assert result.returncode != 0 and "SSN_HASH_KEY" in result.stderr


def test_production_refuses_a_missing_or_shared_mfa_encryption_key():
    """MFA secrets are encrypted with a key of their own (issue 15): never the secret or SSN key."""
    base = dict(
        DJANGO_SETTINGS_MODULE="config.settings.production",
        DJANGO_SECRET_KEY=GOOD_KEY,
        SSN_HASH_KEY="another-random-key-for-the-ssn-hash",
    )
    for key in ("", GOOD_KEY, "another-random-key-for-the-ssn-hash"):
        result = run_manage("check", **base, MFA_ENCRYPTION_KEY=key)
        assert result.returncode != 0 and "MFA_ENCRYPTION_KEY" in result.stderr, key


def test_production_check_deploy_is_clean():
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DJANGO_SETTINGS_MODULE="config.settings.production",
        DJANGO_SECRET_KEY=GOOD_KEY,
        SSN_HASH_KEY="another-random-key-for-the-ssn-hash",
        MFA_ENCRYPTION_KEY="a-third-random-key-that-encrypts-mfa-secrets",
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/postgres",
        CELERY_BROKER_URL="redis://127.0.0.1:6379/14",
        EMAIL_URL="smtp+tls://app:secret@relay.example.com:587",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_pages_carry_a_strict_content_security_policy(client, db):
    policy = client.get("/accounts/login/")["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "style-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy and "unsafe-inline" not in policy


def test_the_demo_runs_without_debug_unless_asked(tmp_path):
    """Issue 14: `make demo` serves the project's own 404/500 pages; DEBUG only with DJANGO_DEBUG=1."""
    show = "from django.conf import settings; print('DEBUG', settings.DEBUG, settings.WHITENOISE_USE_FINDERS)"
    result = run_manage(
        "shell", "-c", show, DJANGO_SETTINGS_MODULE="config.settings.local", APP_VAR_DIR=str(tmp_path)
    )
    assert "DEBUG False True" in result.stdout, result.stderr
    result = run_manage(
        "shell",
        "-c",
        show,
        DJANGO_SETTINGS_MODULE="config.settings.local",
        APP_VAR_DIR=str(tmp_path),
        DJANGO_DEBUG="1",
    )
    assert "DEBUG True True" in result.stdout, result.stderr
