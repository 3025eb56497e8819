"""Production does not start without a mail relay it can read, and says which variable to set."""

from tests.test_settings_modes import GOOD_KEY, run_manage

PRODUCTION = dict(
    DJANGO_SETTINGS_MODULE="config.settings.production",
    DJANGO_SECRET_KEY=GOOD_KEY,
    SSN_HASH_KEY="another-random-key-for-the-ssn-hash",
    MFA_ENCRYPTION_KEY="a-third-random-key-that-encrypts-mfa-secrets",
)
SHOW = "from django.conf import settings as s; print(s.MAILERS['default']['OPTIONS'])"


def test_production_without_a_mail_setting_refuses_to_start_naming_it():
    result = run_manage("check", **PRODUCTION)
    assert result.returncode != 0
    assert "ImproperlyConfigured: Set EMAIL_URL to the outgoing mail relay" in result.stderr


def test_production_refuses_a_mail_url_it_cannot_read():
    for bad in ("relay.example.com", "http://relay.example.com", "smtp://", "smtp://relay:port"):
        result = run_manage("check", **PRODUCTION, EMAIL_URL=bad)
        assert result.returncode != 0 and "EMAIL_URL" in result.stderr.splitlines()[-1], bad


def test_production_reads_the_relay_from_email_url():
    result = run_manage(
        "shell", "-c", SHOW, **PRODUCTION, EMAIL_URL="smtp+tls://app:secret@relay.example.com:587"
    )
    assert result.returncode == 0, result.stderr
    assert "'host': 'relay.example.com', 'port': 587, 'username': 'app'" in result.stdout
    assert "'use_tls': True" in result.stdout
