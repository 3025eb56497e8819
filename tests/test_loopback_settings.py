"""The README's plain-http loopback recipe: no proxy header trusted, so a plain-http request is never
judged https (its http Origin matches); cookies stay Secure (browsers keep them from loopback)."""

from tests.test_mail_settings import PRODUCTION
from tests.test_settings_modes import run_manage

SHOW = "from django.conf import settings as s; print(s.SESSION_COOKIE_SECURE, s.SECURE_SSL_REDIRECT, s.SECURE_PROXY_SSL_HEADER)"
RECIPE = dict(
    DJANGO_SECURE_SSL_REDIRECT="false", DJANGO_SECURE_PROXY_SSL_HEADER="", EMAIL_URL="smtp://127.0.0.1:25"
)


def test_the_loopback_recipe_trusts_no_proxy_header_and_keeps_secure_cookies():
    result = run_manage("shell", "-c", SHOW, **PRODUCTION, **RECIPE)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("True False None")
