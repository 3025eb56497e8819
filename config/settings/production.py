"""Production: refuses to start with DEBUG on or a default SECRET_KEY; `check --deploy` is clean."""

from django.core.exceptions import ImproperlyConfigured

from config.settings.base import *  # noqa: F403
from config.settings.base import SECRET_KEY, env, private_storage_config

DEBUG = env.bool("DJANGO_DEBUG", default=False)
if DEBUG:
    raise ImproperlyConfigured("DJANGO_DEBUG must be off in production.")
if not SECRET_KEY or SECRET_KEY.startswith("insecure-") or len(SECRET_KEY) < 50:
    raise ImproperlyConfigured("Set DJANGO_SECRET_KEY to a random value of at least 50 characters.")
if env("SSN_HASH_KEY", default="") in ("", SECRET_KEY):
    raise ImproperlyConfigured("Set SSN_HASH_KEY to its own random value (it keys the SSN hash).")
_mfa_key = env("MFA_ENCRYPTION_KEY", default="")
if len(_mfa_key) < 32 or _mfa_key in (SECRET_KEY, env("SSN_HASH_KEY", default="")):
    raise ImproperlyConfigured(
        "Set MFA_ENCRYPTION_KEY to its own random value of at least 32 characters (it encrypts MFA secrets)."
    )

# Behind a TLS-terminating proxy that sets X-Forwarded-Proto (and strips it from clients): requests it
# marks "https" are secure. Set DJANGO_SECURE_PROXY_SSL_HEADER="" when nothing in front sets the header.
_proxy_header = env("DJANGO_SECURE_PROXY_SSL_HEADER", default="HTTP_X_FORWARDED_PROTO")
SECURE_PROXY_SSL_HEADER = (_proxy_header, "https") if _proxy_header else None
# Redirect plain http to https. Off only for a plain-http run on loopback (make smoke), where the client
# itself sends X-Forwarded-Proto: https as the proxy would.
SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
SESSION_COOKIE_SECURE = True  # browsers keep Secure cookies from http://127.0.0.1 and localhost too
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    "private": private_storage_config(),
}

# Mail: sign-up, password reset and notices need it, so production does not start without a relay
# (base.py reads EMAIL_URL and refuses one it cannot parse). DJANGO_EMAIL_BACKEND names another Django
# e-mail backend instead (e.g. a provider's API backend); never the console backend by default.
if not env("EMAIL_URL", default="") and not env("DJANGO_EMAIL_BACKEND", default=""):
    raise ImproperlyConfigured(
        "Set EMAIL_URL to the outgoing mail relay (e.g. smtp+tls://user:password@relay.example.com:587): "
        "sign-up, password reset and notices are sent by e-mail. (Or DJANGO_EMAIL_BACKEND to a Django "
        "e-mail backend.)"
    )
if not env("EMAIL_URL", default=""):
    MAILERS = {"default": {"BACKEND": env("DJANGO_EMAIL_BACKEND")}}
