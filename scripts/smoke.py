#!/usr/bin/env python3
"""Production smoke test (`make smoke`): the app as the README runs it, used the way people use it.

Creates its own PostgreSQL database, runs `config.settings.production` with migrate, collectstatic and
load_demo, starts gunicorn on loopback, a Celery worker per queue and beat, signs in as each demo role
through the real login (password, then the TOTP code for staff), renders a statement, a quote and a
claim notice on the workers, checks each is a valid PDF, and stops everything it started.

Plain http on loopback: DJANGO_SECURE_SSL_REDIRECT=false, and the client sends X-Forwarded-Proto: https
as a TLS-terminating proxy would (so secure cookies, HSTS and CSRF origin checks are the real ones).

Environment (all optional): SMOKE_DATABASE (default plan_benefits_smoke), SMOKE_PG (default
postgres://postgres@127.0.0.1:5432), SMOKE_REDIS_URL (default redis://127.0.0.1:6379/3, flushed),
SMOKE_PORT (default 8765), SMOKE_KEEP=1 keeps the work directory with the logs. SMOKE_OBJECT_STORE=s3
keeps the private files in an S3-compatible object store (moto's server, started on loopback) instead of
the folder, and checks that every rendered PDF is an object there and none is on the local disk.
"""

from __future__ import annotations

import base64
import contextlib
import http.cookiejar
import io
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from totp import totp  # noqa: E402

PY = (
    str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv" / "bin" / "python").exists() else sys.executable
)
BIN = Path(PY).parent
PASSWORD = "demo-pass-2026"  # the demo logins of README.md
COMMITTEE_TOTP = base64.b32encode(b"demo-committee-2026!").decode()
ADMIN_TOTP = base64.b32encode(b"demo-admin-totp-2026").decode()
DEADLINE = 120  # seconds to wait for any one PDF


def log(message: str) -> None:
    print(f"[smoke {time.strftime('%H:%M:%S')}] {message}", flush=True)


class Fail(Exception):
    pass


# --- Processes ---------------------------------------------------------------------------------------


class Stack:
    """The processes this run started; each in its own process group, stopped in reverse order."""

    def __init__(self, env: dict, logs: Path):
        self.env, self.logs, self.procs = env, logs, []

    def start(self, name: str, *args: str) -> subprocess.Popen:
        out = open(self.logs / f"{name}.log", "wb")  # noqa: SIM115 - closed with the process
        proc = subprocess.Popen(
            args, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
        self.procs.append((name, proc, out))
        log(f"started {name} (pid {proc.pid})")
        return proc

    def stop(self) -> None:
        for name, proc, out in reversed(self.procs):
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGTERM)
                    proc.wait(timeout=15)
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait(timeout=5)
            out.close()
            log(f"stopped {name}")
        self.procs.clear()

    def check_alive(self) -> None:
        for name, proc, _ in self.procs:
            if proc.poll() is not None:
                raise Fail(f"{name} exited with {proc.returncode}; see {self.logs / (name + '.log')}")


def manage(env: dict, *args: str) -> None:
    result = subprocess.run([PY, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True)
    if result.returncode:
        raise Fail(f"manage.py {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}")


# --- A browser-like client -----------------------------------------------------------------------------


class _SecureOverLoopback(http.cookiejar.DefaultCookiePolicy):
    """The proxy in front would speak https: send the secure cookies to the loopback server."""

    def return_ok_secure(self, cookie, request):
        return True


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Client:
    def __init__(self, base: str):
        self.base = base
        self.jar = http.cookiejar.CookieJar(policy=_SecureOverLoopback())
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect())
        self.origin = "https://" + urllib.parse.urlsplit(base).netloc

    def request(self, path: str, data: dict | None = None, *, follow: bool = True):
        url = urllib.parse.urljoin(self.base, path)
        for _ in range(10):
            body = urllib.parse.urlencode(data, doseq=True).encode() if data is not None else None
            req = urllib.request.Request(url, data=body, method="POST" if body is not None else "GET")
            req.add_header("X-Forwarded-Proto", "https")
            if body is not None:
                req.add_header("Origin", self.origin)
                req.add_header("Referer", self.origin + urllib.parse.urlsplit(url).path)
            try:
                response = self.opener.open(req, timeout=30)
                status, headers, content = response.status, response.headers, response.read()
            except urllib.error.HTTPError as exc:
                status, headers, content = exc.code, exc.headers, exc.read()
            if status in (301, 302, 303) and follow:
                location = headers["Location"]
                if location.startswith("https://"):
                    location = location.replace(self.origin, self.base.rstrip("/"), 1)
                url, data = urllib.parse.urljoin(url, location), None
                continue
            return status, urllib.parse.urlsplit(url).path, headers, content
        raise Fail(f"too many redirects from {path}")

    def page(self, path: str, data: dict | None = None) -> tuple[str, str]:
        status, where, _, content = self.request(path, data)
        if status != 200:
            raise Fail(f"{'POST' if data is not None else 'GET'} {path} answered {status} (at {where})")
        return where, content.decode()

    def csrf(self, html: str) -> str:
        match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
        if not match:
            raise Fail("no CSRF token on the page")
        return match[1]

    def hidden(self, html: str, action: str | None) -> dict:
        """The CSRF token and the one-time submission token of the form posting to ``action``."""
        form = html
        if action:
            match = re.search(r'<form[^>]*action="' + re.escape(action) + r'"[^>]*>(.*?)</form>', html, re.S)
            form = match[1] if match else html
        fields = {"csrfmiddlewaretoken": self.csrf(form if "csrfmiddlewaretoken" in form else html)}
        token = re.search(r'name="submission_token" value="([^"]+)"', form) or re.search(
            r'value="([^"]+)" name="submission_token"', form
        )
        if token:
            fields["submission_token"] = token[1]
        return fields

    def post_form(self, path: str, fields: dict) -> tuple[str, str]:
        _, html = self.page(path)
        return self.page(path, {**self.hidden(html, None), **fields})

    def post_from(self, page_html: str, action: str, fields: dict | None = None) -> tuple[str, str]:
        return self.page(action, {**self.hidden(page_html, action), **(fields or {})})


_last_step: dict[str, int] = {}


def fresh_totp(secret: str) -> str:
    """A TOTP code not used before (allauth refuses a code twice): wait for the next 30 s step when this
    secret's code was already used in this one, or when too little of the step is left to reach the
    server inside it."""
    while True:
        now = time.time()
        step = int(now // 30)
        if step != _last_step.get(secret) and 30 - now % 30 >= 3:
            _last_step[secret] = step
            return totp(secret)
        time.sleep(30 - now % 30 + 0.2)


def login(client: Client, email: str, totp_secret: str | None) -> str:
    where, html = client.post_form("/accounts/login/", {"login": email, "password": PASSWORD})
    if totp_secret:
        if "2fa/authenticate" not in where:
            raise Fail(f"{email}: the login did not ask for the TOTP code (at {where})")
        where, html = client.page(
            where, {"csrfmiddlewaretoken": client.csrf(html), "code": fresh_totp(totp_secret)}
        )
    if where.startswith("/accounts/"):
        raise Fail(f"{email}: still on {where} after signing in")
    log(f"signed in as {email} → {where}")
    return html


def wait_for_pdf(client: Client, page: str, link: re.Pattern, what: str) -> bytes:
    """Reload ``page`` until the worker has rendered the PDF, then download and check it."""
    from pypdf import PdfReader

    end = time.monotonic() + DEADLINE
    while time.monotonic() < end:
        _, html = client.page(page)
        found = link.search(html)
        if found:
            status, _, headers, content = client.request(found[0])
            if status != 200 or not content.startswith(b"%PDF-"):
                raise Fail(f"{what}: {found[0]} answered {status} {headers.get('Content-Type')}")
            reader = PdfReader(io.BytesIO(content))
            text = " ".join(p.extract_text() or "" for p in reader.pages)
            if not reader.pages or len(text) < 100:
                raise Fail(f"{what}: the PDF has no text")
            log(f"{what}: valid PDF, {len(reader.pages)} page(s), {len(content):,} bytes")
            return content
        if "could not be prepared" in html:
            raise Fail(f"{what}: the document failed ({page})")
        time.sleep(1)
    raise Fail(f"{what}: no PDF on {page} after {DEADLINE}s")


def first_of_month_after(day: date, days: int) -> date:
    d = day + timedelta(days=days)
    return date(d.year + (d.month == 12), d.month % 12 + 1, 1)


# --- The run -----------------------------------------------------------------------------------------------


def prepare_database(pg: str, name: str) -> str:
    import psycopg

    with psycopg.connect(f"{pg}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"{pg}/{name}"


def flush_redis(url: str) -> None:
    import redis

    redis.Redis.from_url(url).flushdb()


def smoke_environment(work: Path, database_url: str, redis_url: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CELERY_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.production",
        DATABASE_URL=database_url,
        CELERY_BROKER_URL=redis_url,
        REDIS_URL=redis_url,
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        SSN_HASH_KEY=secrets.token_urlsafe(32),
        MFA_ENCRYPTION_KEY=secrets.token_urlsafe(32),
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_SECURE_SSL_REDIRECT="false",
        DJANGO_STATIC_ROOT=str(work / "static"),
        APP_VAR_DIR=str(work / "var"),
        PRIVATE_STORAGE_ROOT=str(work / "private"),
        DJANGO_EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
        JOBS_SWEEP_SECONDS="10",
        PYTHONUNBUFFERED="1",
        # This checkout's code, whatever checkout the virtualenv's editable install points at (the
        # celery and gunicorn scripts do not put the working directory on sys.path for good).
        PYTHONPATH=os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p),
    )
    return env


def start_object_store(stack: Stack, env: dict) -> None:
    """An S3-compatible server on loopback (moto) with one bucket; the stack's processes use it."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    stack.start("object-store", str(BIN / "moto_server"), "-H", "127.0.0.1", "-p", str(port))
    env.update(
        PRIVATE_STORAGE_S3_BUCKET="plan-benefits-smoke",
        PRIVATE_STORAGE_S3_ENDPOINT_URL=f"http://127.0.0.1:{port}",
        PRIVATE_STORAGE_S3_REGION="us-east-1",
        PRIVATE_STORAGE_S3_ACCESS_KEY_ID="smoke-key",
        PRIVATE_STORAGE_S3_SECRET_ACCESS_KEY="smoke-secret",
    )
    end = time.monotonic() + 30
    while True:
        try:
            object_store_client(env).create_bucket(Bucket=env["PRIVATE_STORAGE_S3_BUCKET"])
            return
        except Exception as exc:  # noqa: BLE001 - the server is still starting
            if time.monotonic() > end:
                raise Fail(f"the object store did not start: {exc}") from exc
            time.sleep(0.3)


def object_store_client(env: dict):
    import boto3

    return boto3.client(
        "s3",
        endpoint_url=env["PRIVATE_STORAGE_S3_ENDPOINT_URL"],
        region_name=env["PRIVATE_STORAGE_S3_REGION"],
        aws_access_key_id=env["PRIVATE_STORAGE_S3_ACCESS_KEY_ID"],
        aws_secret_access_key=env["PRIVATE_STORAGE_S3_SECRET_ACCESS_KEY"],
    )


def check_object_store(env: dict, work: Path) -> None:
    """The rendered PDFs are encrypted objects in the bucket, and no machine's disk holds one."""
    client = object_store_client(env)
    bucket = env["PRIVATE_STORAGE_S3_BUCKET"]
    keys = [o["Key"] for o in client.list_objects_v2(Bucket=bucket).get("Contents", [])]
    pdfs = [k for k in keys if k.endswith(".pdf")]
    if len(pdfs) < 3:
        raise Fail(f"the object store holds {len(pdfs)} PDFs, expected the statement, quote and notice")
    for key in pdfs:
        if client.head_object(Bucket=bucket, Key=key).get("ServerSideEncryption") != "AES256":
            raise Fail(f"{key} is not encrypted at rest")
    local = list((work / "private").rglob("*.pdf")) if (work / "private").exists() else []
    if local:
        raise Fail(f"PDFs written to the local disk instead of the object store: {local[:3]}")
    log(f"object store: {len(pdfs)} PDFs, each encrypted at rest; none on the local disk")


def start_stack(stack: Stack, port: int, work: Path) -> None:
    stack.start(
        "gunicorn",
        str(BIN / "gunicorn"),
        "config.wsgi:application",
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        "2",
        "--timeout",
        "60",
    )
    stack.start(
        "worker-default",
        str(BIN / "celery"),
        "-A",
        "config",
        "worker",
        "-Q",
        "default",
        "-c",
        "1",
        "-n",
        "default@%h",
        "--without-gossip",
        "--without-mingle",
    )
    stack.start(
        "worker-pdf",
        str(BIN / "celery"),
        "-A",
        "config",
        "worker",
        "-Q",
        "pdf",
        "-c",
        "1",
        "-n",
        "pdf@%h",
        "--max-tasks-per-child",
        "50",
        "--without-gossip",
        "--without-mingle",
    )
    stack.start(
        "worker-sweep",
        str(BIN / "celery"),
        "-A",
        "config",
        "worker",
        "-Q",
        "sweep",
        "-c",
        "1",
        "-n",
        "sweep@%h",
        "--without-gossip",
        "--without-mingle",
    )
    stack.start("beat", str(BIN / "celery"), "-A", "config", "beat", "-s", str(work / "beat-schedule"))


def wait_until_up(client: Client, stack: Stack) -> None:
    end = time.monotonic() + 60
    while time.monotonic() < end:
        stack.check_alive()
        try:
            status, *_ = client.request("/accounts/login/")
            if status == 200:
                return
        except (urllib.error.URLError, ConnectionError):
            pass
        time.sleep(0.5)
    raise Fail("gunicorn did not answer within 60 s")


def run_checks(base: str) -> None:
    today = date.today()
    pat = Client(base)
    html = login(pat, "pat@demo.test", None)
    _, html = pat.page("/benefits/")
    pid = re.search(r"/benefits/participants/(\d+)/plans/", html)
    if not pid:
        raise Fail("pat's dashboard lists no plan")
    pid = pid[1]
    documents = re.compile(r"/benefits/documents/\d+/")

    # 1. A statement PDF.
    statement = f"/benefits/participants/{pid}/plans/carver-db/statement/"
    _, html = pat.page(statement)
    pat.post_from(html, statement + "pdf/")
    wait_for_pdf(pat, statement, documents, "statement")

    # 2. A modeler run on the default worker, saved as a quote, printed on the pdf worker.
    modeler = f"/benefits/participants/{pid}/plans/carver-db/modeler/"
    start = first_of_month_after(today, 60)
    where, html = pat.post_form(modeler, {"mode": "dates", "dates": start.isoformat()})
    end = time.monotonic() + DEADLINE
    while "quote_save" not in html and "/save/" not in html:
        if time.monotonic() > end or "could not be calculated" in html:
            raise Fail(f"the modeler run at {where} did not finish")
        time.sleep(1)
        where, html = pat.page(where)
    log(f"modeler run finished at {where}")
    where, html = pat.post_from(html, where.rstrip("/") + "/save/")
    pat.post_from(html, where.rstrip("/") + "/pdf/")
    wait_for_pdf(pat, where, documents, "quote")

    # 3. A claim filed by pat, denied by the committee (with TOTP): the denial notice PDF. Pat's Carver
    # DB benefit is already claimed in the demo (a benefit starts once), so it is a 401(k) withdrawal.
    _, html = pat.page("/claims/")
    new = re.search(r"/claims/new/(\d+)/withdrawal_59half/", html)
    if not new:
        raise Fail("pat's claims page offers no age 59½ withdrawal")
    claim_page, _ = pat.post_form(
        new[0],
        {
            "amount": "1000.00",
            "payment_date": (today + timedelta(days=30)).isoformat(),
            "payment_method": "direct_payment",
            "w4r_rate": "20",
            "statement": "I would like part of my account.",
        },
    )
    if not re.fullmatch(r"/claims/\d+/", claim_page):
        raise Fail(f"filing the claim ended on {claim_page}")
    committee = Client(base)
    login(committee, "committee@demo.test", COMMITTEE_TOTP)
    _, html = committee.page(claim_page)
    _, html = committee.post_from(html, claim_page + "start-review/")
    committee.post_from(
        html,
        claim_page + "decide/",
        {
            "outcome": "denied",
            "reasons": "The requested date is before the earliest retirement date.",
            "provisions": "Section 4.3",
            "perfecting_material": "None: the date itself is the reason.",
        },
    )
    wait_for_pdf(pat, claim_page, re.compile(re.escape(claim_page) + r"notices/\d+/"), "claim notice")

    # 4. The administrator signs in with TOTP and sees the background work page.
    admin = Client(base)
    login(admin, "admin@demo.test", ADMIN_TOTP)
    _, html = admin.page("/benefits/staff/jobs/")
    if "Nothing needs attention" not in html:
        raise Fail("the background work page lists jobs that need attention")
    log("administrator: no background work needs attention")


# --- A real browser on the plain-http loopback recipe ---------------------------------------------------

CHROMIUM = "/usr/bin/chromium"
# README, "TLS": a plain-http run on loopback with no proxy in front, so no request header can make plain
# http look like https (the browser's http Origin then matches what the server sees).
LOOPBACK_RECIPE = {"DJANGO_SECURE_SSL_REDIRECT": "false", "DJANGO_SECURE_PROXY_SSL_HEADER": ""}


def browser_login(base: str, email: str, totp_secret: str | None, headers: dict | None = None) -> str:
    """Sign in with Chromium as a person would; returns the path it ends on, or the CSRF failure."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        try:
            page = browser.new_page(extra_http_headers=headers or {})
            page.goto(base + "accounts/login/")
            page.fill("input[name=login]", email)
            page.fill("input[name=password]", PASSWORD)
            page.press("input[name=password]", "Enter")
            page.wait_for_load_state()
            if totp_secret and "2fa/authenticate" in page.url:
                page.fill("input[name=code]", fresh_totp(totp_secret))
                page.press("input[name=code]", "Enter")
                page.wait_for_load_state()
            if "CSRF verification failed" in page.content():
                return "CSRF verification failed"
            return urllib.parse.urlsplit(page.url).path
        finally:
            browser.close()


def browser_checks(stack: Stack, env: dict, port: int, production_base: str) -> None:
    """The README's plain-http loopback recipe in Chromium: a participant signs in, and an administrator
    passes the TOTP step (POSTs with the browser's own http Origin and its Secure cookies on loopback)."""
    if not Path(CHROMIUM).exists():
        log("browser check skipped: no Chromium at /usr/bin/chromium")
        return
    # What the issue met: a browser made to send X-Forwarded-Proto: https over plain http (as the old
    # recipe asked of "the client") is judged https, and its http Origin fails the CSRF check.
    before = browser_login(production_base, "pat@demo.test", None, {"X-Forwarded-Proto": "https"})
    log(f"Chromium sending X-Forwarded-Proto over plain http to a proxy-trusting server: {before}")
    stack.env = {**env, **LOOPBACK_RECIPE}
    stack.start(
        "gunicorn-loopback", str(BIN / "gunicorn"), "config.wsgi:application", "--bind", f"127.0.0.1:{port}"
    )
    stack.env = env
    base = f"http://127.0.0.1:{port}/"
    wait_until_up(Client(base), stack)
    for email, secret in (("pat@demo.test", None), ("admin@demo.test", ADMIN_TOTP)):
        where = browser_login(base, email, secret)
        if where.startswith("/accounts/") or "CSRF" in where:
            raise Fail(f"Chromium on the loopback recipe: {email} ended on {where}")
        log(f"Chromium on the loopback recipe: {email} signed in → {where}")


def main() -> int:
    pg = os.environ.get("SMOKE_PG", "postgres://postgres@127.0.0.1:5432")
    name = os.environ.get("SMOKE_DATABASE", "plan_benefits_smoke")
    redis_url = os.environ.get("SMOKE_REDIS_URL", "redis://127.0.0.1:6379/3")
    port = int(os.environ.get("SMOKE_PORT", "8765"))
    work = Path(tempfile.mkdtemp(prefix="smoke-"))
    (work / "logs").mkdir()
    started = time.monotonic()
    env = smoke_environment(work, prepare_database(pg, name), redis_url)
    flush_redis(redis_url)
    stack = Stack(env, work / "logs")

    def on_signal(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_signal)
    ok = False
    try:
        log(f"database {name}, redis {redis_url}, port {port}, work {work}")
        # The deploy checks with the production mailer (the run itself keeps mail in memory).
        deploy_env = {k: v for k, v in env.items() if k != "DJANGO_EMAIL_BACKEND"}
        manage({**deploy_env, "EMAIL_URL": "smtp+tls://smoke:secret@127.0.0.1:587"}, "check", "--deploy")
        manage(env, "migrate", "--noinput")
        manage(env, "collectstatic", "--noinput")
        manage(env, "load_demo")
        log("migrated, static files collected, demo loaded")
        object_store = os.environ.get("SMOKE_OBJECT_STORE", "") == "s3"
        if object_store:
            start_object_store(stack, env)
        start_stack(stack, port, work)
        base = f"http://127.0.0.1:{port}/"
        wait_until_up(Client(base), stack)
        run_checks(base)
        browser_checks(stack, env, port + 1, base)
        if object_store:
            check_object_store(env, work)
        stack.check_alive()
        ok = True
    except Fail as exc:
        log(f"FAILED: {exc}")
    except KeyboardInterrupt:
        log("interrupted")
    finally:
        stack.stop()
        if not ok:
            for path in sorted((work / "logs").glob("*.log")):
                print(f"--- {path.name} (last lines)")
                print("\n".join(path.read_text(errors="replace").splitlines()[-30:]))
        if ok and not os.environ.get("SMOKE_KEEP"):
            shutil.rmtree(work, ignore_errors=True)
    log(f"{'passed' if ok else 'FAILED'} in {time.monotonic() - started:.0f}s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
