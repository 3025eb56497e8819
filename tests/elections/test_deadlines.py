"""The ERISA clock as pure arithmetic: periods, extensions, tolling, the appeal window, plan overrides."""

from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from elections.claims import deadlines as d

R = date(2026, 1, 15)


def clock(rules=d.DOL_STANDARD, **kw):
    return d.Clock(
        received=R, base_days=rules.initial_days, allowed_extensions=rules.initial_extensions, **kw
    )


def test_initial_decision_is_due_90_days_after_receipt():
    assert clock().due(today=R) == date(2026, 4, 15)


def test_one_extension_adds_90_days_when_noticed_before_the_period_ends():
    c = clock().extend(notice_sent=date(2026, 4, 15), days=90, today=date(2026, 4, 15))
    assert c.due(today=R) == date(2026, 7, 14)
    assert c.outer_limit_days == 180


def test_extension_notice_after_the_period_ended_is_refused():
    with pytest.raises(d.ExtensionRefused, match="must be sent by April 15, 2026"):
        clock().extend(notice_sent=date(2026, 4, 16), days=90, today=date(2026, 4, 16))


def test_only_one_extension_for_a_pension_claim_and_never_more_than_allowed():
    c = clock().extend(notice_sent=R, days=90, today=R)
    assert not c.can_extend()
    with pytest.raises(d.ExtensionRefused):
        c.extend(notice_sent=R, days=90, today=R)
    with pytest.raises(d.ExtensionRefused, match="at most 90"):
        clock().extend(notice_sent=R, days=91, today=R)


def test_disability_claims_get_45_days_and_two_30_day_extensions():
    c = clock(d.DOL_DISABILITY)
    assert c.due(today=R) == date(2026, 3, 1)
    c = c.extend(notice_sent=date(2026, 2, 20), days=30, today=R)
    assert c.due(today=R) == date(2026, 3, 31)
    c = c.extend(notice_sent=date(2026, 3, 31), days=30, today=R)
    assert c.due(today=R) == date(2026, 4, 30)
    assert not c.can_extend()


def test_a_request_with_the_extension_for_missing_information_tolls_until_the_answer():
    """(f)(4): the extension for missing information is taken with the request, and the period is
    tolled from the day that notice is sent until the claimant responds."""
    c = clock().toll(start=date(2026, 2, 1), respond_by=date(2026, 3, 31))
    assert c.paused and c.extensions == (90,)
    # While waiting, the due date moves on day by day: 90 + 90 + the days waited so far.
    assert c.due(today=date(2026, 2, 11)) == R + timedelta(days=180 + 10)
    c = c.resume(on=date(2026, 2, 21))
    assert not c.paused and not c.awaiting_answer
    assert c.due(today=date(2026, 12, 31)) == R + timedelta(days=180 + 20)


def test_an_unanswered_tolling_request_stops_the_clock_no_longer_than_its_answer_by_date():
    c = clock().toll(start=date(2026, 2, 1), respond_by=date(2026, 3, 3))
    assert c.due(today=date(2026, 3, 3)) == R + timedelta(days=180 + 30)
    assert c.due(today=date(2026, 6, 30)) == R + timedelta(days=180 + 30)


def test_extension_notice_for_missing_information_must_go_before_the_period_ends():
    clock().toll(start=date(2026, 4, 15))  # day 90: still in time
    with pytest.raises(d.ExtensionRefused, match="must be sent by April 15, 2026"):
        clock().toll(start=date(2026, 4, 16))


# The example: received January 1, 2026; information asked for on January 10.
JAN1 = date(2026, 1, 1)


def pension(**kw):
    return d.Clock(received=JAN1, base_days=90, allowed_extensions=(90,), **kw)


def test_a_request_without_an_extension_leaves_the_clock_running():
    """No tolling inside the 90 days without the extension of (f)(1)/(f)(4): answered March 10, the
    decision is still due April 1, 2026 (January 1 + 90 days), not May 30."""
    c = pension().ask(start=date(2026, 1, 10), respond_by=date(2026, 3, 15))
    assert c.awaiting_answer and not c.paused
    assert c.due(today=date(2026, 2, 1)) == date(2026, 4, 1)
    c = c.resume(on=date(2026, 3, 10))
    assert c.due(today=date(2026, 3, 10)) == date(2026, 4, 1)
    assert c.due(today=date(2026, 3, 10)) != date(2026, 5, 30)


def test_an_open_request_never_shows_a_date_past_the_outer_limit():
    """Still unanswered on June 30, 2026: April 1 without an extension, and with the one extension the
    rule allows, June 30 (90 + 90 days), never later."""
    c = pension().ask(start=date(2026, 1, 10))
    assert c.due(today=date(2026, 6, 30)) == date(2026, 4, 1)
    extended = pension().extend(notice_sent=date(2026, 3, 31), days=90, today=date(2026, 3, 31))
    c = extended.ask(start=date(2026, 4, 10))
    assert c.due(today=date(2026, 6, 30)) == date(2026, 6, 30) == JAN1 + timedelta(days=180)
    assert c.due(today=date(2026, 6, 30)) <= c.outer_limit(today=date(2026, 6, 30))


def test_the_example_with_the_extension_for_missing_information():
    """The same request sent as an extension notice on January 10 and answered March 10: 90 + 90 days
    plus the 59 days tolled (January 10 to March 10) = August 28, 2026."""
    c = pension().ask(start=date(2026, 1, 10), respond_by=date(2026, 3, 31), extend=True)
    c = c.resume(on=date(2026, 3, 10))
    assert c.due(today=date(2026, 3, 10)) == date(2026, 8, 28)
    # Answered a day later, one day more; the day it is sent counts as tolled, the answer day runs.
    c2 = pension().ask(start=date(2026, 1, 10), extend=True).resume(on=date(2026, 3, 11))
    assert c2.due(today=date(2026, 3, 11)) == date(2026, 8, 29)


def test_when_every_extension_is_taken_a_request_cannot_stop_the_clock():
    extended = pension().extend(notice_sent=date(2026, 1, 5), days=90, today=date(2026, 1, 5))
    with pytest.raises(d.ExtensionRefused, match="No further extension"):
        extended.ask(start=date(2026, 1, 10), extend=True)
    # Disability: the second 30-day extension may be the one for missing information (f)(3).
    dis = d.Clock(received=JAN1, base_days=45, allowed_extensions=(30, 30))
    dis = dis.extend(notice_sent=date(2026, 2, 14), days=30, today=date(2026, 2, 14))
    dis = dis.ask(start=date(2026, 3, 1), respond_by=date(2026, 4, 15), extend=True)
    assert dis.extensions == (30, 30)
    dis = dis.resume(on=date(2026, 3, 11))
    assert dis.due(today=date(2026, 3, 11)) == JAN1 + timedelta(days=45 + 30 + 30 + 10)


def test_tolling_and_extension_add_up():
    c = clock().toll(start=date(2026, 2, 1)).resume(on=date(2026, 2, 11))
    assert c.due(today=date(2026, 4, 20)) == R + timedelta(days=90 + 90 + 10)


def test_extension_deadline_counts_the_tolled_days():
    """Disability: after 10 tolled days in the first extension, the second extension's notice may go
    up to day 45 + 30 + 10."""
    dis = d.Clock(received=R, base_days=45, allowed_extensions=(30, 30))
    dis = dis.toll(start=date(2026, 2, 1)).resume(on=date(2026, 2, 11))
    last = R + timedelta(days=45 + 30 + 10)
    dis.extend(notice_sent=last, days=30, today=last)
    with pytest.raises(d.ExtensionRefused):
        dis.extend(notice_sent=last + timedelta(days=1), days=30, today=last + timedelta(days=1))


def test_toll_and_resume_guards():
    c = clock().ask(start=date(2026, 2, 1))
    with pytest.raises(ValueError):
        c.ask(start=date(2026, 2, 2))
    with pytest.raises(ValueError):
        c.resume(on=date(2026, 1, 31))
    with pytest.raises(ValueError):
        clock().resume(on=R)


@given(
    received=st.dates(date(2020, 1, 1), date(2030, 1, 1)),
    asked=st.integers(0, 200),
    answered=st.integers(0, 400),
    extend=st.booleans(),
    disability=st.booleans(),
    today=st.integers(0, 800),
)
def test_the_due_date_never_passes_the_outer_limit(received, asked, answered, extend, disability, today):
    """Whatever is asked and answered, the decision is due no later than the period and every
    extension the rule allows plus the days tolled, and a request without an extension moves nothing."""
    rules = d.DOL_DISABILITY if disability else d.DOL_STANDARD
    c = d.Clock(received=received, base_days=rules.initial_days, allowed_extensions=rules.initial_extensions)
    start = received + timedelta(days=asked)
    on = start + timedelta(days=today)
    try:
        asked_clock = c.ask(start=start, respond_by=start + timedelta(days=60), extend=extend)
    except d.ExtensionRefused:
        assert extend and start > c.due(today=start)
        return
    if answered <= today:
        asked_clock = asked_clock.resume(on=start + timedelta(days=answered))
    assert asked_clock.due(today=on) <= asked_clock.outer_limit(today=on)
    if not extend:
        assert asked_clock.due(today=on) == c.due(today=on)
    else:
        tolled = min(answered if answered <= today else today, 60)
        assert asked_clock.due(today=on) == received + timedelta(
            days=rules.initial_days + rules.initial_extensions[0] + tolled
        )


def test_appeal_window_review_period_and_disability_variants():
    assert d.appeal_deadline(date(2026, 4, 10), d.DOL_STANDARD) == date(2026, 6, 9)
    assert d.appeal_deadline(date(2026, 4, 10), d.DOL_DISABILITY) == date(2026, 10, 7)
    assert (d.DOL_STANDARD.review_days, d.DOL_STANDARD.review_extensions) == (60, (60,))
    assert (d.DOL_DISABILITY.review_days, d.DOL_DISABILITY.review_extensions) == (45, (45,))


def test_fairport_example_e10_from_its_spec():
    """Fairport SPEC E10: received 2015-01-15 → due 2015-04-15, extended 2015-07-14; denial received
    2015-04-10 → appeal by 2015-06-09; benefits starting 2015-03-01 need the claim by 2015-01-30."""
    rules = d.plan_rules("fairport-esop")
    cr = rules.clock_for(disability=False)
    c = d.Clock(
        received=date(2015, 1, 15), base_days=cr.initial_days, allowed_extensions=cr.initial_extensions
    )
    assert c.due(today=date(2015, 1, 15)) == date(2015, 4, 15)
    c = c.extend(notice_sent=date(2015, 4, 15), days=90, today=date(2015, 4, 15))
    assert c.due(today=date(2015, 4, 15)) == date(2015, 7, 14)
    assert d.appeal_deadline(date(2015, 4, 10), cr) == date(2015, 6, 9)
    assert d.earliest_commencement_for_filing(date(2015, 1, 30), rules) == date(2015, 3, 1)


def test_plan_rules_are_data_keyed_by_plan_and_never_looser_than_the_regulation():
    for key, rules in d.PLAN_CLAIM_RULES.items():
        assert rules.plan_key == key
        for disability in (False, True):
            c = rules.clock_for(disability=disability)
            dol = d.DOL_DISABILITY if disability else d.DOL_STANDARD
            assert c.initial_days <= dol.initial_days and c.review_days <= dol.review_days
            assert sum(c.initial_extensions) <= sum(dol.initial_extensions)
            assert c.appeal_window_days >= dol.appeal_window_days
    assert d.plan_rules("fairport-esop").votes_needed == 2
    assert d.plan_rules("carver-401k").independent_review
    assert d.plan_rules("unknown-plan").clock_for(disability=False) == d.DOL_STANDARD


def test_a_stricter_plan_period_wins():
    plan = d.ClockRules(30, (15,), 90, 30, (30,), 0, "a strict plan")
    c = d._stricter(d.DOL_STANDARD, plan)
    assert (c.initial_days, c.initial_extensions, c.appeal_window_days, c.review_days) == (30, (15,), 90, 30)


def test_queue_flags():
    assert d.flag(date(2026, 1, 1), today=date(2026, 1, 2)) == "overdue"
    assert d.flag(date(2026, 1, 10), today=date(2026, 1, 1)) == "due_soon"
    assert d.flag(date(2026, 3, 1), today=date(2026, 1, 1)) == ""
    assert d.flag(None, today=date(2026, 1, 1)) == ""
