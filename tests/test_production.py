"""Production as the README runs it: collectstatic with the vendored assets, the PDF fetcher through the
configured static storage (hashed manifest names), the proxy/TLS switches, and the broker's timeouts."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.template import Context, Template
from django.test import override_settings

from tests.test_settings_modes import GOOD_KEY, run_manage

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}


def test_every_source_map_a_vendored_file_names_is_vendored():
    """collectstatic with the manifest storage refuses a reference to a missing file (it stopped on
    uswds.min.css.map and two .js maps); the references were stripped (static/vendor/uswds/README.md)."""
    for path in (ROOT / "static").rglob("*"):
        if path.suffix not in (".css", ".js"):
            continue
        for name in re.findall(r"sourceMappingURL=(\S+?)(?:\s|\*/|$)", path.read_text(errors="replace")):
            assert (path.parent / name).exists(), f"{path.relative_to(ROOT)} names the missing {name}"


@pytest.fixture(scope="module")
def collected(tmp_path_factory):
    """Static files collected once with production's hashed, compressed manifest storage."""
    root = tmp_path_factory.mktemp("static")
    with override_settings(STORAGES=MANIFEST, STATIC_ROOT=root):
        call_command("collectstatic", "--noinput", verbosity=0)
        yield root


def test_collectstatic_hashes_the_vendored_assets(collected):
    assert list((collected / "vendor/uswds/css").glob("uswds.min.*.css"))
    assert list((collected / "css").glob("pdf.*.css"))


def test_the_fetcher_serves_a_hashed_manifest_name_from_the_storage(collected):
    from benefits.pdf_static import _from_storage, static_name, static_source

    with override_settings(STORAGES=MANIFEST, STATIC_ROOT=collected):
        url = Template("{% load static %}{% static 'css/pdf.css' %}").render(Context())
        assert re.fullmatch(r"/static/css/pdf\.[0-9a-f]{12}\.css", url), url
        name = static_name("file://" + url)
        body, mime = static_source(name)
        assert _from_storage(name) == body  # from the collected, hashed copy, not the source fallback
    assert body == (ROOT / "static/css/pdf.css").read_bytes() and mime == "text/css"


def test_a_pdf_renders_with_the_hashed_stylesheet(collected):
    """The failure of the issue: 'Refused to fetch file:///static/css/pdf.<hash>.css'."""
    from benefits.services.documents import render_pdf_bytes

    with override_settings(STORAGES=MANIFEST, STATIC_ROOT=collected):
        pdf = render_pdf_bytes("pdf/quote.html", {"payload": {"rows": [], "forms": []}, "document": None})
    assert pdf.startswith(b"%PDF")


def test_the_fetcher_finds_source_files_when_nothing_is_collected():
    from benefits.pdf_static import static_source

    body, _ = static_source("css/pdf.css")
    assert body == (ROOT / "static/css/pdf.css").read_bytes()
    # A hashed name whose collected copy is absent falls back to the source file of its plain name.
    assert static_source("css/pdf.0123456789ab.css")[0] == body


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "file:///static/../etc/passwd",
        "file:///static/../../config/settings/base.py",
        "/static/%2e%2e/manage.py",
        "https://example.com/static/css/pdf.css",
        "http://169.254.169.254/latest/meta-data/",
        "file:///static/",
    ],
)
def test_the_fetcher_refuses_everything_else(url):
    from weasyprint.urls import FatalURLFetchingError

    from benefits.pdf_static import static_fetcher

    with pytest.raises(FatalURLFetchingError):
        static_fetcher().fetch(url)


def test_the_fetcher_refuses_a_static_name_that_does_not_exist():
    from weasyprint.urls import FatalURLFetchingError

    from benefits.pdf_static import static_fetcher

    with pytest.raises(FatalURLFetchingError):
        static_fetcher().fetch("file:///static/css/nothing-here.css")


def test_the_visibility_timeout_exceeds_every_time_limit():
    """Redis redelivers an unacknowledged message after the visibility timeout: a shorter timeout than a
    job's time limit would run a job twice at once."""
    from benefits.jobs.base import job_tasks

    timeout = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    limits = [task.time_limit for task in job_tasks().values()] + [settings.CELERY_TASK_TIME_LIMIT]
    assert timeout > max(limits)
    for task in job_tasks().values():  # Celery refuses to send a task whose soft limit exceeds its hard one
        assert task.soft_time_limit < task.time_limit, task.name
    assert settings.CELERY_TASK_ACKS_LATE and settings.CELERY_TASK_REJECT_ON_WORKER_LOST


def test_the_beat_schedule_sweeps_jobs():
    assert any(e["task"] == "jobs.sweep" for e in settings.CELERY_BEAT_SCHEDULE.values())


def _production(*code: str, **env: str):
    script = "import django; django.setup(); from django.conf import settings as s; " + "; ".join(code)
    settings_env = {
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "DJANGO_SECRET_KEY": GOOD_KEY,
        "SSN_HASH_KEY": "another-key",
        "MFA_ENCRYPTION_KEY": "a-third-random-key-that-encrypts-mfa-secrets",
        "EMAIL_URL": "smtp+tls://app:secret@relay.example.com:587",
    }
    return run_manage("shell", "-c", script, **{**settings_env, **env})


def test_behind_tls_the_proxy_header_is_trusted_and_http_redirects():
    result = _production("print(s.SECURE_PROXY_SSL_HEADER, s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE)")
    assert result.returncode == 0, result.stderr
    assert "('HTTP_X_FORWARDED_PROTO', 'https') True True" in result.stdout


def test_a_plain_http_loopback_run_turns_the_redirect_off_only():
    result = _production(
        "print(s.SECURE_PROXY_SSL_HEADER, s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE)",
        DJANGO_SECURE_SSL_REDIRECT="false",
    )
    assert result.returncode == 0, result.stderr
    assert "('HTTP_X_FORWARDED_PROTO', 'https') False True" in result.stdout


def test_without_a_proxy_the_header_is_not_trusted():
    result = _production("print(s.SECURE_PROXY_SSL_HEADER)", DJANGO_SECURE_PROXY_SSL_HEADER="")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("None")
