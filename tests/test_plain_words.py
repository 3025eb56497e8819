"""Plain words on every page a demo role can reach (issue 14, items 1 and 10).

Each demo login (pat, the committee, the administrator) starts on its landing page and follows every
link to the project's own pages, as a person clicking around would; every PDF it can download is read
with pypdf. No page or PDF may show an engineer's words: the SPEC's labels (SPEC, GAP-n, AMBIG-n),
input keys (snake_case), Python types, repository paths or the engine's version string.
"""

from __future__ import annotations

import io
import re
from html.parser import HTMLParser
from urllib.parse import urldefrag, urlsplit

import pytest
from django.test import Client
from django.urls import resolve

from accounts.models import User
from benefits.demo.loader import ADMIN_TOTP_SECRET, COMMITTEE_TOTP_SECRET
from tests.conftest import login_with_totp
from tests.test_access_matrix import DEMO_PASSWORD, _build

pytestmark = pytest.mark.django_db

JARGON = {
    "a SPEC label": re.compile(r"\bSPEC\b"),
    "a GAP label": re.compile(r"\bGAP[- ]?[A-Z]?\d"),
    "an AMBIG label": re.compile(r"\bAMBIG\b|AMBIG-"),
    "an input key": re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"),
    "a Python type": re.compile(r"datetime\.date|\| None|Decimal\(|\bdict\[|\btuple\[|\bNoneType\b"),
    "a repository path": re.compile(
        r"\b(?:benefits|elections|accounts|docs|templates|tests|config|sources)/[\w./-]+"
        r"|\b\w+\.(?:py|md)\b"  # a module, or a notes file such as the team's regulatory reference
    ),
    "the engine's version": re.compile(r"\bengine\s+(?:version\s+)?v?\d+\.\d+|\bENGINE_VERSION\b", re.I),
}

# The administrator's own tools (Django's admin site) keep Django's words; MFA pages are allauth's.
SKIP_PREFIXES = ("/admin/", "/accounts/logout/", "/static/")
MAX_PAGES = 400
# The data-import page documents the files administrators upload: their column names and the values a
# column takes (before_tax, treasury_30y) are what is typed into the file, so keys are its subject.
FILE_FORMAT_PAGES = ("/benefits/staff/imports/",)
# What people uploaded themselves (evidence, a signed consent): their words, not ours.
UPLOADS = {"elections:claim_document", "elections:consent_file"}


class _Page(HTMLParser):
    """The text a person reads (not scripts, styles or attribute values) and the links on the page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.links: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        # <code> is what an administrator types into a data file (a column or series name), shown as such.
        if tag in ("script", "style", "template", "code"):
            self._skip += 1
        if tag == "a":
            href = dict(attrs).get("href")
            if href:
                self.links.append(href)
        # What a screen reader says is read too.
        for name, value in attrs:
            if name in ("aria-label", "title", "alt", "placeholder") and value:
                self.text.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style", "template", "code") and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.text.append(data)


def jargon_in(text: str, *, allowed: tuple[str, ...] = ()) -> list[str]:
    found = []
    for what, pattern in JARGON.items():
        if what in allowed:
            continue
        for m in pattern.finditer(text):
            start = max(0, m.start() - 40)
            found.append(f"{what} {m.group(0)!r} in “…{text[start : m.end() + 40].strip()}…”")
    return found


def pdf_text(content: bytes) -> str:
    from pypdf import PdfReader

    return "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(content)).pages)


def crawl(
    client: Client, start: str = "/", *, allowed: tuple[str, ...] = ()
) -> tuple[list[str], dict[str, list[str]]]:
    """Visit every same-site page reachable from ``start``; the jargon each one shows."""
    seen: set[str] = set()
    queue = [start]
    problems: dict[str, list[str]] = {}
    while queue and len(seen) < MAX_PAGES:
        url = queue.pop(0)
        if url in seen:
            continue
        seen.add(url)
        response = client.get(url, follow=True)
        final = response.redirect_chain[-1][0] if response.redirect_chain else url
        if response.status_code >= 500:
            problems.setdefault(url, []).append(f"HTTP {response.status_code}")
            continue
        content_type = response.get("Content-Type", "")
        if resolve(urlsplit(final).path).view_name in UPLOADS:
            found = []  # a claimant's own evidence is their words, not ours
        elif content_type.startswith("application/pdf"):
            body = b"".join(response.streaming_content) if response.streaming else response.content
            found = jargon_in(pdf_text(body), allowed=allowed)
        elif content_type.startswith("text/html"):
            parser = _Page()
            parser.feed(response.content.decode())
            page_allowed = allowed
            if final.startswith(FILE_FORMAT_PAGES):
                page_allowed = (*allowed, "an input key")
            found = jargon_in(" ".join(" ".join(parser.text).split()), allowed=page_allowed)
            for href in parser.links:
                link = urldefrag(href)[0]
                parts = urlsplit(link)
                if parts.scheme or parts.netloc or not link.startswith("/"):
                    continue
                if link.startswith(SKIP_PREFIXES) or link in seen:
                    continue
                queue.append(link)
        else:
            found = []
        if found:
            problems[final] = found
    return sorted(seen), problems


@pytest.fixture(scope="module")
def plan_year(django_db_setup, django_db_blocker, tmp_path_factory):
    """The access matrix's data set plus the demo's plan year of claims (every state, notices and all)."""
    from django.db import transaction
    from django.test import override_settings

    from benefits.demo.claims import load_demo_claims
    from benefits.services import today

    private = tmp_path_factory.mktemp("private")
    with override_settings(PRIVATE_STORAGE_ROOT=private), django_db_blocker.unblock(), transaction.atomic():
        data = _build(today())
        assert load_demo_claims(as_of=today()) >= 8
        yield data
        transaction.set_rollback(True)


def _report(problems: dict[str, list[str]]) -> str:
    lines = []
    for url, found in problems.items():
        lines.append(url)
        lines += [f"    {f}" for f in found[:8]]
    return "\n".join(lines)


def _staff_client(email: str, secret: str) -> Client:
    client = Client()
    user = User.objects.get(email=email)
    assert login_with_totp(client, user, password=DEMO_PASSWORD, secret=secret).status_code == 302
    return client


def test_jargon_patterns_catch_what_the_issue_found():
    samples = [
        "SPEC GAP D2.1",
        "GAP-7",
        "AMBIG-3",
        "normal_retirement_age",
        "assumptions.treasury_10y_november",
        "datetime.date | None",
        "Decimal('1.5')",
        "docs/plan-notes/carver-db/",
        "calculation engine 0.1.0",
        "Checked with engine version 0.1.0",
    ]
    for sample in samples:
        assert jargon_in(sample), sample
    for plain in ("April 1, 2027", "$2,394.07", "pat@demo.test", "§1.1(HH)(2)", "Plan Year 2026"):
        assert not jargon_in(plain), plain


@pytest.mark.parametrize(
    "email,secret",
    [
        ("pat@demo.test", None),
        ("sam@demo.test", None),
        ("committee@demo.test", COMMITTEE_TOTP_SECRET),
        ("admin@demo.test", ADMIN_TOTP_SECRET),
    ],
    ids=["participant", "esop-participant", "committee", "administrator"],
)
def test_every_page_a_role_reaches_is_in_plain_words(plan_year, email, secret):
    if secret:
        client = _staff_client(email, secret)
    else:
        client = Client()
        client.force_login(User.objects.get(email=email))
    # The administrator's records keep the engine's version (a quote's fingerprint); nobody else sees it.
    allowed = ("the engine's version",) if email == "admin@demo.test" else ()
    seen, problems = crawl(client, allowed=allowed)
    assert len(seen) > 5, seen
    assert not problems, f"{len(problems)} of {len(seen)} pages use an engineer's words:\n" + _report(
        problems
    )
