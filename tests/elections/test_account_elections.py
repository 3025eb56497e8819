"""The ESOP diversification election and 401(k) contribution rate changes (issue 13 item 5): the
engine's window and maximum (Fairport §6.4; Code §401(a)(28)(B)), the plan's rates and dates (Carver
401(k) §3.1, §3.3), refusals naming the rule, every version kept, audit events, one-time tokens and
the staff view.

Sam (demo FSB-40001) is born 1966-04-22 and a Participant every Plan Year since 1997: 55 on
2021-04-22, 10 years long before, so his qualified election period is Plan Years 2021-2026; the 2026
window (year 6, 50%) runs 2026-01-01 to 2027-03-31. He has 3,150 shares allocated and none diversified
before this service: 50% × 3,150 = 1,575 shares."""

import io
from datetime import date
from decimal import Decimal as D

import pytest
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.urls import reverse

from accounts.models import User
from benefits.audit import AuditEventType
from benefits.models import AuditEvent, GeneratedDocument
from elections.account_elections import services
from elections.account_elections.models import DeferralElection, DiversificationElection
from tests.conftest import login_with_totp, token
from tests.elections.conftest import AS_OF, demo_for_the_module, membership

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker, tmp_path_factory):
    """Loaded once: no test here commits (see demo_for_the_module)."""
    yield from demo_for_the_module(django_db_blocker, tmp_path_factory)


@pytest.fixture
def sam(demo):
    return User.objects.get(email="sam@demo.test")


@pytest.fixture
def esop(sam):
    return membership(sam, "fairport-esop")


@pytest.fixture
def k401(pat):
    return membership(pat, "carver-401k")


def refused(fn, **kw) -> str:
    with pytest.raises(services.AccountElectionRefused) as exc:
        fn(**kw)
    return " ".join(exc.value.errors.values())


# ------------------------------------------------------------------------------ diversification


def test_the_open_window_and_its_maximum_come_from_the_engine(esop):
    facts = services.diversification_for(esop, on=AS_OF)
    assert facts.eligible and facts.max_shares == D("1575.0000")
    r = facts.result
    assert (r["plan_year"], r["qep_year"], r["last_year"], r["percent"]) == (2026, 6, True, "50")
    assert (r["window_opens"], r["window_closes"]) == ("2026-01-01", "2027-03-31")


@pytest.mark.parametrize(
    ("on", "ok", "words"),
    [
        (date(2020, 12, 31), False, "opens on January 1, 2021"),  # the day before the first window
        (date(2021, 1, 1), True, ""),  # its first day
        (date(2027, 3, 31), True, ""),  # the last day of the last window
        (date(2027, 4, 1), False, "closed on March 31, 2027"),  # the day after
    ],
)
def test_window_boundaries_on_both_sides(sam, esop, on, ok, words):
    if ok:
        e = services.diversification_elect(user=sam, membership=esop, shares="10", on=on)
        assert e.made_on == on and e.state == "current"
    else:
        message = refused(services.diversification_elect, user=sam, membership=esop, shares="10", on=on)
        assert words in message and "§401(a)(28)(B)" in message
        assert not DiversificationElection.objects.filter(membership=esop).exists()


def test_above_the_maximum_is_refused_whole_naming_the_rule(sam, esop):
    message = refused(services.diversification_elect, user=sam, membership=esop, shares="1575.0001", on=AS_OF)
    assert "at most 1,575.0000 shares" in message and "50%" in message and "§6.4" in message
    assert not DiversificationElection.objects.exists()
    e = services.diversification_elect(
        user=sam, membership=esop, shares="1575", on=AS_OF
    )  # exactly the maximum
    assert e.shares == D("1575")


@pytest.mark.parametrize("bad", ["0", "-5", "abc", "1.00001", "NaN", "Infinity"])
def test_bad_share_counts_are_refused(sam, esop, bad):
    refused(services.diversification_elect, user=sam, membership=esop, shares=bad, on=AS_OF)
    assert not DiversificationElection.objects.exists()


def test_a_new_election_in_the_window_supersedes_and_keeps_the_old(sam, esop):
    first = services.diversification_elect(user=sam, membership=esop, shares="500", on=AS_OF)
    # the window's own election is not "previously elected": the maximum stays 1,575
    assert services.diversification_for(esop, on=AS_OF).max_shares == D("1575.0000")
    second = services.diversification_elect(user=sam, membership=esop, shares="1200", on=date(2027, 2, 1))
    first.refresh_from_db()
    assert (first.state, first.version, second.version, second.supersedes_id) == (
        "superseded",
        1,
        2,
        first.pk,
    )
    assert DiversificationElection.objects.filter(membership=esop).count() == 2
    with pytest.raises(IntegrityError), transaction.atomic():  # the database keeps one in force per window
        DiversificationElection.objects.filter(pk=first.pk).update(state="current")


def test_shares_elected_in_an_earlier_window_reduce_the_maximum(sam, esop):
    # 2025 window (year 5, 25%): 25% × 3,150 = 787.5
    y5 = services.diversification_for(esop, on=date(2025, 6, 1))
    assert (y5.result["percent"], y5.max_shares) == ("25", D("787.5000"))
    services.diversification_elect(user=sam, membership=esop, shares="700", on=date(2025, 6, 1))
    # 2026 window (year 6, 50%): 1,575 − 700 = 875; a record-keeper figure adds to it
    assert services.diversification_for(esop, on=AS_OF).max_shares == D("875.0000")
    esop.plan_data = {**esop.plan_data, "shares_diversified": "100.0000"}
    esop.save()
    assert services.diversification_for(esop, on=AS_OF).max_shares == D("775.0000")
    message = refused(services.diversification_elect, user=sam, membership=esop, shares="776", on=AS_OF)
    assert "at most 775.0000" in message


def test_the_election_is_audited_and_confirmed_in_the_documents(sam, esop):
    e = services.diversification_elect(user=sam, membership=esop, shares="250", on=AS_OF)
    ev = AuditEvent.objects.get(event_type=AuditEventType.DIVERSIFICATION_ELECTED)
    assert (
        ev.acting_user_id == sam.pk
        and ev.extra_data["election_id"] == e.pk
        and ev.extra_data["max_shares"] == "1575.0000"
    )
    doc = GeneratedDocument.objects.get(pk=e.confirmation_id)
    assert doc.participant_id == esop.participant_id and doc.payload["shares"] == "250.0000"
    assert doc.payload["complete_by"] == "2027-06-29"


def test_only_the_participant_elects(pat, esop):
    with pytest.raises(PermissionDenied):
        services.diversification_elect(user=pat, membership=esop, shares="10", on=AS_OF)


def test_a_plan_without_diversification_has_no_election(pat):
    assert services.diversification_for(membership(pat, "carver-esop"), on=AS_OF) is None


def test_the_page_shows_the_window_and_posts_once(client, sam, esop):
    client.force_login(sam)
    url = reverse("elections:diversification", args=[esop.pk])
    page = client.get(url).content.decode()
    assert "March 31, 2027" in page and "1,575.0000" in page and "distribution" in page
    t = token()
    for _ in range(2):
        resp = client.post(url, {"shares": "300", "confirm": "on", "submission_token": t})
        assert resp.status_code == 302
    assert DiversificationElection.objects.filter(membership=esop).count() == 1
    resp = client.post(url, {"shares": "300", "confirm": "on"})  # no token: refused, nothing made
    assert resp.status_code == 200 and "expired" in resp.content.decode()
    assert DiversificationElection.objects.filter(membership=esop).count() == 1


def test_an_ineligible_participant_sees_why_in_plain_words(client, demo):
    nora = User.objects.create_user(email="nora@example.test", password="x-pass-2026-long")
    from benefits.models import Participant

    p = Participant.objects.get(participant_number="FSB-40005")  # born 2000, four years in the plan
    p.user = nora
    p.save()
    client.force_login(nora)
    m = membership(nora, "fairport-esop")
    page = client.get(reverse("elections:diversification", args=[m.pk])).content.decode()
    assert "You cannot make an election today" in page and "reach age 55 on July 4, 2055" in page
    assert "<form" not in page.split("You cannot make an election today")[1]


# ------------------------------------------------------------------------------ contribution rate


def test_pat_has_a_rate_a_next_date_and_an_estimate(k401):
    facts = services.deferrals_for(k401, on=AS_OF)
    assert facts.current.percent == D("9") and facts.current.from_payroll_record
    assert facts.next_effective == date(2026, 12, 1)  # filed 2026-11-21: 10 days before December 1
    assert facts.limit.total == D("24500")  # §402(g)(1) for 2026; the plan has no catch-up (GAP-4)


def test_a_change_takes_effect_with_the_next_allowed_payroll_and_is_kept(pat, k401):
    row = services.deferral_change(user=pat, membership=k401, percent="6", on=AS_OF)
    assert (row.effective_on, row.previous_percent, row.percent) == (date(2026, 12, 1), D("9"), D("6"))
    assert services.deferrals_for(k401, on=date(2026, 11, 30)).current.percent == D("9")
    assert services.deferrals_for(k401, on=date(2026, 12, 1)).current.percent == D("6")
    ev = AuditEvent.objects.get(event_type=AuditEventType.DEFERRAL_RATE_CHANGED)
    assert (
        ev.extra_data["old"] == "9.00"
        and ev.extra_data["new"] == "6.00"
        and ev.extra_data["effective_on"] == "2026-12-01"
    )
    # a second change in the quarter is refused naming §3.3; stopping is still allowed
    message = refused(services.deferral_change, user=pat, membership=k401, percent="7", on=date(2026, 12, 15))
    assert "§3.3" in message and "one change" in message and "February 1, 2027" in message
    stop = services.deferral_change(user=pat, membership=k401, percent="0", on=date(2026, 12, 15))
    assert stop.effective_on == date(2027, 1, 1)
    # next quarter: a change again
    again = services.deferral_change(user=pat, membership=k401, percent="15", on=date(2027, 1, 2))
    assert again.effective_on == date(2027, 2, 1)
    assert DeferralElection.objects.filter(membership=k401).count() == 4  # nothing edited, all kept


@pytest.mark.parametrize("rate", ["16", "0.5", "7.5", "-1", "abc", "9"])
def test_out_of_range_rates_are_refused_naming_the_rule(pat, k401, rate):
    message = refused(services.deferral_change, user=pat, membership=k401, percent=rate, on=AS_OF)
    assert message.startswith("Contribution rate:")
    if rate in ("16", "0.5", "7.5", "-1"):
        assert "§3.1" in message
    assert DeferralElection.objects.filter(membership=k401).count() == 1


def test_rates_at_both_limits_are_accepted(pat, k401):
    assert services.deferral_change(user=pat, membership=k401, percent="15", on=AS_OF).percent == D(15)
    assert services.deferral_change(user=pat, membership=k401, percent="1", on=date(2027, 1, 5)).percent == D(
        1
    )


def test_the_rate_page_shows_rate_date_estimate_and_posts_once(client, pat, k401):
    client.force_login(pat)
    url = reverse("elections:deferrals", args=[k401.pk])
    page = client.get(url).content.decode()
    assert 'data-figure="current-rate"' in page and "9%" in page and "$24,500.00" in page
    t = token()
    for _ in range(2):
        assert client.post(url, {"percent": "5", "submission_token": t}).status_code == 302
    assert DeferralElection.objects.filter(membership=k401, from_payroll_record=False).count() == 1
    resp = client.post(url, {"percent": "20", "submission_token": token()})
    assert resp.status_code == 200 and "§3.1" in resp.content.decode()


# ------------------------------------------------------------------------------ staff view


def test_the_staff_view_is_read_only_and_audited(client, committee2, sam, esop):
    services.diversification_elect(user=sam, membership=esop, shares="40", on=AS_OF)
    assert login_with_totp(client, committee2).status_code == 302
    resp = client.get(reverse("elections:account_elections", args=[esop.participant_id]))
    main = resp.content.decode().split('id="main-content"')[-1].split("</main>")[0]
    # The only form is the idle-timeout warning's "Stay signed in" (every signed-in page has it).
    main = main.replace('method="post" action="/account/session/keepalive/"', "")
    assert resp.status_code == 200 and "40.0000" in main and 'method="post"' not in main
    ev = AuditEvent.objects.get(event_type=AuditEventType.ACCOUNT_ELECTIONS_VIEWED_BY_STAFF)
    assert ev.acting_user_id == committee2.pk and ev.participant_id == esop.participant_id
    # the participant pages themselves are the participant's alone
    assert client.get(reverse("elections:diversification", args=[esop.pk])).status_code == 403


def test_the_confirmation_pdf_states_the_election_in_plain_words(
    sam, esop, django_capture_on_commit_callbacks
):

    from pypdf import PdfReader

    from benefits.services.documents import document_bytes
    from tests.test_plain_words import jargon_in

    with django_capture_on_commit_callbacks(execute=True):
        e = services.diversification_elect(user=sam, membership=esop, shares="1200", on=AS_OF)
    doc = GeneratedDocument.objects.get(pk=e.confirmation_id)
    assert doc.status == "done", doc.error
    reader = PdfReader(io.BytesIO(document_bytes(doc)))
    text = " ".join(" ".join(p.extract_text().split()) for p in reader.pages)
    for expected in (
        "1,200.0000",
        "1,575.0000",
        "3,150.0000",
        "March 31, 2027",
        "June 29, 2027",
        "distribution",
    ):
        assert expected in text, expected
    assert not jargon_in(text), jargon_in(text)


def test_the_confirmation_prints_the_last_windows_50_percent_as_50_not_5e1(sam, esop):
    """§401(a)(28)(B)(i): 50% in the last year of the qualified election period; Decimal("50").normalize()
    would print "5E+1"."""
    from benefits.models import GeneratedDocument

    e = services.diversification_elect(user=sam, membership=esop, shares="10", on=AS_OF)
    payload = GeneratedDocument.objects.filter(participant=e.membership.participant).latest("pk").payload
    assert payload["percent"] == "50"
