"""What the consents area needs from the thing a spouse consents to, without importing its area.

Each area that asks for consents implements ``ConsentSubject`` for its thing (an election, a
beneficiary designation, a loan or withdrawal claim) and registers it in ``ElectionsConfig.ready``.
A ``SpousalConsent`` names its thing by one foreign key; ``field`` is that key's name.
"""

from __future__ import annotations

from datetime import date
from typing import Protocol


class ConsentSubject(Protocol):
    field: str  # the consent's foreign key that names the thing: "election", "designation", "claim"

    def awaiting_consent(self, thing) -> bool:
        """Whether the thing still waits for a spouse's consent."""

    def consent_problems(self, consent, *, on: date) -> dict[str, str]:
        """Why this consent does not (yet) make its thing effective on ``on``; empty when it does."""

    def try_effective(self, thing, *, actor, on: date | None, request) -> bool:
        """Make the thing effective if its consent now allows it; whether it is."""

    def page(self, consent) -> str:
        """Where the participant sees the thing (a URL)."""

    def review(self, consent) -> dict:
        """What the administrator's review page shows of the thing (template context)."""

    def waiting(self) -> dict:
        """The things of this kind waiting for a consent, for the administrator's queue (context)."""


_SUBJECTS: dict[str, ConsentSubject] = {}


def subject_register(subject: ConsentSubject) -> None:
    _SUBJECTS[subject.field] = subject


def subject_for(field: str) -> ConsentSubject:
    return _SUBJECTS[field]


def subjects() -> list[ConsentSubject]:
    return list(_SUBJECTS.values())
