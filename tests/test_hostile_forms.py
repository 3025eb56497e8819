"""Every form, driven with random and hostile input, as the access matrix drives every URL (issue 15).

For each POST in the access matrix, the user who may make it submits forms whose fields are either
the valid value or something hostile (NUL bytes, NaN, 10^30, dates in the year 9999, markup, SQL,
4,301 digits, a missing or forged one-time token). Whatever the input:

* the answer is never a server error (5xx);
* a refusal (4xx) writes nothing: no claim, event, document, token, run, quote, reading or role;
* no modeler run ends with a negative benefit.

Each example runs in a savepoint rolled back after it, on the access matrix's demo data set.
"""

from __future__ import annotations

import os
from datetime import date

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.models import SubmissionToken, User
from benefits.engine.input_ranges import negative_benefit
from benefits.models import AuditEvent, GeneratedDocument, ModelerRun, Plan, PlanMembership, SavedQuote
from elections.models import Claim, ClaimDetermination, ClaimDocument, ClaimEvent, ClaimNotice, ClaimVote
from tests.test_access_matrix import ARGS, DATA, DONE, MATRIX, _client_for, demo  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("HOSTILE_FORM_EXAMPLES", "12"))

HOSTILE_STRINGS = [
    "",
    " ",
    "\x00",
    "a\x00b",
    "NaN",
    "nan",
    "Infinity",
    "-Infinity",
    "-1",
    "-0.01",
    "0",
    "1e30",
    "1e-30",
    "9" * 4301,
    "9" * 40,
    "9999-12-31",
    "0001-01-01",
    "1800-01-01",
    "2200-01-01",
    "2026-02-30",
    "0000-00-00",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "../../etc/passwd",
    "{{ 7*7 }}",
    '{"a": [[[[[[]]]]]]}',
    "x" * 20000,
    "☃️👩‍👩‍👧",
    "\u202e\u200b",
]
_text = st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=60)
hostile = st.one_of(
    st.sampled_from(HOSTILE_STRINGS),
    _text,
    st.integers(min_value=-(10**40), max_value=10**40).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(str),
    st.dates(min_value=date(1, 1, 1), max_value=date(9999, 12, 31)).map(date.isoformat),
)
token = st.one_of(st.uuids().map(lambda u: u.hex), hostile)

# Fields each form has beyond the valid submission in the access matrix (optional ones included).
EXTRA_FIELDS = {
    "benefits:plan_modeler": ["spouse_birth_date", "future_pay", "future_hours", "mode"],
    "benefits:plan_statement_pdf": ["year", "start", "end"],
    "benefits:admin_plan_update_reading": ["value"],
    "elections:claim_new": ["statement", "disability_based", "commencement_date", "form"],
    "elections:claim_decide": ["outcome"],
}
STAFF_ROLES = ("committee", "administrator")


def _fingerprint() -> tuple:
    """Everything a refused form must leave as it was."""
    counts = tuple(
        m.objects.count()
        for m in (
            Claim,
            ClaimEvent,
            ClaimDocument,
            ClaimDetermination,
            ClaimVote,
            ClaimNotice,
            SubmissionToken,
            ModelerRun,
            SavedQuote,
            GeneratedDocument,
        )
    )
    writes = AuditEvent.objects.exclude(event_type__contains="viewed").count()
    claims = tuple(Claim.objects.order_by("pk").values_list("state", "due_on", "information_due_on"))
    plans = tuple(Plan.objects.order_by("pk").values_list("settings", "settings_confirmed_at"))
    users = tuple(User.objects.order_by("pk").values_list("role", "is_active"))
    return counts, writes, claims, plans, users


def _writer(row) -> str | None:
    for role in ("owner", *STAFF_ROLES):
        if getattr(row, role) == DONE:
            return role
    return None


TARGETS = [row for row in MATRIX if row.method == "POST" and _writer(row)]


@pytest.fixture(scope="module")
def clients(demo, django_db_blocker):  # noqa: F811 - the access matrix's module fixture
    """One logged-in client per role for the whole module (a TOTP code works once)."""
    with django_db_blocker.unblock():
        return {role: _client_for(role, Client())[0] for role in ("owner", *STAFF_ROLES)}


@pytest.mark.parametrize("row", TARGETS, ids=[f"{r.name}" for r in TARGETS])
def test_no_form_input_gives_a_server_error_or_a_partial_write(demo, clients, row, django_db_blocker):  # noqa: F811
    client = clients[_writer(row)]
    url = reverse(row.name, args=ARGS.get(row.name, lambda d: [])(demo))
    valid = DATA.get(row.name, lambda d: {})(demo)
    fields = sorted({*valid, *EXTRA_FIELDS.get(row.name, [])})

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        database=None,
    )
    @given(
        values=st.fixed_dictionaries(
            {f: (st.one_of(st.just(valid[f]), hostile) if f in valid else hostile) for f in fields}
        ),
        drop=st.sets(st.sampled_from(fields)) if fields else st.just(set()),
        submission_token=token,
    )
    def check(values, drop, submission_token):
        from django.db import transaction

        data = {k: v for k, v in values.items() if k not in drop}
        data = {k: v for k, v in data.items() if not hasattr(v, "read")}  # files: the upload tests cover them
        data["submission_token"] = submission_token
        with django_db_blocker.unblock(), transaction.atomic():
            before = _fingerprint()
            response = client.post(url, data)
            where = f"POST {url} {sorted(data)} → {response.status_code}"
            assert response.status_code < 500, where
            if 400 <= response.status_code < 500:
                assert _fingerprint() == before, f"{where}: a refused form wrote something"
            for run in ModelerRun.objects.filter(status=ModelerRun.Status.DONE):
                assert negative_benefit(run.result) is None, f"{where}: negative benefit in run {run.pk}"
            transaction.set_rollback(True)

    check()


def test_every_writing_form_is_driven():
    names = {row.name for row in TARGETS}
    assert {
        "elections:claim_new",
        "elections:claim_decide",
        "benefits:plan_modeler",
        "benefits:quote_save",
    } <= names
    assert "benefits:admin_plan_update_reading" in names and "accounts:user_change_role" in names


def test_loan_and_hardship_forms_take_hostile_amounts(demo, clients, django_db_blocker):  # noqa: F811
    """The 401(k) forms (amounts, terms, payment dates) are not in the matrix's rows: drive them too."""
    from django.db import transaction

    client = clients["owner"]
    m = PlanMembership.objects.get(participant_id=demo.pid, plan__key="carver-401k")

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        database=None,
    )
    @given(
        claim_type=st.sampled_from(["loan", "hardship", "withdrawal_59half"]),
        amount=st.one_of(st.just("5000"), hostile),
        term_months=st.one_of(st.just("24"), hostile),
        payment_date=hostile,
        reason=st.one_of(st.just("medical"), hostile),
        submission_token=token,
    )
    def check(claim_type, amount, term_months, payment_date, reason, submission_token):
        url = reverse("elections:claim_new", args=[m.pk, claim_type])
        data = {
            "amount": amount,
            "term_months": term_months,
            "payment_date": payment_date,
            "reason": reason,
            "statement": "need",
            "submission_token": submission_token,
        }
        with django_db_blocker.unblock(), transaction.atomic():
            before = _fingerprint()
            response = client.post(url, data)
            assert response.status_code < 500, (claim_type, data, response.status_code)
            if response.status_code >= 400:
                assert _fingerprint() == before
            transaction.set_rollback(True)

    check()


def test_identity_link_and_staff_search_take_hostile_input(demo, clients, django_db_blocker):  # noqa: F811
    """The two forms outside the matrix's writes: linking a record (by an unlinked login) and the
    staff participant search (NUL bytes answered 500 on PostgreSQL)."""
    from django.db import transaction

    from benefits.models import Participant

    staff = clients["committee"]
    with django_db_blocker.unblock():
        unlinked = User.objects.create_user(email="unlinked@sweep.test", password="demo-pass-2026")
        linker = Client()
        linker.force_login(unlinked)

    @settings(
        max_examples=EXAMPLES * 2,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        database=None,
    )
    @given(number=hostile, born=hostile, last4=hostile, query=hostile)
    def check(number, born, last4, query):
        with django_db_blocker.unblock(), transaction.atomic():
            linked = Participant.objects.filter(user__isnull=False).count()
            response = linker.post(
                "/account/link/", {"participant_number": number, "birth_date": born, "ssn_last4": last4}
            )
            assert response.status_code < 500, (number, born, last4)
            assert Participant.objects.filter(user__isnull=False).count() == linked
            assert staff.get("/benefits/staff/participants/", {"q": query}).status_code == 200, query
            transaction.set_rollback(True)

    check()


def test_a_null_character_in_any_posted_field_is_refused_whole_naming_the_field(client, demo):  # noqa: F811
    """The hostile-input reproduction: a rejection reason of "\\x00" reached PostgreSQL (500). Every
    POST with a null character is refused before any view, with the field named, and writes nothing."""
    from benefits.demo.loader import ADMIN_TOTP_SECRET
    from tests.conftest import login_with_totp

    admin = User.objects.get(email="admin@demo.test")
    login_with_totp(client, admin, password="demo-pass-2026", secret=ADMIN_TOTP_SECRET)
    before = _fingerprint()
    response = client.post(reverse("elections:notice_batches"), {"days": "30", "reason": "late\x00"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "The field “reason” contains a character that cannot be used" in page
    assert "Nothing was saved" in page
    assert _fingerprint() == before
