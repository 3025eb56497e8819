"""Browser tests: Debian's Chromium driven by Playwright against pytest-django's live server.

Chromium is installed by `make test` (scripts/ensure-chromium); where it cannot be, these tests skip
with that reason. As root Chromium needs --no-sandbox; --disable-background-networking keeps it off
the closed network.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from tests.conftest import totp_now

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(
    os.environ.get("SCREENSHOT_DIR", Path(__file__).resolve().parents[2] / "var" / "screenshots")
)

# Django's async-unsafe guard trips on Playwright's event loop in the same thread.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian chromium is not installed (make test installs it with apt-get)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=live_server.url)
    page = context.new_page()
    page.set_default_timeout(15_000)
    # Chromium reports Content-Security-Policy refusals on the console: no page may trigger one.
    refused: list[str] = []
    page.on(
        "console", lambda msg: refused.append(msg.text) if "Content Security Policy" in msg.text else None
    )
    yield page
    context.close()
    assert not refused, "Content-Security-Policy refusals:\n" + "\n".join(refused)


_last_code: dict[str, str] = {}


def fresh_totp_code(secret: str) -> str:
    """A TOTP code not used before: allauth refuses a code twice, so wait for the next 30 s step if needed."""
    if 30 - time.time() % 30 < 4:  # too close to the step's end to reach the server inside it
        time.sleep(30 - time.time() % 30 + 0.2)
    code = totp_now(secret)
    while code == _last_code.get(secret):
        time.sleep(30 - time.time() % 30 + 0.5)
        code = totp_now(secret)
    _last_code[secret] = code
    return code


def login(page, email: str, password: str = "demo-pass-2026", totp_secret: str | None = None) -> None:
    """Log in through the real allauth pages (and the TOTP step for staff)."""
    page.goto("/accounts/login/")
    page.fill("input[name=login]", email)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")
    if totp_secret:
        page.wait_for_url("**/accounts/2fa/authenticate/")
        page.fill("input[name=code]", fresh_totp_code(totp_secret))
        page.click("button[type=submit]")
    page.wait_for_load_state("networkidle")


def assert_accessible(page, *, ignore: tuple[str, ...] = ()) -> None:
    """No axe-core violations of WCAG 2 A/AA on the current page."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(
        page, options={"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21aa"]}}
    )
    violations = [v for v in results.response["violations"] if v["id"] not in ignore]
    assert not violations, "\n".join(
        f"{v['id']}: {v['help']} ({len(v['nodes'])} nodes, e.g. {v['nodes'][0]['target']})"
        for v in violations
    )


def screenshot(page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
