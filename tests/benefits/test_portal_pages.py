"""Participant portal pages: access (own only, staff read-only and audited), and the engine's numbers."""

from __future__ import annotations

import io
from datetime import date

import pytest
from django.core.management import call_command
from django.urls import reverse
from pypdf import PdfReader

from accounts.models import User
from benefits.engine import ENGINE_VERSION
from benefits.engine_adapter import estimate_traces, membership_calculate, request_calculate
from benefits.models import AuditEvent, GeneratedDocument, ModelerRun, PlanMembership, SavedQuote
from benefits.services import today
from benefits.services.documents import document_bytes
from tests.conftest import token

pytestmark = pytest.mark.django_db(transaction=True)

PLANS = ("carver-db", "carver-401k", "carver-esop")


@pytest.fixture
def demo(settings, tmp_path):
    settings.PRIVATE_STORAGE_ROOT = tmp_path
    call_command("load_demo", verbosity=0)
    return User.objects.get(email="pat@demo.test")


@pytest.fixture
def pat_client(client, demo):
    client.force_login(demo)
    return client


def _pid(user) -> int:
    return user.participant.pk


def _money(value: str) -> str:
    whole, cents = value.split(".")
    return f"${int(whole):,}.{cents}"


def _pdf_text(document) -> str:
    document.refresh_from_db()
    assert document.status == GeneratedDocument.Status.DONE, document.error
    reader = PdfReader(io.BytesIO(document_bytes(document)))
    return "\n".join(page.extract_text() for page in reader.pages)


def _pdf_creator(document) -> str:
    """The PDF's metadata: where the engine's version is kept (people read the page, not this)."""
    reader = PdfReader(io.BytesIO(document_bytes(document)))
    return str((reader.metadata or {}).get("/Creator", ""))


def _urls(pid: int, plan: str = "carver-db") -> list[str]:
    return [
        reverse("benefits:participant_dashboard", args=[pid]),
        reverse("benefits:plan_vesting", args=[pid, plan]),
        reverse("benefits:plan_statement", args=[pid, plan]),
        reverse("benefits:plan_modeler", args=[pid, "carver-db"]),
    ]


def test_anonymous_is_sent_to_login(client, demo):
    for url in _urls(_pid(demo)):
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], url


def test_another_participant_gets_404(client, demo):
    other = User.objects.create_user(email="someone@example.test", password="x-very-long-pass-1")
    other.role = User.Role.PARTICIPANT
    other.save()
    client.force_login(other)
    for url in _urls(_pid(demo)):
        assert client.get(url).status_code == 404, url
    run_url = reverse("benefits:plan_modeler", args=[_pid(demo), "carver-db"])
    assert client.post(run_url, {"mode": "dates", "dates": "2027-04-01"}).status_code == 404


def test_plan_the_participant_is_not_in_is_404(pat_client, demo):
    url = reverse("benefits:plan_vesting", args=[_pid(demo), "quaker-cash-balance"])
    assert pat_client.get(url).status_code == 404


def test_dashboard_shows_every_plan_with_the_engines_headline(pat_client, demo):
    html = pat_client.get(reverse("benefits:dashboard")).content.decode()
    for membership in PlanMembership.objects.filter(participant=demo.participant).select_related("plan"):
        assert membership.plan.name in html
        result = membership_calculate(membership, as_of=today())
        if membership.plan.key == "carver-db":
            assert _money(result["accrued_benefit"]["vested_monthly_at_nrd"]) in html
        else:
            assert _money(result["account"]["vested_balance"]) in html
        assert f"{result['vesting']['vested_percent']}%" in html


def test_a_plan_that_cannot_be_calculated_says_what_is_missing(pat_client, demo):
    membership = PlanMembership.objects.get(participant=demo.participant, plan__key="carver-esop")
    membership.plan_data = {"cash": "1.00"}  # no shares, no share value
    membership.save()
    response = pat_client.get(reverse("benefits:dashboard"))
    assert response.status_code == 200
    html = response.content.decode()
    # Partial results (issue 24): vesting and dates still show; the missing input is named in words.
    card = html.split("Carver Bancorp, Inc. Employee Stock Ownership Plan")[1].split("</section>")[0]
    assert "Vested" in card and "Normal retirement date" in card
    assert "We cannot show the account balance and the small-benefit cash-out test yet" in card
    assert "Carver Federal Savings Bank 401(k) Savings Plan" in html  # the other plans still show


def test_vesting_page_shows_service_year_by_year(pat_client, demo):
    membership = PlanMembership.objects.get(participant=demo.participant, plan__key="carver-db")
    result = membership_calculate(membership, as_of=today(), detail=True)
    html = pat_client.get(reverse("benefits:plan_vesting", args=[_pid(demo), "carver-db"])).content.decode()
    percent = result["vesting"]["vested_percent"]
    if percent == "100":  # issue 14: the fact first, the year-by-year table folded below it
        assert html.index("You are fully vested") < html.index("app-service-details")
        assert '<details class="app-details app-service-details">' in html
    else:
        assert f"{percent}% vested" in html
    assert "five-year cliff schedule" in html.lower()
    for row in result["service_history"]["rows"]:
        assert f'<th scope="row">{row["label"]}</th>' in html


def test_statement_pages_and_pdfs_hold_the_engines_numbers(pat_client, demo):
    pid = _pid(demo)
    for key in PLANS:
        membership = PlanMembership.objects.get(participant=demo.participant, plan__key=key)
        html = pat_client.get(reverse("benefits:plan_statement", args=[pid, key])).content.decode()
        response = pat_client.post(
            reverse("benefits:plan_statement_pdf", args=[pid, key]), {"submission_token": token()}
        )
        assert response.status_code == 302
        document = GeneratedDocument.objects.filter(kind="statement").latest("pk")
        text = _pdf_text(document)
        assert membership.plan.name in text and f"engine {ENGINE_VERSION}" not in text
        assert f"calculation engine {ENGINE_VERSION}" in _pdf_creator(document)
        if key == "carver-db":
            result = membership_calculate(membership, as_of=today())
            figure = result["accrued_benefit"]["monthly_at_nrd"]
        else:
            as_of = membership.balances.latest("as_of").as_of if membership.balances.exists() else today()
            result = membership_calculate(membership, as_of=as_of)
            figure = result["account"]["vested_balance"]
        assert _money(figure) in html
        assert _money(figure) in text
        assert (
            reverse("benefits:document_download", args=[document.pk])
            in pat_client.get(reverse("benefits:plan_statement", args=[pid, key])).content.decode()
        )


def _run(client, pid, data):
    response = client.post(
        reverse("benefits:plan_modeler", args=[pid, "carver-db"]), {**data, "submission_token": token()}
    )
    assert response.status_code == 302, response.content.decode()[-2000:]
    return ModelerRun.objects.latest("pk")


def test_modeler_prices_every_form_as_the_engine_does_and_saves_a_quote_pdf(pat_client, demo):
    pid = _pid(demo)
    dates = [date(2027, 1, 1), date(2027, 4, 1), date(2029, 4, 1)]
    run = _run(
        pat_client,
        pid,
        {
            "mode": "dates",
            "dates": ", ".join(d.isoformat() for d in dates),
            "spouse_birth_date": "1964-09-02",
        },
    )
    assert run.status == ModelerRun.Status.DONE and run.progress_done == 3
    membership = run.membership
    expected = membership_calculate(membership, as_of=run.as_of, commencement_dates=dates)
    html = pat_client.get(reverse("benefits:modeler_run", args=[pid, run.pk])).content.decode()
    for estimate in expected["estimates"]:
        for form in estimate["forms"].values():
            assert _money(form["monthly"]) in html
            if "survivor_monthly" in form:
                assert _money(form["survivor_monthly"]) in html
    assert run.result["estimates"] == expected["estimates"]
    # How was this calculated: the trace of a figure, with its plan section
    # (issue 14): collapsed by default, one calculation at a time on demand, htmx or a plain link.
    url = reverse("benefits:modeler_estimate", args=[pid, run.pk, 0])
    detail = pat_client.get(url).content.decode()
    assert "Early Commencement Adjustment Factor" not in detail and detail.count('hx-get="?trace=') >= 2
    one = pat_client.get(url, {"trace": "js50"}).content.decode()
    assert "Early Commencement Adjustment Factor" in one and "§4.4(B)" in one
    assert one.count("Early Commencement Adjustment Factor") < 3  # only the form asked for
    fragment = pat_client.get(url, {"trace": "js50"}, HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in fragment and "§4.4(B)" in fragment and "decimal places the plan states" in fragment
    assert pat_client.get(url, {"trace": "nonsense"}, HTTP_HX_REQUEST="true").status_code == 404
    # Save and print
    response = pat_client.post(
        reverse("benefits:quote_save", args=[pid, run.pk]), {"submission_token": token()}
    )
    quote = SavedQuote.objects.get()
    assert response["Location"] == reverse("benefits:quote_detail", args=[pid, quote.pk])
    assert quote.engine_version and quote.inputs["commencement_dates"] == [d.isoformat() for d in dates]
    pat_client.post(reverse("benefits:quote_pdf", args=[pid, quote.pk]), {"submission_token": token()})
    quote.refresh_from_db()
    text = _pdf_text(quote.document)
    js50 = expected["estimates"][1]["forms"]["js50"]
    assert js50["monthly"] in text and js50["survivor_monthly"] in text
    assert f"engine {quote.engine_version}" not in text  # people read plain words (issue 14)
    assert quote.engine_version in _pdf_creator(quote.document)
    assert AuditEvent.objects.filter(event_type="quote.saved").exists()


def test_a_finished_grid_is_served_without_reading_the_stored_result(pat_client, demo):
    # Issue 17: the result of a 181-date run is 5 MB of JSON; reading it was most of the page's time.
    # Once the grid is rendered, the page (and its saved quote) must not read it again.
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    pid = _pid(demo)
    run = _run(pat_client, pid, {"mode": "dates", "dates": "2027-01-01\n2028-01-01"})
    ModelerRun.objects.filter(pk=run.pk).update(
        result={**run.result, "missing": [{"field": "assumptions.segment_rates", "blocks": ["estimates"]}]}
    )
    cache.clear()
    url = reverse("benefits:modeler_run", args=[pid, run.pk])
    pat_client.get(url)  # renders the grid and keeps it
    with CaptureQueriesContext(connection) as queries:
        again = pat_client.get(url).content.decode()
    for estimate in run.result["estimates"]:
        for form in estimate["forms"].values():
            assert _money(form["monthly"]) in again
    assert "We cannot show" in again  # the sentences on missing inputs come with the cached grid
    assert not [q["sql"] for q in queries.captured_queries if '"result"' in q["sql"]]
    pat_client.post(reverse("benefits:quote_save", args=[pid, run.pk]), {"submission_token": token()})
    quote_url = reverse("benefits:quote_detail", args=[pid, SavedQuote.objects.get().pk])
    pat_client.get(quote_url)
    with CaptureQueriesContext(connection) as queries:
        assert pat_client.get(quote_url).status_code == 200
    assert not [q["sql"] for q in queries.captured_queries if '"result"' in q["sql"]]


def test_every_month_grid_runs_to_age_70_with_progress_and_a_chart(pat_client, demo):
    run = _run(pat_client, _pid(demo), {"mode": "every_month", "spouse_birth_date": "1964-09-02"})
    assert run.status == ModelerRun.Status.DONE
    assert run.progress_total == run.progress_done == len(run.result["estimates"]) > 12
    assert run.inputs["commencement_dates"][-1] == "2032-04-01"  # first of the month after the 70th birthday
    html = pat_client.get(reverse("benefits:modeler_run", args=[_pid(demo), run.pk])).content.decode()
    assert "<svg" in html and 'role="img"' in html and 'id="grid-table"' in html
    # Issue 29: the grid is priced without traces; a late date's steps are worked out when it is opened,
    # on the traced path, and are that date's own: the whole traced request gives the same steps.
    assert "traces" not in run.result
    last = len(run.result["estimates"]) - 1
    url = reverse("benefits:modeler_estimate", args=[_pid(demo), run.pk, last])
    one = pat_client.get(url, {"trace": "js50"}, HTTP_HX_REQUEST="true").content.decode()
    traced = request_calculate({**run.request, "options": {}})
    steps = traced["traces"][f"estimates[{last}].forms.js50"]
    assert len(steps) > 2 and "§" in one and "decimal places the plan states" in one
    assert estimate_traces(run.result, run.request, last)["traces"][f"estimates[{last}].forms.js50"] == steps


def test_bad_modeler_input_is_refused_whole_with_the_field_named(pat_client, demo):
    url = reverse("benefits:plan_modeler", args=[_pid(demo), "carver-db"])
    response = pat_client.post(url, {"mode": "dates", "dates": "2027-01-15", "submission_token": token()})
    assert response.status_code == 400
    assert "must be the first day of a month" in response.content.decode()
    response = pat_client.post(url, {"mode": "dates", "dates": "", "submission_token": token()})
    assert "Give at least one start date" in response.content.decode()
    assert not ModelerRun.objects.exists()


def test_progress_poll_refreshes_when_done(pat_client, demo):
    run = _run(pat_client, _pid(demo), {"mode": "dates", "dates": "2027-04-01"})
    response = pat_client.get(
        reverse("benefits:modeler_run", args=[_pid(demo), run.pk]), HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 204 and response["HX-Refresh"] == "true"
    ModelerRun.objects.filter(pk=run.pk).update(status=ModelerRun.Status.RUNNING, progress_done=0)
    response = pat_client.get(
        reverse("benefits:modeler_run", args=[_pid(demo), run.pk]), HTTP_HX_REQUEST="true"
    )
    assert b"<progress" in response.content and b'hx-trigger="every 1s"' in response.content


def test_staff_view_is_read_only_and_audited(client, demo, committee_user, staff_client):
    pid = _pid(demo)
    staff = staff_client(committee_user)
    before = AuditEvent.objects.filter(event_type="participant.viewed_by_staff").count()
    for url in _urls(pid):
        response = staff.get(url)
        assert response.status_code == 200, url
        assert "Read-only view" in response.content.decode()
    after = AuditEvent.objects.filter(event_type="participant.viewed_by_staff").count()
    assert after == before + 4
    modeler = staff.get(reverse("benefits:plan_modeler", args=[pid, "carver-db"])).content.decode()
    assert "Calculate" not in modeler
    assert (
        staff.post(
            reverse("benefits:plan_modeler", args=[pid, "carver-db"]),
            {"mode": "dates", "dates": "2027-04-01"},
        ).status_code
        == 403
    )
    pdf = reverse("benefits:plan_statement_pdf", args=[pid, "carver-db"])
    assert staff.post(pdf, {"submission_token": token()}).status_code == 403
    assert not GeneratedDocument.objects.filter(kind__in=["statement", "quote"]).exists()


def test_staff_cannot_save_a_participants_quote(client, demo, committee_user, staff_client):
    client.force_login(demo)
    run = _run(client, _pid(demo), {"mode": "dates", "dates": "2027-04-01"})
    client.logout()
    staff = staff_client(committee_user)
    assert staff.post(reverse("benefits:quote_save", args=[_pid(demo), run.pk])).status_code == 403
    assert not SavedQuote.objects.exists()
    # and sees the run read-only, audited
    assert staff.get(reverse("benefits:modeler_run", args=[_pid(demo), run.pk])).status_code == 200


def test_dashboard_lists_the_participants_open_claims(pat_client, demo):
    from decimal import Decimal

    elections_services = pytest.importorskip("elections.claims.services")
    from benefits.demo.loader import load_demo_prime_rates

    load_demo_prime_rates(as_of=today())  # the loan rate needs the month's prime rate (§8.3)
    membership = PlanMembership.objects.get(participant=demo.participant, plan__key="carver-401k")
    claim = elections_services.claim_file(
        filer=demo,
        membership=membership,
        claim_type="loan",
        details={"amount": Decimal("5000.00"), "term_months": 60},
    )
    html = pat_client.get(reverse("benefits:dashboard")).content.decode()
    assert "Your open claims" in html
    assert reverse("elections:claim_detail", args=[claim.pk]) in html


def _login_as(client, number: str):
    """Link a login to a demo participant (the demo has logins for Pat only)."""
    from benefits.models import Participant

    participant = Participant.objects.get(participant_number=number)
    user = User.objects.create_user(email=f"{number.lower()}@example.test", password="long-password-123")
    participant.user = user
    participant.save(update_fields=["user"])
    client.force_login(user)
    return participant


def test_cash_balance_statement_is_the_engines_ledger_and_its_pdf(client, demo):
    from benefits.engine.plans import get_plan
    from benefits.engine_adapter import engine_inputs

    participant = _login_as(client, "QCB-20002")
    membership = participant.memberships.get()
    year = today().year
    html = client.get(
        reverse("benefits:plan_statement", args=[participant.pk, "quaker-cash-balance"])
    ).content.decode()
    inputs = engine_inputs(membership, as_of=today())
    st = get_plan("quaker-cash-balance").ledger.statement(
        inputs.participant, today(), inputs.assumptions, date(year, 1, 1), today(), inputs.core
    )
    for amount in (st.opening, st.interest_credits, st.closing):
        assert _money(f"{amount:.2f}") in html
    client.post(
        reverse("benefits:plan_statement_pdf", args=[participant.pk, "quaker-cash-balance"]),
        {"year": year, "submission_token": token()},
    )
    text = _pdf_text(GeneratedDocument.objects.latest("pk"))
    assert f"{st.closing:,.2f}" in text and "Interest credits" in text


def test_cash_balance_modeler_shows_the_lump_sum(client, demo):
    participant = _login_as(client, "QCB-20002")
    url = reverse("benefits:plan_modeler", args=[participant.pk, "quaker-cash-balance"])
    assert 'name="future_pay"' in client.get(url).content.decode()
    client.post(
        url,
        {
            "mode": "dates",
            "dates": "2027-01-01",
            "future_pay": "90000",
            "future_hours": "2080",
            "submission_token": token(),
        },
    )
    run = ModelerRun.objects.latest("pk")
    assert run.status == ModelerRun.Status.DONE, run.error
    assert run.request["participants"][0]["compensation"]["2026"]  # the what-if pay reached the engine
    lump = run.result["estimates"][0]["forms"]["lump_sum"]["lump_sum"]
    html = client.get(reverse("benefits:modeler_run", args=[participant.pk, run.pk])).content.decode()
    assert _money(lump) in html


def test_modeler_says_so_when_nothing_is_vested(client, demo):
    participant = _login_as(client, "CFS-10003")  # 0% vested in the DB plan
    url = reverse("benefits:plan_modeler", args=[participant.pk, "carver-db"])
    html = client.get(url).content.decode()
    assert "You are not vested in this plan yet" in html and "Calculate" not in html
    client.post(url, {"mode": "every_month", "submission_token": token()})
    assert not ModelerRun.objects.exists()


def test_account_plans_have_no_modeler(pat_client, demo):
    assert (
        pat_client.get(reverse("benefits:plan_modeler", args=[_pid(demo), "carver-401k"])).status_code == 404
    )


def test_vesting_page_says_what_a_break_in_service_did(client, demo):
    participant = _login_as(client, "CFS-10004")  # rehired after a one-year break in 1989
    html = client.get(reverse("benefits:plan_vesting", args=[participant.pk, "carver-db"])).content.decode()
    assert "1 break year from 1989" in html
    assert "were kept" in html and "§1.1(HH)(4)" in html
    assert "<strong>Break in service</strong>" in html


def test_a_cliff_schedule_shows_the_zero_row_where_an_unvested_participant_stands(
    staff_client, committee_user, demo
):
    """Carver DB §1.1(NN): five-year cliff. Devon Price left with 3 years: 0%, 'Fewer than 5'."""
    from benefits.models import Participant

    devon = Participant.objects.get(participant_number="CFS-10003")
    client = staff_client(committee_user)
    body = client.get(reverse("benefits:plan_vesting", args=[devon.pk, "carver-db"])).content.decode()
    row = body[body.index("Fewer than 5") : body.index("</tr>", body.index("Fewer than 5"))]
    assert "0%" in row and "You are here" in row
    five = body[body.index("5 or more") : body.index("</tr>", body.index("5 or more"))]
    assert "100%" in five and "Not yet" in five


def test_each_form_says_who_is_paid_after_death_and_the_level_income_option_when_it_drops(pat_client, demo):
    """Issue 14 item 3. Pat (born March 14, 1962) starting February 1, 2027: the level income option
    pays more until Social Security is assumed to start, the first of the month on or after the 65th
    birthday (Carver DB §8.3(A)(2), the plan reading's default age 65): April 1, 2027."""
    from benefits.presenters.forms_explained import after_death

    pid = _pid(demo)
    run = _run(pat_client, pid, {"mode": "dates", "dates": "2027-02-01"})
    expected = membership_calculate(run.membership, as_of=run.as_of, commencement_dates=[date(2027, 2, 1)])
    level = expected["estimates"][0]["forms"]["ss_level"]
    page = pat_client.get(reverse("benefits:modeler_estimate", args=[pid, run.pk, 0])).content.decode()
    assert (
        f"You receive {_money(level['monthly'])} a month until Social Security is assumed to start, then "
        f"{_money(level['monthly_after_social_security'])} a month from April 1, 2027"
    ) in page
    js50 = expected["estimates"][0]["forms"]["js50"]
    assert f"Your spouse receives 50% of your payment ({_money(js50['survivor_monthly'])} a month)" in page
    assert "If you die within 10 years of the start, your beneficiary receives" in page
    assert "Payments stop at your death; nothing is paid to anyone after." in page
    # Relative values sit beside the amounts when the month's market data is there (the demo's is).
    assert "Relative value: <strong>" in page
    assert after_death("js66", {"survivor_monthly": "10.00"}).startswith("Your spouse receives 66⅔%")


def test_dashboard_totals_across_plans_and_says_why_service_differs(pat_client, demo):
    """Issue 14 item 8: pat is in three plans; balances add up in dollars today and the pension stays
    a monthly amount, and differing years of service are explained."""
    from decimal import Decimal

    html = pat_client.get(reverse("benefits:dashboard")).content.decode()
    balances = []
    pension = None
    for key in PLANS:
        m = PlanMembership.objects.get(participant=demo.participant, plan__key=key)
        r = membership_calculate(m, as_of=today())
        if key == "carver-db":
            pension = Decimal(
                r["accrued_benefit"].get("vested_monthly_at_nrd") or r["accrued_benefit"]["monthly_at_nrd"]
            )
        else:
            balances.append(Decimal(r["account"]["vested_balance"]))
    assert f"${sum(balances):,.2f}" in html and "across 2 plans" in html
    assert f"${pension:,.2f} a month" in html
    assert "Why your years of service differ from plan to plan" in html
