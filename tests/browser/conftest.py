"""Browser tests: Debian's Chromium driven by Playwright against pytest-django's live server.

Chromium is installed by `make test` (scripts/ensure-chromium); where it cannot be, these tests skip
with that reason. As root Chromium needs --no-sandbox; --disable-background-networking keeps it off
the closed network.
"""

from __future__ import annotations

import os
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import axe_playwright_python
import pytest
from playwright.sync_api import Error as PlaywrightError

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


class TotpClock:
    """Hands out TOTP codes allauth has not seen, without waiting for the clock.

    allauth accepts a code once (its used-code marker lives in the cache, emptied before every test),
    and a code read in the last moments of its 30-second step may reach the server in the next. Where a
    fresh code needs the next step, the test's clock (time-machine; the live server runs in this process,
    so it reads the same clock) moves to it instead of the test sleeping up to 30 seconds.
    """

    def __init__(self, time_machine) -> None:
        self.time_machine = time_machine
        self.used: dict[str, str] = {}

    def next_step(self) -> None:
        ahead = 30 - time.time() % 30 + 0.5
        if self.time_machine.traveller is None:
            self.time_machine.move_to(datetime.now(UTC) + timedelta(seconds=ahead), tick=True)
        else:
            self.time_machine.shift(ahead)

    def code(self, secret: str) -> str:
        if 30 - time.time() % 30 < 4:  # too close to the step's end to reach the server inside it
            self.next_step()
        if totp_now(secret) == self.used.get(secret):
            self.next_step()
        code = self.used[secret] = totp_now(secret)
        return code


_clock: list[TotpClock] = []


@pytest.fixture(autouse=True)
def totp_clock(time_machine):
    """This test's TOTP clock (codes used by earlier tests do not count: their cache is gone)."""
    clock = TotpClock(time_machine)
    _clock[:] = [clock]
    yield clock
    _clock.clear()


def fresh_totp_code(secret: str) -> str:
    """A TOTP code allauth has not seen in this test (see TotpClock)."""
    return _clock[0].code(secret)


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


# axe-core as the axe-playwright-python package ships it. Injected once per document, and only the
# violations come back: the passes, incomplete and inapplicable results of the full report (every node
# of every rule, serialized to Python) were most of each check's time and are never read.
AXE_SCRIPT = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text(encoding="utf-8")
AXE_OPTIONS = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21aa"]},
    "resultTypes": ["violations"],
}
AXE_VIOLATIONS = """async (options) => {
  const results = await axe.run(document, options);
  return results.violations.map((v) => ({id: v.id, help: v.help, count: v.nodes.length, target: v.nodes[0].target}));
}"""


def _axe_violations(page) -> list[dict]:
    """axe-core's violations on the page that stands once any navigation under way has landed.

    A test that clicks a link and then checks the page can reach here before the new document
    commits: axe then runs on the old document and fails when it is swapped out mid-run (a null
    document, a destroyed context), or finishes on the old page and never sees the new one. Both are
    races of the check, not findings, so the run is repeated on the page that is shown once it has
    loaded, and a run is kept only if no navigation happened during it.
    """
    error: PlaywrightError | None = None
    for _attempt in range(5):
        page.wait_for_load_state("load")
        url = page.url
        try:
            if not page.evaluate("() => typeof window.axe === 'object'"):
                page.evaluate(AXE_SCRIPT)
            violations = page.evaluate(AXE_VIOLATIONS, AXE_OPTIONS)
        except PlaywrightError as exc:
            error = exc
            page.wait_for_timeout(200)
            continue
        page.wait_for_timeout(50)
        if page.url == url:
            return violations
    raise AssertionError(
        f"axe-core could not finish a run on {page.url}: {error or 'the page kept navigating'}"
    )


def assert_accessible(page, *, ignore: tuple[str, ...] = ()) -> None:
    """No axe-core violations of WCAG 2 A/AA on the current page."""
    violations = [v for v in _axe_violations(page) if v["id"] not in ignore]
    assert not violations, "\n".join(
        f"{v['id']}: {v['help']} ({v['count']} nodes, e.g. {v['target']})" for v in violations
    )


def screenshot(page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


@pytest.fixture
def sweep_data(db, settings, tmp_path):
    """The demo data set of the access matrix: pat's run, quote, PDF and claims in every state."""
    from benefits.services import today
    from tests.test_access_matrix import _build

    settings.PRIVATE_STORAGE_ROOT = tmp_path
    return _build(today())
