"""A survivor other than the spouse (Carver DB §8.1 Contingent Pensioner Option), priced on that person's
age, limited by the MDIB rule, and needing the spouse's consent.

Pat Morgan: born March 14, 1962, married to Jordan (born September 2, 1964). The demo claim starts
payments on January 1, 2027 (AS_OF November 21, 2026 + 35 days, the first of the next month), when Pat
is 64. Table A (SPEC §8): age band 60–64 → 50% .90, 66⅔% .87, 100% .82, less .01 for each full year
the annuitant is younger by more than 3 years.

* Sam, born April 2, 1995, is 33 full years younger than Pat: 30 steps → the 50% factor is .90 − .30 =
  .60 (Jordan, 2 years younger, keeps .90).
* MDIB (Treas. Reg. §1.401(a)(9)-6, Q&A-2(c)): in 2027 Pat is 65 and Sam 32 (birthdays in the calendar
  year), a difference of 33, less 70 − 65 = 5 → 28 → at most 62%: 50% is allowed, 66⅔% and 100% are not.
"""

from __future__ import annotations

from datetime import date
from decimal import ROUND_HALF_UP, Decimal

import pytest
from django.test import TestCase

from elections.benefit_elections import services
from elections.benefit_elections.models import Election
from elections.models import Claim, ClaimState
from tests.elections.conftest import AS_OF, demo_for_the_module
from tests.elections.test_benefit_elections import DEMO_PASSWORD, asd_of, issue

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker, tmp_path_factory):
    """Loaded once: no test here commits (see demo_for_the_module)."""
    yield from demo_for_the_module(django_db_blocker, tmp_path_factory)


SAM = {"who": "other", "name": "Sam Morgan", "relationship": "child", "birth_date": "1995-04-02"}
PAYMENT = {
    "payment_method": "direct_deposit",
    "payment": {"routing_number": "011000015", "account_number": "12345678", "account_type": "checking"},
    "withholding": {"form": "W-4P", "w4p": "married", "w4p_extra": "0.00"},
}


@pytest.fixture
def claim(pat):
    return Claim.objects.get(membership__participant__user=pat, state=ClaimState.ELECTION_REQUIRED)


def draft_for(claim, pat, form, annuitant):
    issue(claim)
    with TestCase.captureOnCommitCallbacks(execute=True):
        draft = services.draft_start(user=pat, membership=claim.membership, asd=asd_of(claim), claim=claim)
        services.draft_explanation_read(draft=draft, user=pat)
    services.draft_save(draft=draft, user=pat, step="form", answers={"form": form})
    services.draft_save(draft=draft, user=pat, step="beneficiaries", answers={"annuitant": annuitant})
    services.draft_save(draft=draft, user=pat, step="payment", answers=PAYMENT)
    return draft


def test_the_demo_dates_the_worked_figures_rest_on(claim):
    assert asd_of(claim) == date(2027, 1, 1)


def test_a_non_spouse_survivor_is_priced_on_their_age_and_needs_the_spouses_consent(claim, pat):
    draft = draft_for(claim, pat, "js50", SAM)
    life = Decimal(services.form_row(draft, "life")["monthly"])
    spouse_js50 = Decimal(services.form_row(draft, "js50")["monthly"])
    with TestCase.captureOnCommitCallbacks(execute=True):
        election = services.election_sign(draft=draft, user=pat, password=DEMO_PASSWORD, on=AS_OF)
    monthly = Decimal(election.figures["monthly"])
    # Each is the life amount times its factor, rounded to cents once: within a cent of life × factor.
    assert abs(spouse_js50 - life * Decimal(".90")) <= Decimal("0.01")
    assert abs(monthly - life * Decimal(".60")) <= Decimal("0.01")
    # §8.1: 50% of the participant's payment continues, in cents rounded half up.
    assert Decimal(election.figures["survivor_monthly"]) == (monthly / 2).quantize(
        Decimal("0.01"), ROUND_HALF_UP
    )
    assert election.figures["relative_value_percent"] == ""  # the explanation's values assume the spouse
    assert election.contingent_annuitant == {
        "name": "Sam Morgan",
        "relationship": "child",
        "birth_date": "1995-04-02",
        "max_survivor_percent": 62,
    }
    # The 50% J&S is consent-free only with the spouse as survivor (§7.1): naming Sam waives the QJSA.
    assert election.needs_consent and "Sam Morgan" in election.consent_reasons[0]
    assert election.state == Election.State.AWAITING_CONSENT
    form = election.consents.get().form_document
    assert form.payload["contingent_annuitant"]["name"] == "Sam Morgan"


@pytest.mark.parametrize("form", ["js66", "js100"])
def test_the_mdib_rule_limits_the_survivors_share(claim, pat, form):
    draft = draft_for(claim, pat, form, SAM)
    with pytest.raises(services.ElectionInvalid) as exc:
        services.election_sign(draft=draft, user=pat, password=DEMO_PASSWORD, on=AS_OF)
    message = exc.value.errors["annuitant"]
    assert "at most 62% of yours (Treas. Reg. §1.401(a)(9)-6, Q&A-2(c))" in message
    assert "Choose 50% continuation instead." in message
    assert not Election.objects.exists()


def test_a_survivor_ten_years_younger_has_no_mdib_limit(claim, pat):
    # Born March 14, 1972: 55 in 2027, a difference of 10 → 100%; 10 full years apart → .82 − .07 = .75.
    lee = {**SAM, "name": "Lee Park", "relationship": "other", "birth_date": "1972-03-14"}
    draft = draft_for(claim, pat, "js100", lee)
    life = Decimal(services.form_row(draft, "life")["monthly"])
    with TestCase.captureOnCommitCallbacks(execute=True):
        election = services.election_sign(draft=draft, user=pat, password=DEMO_PASSWORD, on=AS_OF)
    assert election.contingent_annuitant["max_survivor_percent"] == 100
    assert abs(Decimal(election.figures["monthly"]) - life * Decimal(".75")) <= Decimal("0.01")
    assert election.figures["survivor_monthly"] == election.figures["monthly"]


def test_the_spouse_as_survivor_keeps_the_explanations_figures_without_consent(claim, pat):
    draft = draft_for(claim, pat, "js66", {"who": "spouse"})
    row = services.form_row(draft, "js66")
    with TestCase.captureOnCommitCallbacks(execute=True):
        election = services.election_sign(draft=draft, user=pat, password=DEMO_PASSWORD, on=AS_OF)
    assert election.contingent_annuitant["name"] == "Jordan Morgan" and not election.needs_consent
    assert election.figures["monthly"] == row["monthly"]
    assert election.figures["relative_value_percent"] == row["relative_value_percent"]


def test_missing_or_impossible_survivor_details_are_named(claim, pat):
    draft = draft_for(
        claim, pat, "js50", {"who": "other", "name": "", "relationship": "", "birth_date": "2030-01-01"}
    )
    errors = services.validate_election(draft, on=AS_OF)
    assert {"annuitant_name", "annuitant_relationship", "annuitant_birth_date"} <= set(errors)


def test_the_survivor_step_shows_the_rule_on_its_field_and_keeps_the_answers(claim, pat, client):
    from django.urls import reverse

    issue(claim)
    with TestCase.captureOnCommitCallbacks(execute=True):
        draft = services.draft_start(user=pat, membership=claim.membership, asd=asd_of(claim), claim=claim)
        services.draft_explanation_read(draft=draft, user=pat)
    client.force_login(pat)
    r = client.post(reverse("elections:election_step", args=[draft.pk, "form"]), {"form": "js100"})
    assert r["Location"] == reverse("elections:election_step", args=[draft.pk, "beneficiaries"])
    page = client.get(r["Location"]).text
    assert "Name your survivor" in page and "My spouse, Jordan Morgan" in page
    r = client.post(
        reverse("elections:election_step", args=[draft.pk, "beneficiaries"]),
        {"who": "other", "name": "Sam Morgan", "relationship": "child", "birth_date": "1995-04-02"},
    )
    assert r.status_code == 200 and "at most 62% of yours" in r.text and 'value="Sam Morgan"' in r.text
    draft.refresh_from_db()
    assert "annuitant" not in draft.answers
    r = client.post(reverse("elections:election_step", args=[draft.pk, "beneficiaries"]), {"who": "spouse"})
    assert r["Location"] == reverse("elections:election_step", args=[draft.pk, "payment"])
