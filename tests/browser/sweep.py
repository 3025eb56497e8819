"""The accessibility sweep's machinery: every page a role can reach passes axe-core (WCAG 2.1 AA) at
1280 px and at 375 px, and at 375 px nothing makes the page scroll sideways except inside an element meant
to scroll (a table wrapper).

One test per role logs in through the real pages and walks its pages; every failure of every page is
collected and reported together, so one run shows all that is left to fix. The tests are one file per
role (test_sweep_*.py), so the parallel run can spread them over its workers.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.urls import reverse

from accounts.models import User
from tests.browser.conftest import assert_accessible, fresh_totp_code, screenshot

WIDTHS = (1280, 375)
PHONE = 375

# Elements that stick out of the viewport although they are not in a scrolling container. Screen-reader
# text and the skip link are positioned off screen on purpose; everything else is a finding.
OVERFLOW_JS = """
() => {
  const vw = document.documentElement.clientWidth;
  const inScroller = (el) => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      if (['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(p).overflowX)) return true;
    }
    return false;
  };
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (typeof el.className === 'string' && el.className.trim() ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
  // Off to the right only: USWDS hides radio and checkbox inputs far to the left on purpose.
  const sticksOut = (r) => r.width > 1 && r.height > 1 && r.right > vw + 1 && r.left < vw;
  const found = [];
  for (const el of document.body.querySelectorAll('*')) {
    const s = getComputedStyle(el);
    if (s.visibility === 'hidden' || el.closest('.usa-sr-only, .usa-skipnav')) continue;
    if (sticksOut(el.getBoundingClientRect()) && !inScroller(el)) found.push(name(el));
  }
  // Text that does not wrap runs past its box without making the box wider.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim() || !node.parentElement || node.parentElement.closest('.usa-sr-only')) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    if (sticksOut(range.getBoundingClientRect()) && !inScroller(node.parentElement)) {
      found.push('text "' + node.textContent.trim().slice(0, 40) + '" in ' + name(node.parentElement));
    }
  }
  return [...new Set(found)].slice(0, 5);
}
"""


# Pages that fail now, each with the reason, left to whoever owns them. Strict: once a page passes, the
# test says so, and the entry must go.
KNOWN_GAPS: dict[str, str] = {}


class Sweep:
    """Collects every problem of every page a role visits, and reports them together."""

    def __init__(self, page):
        self.page = page
        self.failures: list[tuple[str, str]] = []
        self.visited: list[str] = []

    def check(self, url: str, label: str) -> None:
        """Open ``url`` at each width: axe violations, an unexpected redirect, sideways scrolling."""
        page = self.page
        self.visited.append(label)
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            # goto waits for the load event (styles, scripts, images); the web fonts the text is set in
            # are the only late arrivals. No page asks for more on load (htmx polls start after a
            # second, on progress pages only), so "networkidle", a fixed 500 ms of silence, adds nothing.
            response = page.goto(url)
            page.evaluate("() => document.fonts.ready.then(() => true)")
            self.check_current(label, url, width, response)

    def check_current(self, label: str, url: str, width: int, response=None) -> None:
        page = self.page
        where = f"({url}) at {width}px"
        if response is not None and response.status >= 500:
            self.failures.append((label, f"{where}: HTTP {response.status}"))
            return
        if urlsplit(page.url).path != urlsplit(url).path:
            self.failures.append((label, f"{where}: landed on {page.url} instead"))
        try:
            assert_accessible(page)
        except AssertionError as exc:
            self.failures.append((label, f"{where}: {exc}"))
        if width == PHONE:
            scroll_width = page.evaluate("document.documentElement.scrollWidth")
            if scroll_width > PHONE + 1:
                self.failures.append(
                    (label, f"{where}: the page scrolls sideways (scrollWidth {scroll_width})")
                )
            sticking_out = page.evaluate(OVERFLOW_JS)
            if sticking_out:
                self.failures.append((label, f"{where}: outside the viewport: {', '.join(sticking_out)}"))
            screenshot(page, "sweep-" + "".join(c if c.isalnum() else "-" for c in label) + "-375")

    def reauthenticate(self, label: str) -> None:
        """allauth asks for the password again before any change to MFA; that form is a page too."""
        self.check(reverse("account_reauthenticate"), f"{label} reauthenticate")
        self.page.fill("input[name=password]", "demo-pass-2026")
        self.page.click("form:has(input[name=password]) button[type=submit]")
        self.page.wait_for_load_state("networkidle")

    def report(self) -> None:
        """Known gaps excuse only sideways overflow on their page; axe findings there still fail."""

        def excused(label: str, message: str) -> bool:
            return label in KNOWN_GAPS and (
                "scrolls sideways" in message or "outside the viewport" in message
            )

        excused_labels = {label for label, message in self.failures if excused(label, message)}
        problems = [f"{label} {message}" for label, message in self.failures if not excused(label, message)]
        problems += [
            f"{label} passes now: remove it from KNOWN_GAPS"
            for label in self.visited
            if label in KNOWN_GAPS and label not in excused_labels
        ]
        assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)


def staff_login(sweep: Sweep, email: str, secret: str, *, check_prompt: bool = False) -> None:
    """The real two-step login; the TOTP prompt is itself a page to check."""
    page = sweep.page
    page.set_viewport_size({"width": WIDTHS[0], "height": 900})
    page.goto("/accounts/login/")
    page.fill("input[name=login]", email)
    page.fill("input[name=password]", "demo-pass-2026")
    page.click("button[type=submit]")
    page.wait_for_url("**/accounts/2fa/authenticate/")
    if check_prompt:  # a GET of the prompt shows it again while the login is pending
        sweep.check(reverse("mfa_authenticate"), "mfa authenticate")
    page.fill("input[name=code]", fresh_totp_code(secret))
    page.click("button[type=submit]")
    page.wait_for_load_state("networkidle")
    assert "/accounts/" not in page.url, f"staff login stopped at {page.url}"


def verified_user(email: str, role: str = User.Role.PARTICIPANT) -> User:
    from allauth.account.models import EmailAddress

    user = User.objects.create_user(email=email, password="demo-pass-2026", role=role)
    EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
    return user


def staff_pages(d) -> list[tuple[str, str]]:
    """What committee members and administrators both see: participants, read-only, and MFA pages."""
    pid = d.pid
    return [
        ("participants", reverse("benefits:staff_participants")),
        ("participants search", reverse("benefits:staff_participants") + "?q=a"),
        ("participant dashboard", reverse("benefits:participant_dashboard", args=[pid])),
        ("vesting", reverse("benefits:plan_vesting", args=[pid, "carver-db"])),
        ("statement", reverse("benefits:plan_statement", args=[pid, "carver-db"])),
        ("modeler", reverse("benefits:plan_modeler", args=[pid, "carver-db"])),
        ("modeler result", reverse("benefits:modeler_run", args=[pid, d.run_id])),
        ("modeler estimate", reverse("benefits:modeler_estimate", args=[pid, d.run_id, 0])),
        ("quote", reverse("benefits:quote_detail", args=[pid, d.quote_id])),
        ("security", reverse("mfa_index")),
    ]


def staff_mfa_pages(sweep: Sweep, role: str) -> None:
    sweep.reauthenticate(role)
    sweep.check(reverse("mfa_view_recovery_codes"), f"{role} recovery codes")
    sweep.check(reverse("mfa_deactivate_totp"), f"{role} totp deactivate")
