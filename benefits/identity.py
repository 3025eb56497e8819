"""The SSN is never stored in clear: a keyed hash (HMAC-SHA256) finds a match, the last four show."""

from __future__ import annotations

import hashlib
import hmac
import re

from django.conf import settings


def normalize_ssn(ssn: str) -> str:
    digits = re.sub(r"\D", "", ssn or "")
    if len(digits) != 9:
        raise ValueError("An SSN has nine digits.")
    return digits


def ssn_hash(ssn: str) -> str:
    key = settings.SSN_HASH_KEY.encode()
    return hmac.new(key, normalize_ssn(ssn).encode(), hashlib.sha256).hexdigest()
