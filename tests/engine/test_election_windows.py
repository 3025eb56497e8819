"""Election windows and consent validity, from the statute and regulation.

Each rule is tested on both sides of its boundary day.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benefits.engine.elections import (
    ConsentFacts,
    Window,
    WindowError,
    consent_problems,
    election_rules,
)

ASD = date(2027, 4, 1)
DAY = timedelta(days=1)


def window(explained: date, asd: date = ASD, period: int = 180) -> Window:
    return Window(explained, asd, period)


# ---------------------------------------------------------------------- the 180-day election period


def test_statutory_period_is_180_days_ending_on_the_asd():
    # Code §417(a)(6)(A) after PPA 2006: "the 180-day period ending on the annuity starting date";
    # §1.417(e)-1(b)(3)(i) read with PPA §1102(a)(1)(B): not more than 180 days before the ASD.
    w = window(ASD - timedelta(days=180))
    assert w.period_opens == ASD - timedelta(days=180) == date(2026, 10, 3)
    w.check_election(w.period_opens, waive_30_days=False)  # first day counts
    w.check_election(ASD, waive_30_days=False)  # the ASD itself counts
    with pytest.raises(WindowError) as exc:
        w.check_election(ASD + DAY, waive_30_days=False)
    assert exc.value.field == "signed_on"


def test_election_before_the_period_opens_is_refused():
    w = window(ASD - timedelta(days=181))  # explanation itself too early: a new one is needed
    with pytest.raises(WindowError) as exc:
        w.check_election(ASD - timedelta(days=100), waive_30_days=False)
    assert exc.value.field == "explanation"
    w = window(ASD - timedelta(days=180))
    w.check_explanation()  # exactly 180 days before is timely


def test_a_plans_own_period_replaces_180():
    # Carver DB §7.5: "the ninety (90) day period before his Retirement Date".
    rules = election_rules("carver-db")
    assert rules.period_days == 90 and "§7.5" in rules.period_source
    w = Window(ASD - timedelta(days=90), ASD, rules.period_days, rules.period_source)
    w.check_election(ASD - timedelta(days=90), waive_30_days=False)
    with pytest.raises(WindowError, match="§7.5"):
        Window(ASD - timedelta(days=91), ASD, 90, "Plan §7.5").check_election(
            ASD - timedelta(days=50), waive_30_days=False
        )


def test_signing_before_the_explanation_is_refused():
    w = window(ASD - timedelta(days=40))
    with pytest.raises(WindowError):
        w.check_election(ASD - timedelta(days=41), waive_30_days=False)


# ---------------------------------------------------------------------- 30 days and the 7-day waiver


def test_thirty_days_from_the_explanation_needs_no_waiver():
    # §1.417(e)-1(b)(3)(ii): explanation no less than 30 days before the ASD.
    w = window(ASD - timedelta(days=30))
    assert not w.needs_waiver
    w.check_election(ASD - timedelta(days=30), waive_30_days=False)


def test_twenty_nine_days_needs_the_waiver():
    w = window(ASD - timedelta(days=29))
    assert w.needs_waiver
    with pytest.raises(WindowError) as exc:
        w.check_election(ASD - timedelta(days=29), waive_30_days=False)
    assert exc.value.field == "waive_30_days"
    w.check_election(ASD - timedelta(days=29), waive_30_days=True)


def test_waiver_needs_the_asd_after_the_seven_day_period():
    # §417(a)(7)(B): the distribution commences more than 7 days after the explanation;
    # §1.417(e)-1(b)(3)(ii)(D): not before the 7-day period (beginning the day after) ends.
    explained = ASD - timedelta(days=8)
    window(explained).check_election(explained, waive_30_days=True)  # ASD on day 8: allowed
    with pytest.raises(WindowError) as exc:
        window(ASD - timedelta(days=7)).check_election(ASD - timedelta(days=7), waive_30_days=True)
    assert exc.value.field == "asd"


def test_a_plan_without_the_waiver_refuses_short_notice():
    with pytest.raises(WindowError) as exc:
        window(ASD - timedelta(days=20)).check_election(
            ASD - timedelta(days=20), waive_30_days=True, waiver_allowed=False
        )
    assert exc.value.field == "asd"


def test_asd_on_or_before_the_explanation_is_refused():
    with pytest.raises(WindowError) as exc:
        window(ASD).check_explanation()
    assert exc.value.field == "asd"


# ---------------------------------------------------------------------- revocation


def test_revocable_until_the_asd_when_the_explanation_is_early():
    w = window(ASD - timedelta(days=45))
    assert w.revocable_until == ASD
    assert w.can_revoke(ASD) and not w.can_revoke(ASD + DAY)


def test_revocable_until_seven_days_after_the_explanation_when_later():
    # §1.417(e)-1(b)(3)(ii)(B): the later of the ASD and the end of the 7-day period.
    explained = ASD - timedelta(days=3)
    w = Window(explained, ASD, 180)
    assert w.revocable_until == explained + timedelta(days=7) == ASD + timedelta(days=4)
    assert w.can_revoke(ASD + timedelta(days=4)) and not w.can_revoke(ASD + timedelta(days=5))


@given(st.integers(min_value=1, max_value=180), st.integers(min_value=0, max_value=200))
def test_revocation_never_ends_before_the_asd_or_the_seven_days(before, signed_offset):
    explained = ASD - timedelta(days=before)
    w = Window(explained, ASD, 180)
    assert w.revocable_until >= ASD and w.revocable_until >= explained + timedelta(days=7)


# ---------------------------------------------------------------------- consent validity


W = Window(ASD - timedelta(days=45), ASD, 90, "Plan §7.5")
SIGNED = ASD - timedelta(days=40)
GOOD = ConsentFacts(
    kind="consent",
    consent_spouse="Jordan Morgan",
    election_id=7,
    consent_election_id=7,
    signed_on=ASD - timedelta(days=35),
    witness="notary",
    witness_name="Alex Notary",
    notary_commission_number="NY-123",
    notary_commission_expires=date(2029, 1, 1),
    witnessing="in_person",
    remote_live_audio_video=False,
    remote_identity_shown=False,
    remote_same_day_transmission=False,
    has_upload=True,
    verified=True,
    exception="",
    certification="",
    certified_by_staff=False,
)


def problems(facts=GOOD, spouse="Jordan Morgan"):
    return consent_problems(facts, spouse_now=spouse, election_signed_on=SIGNED, window=W)


def test_a_complete_verified_consent_is_valid():
    assert problems() == {}


def test_another_spouse_does_not_bind():
    # §417(a)(2)(B); §1.401(a)-20 Q&A-29: a consent binds only the spouse who signed it.
    assert "spouse" in problems(spouse="Casey Morgan")
    assert problems(spouse=" jordan  morgan ") == {}  # spacing and case are not another person


def test_consent_to_another_election_does_not_count():
    assert "election" in problems(replace(GOOD, consent_election_id=8))


def test_signed_outside_the_period():
    assert "signed_on" in problems(replace(GOOD, signed_on=ASD + DAY))
    assert problems(replace(GOOD, signed_on=ASD)) == {}
    assert "signed_on" in problems(
        replace(GOOD, signed_on=SIGNED - DAY)
    )  # before the election it consents to
    assert problems(replace(GOOD, signed_on=SIGNED)) == {}


def test_signed_before_the_period_opens():
    early = Window(ASD - timedelta(days=89), ASD, 90, "Plan §7.5")
    facts = replace(GOOD, signed_on=ASD - timedelta(days=91))
    assert "signed_on" in consent_problems(
        facts, spouse_now="Jordan Morgan", election_signed_on=ASD - timedelta(days=95), window=early
    )
    facts = replace(GOOD, signed_on=ASD - timedelta(days=90))
    assert (
        consent_problems(
            facts, spouse_now="Jordan Morgan", election_signed_on=ASD - timedelta(days=95), window=early
        )
        == {}
    )


def test_unverified_consent_does_not_count():
    assert set(problems(replace(GOOD, verified=False))) == {"verified"}


def test_no_witness_or_unnamed_witness():
    # §417(a)(2)(A)(iii): witnessed by a plan representative or a notary public.
    assert "witness" in problems(replace(GOOD, witness=""))
    assert "witness" in problems(replace(GOOD, witness_name=" "))
    assert (
        problems(
            replace(
                GOOD,
                witness="plan_representative",
                notary_commission_number="",
                notary_commission_expires=None,
            )
        )
        == {}
    )


def test_notary_needs_a_current_commission():
    assert "notary_commission_number" in problems(replace(GOOD, notary_commission_number=""))
    expired = replace(GOOD, notary_commission_expires=GOOD.signed_on - DAY)
    assert "notary_commission_expires" in problems(expired)
    assert problems(replace(GOOD, notary_commission_expires=GOOD.signed_on)) == {}


def test_remote_witnessing_needs_all_three_conditions():
    remote = replace(
        GOOD,
        witnessing="remote",
        remote_live_audio_video=True,
        remote_identity_shown=True,
        remote_same_day_transmission=True,
    )
    assert problems(remote) == {}
    for missing in ("remote_live_audio_video", "remote_identity_shown", "remote_same_day_transmission"):
        assert "witnessing" in problems(replace(remote, **{missing: False}))


def test_no_upload():
    assert "upload" in problems(replace(GOOD, has_upload=False))


def test_exception_needs_a_certification():
    exception = replace(
        GOOD, kind="exception", exception="cannot_locate", certification="", certified_by_staff=False
    )
    assert "certification" in problems(exception, spouse="")
    certified = replace(
        exception,
        certification="Searched: two letters returned, no forwarding address.",
        certified_by_staff=True,
    )
    assert problems(certified, spouse="") == {}
    assert "exception" in problems(replace(certified, exception=""), spouse="")
