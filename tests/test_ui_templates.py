"""The USWDS rendering of allauth's pages (templates/allauth/elements) and the error pages.

Pages are parsed with the standard library's HTMLParser, so the checks are about structure (labels tied to
inputs, errors tied to fields and announced), not about exact markup.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import allauth
import pytest
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.template import engines
from django.template.loader import get_template, render_to_string
from django.test import RequestFactory
from django.views import defaults

from accounts.models import User
from tests.conftest import enroll_totp
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PROJECT_TEMPLATES = Path(settings.BASE_DIR) / "templates"


class Page(HTMLParser):
    """Collects every start tag (name, attrs) and, for labels and alerts, their text."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.labels: dict[str, str] = {}  # for-id -> text
        self._open_label: str | None = None
        self._label_text: list[str] = []
        self.text_by_id: dict[str, list[str]] = {}
        self._id_stack: list[tuple[str, str | None]] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = {k: (v if v is not None else "") for k, v in attrs}
        self.tags.append((tag, a))
        if tag == "label":
            self._open_label = a.get("for", "")
            self._label_text = []
        if tag not in {"input", "img", "br", "hr", "meta", "link"}:
            self._id_stack.append((tag, a.get("id")))
            if a.get("id"):
                self.text_by_id.setdefault(a["id"], [])

    def handle_endtag(self, tag):
        if tag == "label" and self._open_label is not None:
            self.labels[self._open_label] = " ".join("".join(self._label_text).split())
            self._open_label = None
        while self._id_stack:
            open_tag, _ = self._id_stack.pop()
            if open_tag == tag:
                break

    def handle_data(self, data):
        if self._open_label is not None:
            self._label_text.append(data)
        for _, el_id in self._id_stack:
            if el_id:
                self.text_by_id[el_id].append(data)

    # helpers
    def find(self, tag: str | None = None, **attrs) -> list[dict[str, str]]:
        out = []
        for name, a in self.tags:
            if tag and name != tag:
                continue
            ok = True
            for key, want in attrs.items():
                key = key.rstrip("_").replace("_", "-")
                if key == "class":
                    if want not in a.get("class", "").split():
                        ok = False
                elif a.get(key) != want:
                    ok = False
            if ok:
                out.append(a)
        return out

    def text_of(self, el_id: str) -> str:
        return " ".join("".join(self.text_by_id.get(el_id, [])).split())


def _input(page: Page, name: str) -> dict[str, str]:
    found = page.find("input", name=name)
    assert len(found) == 1, f"expected one input named {name!r}, got {found}"
    return found[0]


# --- The sign-in page ------------------------------------------------------------------------------


def test_login_page_renders_uswds_inputs_each_with_a_real_label(client):
    resp = client.get("/accounts/login/")
    assert resp.status_code == 200
    html = resp.content.decode()
    page = Page(html)

    assert page.find("form", class_="usa-form", method="post", action="/accounts/login/")
    for name, label, input_type, autocomplete in [
        ("login", "Email", "email", "email"),
        ("password", "Password", "password", "current-password"),
    ]:
        field = _input(page, name)
        assert "usa-input" in field["class"].split()
        assert field["type"] == input_type
        assert field["autocomplete"] == autocomplete
        assert "required" in field
        assert page.labels.get(field["id"]) == label, page.labels
        assert page.find("label", class_="usa-label", for_=field["id"])

    remember = _input(page, "remember")
    assert remember["type"] == "checkbox" and "usa-checkbox__input" in remember["class"].split()
    assert page.find("label", class_="usa-checkbox__label", for_=remember["id"])
    assert page.find("button", class_="usa-button", type="submit")

    # What the site is, and the ways out: password reset and registration.
    assert "Sign in to see your retirement plan benefits" in html
    assert page.find("a", href="/accounts/password/reset/")
    assert page.find("a", href="/accounts/signup/")
    # The reset hint is tied to the password box.
    password = _input(page, "password")
    assert f"{password['id']}-hint" in password["aria-describedby"].split()


def test_failed_login_is_announced_as_an_error_alert(client, participant_user):
    resp = client.post(
        "/accounts/login/", {"login": participant_user.email, "password": "not-the-password-1"}
    )
    assert resp.status_code == 200
    page = Page(resp.content.decode())
    alerts = page.find("div", class_="usa-alert--error", role="alert")
    assert alerts, "a failed sign-in must show a usa-alert--error with role=alert"
    assert "not correct" in resp.content.decode()
    # The password is never echoed back into the form.
    assert "not-the-password-1" not in resp.content.decode()
    assert "value" not in _input(page, "password")
    # The email the user typed is kept.
    assert _input(page, "login")["value"] == participant_user.email


def test_field_errors_are_usa_error_messages_tied_to_their_input(client):
    resp = client.post(
        "/accounts/signup/", {"email": "not-an-email", "password1": "short", "password2": "other"}
    )
    assert resp.status_code == 200
    page = Page(resp.content.decode())

    email = _input(page, "email")
    assert "usa-input--error" in email["class"].split()
    assert email.get("aria-invalid") == "true"
    error_id = f"{email['id']}-error"
    assert error_id in email["aria-describedby"].split()
    assert page.find("span", class_="usa-error-message", id=error_id)
    assert page.text_of(error_id)  # says what is wrong
    assert page.find("div", class_="usa-form-group--error")
    assert page.find("label", class_="usa-label--error", for_=email["id"])

    # The summary at the top is announced and links to the fields.
    assert page.find("div", class_="usa-alert--error", role="alert")
    assert page.find("a", href=f"#{email['id']}")

    # Password rules (help text) and the error are both described for the new-password box.
    password1 = _input(page, "password1")
    described = password1["aria-describedby"].split()
    assert f"{password1['id']}-hint" in described and f"{password1['id']}-error" in described
    assert "value" not in password1


def test_password_reset_page_uses_the_uswds_elements(client):
    resp = client.get("/accounts/password/reset/")
    assert resp.status_code == 200
    page = Page(resp.content.decode())
    email = _input(page, "email")
    assert "usa-input" in email["class"].split()
    assert page.labels.get(email["id"]) == "Email"
    assert page.find("button", class_="usa-button", type="submit")


# --- MFA pages --------------------------------------------------------------------------------------


def test_mfa_authenticate_page_has_a_labelled_code_box_and_announces_a_wrong_code(client, password):
    user = UserFactory(role=User.Role.PARTICIPANT)
    enroll_totp(user)
    resp = client.post("/accounts/login/", {"login": user.email, "password": password})
    assert resp.status_code == 302 and resp["Location"] == "/accounts/2fa/authenticate/"

    page = Page(client.get("/accounts/2fa/authenticate/").content.decode())
    code = _input(page, "code")
    assert "usa-input" in code["class"].split()
    assert code["autocomplete"] == "one-time-code"
    assert page.labels.get(code["id"]) == "Code"

    resp = client.post("/accounts/2fa/authenticate/", {"code": "000000"})
    page = Page(resp.content.decode())
    code = _input(page, "code")
    assert "usa-input--error" in code["class"].split()
    assert page.find("span", class_="usa-error-message", id=f"{code['id']}-error")
    assert page.find("div", class_="usa-alert--error", role="alert")


def _get_after_reauthentication(client, url: str, password: str):
    resp = client.get(url)
    if resp.status_code == 302 and "/reauthenticate/" in resp["Location"]:
        client.post(resp["Location"], {"password": password})
        resp = client.get(url)
    return resp


def test_totp_activation_page_shows_the_qr_code_and_the_secret(client, participant_user, password):
    client.post("/accounts/login/", {"login": participant_user.email, "password": password})
    resp = _get_after_reauthentication(client, "/accounts/2fa/totp/activate/", password)
    assert resp.status_code == 200
    page = Page(resp.content.decode())

    qr = [img for img in page.find("img") if img["src"].startswith("data:image/svg+xml")]
    assert len(qr) == 1 and qr[0].get("alt")
    secret = page.text_of("authenticator_secret")
    assert len(secret) >= 16 and secret.isalnum()
    assert secret == resp.context["form"].secret

    code = _input(page, "code")
    assert "usa-input" in code["class"].split()
    assert page.labels.get(code["id"]) == "Authenticator code"


def test_mfa_index_renders_panels_as_uswds_cards(client, participant_user, password):
    client.post("/accounts/login/", {"login": participant_user.email, "password": password})
    resp = client.get("/accounts/2fa/")
    assert resp.status_code == 200
    page = Page(resp.content.decode())
    assert page.find("section", class_="usa-card")
    assert page.find("a", class_="usa-button", href="/accounts/2fa/totp/activate/")


# --- Error pages ------------------------------------------------------------------------------------


def test_unknown_url_renders_the_404_page_with_status_404(client):
    resp = client.get("/no/such/page/anywhere/")
    assert resp.status_code == 404
    html = resp.content.decode()
    assert "We can't find that page" in html
    assert "usa-button" in html and 'href="/"' in html
    assert "vendor/uswds/css/uswds.min.css" in html


def test_403_page_renders_with_a_link_home():
    request = RequestFactory().get("/somewhere/")
    request.user = AnonymousUser()
    resp = defaults.permission_denied(request, PermissionDenied())
    assert resp.status_code == 403
    html = resp.content.decode()
    assert "You don't have access to this page" in html and 'href="/"' in html


def test_500_page_renders_with_a_plain_context_and_loads_uswds():
    # No request, no context processors, no user: exactly what Django's server_error view gives it.
    html = get_template("500.html").render()
    assert "Something went wrong" in html
    assert "vendor/uswds/css/uswds.min.css" in html and 'href="/"' in html

    resp = defaults.server_error(RequestFactory().get("/"))
    assert resp.status_code == 500
    assert "Something went wrong" in resp.content.decode()

    # It does not depend on base.html (which needs the request and the user).
    source = re.sub(
        r"{% comment %}.*?{% endcomment %}", "", (PROJECT_TEMPLATES / "500.html").read_text(), flags=re.S
    )
    assert not re.search(r"{%\s*(extends|include|url)\b", source)
    assert not re.search(r"{[{%][^}]*\b(user|request|messages|nav_items)\b", source)


def test_429_page_renders():
    request = RequestFactory().get("/accounts/login/")
    request.user = AnonymousUser()
    html = render_to_string("429.html", request=request)
    assert "Too many attempts" in html and 'href="/"' in html


# --- Every allauth element is overridden ------------------------------------------------------------


def test_every_allauth_element_is_overridden_by_the_project():
    shipped = Path(allauth.__file__).parent / "templates" / "allauth" / "elements"
    names = sorted(p.name for p in shipped.glob("*.html"))
    assert names
    engine = engines["django"].engine
    for name in names:
        origin = engine.get_template(f"allauth/elements/{name}").origin
        assert Path(origin.name).is_relative_to(PROJECT_TEMPLATES), f"{name} still uses allauth's markup"
