"""What every explanation shares: the refusal it raises and the fingerprint of the request it priced
(kept apart so each kind of explanation can import it without importing the others)."""

from __future__ import annotations

import hashlib
import json
from datetime import date

from benefits.engine import ENGINE_VERSION
from benefits.engine_adapter import membership_request


class ExplanationUnavailable(Exception):
    """The notice cannot be computed for this person and date; the message says why in plain words."""


def fingerprint(membership, *, as_of: date, dates: list[date], assumptions: dict | None = None) -> str:
    request = membership_request(membership, as_of=as_of, commencement_dates=dates, assumptions=assumptions)
    blob = json.dumps(request, sort_keys=True) + ENGINE_VERSION
    return hashlib.sha256(blob.encode()).hexdigest()
