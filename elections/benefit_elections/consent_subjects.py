"""The three things a spouse consents to, as ``elections.consents`` sees them (its ``ConsentSubject``
protocol): an election, a beneficiary designation, a loan or withdrawal claim. Registered by
``ElectionsConfig.ready``; the consents area calls these and imports none of the modules below."""

from __future__ import annotations

from datetime import date

from django.urls import reverse

from elections.benefit_elections import beneficiaries, presenters, selectors, services
from elections.benefit_elections.models import BeneficiaryDesignation, Election
from elections.claims import consents as claim_consents
from elections.claims.models import ClaimState
from elections.consents.subjects import subject_register


class ElectionSubject:
    field = "election"

    def awaiting_consent(self, thing) -> bool:
        return thing.state == Election.State.AWAITING_CONSENT

    def consent_problems(self, consent, *, on: date) -> dict[str, str]:
        return services.election_consent_problems(consent)

    def try_effective(self, thing, *, actor, on: date | None, request) -> bool:
        return services.election_try_effective(thing, actor=actor, on=on, request=request)

    def page(self, consent) -> str:
        return reverse("elections:election_detail", args=[consent.election_id])

    def review(self, consent) -> dict:
        return {"election": consent.election}

    def waiting(self) -> dict:
        return {"elections": selectors.elections_awaiting_consent()}


class DesignationSubject:
    field = "designation"

    def awaiting_consent(self, thing) -> bool:
        return thing.state == BeneficiaryDesignation.State.AWAITING_CONSENT

    def consent_problems(self, consent, *, on: date) -> dict[str, str]:
        return beneficiaries.designation_consent_validity(consent, on=on)

    def try_effective(self, thing, *, actor, on: date | None, request) -> bool:
        return beneficiaries.designation_try_effective(thing, actor=actor, on=on, request=request)

    def page(self, consent) -> str:
        return reverse("elections:beneficiaries", args=[consent.designation.participant_id])

    def review(self, consent) -> dict:
        return {
            "designation": consent.designation,
            "designation_rows": presenters.beneficiary_rows(consent.designation.beneficiaries),
        }

    def waiting(self) -> dict:
        return {"designations": selectors.designations_awaiting_consent()}


class ClaimSubject:
    field = "claim"

    def awaiting_consent(self, thing) -> bool:
        return thing.state == ClaimState.ELECTION_REQUIRED

    def consent_problems(self, consent, *, on: date) -> dict[str, str]:
        return claim_consents.claim_consent_validity(consent, on=on)

    def try_effective(self, thing, *, actor, on: date | None, request) -> bool:
        return claim_consents.claim_try_effective(thing, actor=actor, on=on, request=request)

    def page(self, consent) -> str:
        return reverse("elections:claim_detail", args=[consent.claim_id])

    def review(self, consent) -> dict:
        return {"claim": consent.claim, "claim_what": claim_consents.what_words(consent.claim)}

    def waiting(self) -> dict:
        return {}


def register() -> None:
    for subject in (ElectionSubject(), DesignationSubject(), ClaimSubject()):
        subject_register(subject)
