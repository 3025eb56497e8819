"""The ERISA clock as pure arithmetic: periods, extensions, tolling, the appeal window, plan overrides."""

from datetime import date, timedelta

import pytest

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


def test_a_request_for_information_tolls_the_clock_until_the_answer():
    c = clock().toll(start=date(2026, 2, 1))
    assert c.paused
    # While waiting, the due date moves on day by day.
    assert c.due(today=date(2026, 2, 11)) == date(2026, 4, 25)
    c = c.resume(on=date(2026, 2, 21))
    assert not c.paused
    assert c.due(today=date(2026, 12, 31)) == date(2026, 5, 5)  # 90 + 20 tolled days


def test_tolling_and_extension_add_up():
    c = clock().toll(start=date(2026, 2, 1)).resume(on=date(2026, 2, 11))
    c = c.extend(notice_sent=date(2026, 4, 20), days=90, today=date(2026, 4, 20))
    assert c.due(today=date(2026, 4, 20)) == R + timedelta(days=90 + 10 + 90)


def test_extension_deadline_counts_the_tolled_days():
    c = clock().toll(start=date(2026, 2, 1)).resume(on=date(2026, 2, 11))
    # Day 90 was April 15; ten tolled days move the end of the period to April 25.
    c.extend(notice_sent=date(2026, 4, 25), days=90, today=date(2026, 4, 25))
    with pytest.raises(d.ExtensionRefused):
        c.extend(notice_sent=date(2026, 4, 26), days=90, today=date(2026, 4, 26))


def test_toll_and_resume_guards():
    c = clock().toll(start=date(2026, 2, 1))
    with pytest.raises(ValueError):
        c.toll(start=date(2026, 2, 2))
    with pytest.raises(ValueError):
        c.resume(on=date(2026, 1, 31))
    with pytest.raises(ValueError):
        clock().resume(on=R)


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
