"""Start dates whose look-back interest rates are not published yet (issue 25 item 2).

The demo loads market rates through November 2026. Carver DB prices a start on the rates of the third
full calendar month before it (§13.7(G); its relative values on the §417(e)(3) segment rates of the same
look-back month, Treas. Reg. §1.417(a)(3)-1(c)(2)(iv)): a start on February 1, 2027 rests on November
2026 rates (published), a start on March 1, 2027 on December 2026 rates (published in January 2027).
The explanation of the March start is given on the latest published rates (November 2026) and says so
(reasonable estimates, §1.417(a)(3)-1(c)(3)); the election waits for the final explanation, which is
given again, once per provisional explanation, when an administrator loads the December rates.
"""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.db import IntegrityError, transaction
from django.test import TestCase
from django.urls import reverse

from benefits.audit import AuditEventType
from benefits.models import AuditEvent, MarketRate
from benefits.start_rates import start_dates_overview, start_pricing
from elections.benefit_elections import services as elections
from elections.benefit_elections.models import BatchRule, ElectionDraft, Notice, NoticeBatch, NoticeBatchItem
from elections.claims import services as claims
from elections.models import ClaimState
from tests.elections.conftest import clear_demo_claims, demo_for_the_module, membership

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker, tmp_path_factory):
    """Loaded once: no test here commits (see demo_for_the_module)."""
    yield from demo_for_the_module(django_db_blocker, tmp_path_factory)


ON = date(2026, 12, 5)  # within the 90 days before March 1, 2027 (Carver DB §7.5)
MARCH = date(2027, 3, 1)  # look-back month December 2026: not published on ON
FEBRUARY = date(2027, 2, 1)  # look-back month November 2026: published (the demo's rates)
MONTH_CODE = re.compile(r"\b20\d\d-\d\d\b")


@pytest.fixture
def today(time_machine):
    time_machine.move_to("2026-12-05 15:00:00", tick=True)  # the pages' "today"
    return ON


@pytest.fixture
def admin(demo):
    from accounts.models import User

    return User.objects.get(email="admin@demo.test")


def approved_claim(pat, committee, start: date = MARCH):
    m = membership(pat, "carver-db")
    clear_demo_claims(m)
    claim = claims.claim_file(
        filer=pat,
        membership=m,
        claim_type="commencement",
        details={"commencement_date": start, "form": "js50"},
        statement="I would like to retire.",
        on=ON,
    )
    claims.claim_start_review(claim=claim, actor=committee, on=ON)
    claim = claims.claim_decide(
        claim=claim, actor=committee, outcome="approved", reasons="", provisions="§13.7", on=ON
    )
    assert claim.state == ClaimState.ELECTION_REQUIRED
    return claim


def provisional_notice(pat, committee) -> Notice:
    claim = approved_claim(pat, committee)
    with TestCase.captureOnCommitCallbacks(execute=True):
        return elections.notice_issue(
            membership=claim.membership, kind="qjsa_explanation", asd=MARCH, on=ON
        ).notice


def load_december(admin, *, segments=("4.45", "5.20", "5.85"), treasury="4.60"):
    """The administrator's market-rate import of December 2026 (the demo's November values by default)."""
    from benefits.imports.services import import_run

    rows = [f"417e_segment_{i},2026-12,{p},IRS notice (test)" for i, p in enumerate(segments, start=1)]
    rows.append(f"treasury_30y,2026-12,{treasury},Federal Reserve H.15 (test)")
    content = ("series,month,percent,source\n" + "\n".join(rows) + "\n").encode()
    with TestCase.captureOnCommitCallbacks(execute=True):
        batch, checked = import_run(
            kind="market_rates",
            file_name="rates-december.csv",
            content=content,
            dry_run=False,
            valid_rows_only=False,
            actor=admin,
        )
    assert batch.status == "applied", checked.errors
    return batch


# ------------------------------------------------------------------------------------ the boundary


def test_both_sides_of_the_publication_boundary(demo):
    plan = membership_of_demo("carver-db")
    feb, march = start_pricing(plan, FEBRUARY), start_pricing(plan, MARCH)
    assert feb.priceable and feb.months == (date(2026, 11, 1),)
    assert not march.priceable
    assert march.missing == (date(2026, 12, 1),) and march.stand_in == date(2026, 11, 1)
    assert march.published_by == date(2027, 1, 1)
    assert "December 2026 interest rates, published in January 2027" in march.sentence
    assert "November 2026" in march.sentence
    assert not MONTH_CODE.search(march.sentence) and "§" not in march.sentence
    overview = start_dates_overview(plan, first=ON)
    assert overview["through"] == FEBRUARY
    assert [r.start for r in overview["later"]][:2] == [MARCH, date(2027, 4, 1)]
    # Quaker City's look-back month is the second before the start (§1.2(e)): March rests on January.
    quaker = start_pricing(membership_of_demo("quaker-cash-balance"), MARCH)
    assert quaker.missing == (date(2027, 1, 1),)
    assert start_pricing(membership_of_demo("quaker-cash-balance"), date(2027, 1, 1)).priceable
    # The ESOPs' start dates rest on no published rate.
    assert start_dates_overview(membership_of_demo("fairport-esop"), first=ON)["applies"] is False


def pdf_text(document) -> str:
    import io

    from pypdf import PdfReader

    from benefits.services.documents import document_bytes

    document.refresh_from_db()
    assert document.status == "done"
    return "\n".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(document_bytes(document))).pages)


def visible(html: str) -> str:
    """The text a reader sees (tags and their attributes removed)."""
    return re.sub(r"<[^>]+>", " ", html)


def membership_of_demo(key: str):
    from benefits.models import Plan

    return Plan.objects.get(key=key)


def test_the_claim_form_and_the_modeler_say_which_dates_can_be_priced_now(client, pat, today):
    m = membership(pat, "carver-db")
    client.force_login(pat)
    for url in (
        reverse("elections:claim_new", args=[m.pk, "commencement"]),
        reverse("benefits:plan_modeler", args=[m.participant_id, "carver-db"]),
    ):
        page = client.get(url).content.decode()
        assert "Which start dates can be priced now" in page, url
        assert "through <strong>February 1, 2027</strong> can be priced now" in page, url
        assert "March 1, 2027: December 2026 interest rates, published in January 2027." in page, url
        assert "April 1, 2027: January 2027 interest rates, published in February 2027." in page, url
        section = visible(page.split("start-rates-heading", 1)[1].split("</section>", 1)[0])
        assert not MONTH_CODE.search(section) and "§" not in section, url


# ------------------------------------------------------------------------------------ filing and explaining


def test_filing_from_the_modeler_for_both_sides_of_the_boundary(client, pat, today):
    from django.contrib.messages import get_messages

    from elections.models import Claim

    m = membership(pat, "carver-db")
    client.force_login(pat)
    action = reverse("elections:claim_from_modeler", args=[m.pk])
    for start, token, estimated in ((FEBRUARY, "7" * 32, False), (MARCH, "8" * 32, True)):
        clear_demo_claims(m)
        Claim.objects.filter(membership=m).delete()
        r = client.post(
            action, {"asd": start.isoformat(), "form": "js50", "back": "/", "submission_token": token}
        )
        claim = Claim.objects.get(membership=m)
        assert r["Location"] == reverse("elections:claim_detail", args=[claim.pk])
        said = " ".join(str(message) for message in get_messages(r.wsgi_request))
        assert f"Your claim {claim.pk} was received" in said
        assert ("Your claim is accepted." in said) is estimated, said
        assert ("December 2026 interest rates, published in January 2027" in said) is estimated, said


def test_a_claim_for_an_unpublished_date_is_accepted_and_said_plainly(client, pat, committee, today):
    claim = approved_claim(pat, committee)
    client.force_login(pat)
    page = client.get(reverse("elections:claim_detail", args=[claim.pk])).content.decode()
    assert (
        "Payments starting on March 1, 2027 are priced on December 2026 interest rates, published in "
        "January 2027." in page
    )
    assert "Your claim is accepted." in page
    assert (
        "a new explanation with the final amounts follows once those rates are published (expected in January 2027)"
        in page
    )
    assert "You make your election on the final explanation." in page
    assert "Read the explanation (estimated amounts)" in page
    # A start on published rates says nothing of the kind.
    feb = start_pricing(claim.membership.plan, FEBRUARY)
    assert feb.priceable


def test_the_explanation_is_given_on_the_latest_rates_and_says_so(client, pat, committee, today):
    claim = approved_claim(pat, committee)
    client.force_login(pat)
    with TestCase.captureOnCommitCallbacks(execute=True):
        r = client.post(
            reverse("elections:election_start", args=[claim.membership_id]),
            {"asd": MARCH.isoformat(), "claim": claim.pk},
        )
    notice = Notice.objects.get(membership=claim.membership, kind="qjsa_explanation", asd=MARCH)
    # Given, flagged provisional with the month it stands in for; the participant is sent to read it.
    assert notice.provisional and notice.provisional_months == ["2026-12"]
    assert notice.content["provisional"] == {
        "months": ["2026-12"],
        "stand_in": "2026-11",
        "published_by": "2027-01",
    }
    assert r.status_code == 302 and r["Location"] == reverse("elections:notice_detail", args=[notice.pk])
    assert not ElectionDraft.objects.filter(membership=claim.membership).exists()
    page = client.get(r["Location"]).content.decode()
    statement = (
        "The amounts in this explanation are estimates. Payments starting on March 1, 2027 are priced on "
        "December 2026 interest rates, published in January 2027. Those rates had not been published when "
        "this explanation was given, so the amounts use the latest published rates (November 2026 interest "
        "rates). The amounts will be final on December 2026 interest rates, and a new explanation with the "
        "final amounts will be sent to you once they are published (expected in January 2027)."
    )
    assert statement in page
    assert "You make your election on the final explanation, expected in January 2027." in page
    assert "Make my election for" not in page
    assert not MONTH_CODE.search(visible(page)), MONTH_CODE.search(visible(page))
    # Its figures are the engine's on the November 2026 rates standing in for December's: the
    # relative values of Treas. Reg. §1.417(a)(3)-1(c)(2)(iv) are there (the red error of the issue is not).
    rows = {r["form"]: r for r in notice.content["forms"]}
    assert rows["js50"]["relative_value_percent"] and rows["life"]["relative_value_percent"]
    assert "December 2026 (until they are published, the November 2026 rates stand in)" in page
    event = AuditEvent.objects.get(event_type=AuditEventType.NOTICE_ISSUED, extra_data__notice_id=notice.pk)
    assert event.extra_data["provisional_months"] == ["2026-12"] and event.extra_data["stand_in"] == "2026-11"
    # The PDF says the same, in the same words.
    text = " ".join(pdf_text(notice.document).split())
    assert "Estimated amounts: a final explanation follows" in text
    assert "December 2026 interest rates, published in January 2027" in text
    assert "a new explanation with the final amounts will be sent to you" in text


def test_a_date_priced_on_published_rates_is_explained_as_final(pat, committee):
    claim = approved_claim(pat, committee, start=FEBRUARY)
    with TestCase.captureOnCommitCallbacks(execute=True):
        notice = elections.notice_issue(
            membership=claim.membership, kind="qjsa_explanation", asd=FEBRUARY, on=ON
        ).notice
    assert not notice.provisional and notice.provisional_months == [] and notice.content["provisional"] == {}


# ------------------------------------------------------------------------------------ the final explanation


def test_loading_the_rates_gives_each_waiting_explanation_again_exactly_once(pat, committee, admin):
    provisional = provisional_notice(pat, committee)
    load_december(admin)
    batch = NoticeBatch.objects.get(rule=BatchRule.RATES_PUBLISHED)
    assert batch.plan.key == "carver-db" and batch.state == NoticeBatch.State.DONE
    item = NoticeBatchItem.objects.get(batch=batch)
    assert item.state == NoticeBatchItem.State.ISSUED, item.failure_reason
    final = Notice.objects.get(replaces=provisional)
    assert item.notice == final
    assert not final.provisional and final.version == provisional.version + 1 and final.asd == MARCH
    assert final.content["replaces"]["notice_id"] == provisional.pk
    assert final.content["provisional"] == {}
    # With December's rates equal to November's, the final amounts are the estimated ones.
    assert [(r["form"], r["monthly"], r["relative_value_percent"]) for r in final.content["forms"]] == [
        (r["form"], r["monthly"], r["relative_value_percent"]) for r in provisional.content["forms"]
    ]
    created = AuditEvent.objects.get(
        event_type=AuditEventType.NOTICE_BATCH_CREATED, extra_data__batch_id=batch.pk
    )
    assert created.acting_user == admin and created.extra_data["rule"] == "rates_published"
    issued = AuditEvent.objects.get(event_type=AuditEventType.NOTICE_ISSUED, extra_data__notice_id=final.pk)
    assert issued.extra_data["replaces_notice_id"] == provisional.pk
    assert issued.extra_data["final_on_months"] == ["2026-12"]

    # Run twice: a second import of December's rates (a corrected figure) finds nothing waiting; the
    # batch run again, and the service called again, find the final explanation already given.
    load_december(admin, segments=("4.50", "5.20", "5.85"))
    assert NoticeBatch.objects.filter(rule=BatchRule.RATES_PUBLISHED).count() == 1
    NoticeBatchItem.objects.filter(pk=item.pk).update(state=NoticeBatchItem.State.PENDING)
    elections.batch_run(batch.pk)
    assert NoticeBatchItem.objects.get(pk=item.pk).state == NoticeBatchItem.State.ALREADY_ISSUED
    again = elections.notice_reissue_final(provisional=provisional, on=ON)
    assert again.notice == final and not again.created
    assert Notice.objects.filter(replaces=provisional).count() == 1
    # The database's rule: one final re-explanation per provisional explanation.
    with pytest.raises(IntegrityError), transaction.atomic():
        Notice.objects.create(
            participant=final.participant,
            plan=final.plan,
            membership=final.membership,
            kind=final.kind,
            asd=final.asd,
            version=final.version + 1,
            issued_on=ON,
            replaces=provisional,
        )


def test_rates_not_covering_the_month_start_no_batch(pat, committee, admin):
    provisional_notice(pat, committee)
    from benefits.imports.services import import_run

    content = b"series,month,percent,source\nprime_rate,2026-12,7.50,WSJ (test)\n"
    with TestCase.captureOnCommitCallbacks(execute=True):
        import_run(
            kind="market_rates",
            file_name="prime.csv",
            content=content,
            dry_run=False,
            valid_rows_only=False,
            actor=admin,
        )
    assert not NoticeBatch.objects.filter(rule=BatchRule.RATES_PUBLISHED).exists()
    # Only part of December (one segment) is not enough either: the final explanation needs all.
    MarketRate.objects.create(series="417e_segment_1", period=date(2026, 12, 1), percent="4.45", source="t")
    assert elections.rates_loaded(actor=admin, on=ON) == []


# ------------------------------------------------------------------------------------ the election


def test_the_election_waits_for_the_final_explanation(client, pat, committee, admin, today):
    provisional = provisional_notice(pat, committee)
    m = provisional.membership
    with pytest.raises(elections.ElectionWaits) as exc:
        elections.draft_start(user=pat, membership=m, asd=MARCH)
    assert exc.value.notice == provisional
    assert "expected in January 2027" in exc.value.errors["explanation"]
    # A draft on the provisional explanation (started before this rule, say) cannot be signed.
    draft = ElectionDraft.objects.create(
        participant=m.participant, membership=m, notice=provisional, asd=MARCH, created_by=pat
    )
    elections.draft_explanation_read(draft=draft, user=pat)
    elections.draft_save(draft=draft, user=pat, step="form", answers={"form": "js50"})
    problems = elections.validate_election(draft, on=ON)
    assert "You make your election on the final explanation" in problems["explanation"]

    load_december(admin)
    final = Notice.objects.get(replaces=provisional)
    # The old draft now names the explanation that replaced its own.
    assert "replaced" in elections.validate_election(draft, on=ON)["explanation"]
    # The election begins on the final explanation.
    client.force_login(pat)
    with TestCase.captureOnCommitCallbacks(execute=True):
        r = client.post(reverse("elections:election_start", args=[m.pk]), {"asd": MARCH.isoformat()})
    assert r.status_code == 302 and r["Location"].endswith("/explanation/"), r.get("Location")
    new_draft = ElectionDraft.objects.filter(membership=m).latest("pk")
    assert new_draft.notice == final
    page = client.get(r["Location"]).content.decode()
    assert "This explanation gives the final amounts, on December 2026 interest rates, now published." in page
    # The provisional explanation's page points to the final one.
    page = client.get(reverse("elections:notice_detail", args=[provisional.pk])).content.decode()
    assert reverse("elections:notice_detail", args=[final.pk]) in page


# ------------------------------------------------------------------------------------ access


def test_another_participant_cannot_read_the_provisional_explanation(client, pat, committee, today):
    from accounts.models import User
    from tests.factories import UserFactory

    provisional = provisional_notice(pat, committee)
    stranger = UserFactory(role=User.Role.PARTICIPANT)
    client.force_login(stranger)
    assert client.get(reverse("elections:notice_detail", args=[provisional.pk])).status_code == 404
    r = client.post(
        reverse("elections:election_start", args=[provisional.membership_id]), {"asd": MARCH.isoformat()}
    )
    assert r.status_code in (403, 404)
    # Only an administrator (or the workers acting for one) gives the final explanation.
    with pytest.raises(Exception, match="administrator"):
        elections.notice_reissue_final(provisional=provisional, actor=pat, on=ON)
