"""`load_demo` is idempotent and loads what the demo promises."""

from datetime import date
from decimal import Decimal

import pytest
from allauth.mfa.models import Authenticator
from django.core.management import call_command

from accounts.models import User
from benefits.demo.loader import ADMIN_TOTP_SECRET, COMMITTEE2_TOTP_SECRET, COMMITTEE_TOTP_SECRET
from benefits.models import (
    AccountBalance,
    Compensation,
    EmploymentPeriod,
    HoursOfService,
    MarketRate,
    Participant,
    Plan,
    PlanMembership,
)
from tests.conftest import totp_now

pytestmark = pytest.mark.django_db

MODELS = [
    Plan,
    Participant,
    PlanMembership,
    HoursOfService,
    Compensation,
    AccountBalance,
    EmploymentPeriod,
    MarketRate,
    User,
    Authenticator,
]


def _counts():
    return {m.__name__: m.objects.count() for m in MODELS}


def test_loading_twice_leaves_the_same_rows():
    call_command("load_demo", as_of=date(2026, 11, 21))
    first = _counts()
    call_command("load_demo", as_of=date(2026, 11, 21))
    assert _counts() == first


def test_demo_has_five_plans_25_participants_and_three_logins(client):
    call_command("load_demo", as_of=date(2026, 11, 21))
    assert set(Plan.objects.values_list("key", flat=True)) == {
        "carver-db",
        "quaker-cash-balance",
        "carver-401k",
        "fairport-esop",
        "carver-esop",
    }
    assert Participant.objects.count() >= 25
    pat = User.objects.get(email="pat@demo.test")
    assert pat.role == User.Role.PARTICIPANT and pat.participant.memberships.count() >= 2
    assert User.objects.get(email="committee@demo.test").role == User.Role.COMMITTEE
    assert User.objects.get(email="admin@demo.test").role == User.Role.ADMINISTRATOR
    resp = client.post("/accounts/login/", {"login": "pat@demo.test", "password": "demo-pass-2026"})
    assert resp.status_code == 302 and "_auth_user_id" in client.session


@pytest.mark.parametrize(
    "email, secret, home",
    [
        # The committee's day starts on its claims queue (issue 14).
        ("committee@demo.test", COMMITTEE_TOTP_SECRET, "/claims/committee/"),
        ("committee2@demo.test", COMMITTEE2_TOTP_SECRET, "/claims/committee/"),
        ("admin@demo.test", ADMIN_TOTP_SECRET, "/benefits/staff/plans/"),
    ],
)
def test_staff_demo_logins_have_totp_enrolled_with_the_readme_secret(client, email, secret, home):
    call_command("load_demo", as_of=date(2026, 11, 21))
    resp = client.post("/accounts/login/", {"login": email, "password": "demo-pass-2026"})
    assert resp["Location"] == "/accounts/2fa/authenticate/"
    resp = client.post("/accounts/2fa/authenticate/", {"code": totp_now(secret)})
    assert client.get(resp["Location"], follow=True).redirect_chain[-1][0] == home
    readme = open("README.md").read()
    assert secret in readme


def test_demo_histories_exercise_the_rules():
    call_command("load_demo", as_of=date(2026, 11, 21))
    people = Participant.objects.all()
    assert (
        people.filter(marital_status="married").exists() and people.filter(marital_status="single").exists()
    )
    assert people.filter(termination_date__isnull=False).exists()
    # A rehire: someone with two spans of employment.
    assert any(p.employment_periods.count() > 1 for p in people)
    # A 401(k) loan outstanding.
    loans = [m.plan_data.get("loans", {}) for m in PlanMembership.objects.filter(plan__key="carver-401k")]
    assert any(float(loan.get("outstanding_balance", "0")) > 0 for loan in loans)
    # Several plans for one person.
    assert any(p.memberships.count() > 1 for p in people)
    # A year with too few hours for a Year of Service (a break or a short year).
    assert HoursOfService.objects.filter(hours__lt=500).exists()


def test_demo_plan_year_has_claims_in_every_state_with_flags_and_market_data(settings, tmp_path):
    """Issue 14 item 9: the committee's queue has work in each state, due soon and overdue; market data
    runs through the demo month (each row marked as demo data)."""
    from benefits.models import MarketRate
    from elections.claims.deadlines import flag
    from elections.models import Claim, ClaimState

    settings.DEMO_PLAN_YEAR_CLAIMS = True
    settings.PRIVATE_STORAGE_ROOT = tmp_path
    as_of = date(2026, 11, 21)
    call_command("load_demo", as_of=as_of)
    states = set(Claim.objects.values_list("state", flat=True))
    assert {
        ClaimState.RECEIVED,
        ClaimState.UNDER_REVIEW,
        ClaimState.INFO_REQUESTED,
        ClaimState.DENIED,
        ClaimState.APPEALED,
        ClaimState.APPEAL_UNDER_REVIEW,
        ClaimState.ELECTION_REQUIRED,
    } <= states
    assert Claim.objects.exclude(initial_extensions=[]).exists()  # an extension was taken
    denied = Claim.objects.get(state=ClaimState.DENIED)
    assert denied.appeal_by >= as_of  # still inside the appeal window
    flags = {
        flag(c.clock().due(today=as_of), today=as_of) for c in Claim.objects.filter(due_on__isnull=False)
    }
    assert {"overdue", "due_soon"} <= flags
    assert Claim.objects.values("participant").distinct().count() >= 7  # spread over the people
    assert Claim.objects.filter(assigned_to__email="committee@demo.test").exists()
    # Market data through the demo month, labelled.
    month = as_of.replace(day=1)
    for series in ("treasury_30y", "417e_segment_1", "417e_segment_2", "417e_segment_3"):
        row = MarketRate.objects.get(series=series, period=month)
        assert "DEMO" in row.source
    # Idempotent: a second load adds nothing.
    count = Claim.objects.count()
    call_command("load_demo", as_of=as_of)
    assert Claim.objects.count() == count
    # The identity-link record in README stays free to link.
    assert Participant.objects.get(participant_number="CFS-10008").user is None


def test_demo_market_data_equals_the_published_monthly_averages_and_stays_marked_demo():
    # Issue 24 item 4: Federal Reserve H.15 monthly averages (percent) where the published value is
    # known: the 10-year for November 2000, the 30-year for five months of 2025.
    call_command("load_demo", as_of=date(2026, 11, 21))
    published = {
        ("treasury_10y_november", date(2000, 11, 1)): "5.72",
        ("treasury_30y", date(2025, 3, 1)): "4.60",
        ("treasury_30y", date(2025, 4, 1)): "4.71",
        ("treasury_30y", date(2025, 7, 1)): "4.92",
        ("treasury_30y", date(2025, 9, 1)): "4.74",
        ("treasury_30y", date(2025, 10, 1)): "4.64",
    }
    for (series, period), percent in published.items():
        row = MarketRate.objects.get(series=series, period=period)
        assert str(row.percent.normalize()) == str(Decimal(percent).normalize()), (series, period)
        assert "demo data" in row.source  # still data an administrator confirms before production
