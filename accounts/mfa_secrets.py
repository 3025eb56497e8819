"""MFA secrets (TOTP keys, recovery-code seeds) are encrypted at rest with their own key.

allauth stores them through ``MFAAdapter.encrypt``/``decrypt``; this adapter seals them with Fernet
(AES-128-CBC + HMAC-SHA256) under ``settings.MFA_ENCRYPTION_KEY``, a key separate from the secret
key and the SSN hash key, so a database copy alone reveals no second factor. A stored value without
the ``enc1:`` prefix is refused, so a secret planted in clear in the database never authenticates.
"""

from __future__ import annotations

import base64
import hashlib
import logging
import os

from allauth.mfa.adapter import DefaultMFAAdapter
from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

PREFIX = "enc1:"
logger = logging.getLogger(__name__)


class SecretNotReadable(Exception):
    """A stored MFA secret is not sealed with the current key (or was stored in clear)."""


def _fernet(key: str | None = None) -> Fernet:
    key = key if key is not None else getattr(settings, "MFA_ENCRYPTION_KEY", "")
    if not key:
        raise ImproperlyConfigured("Set MFA_ENCRYPTION_KEY: it encrypts the MFA secrets at rest.")
    # Any long random string will do: it is stretched to Fernet's 32-byte key.
    return Fernet(base64.urlsafe_b64encode(hashlib.sha256(key.encode()).digest()))


def seal(text: str, key: str | None = None) -> str:
    return PREFIX + _fernet(key).encrypt(text.encode()).decode()


def is_sealed(value: object) -> bool:
    return isinstance(value, str) and value.startswith(PREFIX)


def unseal(value: str, key: str | None = None) -> str:
    if not is_sealed(value):
        raise SecretNotReadable("The stored MFA secret is not encrypted.")
    try:
        return _fernet(key).decrypt(value[len(PREFIX) :].encode()).decode()
    except InvalidToken:
        raise SecretNotReadable("The stored MFA secret does not open with MFA_ENCRYPTION_KEY.") from None


class MFAAdapter(DefaultMFAAdapter):
    def encrypt(self, text: str) -> str:
        return seal(text)

    def decrypt(self, encrypted_text: str) -> str:
        try:
            return unseal(encrypted_text)
        except SecretNotReadable as exc:
            # A secret in clear (planted in the database) or sealed under another key authenticates
            # nobody: an unguessable stand-in makes every code wrong, and the login page says so.
            logger.error("MFA secret refused: %s", exc)
            return base64.b32encode(os.urandom(20)).decode()


def seal_authenticator_data(data: dict, key: str | None = None) -> dict:
    """The data of one Authenticator with every secret sealed (values already sealed stay as they are)."""
    out = dict(data)
    for name in ("secret", "seed"):
        if isinstance(out.get(name), str) and not is_sealed(out[name]):
            out[name] = seal(out[name], key)
    if isinstance(out.get("migrated_codes"), list):
        out["migrated_codes"] = [c if is_sealed(c) else seal(c, key) for c in out["migrated_codes"]]
    return out
