"""Every view of the project's own apps answers every kind of user correctly.

The matrix below is the specification: one row per URL pattern and method, one column per kind of
user. ``test_every_url_pattern_is_in_the_matrix`` walks the URL resolver, so a new view cannot be
added without deciding here who may use it.

Columns:
  anonymous      not logged in                               → the login page
  owner          pat, whose participant record, claims, quote and documents the URLs name
  other          another participant with a linked record     → 404 for pat's data (never 200, never a
                                                                403 that would confirm it exists)
  committee      plan committee member, logged in with TOTP   → read-only views 200 and audited
  administrator  administrator, logged in with TOTP
  no_mfa         a committee member and an administrator who have not enrolled TOTP → enrolment page

Each cell runs in its own rolled-back transaction on one demo data set built once for the module.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import transaction
from django.test import TestCase, override_settings
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from accounts.models import User
from benefits.demo.loader import ADMIN_TOTP_SECRET, COMMITTEE_TOTP_SECRET
from benefits.models import AuditEvent, GeneratedDocument, Participant, Plan, PlanMembership
from tests.conftest import PASSWORD, login_with_totp

pytestmark = pytest.mark.django_db

DEMO_PASSWORD = "demo-pass-2026"  # noqa: S105 - the demo logins' password (README)
PROJECT_APPS = ("accounts.", "benefits.", "elections.", "payments.", "taxes.")
PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
RATES = b"series,month,percent,source\nprime_rate,2001-07,6.75,WSJ (test)\n"


@dataclass(frozen=True)
class Expect:
    status: int
    location: str | None = None  # a 302 must go here (prefix); None: anywhere but login or enrolment
    audit: str = ""  # "view": an audit event names this viewer and pat's record; "write": names the actor

    def __str__(self) -> str:
        return " ".join(str(x) for x in (self.status, self.location, self.audit) if x)


LOGIN = Expect(302, "/accounts/login/")
ENROL = Expect(302, "/accounts/2fa/totp/activate/")
OK = Expect(200)
SEEN = Expect(200, audit="view")  # a staff member's read-only view of a participant, audited
MOVED = Expect(302)  # sent on to the user's own page
DONE = Expect(302, audit="write")  # the write was made (every write service records an audit event)
HIDDEN = Expect(404)
DENIED = Expect(403)
KEPT = Expect(204)  # "stay signed in": nothing to show, the request is the activity


@dataclass(frozen=True)
class Row:
    name: str
    method: str
    anonymous: Expect
    owner: Expect
    other: Expect
    committee: Expect
    administrator: Expect
    no_mfa: Expect


ROLES = ("anonymous", "owner", "other", "committee", "administrator", "no_mfa")

# fmt: off
MATRIX: tuple[Row, ...] = (
    #   URL name                                      method  anonymous owner   other   committee administrator no_mfa
    Row("home",                                       "GET",  LOGIN,  MOVED,  MOVED,  MOVED,  MOVED,  ENROL),
    Row("accounts:link_identity",                     "GET",  LOGIN,  MOVED,  MOVED,  DENIED, DENIED, ENROL),
    Row("accounts:link_identity",                     "POST", LOGIN,  MOVED,  MOVED,  DENIED, DENIED, ENROL),
    # roles and access: administrators only (the change itself also needs an MFA login)
    Row("accounts:users",                             "GET",  LOGIN,  DENIED, DENIED, DENIED, OK,     ENROL),
    Row("accounts:user_change_role",                  "POST", LOGIN,  DENIED, DENIED, DENIED, DONE,   ENROL),
    Row("accounts:user_set_active",                   "POST", LOGIN,  DENIED, DENIED, DENIED, DONE,   ENROL),
    # four eyes on power: an administrator asks, another administrator (or for the committee role a
    # sitting committee member) decides
    Row("accounts:session_keepalive",                 "POST", LOGIN,  KEPT,   KEPT,   KEPT,   KEPT,   ENROL),
    Row("accounts:staff_login_request",               "POST", LOGIN,  DENIED, DENIED, DENIED, DONE,   ENROL),
    Row("accounts:role_requests",                     "GET",  LOGIN,  DENIED, DENIED, OK,     OK,     ENROL),
    Row("accounts:role_request_decide",               "POST", LOGIN,  DENIED, DENIED, DONE,   DONE,   ENROL),
    # participant portal
    Row("benefits:dashboard",                         "GET",  LOGIN,  OK,     OK,     MOVED,  MOVED,  ENROL),
    Row("benefits:participant_dashboard",             "GET",  LOGIN,  OK,     HIDDEN, SEEN,   SEEN,   ENROL),
    Row("benefits:document_download",                 "GET",  LOGIN,  OK,     HIDDEN, SEEN,   SEEN,   ENROL),
    Row("benefits:plan_vesting",                      "GET",  LOGIN,  OK,     HIDDEN, SEEN,   SEEN,   ENROL),
    Row("benefits:plan_statement",                    "GET",  LOGIN,  OK,     HIDDEN, SEEN,   SEEN,   ENROL),
    Row("benefits:plan_statement_pdf",                "POST", LOGIN,  DONE,   HIDDEN, DENIED, DENIED, ENROL),
    Row("benefits:plan_modeler",                      "GET",  LOGIN,  OK,     HIDDEN, SEEN,   SEEN,   ENROL),
    Row("benefits:plan_modeler",                      "POST", LOGIN,  DONE,   HIDDEN, DENIED, DENIED, ENROL),
    Row("benefits:modeler_run",                       "GET",  LOGIN,  OK,     HIDDEN, SEEN,   SEEN,   ENROL),
    Row("benefits:modeler_estimate",                  "GET",  LOGIN,  OK,     HIDDEN, SEEN,   SEEN,   ENROL),
    Row("benefits:quote_save",                        "POST", LOGIN,  DONE,   HIDDEN, DENIED, DENIED, ENROL),
    Row("benefits:quote_detail",                      "GET",  LOGIN,  OK,     HIDDEN, SEEN,   SEEN,   ENROL),
    Row("benefits:quote_estimate",                    "GET",  LOGIN,  OK,     HIDDEN, SEEN,   SEEN,   ENROL),
    Row("benefits:quote_pdf",                         "POST", LOGIN,  DONE,   HIDDEN, DENIED, DENIED, ENROL),
    Row("benefits:delivery_preferences",              "GET",  LOGIN,  OK,     HIDDEN, SEEN,   SEEN,   ENROL),
    Row("benefits:delivery_test",                     "POST", LOGIN,  DONE,   HIDDEN, DENIED, DENIED, ENROL),
    Row("benefits:delivery_consent",                  "POST", LOGIN,  DONE,   HIDDEN, DENIED, DENIED, ENROL),
    Row("benefits:delivery_withdraw",                 "POST", LOGIN,  DONE,   HIDDEN, DENIED, DENIED, ENROL),
    # staff pages
    Row("benefits:staff_participants",                "GET",  LOGIN,  DENIED, DENIED, OK,     OK,     ENROL),
    Row("benefits:admin_plans",                       "GET",  LOGIN,  DENIED, DENIED, DENIED, OK,     ENROL),
    Row("benefits:admin_plan_detail",                 "GET",  LOGIN,  DENIED, DENIED, DENIED, OK,     ENROL),
    Row("benefits:admin_plan_confirm",                "POST", LOGIN,  DENIED, DENIED, DENIED, DONE,   ENROL),
    Row("benefits:plan_identity_edit",                "GET",  LOGIN,  DENIED, DENIED, DENIED, OK,     ENROL),
    Row("benefits:plan_identity_edit",                "POST", LOGIN,  DENIED, DENIED, DENIED, DONE,   ENROL),
    Row("benefits:admin_plan_update_reading",         "POST", LOGIN,  DENIED, DENIED, DENIED, DONE,   ENROL),
    Row("benefits:audit_log",                         "GET",  LOGIN,  DENIED, DENIED, DENIED, OK,     ENROL),
    Row("benefits:staff_jobs",                        "GET",  LOGIN,  DENIED, DENIED, OK,     OK,     ENROL),
    Row("benefits:staff_job_retry",                   "POST", LOGIN,  DENIED, DENIED, DONE,   DONE,   ENROL),
    Row("benefits:statement_batches",                 "GET",  LOGIN,  DENIED, DENIED, DENIED, OK,     ENROL),
    Row("benefits:statement_batches",                 "POST", LOGIN,  DENIED, DENIED, DENIED, DONE,   ENROL),
    Row("benefits:statement_batch",                   "GET",  LOGIN,  DENIED, DENIED, DENIED, OK,     ENROL),
    Row("benefits:statement_batch_retry",             "POST", LOGIN,  DENIED, DENIED, DENIED, DONE,   ENROL),
    Row("benefits:delivery_mailing",                  "GET",  LOGIN,  DENIED, DENIED, DENIED, OK,     ENROL),
    Row("benefits:delivery_mark_mailed",              "POST", LOGIN,  DENIED, DENIED, DENIED, DONE,   ENROL),
    # data imports and market rates: administrators only
    Row("benefits:imports_home",                      "GET",  LOGIN,  DENIED, DENIED, DENIED, OK,     ENROL),
    Row("benefits:imports_upload",                    "POST", LOGIN,  DENIED, DENIED, DENIED, DONE,   ENROL),
    Row("benefits:import_detail",                     "GET",  LOGIN,  DENIED, DENIED, DENIED, OK,     ENROL),
    Row("benefits:import_apply",                      "POST", LOGIN,  DENIED, DENIED, DENIED, DONE,   ENROL),
    Row("benefits:import_rollback",                   "POST", LOGIN,  DENIED, DENIED, DENIED, DONE,   ENROL),
    Row("benefits:market_rates",                      "GET",  LOGIN,  DENIED, DENIED, DENIED, OK,     ENROL),
    Row("benefits:regulatory_tables",                 "GET",  LOGIN,  DENIED, DENIED, DENIED, OK,     ENROL),
    # claims: the claimant's side (administrators do not see claims: 403 on pages, 404 on files)
    Row("elections:claims_home",                      "GET",  LOGIN,  OK,     OK,     MOVED,  DENIED, ENROL),
    Row("elections:claim_new",                        "GET",  LOGIN,  OK,     HIDDEN, DENIED, DENIED, ENROL),
    Row("elections:claim_new",                        "POST", LOGIN,  DONE,   HIDDEN, DENIED, DENIED, ENROL),
    # pat's Carver DB benefit already has its claim (the demo's): refused plainly, sent back, nothing written
    Row("elections:claim_from_modeler",               "POST", LOGIN,  MOVED,  HIDDEN, DENIED, DENIED, ENROL),
    Row("elections:claim_detail",                     "GET",  LOGIN,  OK,     HIDDEN, SEEN,   DENIED, ENROL),
    Row("elections:claim_document",                   "GET",  LOGIN,  OK,     HIDDEN, SEEN,   HIDDEN, ENROL),
    Row("elections:claim_notice",                     "GET",  LOGIN,  OK,     HIDDEN, SEEN,   HIDDEN, ENROL),
    Row("elections:claim_appeal",                     "POST", LOGIN,  DONE,   HIDDEN, DENIED, DENIED, ENROL),
    Row("elections:claim_answer",                     "POST", LOGIN,  DONE,   HIDDEN, DENIED, DENIED, ENROL),
    Row("elections:claim_add_documents",              "POST", LOGIN,  DONE,   HIDDEN, DENIED, DENIED, ENROL),
    Row("elections:claim_request_documents",          "POST", LOGIN,  DONE,   HIDDEN, DENIED, DENIED, ENROL),
    # claims: the committee's side (decisions are the committee's alone)
    Row("elections:committee_queue",                  "GET",  LOGIN,  DENIED, DENIED, OK,     DENIED, ENROL),
    Row("elections:claim_start_review",               "POST", LOGIN,  DENIED, DENIED, DONE,   DENIED, ENROL),
    Row("elections:claim_extend",                     "POST", LOGIN,  DENIED, DENIED, DONE,   DENIED, ENROL),
    Row("elections:claim_resume",                     "POST", LOGIN,  DENIED, DENIED, DONE,   DENIED, ENROL),
    Row("elections:claim_request_information",        "POST", LOGIN,  DENIED, DENIED, DONE,   DENIED, ENROL),
    Row("elections:claim_decide",                     "POST", LOGIN,  DENIED, DENIED, DONE,   DENIED, ENROL),
    Row("elections:claim_assign",                     "POST", LOGIN,  DENIED, DENIED, DONE,   DENIED, ENROL),
    Row("elections:claim_add_note",                   "POST", LOGIN,  DENIED, DENIED, DONE,   DENIED, ENROL),
    # benefit elections: the participant's side (staff read-only views are audited)
    Row("elections:documents",                        "GET",  LOGIN,  OK,     HIDDEN, SEEN,   SEEN,   ENROL),
    Row("elections:notice_detail",                    "GET",  LOGIN,  OK,     HIDDEN, SEEN,   SEEN,   ENROL),
    Row("elections:election_start",                   "POST", LOGIN,  DONE,   HIDDEN, DENIED, DENIED, ENROL),
    Row("elections:election_step",                    "GET",  LOGIN,  OK,     HIDDEN, DENIED, DENIED, ENROL),
    Row("elections:election_step",                    "POST", LOGIN,  DONE,   HIDDEN, DENIED, DENIED, ENROL),
    Row("elections:election_sign",                    "POST", LOGIN,  DONE,   HIDDEN, DENIED, DENIED, ENROL),
    Row("elections:election_detail",                  "GET",  LOGIN,  OK,     HIDDEN, SEEN,   SEEN,   ENROL),
    Row("elections:election_revoke",                  "POST", LOGIN,  DONE,   HIDDEN, DENIED, DENIED, ENROL),
    Row("elections:consent_upload",                   "POST", LOGIN,  DONE,   HIDDEN, DENIED, DENIED, ENROL),
    Row("elections:consent_file",                     "GET",  LOGIN,  OK,     HIDDEN, SEEN,   SEEN,   ENROL),
    # benefit elections: administrators issue notices and verify consents
    Row("elections:notice_batches",                   "GET",  LOGIN,  DENIED, DENIED, DENIED, OK,     ENROL),
    Row("elections:notice_batches",                   "POST", LOGIN,  DENIED, DENIED, DENIED, DONE,   ENROL),
    Row("elections:notice_issue_one",                 "POST", LOGIN,  DENIED, DENIED, DENIED, DONE,   ENROL),
    Row("elections:notice_batch",                     "GET",  LOGIN,  DENIED, DENIED, DENIED, OK,     ENROL),
    Row("elections:notice_batch_retry",               "POST", LOGIN,  DENIED, DENIED, DENIED, DONE,   ENROL),
    Row("elections:notice_batch_resume",              "POST", LOGIN,  DENIED, DENIED, DENIED, DONE,   ENROL),
    Row("elections:consent_queue",                    "GET",  LOGIN,  DENIED, DENIED, DENIED, OK,     ENROL),
    Row("elections:consent_review",                   "GET",  LOGIN,  DENIED, DENIED, DENIED, SEEN,   ENROL),
    Row("elections:consent_verify",                   "POST", LOGIN,  DENIED, DENIED, DENIED, DONE,   ENROL),
    Row("elections:consent_reject",                   "POST", LOGIN,  DENIED, DENIED, DENIED, DONE,   ENROL),
    Row("elections:consent_exception",                "POST", LOGIN,  DENIED, DENIED, DENIED, DONE,   ENROL),
    # account elections: the participant's own (ESOP diversification, 401(k) rate); staff read the history
    Row("elections:diversification",                  "GET",  LOGIN,  OK,     HIDDEN, DENIED, DENIED, ENROL),
    Row("elections:diversification",                  "POST", LOGIN,  DONE,   HIDDEN, DENIED, DENIED, ENROL),
    Row("elections:deferrals",                        "GET",  LOGIN,  OK,     HIDDEN, DENIED, DENIED, ENROL),
    Row("elections:deferrals",                        "POST", LOGIN,  DONE,   HIDDEN, DENIED, DENIED, ENROL),
    Row("elections:account_elections",                "GET",  LOGIN,  OK,     HIDDEN, SEEN,   SEEN,   ENROL),
    # beneficiary designations: the participant changes them; staff views are read-only and audited
    Row("elections:beneficiaries",                    "GET",  LOGIN,  OK,     HIDDEN, SEEN,   SEEN,   ENROL),
    Row("elections:beneficiaries_change",             "GET",  LOGIN,  OK,     HIDDEN, DENIED, DENIED, ENROL),
    Row("elections:beneficiaries_change",             "POST", LOGIN,  DONE,   HIDDEN, DENIED, DENIED, ENROL),
    Row("elections:designation_withdraw",             "POST", LOGIN,  DONE,   HIDDEN, DENIED, DENIED, ENROL),
    Row("elections:designation_exception",            "POST", LOGIN,  DENIED, DENIED, DENIED, DONE,   ENROL),
    # payments: the participant's own payments; the administrator's pay dates (issue 22)
    Row("payments:mine",                              "GET",  LOGIN,  OK,     OK,     DENIED, DENIED, ENROL),
    Row("payments:mine_pdf",                          "POST", LOGIN,  DONE,   DONE,   DENIED, DENIED, ENROL),
    Row("payments:correct_destination",               "POST", LOGIN,  DONE,   HIDDEN, DENIED, DENIED, ENROL),
    Row("payments:payee_bank_account",                "GET",  LOGIN,  OK,     HIDDEN, DENIED, DENIED, ENROL),
    Row("payments:payee_bank_account",                "POST", LOGIN,  DONE,   HIDDEN, DENIED, DENIED, ENROL),
    Row("payments:pay_date",                          "GET",  LOGIN,  DENIED, DENIED, DENIED, OK,     ENROL),
    Row("payments:export",                            "POST", LOGIN,  DENIED, DENIED, DENIED, DONE,   ENROL),
    Row("payments:instruction_csv",                   "GET",  LOGIN,  DENIED, DENIED, DENIED, OK,     ENROL),
    # taxes: loans in arrears and the declaration of a default (issue 27), administrators only
    Row("taxes:loans_in_arrears",                     "GET",  LOGIN,  DENIED, DENIED, DENIED, OK,     ENROL),
    Row("taxes:loan_default",                         "POST", LOGIN,  DENIED, DENIED, DENIED, DONE,   ENROL),
    # after a death (issue 22, item 6): administrators record it; nobody else sees the page
    Row("payments:deaths",                            "GET",  LOGIN,  DENIED, DENIED, DENIED, OK,     ENROL),
    Row("payments:death_record",                      "GET",  LOGIN,  DENIED, DENIED, DENIED, OK,     ENROL),
    Row("payments:death_record",                      "POST", LOGIN,  DENIED, DENIED, DENIED, DONE,   ENROL),
)
# fmt: on

# Cells the code does not meet yet, each with the reason; strict, so a fix makes the test say so.
KNOWN_GAPS: dict[tuple[str, str, str], str] = {}

# The URL arguments of each pattern, from the demo data set ``d``; every URL names pat's things.
ARGS = {
    "accounts:user_change_role": lambda d: [d.candidate_id],
    "accounts:user_set_active": lambda d: [d.candidate_id],
    "accounts:role_request_decide": lambda d: [_role_request(d)],
    "benefits:participant_dashboard": lambda d: [d.pid],
    "benefits:document_download": lambda d: [d.document_id],
    "benefits:plan_vesting": lambda d: [d.pid, "carver-db"],
    "benefits:plan_statement": lambda d: [d.pid, "carver-db"],
    "benefits:plan_statement_pdf": lambda d: [d.pid, "carver-db"],
    "benefits:plan_modeler": lambda d: [d.pid, "carver-db"],
    "benefits:modeler_run": lambda d: [d.pid, d.run_id],
    "benefits:modeler_estimate": lambda d: [d.pid, d.run_id, 0],
    "benefits:quote_save": lambda d: [d.pid, d.run_id],
    "benefits:quote_detail": lambda d: [d.pid, d.quote_id],
    "benefits:quote_estimate": lambda d: [d.pid, d.quote_id, 0],
    "benefits:quote_pdf": lambda d: [d.pid, d.quote_id],
    "benefits:delivery_preferences": lambda d: [d.pid],
    "benefits:delivery_test": lambda d: [d.pid],
    "benefits:delivery_consent": lambda d: [d.pid],
    "benefits:delivery_withdraw": lambda d: [d.pid],
    "benefits:delivery_mark_mailed": lambda d: [d.paper_delivery_id],
    "benefits:admin_plan_detail": lambda d: ["carver-db"],
    "benefits:staff_job_retry": lambda d: [_failed_job(d)],
    "benefits:statement_batch": lambda d: [_batch(d)],
    "benefits:statement_batch_retry": lambda d: [_batch(d)],
    "benefits:admin_plan_confirm": lambda d: ["carver-db"],
    "benefits:plan_identity_edit": lambda d: ["carver-db"],
    "benefits:admin_plan_update_reading": lambda d: ["fairport-esop", "pre_plan_vesting_cap_years"],
    "benefits:import_detail": lambda d: [d.import_previewed],
    "benefits:import_apply": lambda d: [d.import_previewed],
    "benefits:import_rollback": lambda d: [d.import_applied],
    "elections:claim_new": lambda d: [d.k401_membership_id, "withdrawal_59half"],
    "elections:claim_from_modeler": lambda d: [d.membership_id],
    "elections:claim_detail": lambda d: [d.under_review],
    "elections:claim_document": lambda d: [d.claim_document_id],
    "elections:claim_notice": lambda d: [d.denied, d.notice_id],
    "elections:claim_appeal": lambda d: [d.denied],
    "elections:claim_answer": lambda d: [d.info_requested],
    "elections:claim_add_documents": lambda d: [d.under_review],
    "elections:claim_request_documents": lambda d: [d.under_review],
    "elections:claim_start_review": lambda d: [d.received],
    "elections:claim_extend": lambda d: [d.under_review],
    "elections:claim_resume": lambda d: [d.info_requested],
    "elections:claim_request_information": lambda d: [d.under_review],
    "elections:claim_decide": lambda d: [d.under_review],
    "elections:claim_assign": lambda d: [d.under_review],
    "elections:claim_add_note": lambda d: [d.under_review],
    "elections:documents": lambda d: [d.pid],
    "elections:notice_detail": lambda d: [d.election_notice_id],
    "elections:election_start": lambda d: [d.membership_id],
    "elections:election_step": lambda d: [d.draft_id, "form"],
    "elections:election_sign": lambda d: [d.draft_id],
    "elections:election_detail": lambda d: [d.election_id],
    "elections:election_revoke": lambda d: [d.election_id],
    "elections:consent_upload": lambda d: [d.open_consent_id],
    "elections:consent_file": lambda d: [d.consent_id],
    "elections:notice_batch": lambda d: [d.batch_id],
    "elections:notice_batch_retry": lambda d: [d.batch_id],
    "elections:notice_batch_resume": lambda d: [d.batch_id],
    "elections:consent_review": lambda d: [d.consent_id],
    "elections:consent_verify": lambda d: [d.consent_id],
    "elections:consent_reject": lambda d: [d.consent_id],
    "elections:consent_exception": lambda d: [d.election_id],
    "elections:diversification": lambda d: [d.esop_membership_id],
    "elections:deferrals": lambda d: [d.k401_membership_id],
    "elections:account_elections": lambda d: [d.pid],
    "elections:beneficiaries": lambda d: [d.pid],
    "elections:beneficiaries_change": lambda d: [d.k401_membership_id],
    "elections:designation_withdraw": lambda d: [d.designation_id],
    "elections:designation_exception": lambda d: [d.designation_id],
    "payments:correct_destination": lambda d: [_returned_payment(d)],
    "payments:payee_bank_account": lambda d: [_continuing_payment(d)],
    "payments:export": lambda d: [_due_payment(d)],
    "payments:instruction_csv": lambda d: ["2027-01-01"],
    "taxes:loan_default": lambda d: [_loan_in_arrears(d)],
    "payments:death_record": lambda d: [_annuity_in_pay(d)],
}


def _returned_payment(d) -> int:
    """A payment of pat's the bank returned (made inside the test's own transaction)."""
    from payments.models import Payment

    m = PlanMembership.objects.get(participant_id=d.pid, plan__key="carver-db")
    return Payment.objects.create(
        membership=m,
        participant_id=d.pid,
        payee_name="Pat",
        kind="annuity",
        frequency="monthly",
        gross="1000.00",
        first_pay_date=date(2027, 1, 1),
        method="direct_deposit",
        state="returned",
    ).pk


def _continuing_payment(d) -> int:
    """A survivor annuity continuing to pat's login (a verified Beneficiary link) after another
    participant's death, paid by check until pat gives a bank account."""
    from django.utils import timezone

    from elections.models import BeneficiaryLink
    from payments.models import Payment

    owner = Participant.objects.get(pk=d.pid)
    m = PlanMembership.objects.filter(plan__key="carver-db").exclude(participant_id=d.pid).order_by("pk")[0]
    link = BeneficiaryLink.objects.create(
        user=owner.user,
        participant=m.participant,
        beneficiary_name=owner.full_name,
        relationship="spouse",
        verified_at=timezone.now(),
    )
    common = {"membership": m, "participant": m.participant, "kind": "annuity", "frequency": "monthly"}
    stopped = Payment.objects.create(
        **common, payee_name=m.participant.full_name, gross="1000.00", first_pay_date=date(2026, 1, 1),
        method="check", state="stopped",
    )  # fmt: skip
    return Payment.objects.create(
        **common, payee_name=owner.full_name, payee_relationship="survivor", payee_link=link,
        continues_from=stopped, gross="500.00", first_pay_date=date(2027, 1, 1), method="check",
    ).pk  # fmt: skip


def _loan_in_arrears(d) -> int:
    """A Carver 401(k) loan whose April 1, 2026 repayment was missed (cure period over June 30, 2026), of
    a borrower of its own so the demo's loan history does not cover the missed payment."""
    from tests.factories import MembershipFactory, ParticipantFactory
    from tests.taxes.helpers import make_loan_in_arrears

    plan = Plan.objects.get(key="carver-401k")
    m = MembershipFactory(plan=plan, participant=ParticipantFactory(birth_date=date(1980, 5, 1)))
    return make_loan_in_arrears(m).pk


def _due_payment(d) -> str:
    """Pat's annuity, first due on January 1, 2027, so the export has something to send (a life annuity
    is not an eligible rollover distribution: no §402(f) notice holds it back)."""
    from payments.models import Payment

    m = PlanMembership.objects.get(participant_id=d.pid, plan__key="carver-db")
    Payment.objects.create(
        membership=m,
        participant_id=d.pid,
        payee_name="Pat",
        kind="annuity",
        frequency="monthly",
        gross="1000.00",
        first_pay_date=date(2027, 1, 1),
        method="check",
    )
    return "2027-01-01"


def _annuity_in_pay(d) -> int:
    """Pat's annuity, first due on the first of the month (so a death today can be recorded for it)."""
    from payments.models import Payment

    m = PlanMembership.objects.get(participant_id=d.pid, plan__key="carver-db")
    return Payment.objects.create(
        membership=m,
        participant_id=d.pid,
        payee_name="Pat",
        kind="annuity",
        frequency="monthly",
        gross="1000.00",
        first_pay_date=d.today.replace(day=1),
        method="check",
    ).pk


def _failed_job(d) -> int:
    """A job that failed (staff may retry it), made inside the test's own transaction."""
    from benefits.jobs.models import Job
    from benefits.tasks import render_document

    job = render_document.job_create(target_id=d.document_id)
    Job.objects.filter(pk=job.pk).update(status=Job.Status.FAILED, error="The database was unavailable.")
    return job.pk


def _role_request(d) -> int:
    """A committee role for the candidate, asked for by a third administrator (so both the demo's
    committee member and its administrator may approve it), made inside the test's own transaction."""
    from accounts.models import RoleRequest

    asker = User.objects.create_user(email="asker@sweep.test", role=User.Role.ADMINISTRATOR)
    candidate = User.objects.get(pk=d.candidate_id)
    return RoleRequest.objects.create(
        user=candidate, email=candidate.email, role="committee", requested_by=asker
    ).pk


def _batch(d) -> int:
    """A statement batch of carver-db (queued, not run), made inside the test's own transaction."""
    from benefits.batches.services import batch_start
    from benefits.models import Plan

    return batch_start(plan=Plan.objects.get(key="carver-db"), year=d.today.year - 1).pk


# A valid submission for each write, so the allowed user's answer is the real one (not a form error).
DATA = {
    "benefits:plan_identity_edit": lambda d: {
        "plan_number": "004",
        "sponsor_name": "A Sponsor",
        "sponsor_address": "1 Main Street\nTown, NY 10001",
        "administrator_name": "The Committee",
        "administrator_address": "1 Main Street\nTown, NY 10001",
        "administrator_phone": "(212) 555-0100",
    },
    "accounts:user_change_role": lambda d: {f"u{d.candidate_id}-role": "committee"},
    "accounts:user_set_active": lambda d: {"active": "0"},
    "accounts:staff_login_request": lambda d: {"email": "new.staff@sweep.test", "role": "committee"},
    "accounts:role_request_decide": lambda d: {"decision": "approve"},
    "benefits:plan_modeler": lambda d: {"mode": "dates", "dates": d.start.isoformat()},
    "benefits:admin_plan_update_reading": lambda d: {"action": "reset"},
    "benefits:delivery_consent": lambda d: {
        "email": "pat.new@example.test",
        "code": d.delivery_code,
        "acknowledged": "on",
    },
    "benefits:delivery_mark_mailed": lambda d: {"mailed_on": d.today.isoformat()},
    "benefits:statement_batches": lambda d: {"plan": "quaker-cash-balance", "year": d.today.year - 1},
    "benefits:imports_upload": lambda d: {
        "kind": "market_rates",
        "file": SimpleUploadedFile("rates.csv", RATES),
    },
    "elections:claim_new": lambda d: {
        "amount": "1000.00",
        "payment_date": (d.today + timedelta(days=30)).isoformat(),
        "payment_method": "direct_payment",
        "w4r_rate": "20",
    },
    "elections:claim_from_modeler": lambda d: {"asd": d.start.isoformat(), "form": "js50"},
    "payments:death_record": lambda d: {"died_on": d.today.isoformat(), "evidence_reference": "DC-2026-1"},
    "payments:correct_destination": lambda d: {
        "routing_number": "011000015",
        "account_number": "123456789",
        "account_type": "checking",
    },
    "payments:payee_bank_account": lambda d: {
        "routing_number": "011000015",
        "account_number": "123456789",
        "account_type": "checking",
    },
    "elections:claim_appeal": lambda d: {"statement": "Please look again."},
    "elections:claim_answer": lambda d: {"response": "Here it is."},
    "elections:claim_add_documents": lambda d: {"documents": [SimpleUploadedFile("more.pdf", PDF)]},
    "elections:claim_extend": lambda d: {"reason": "An actuarial review of the service record."},
    "elections:claim_request_information": lambda d: {
        "what": "Proof of age, to fix the start date.",
        "extend": "no",
        "respond_by": (d.today + timedelta(days=60)).isoformat(),
    },
    "elections:claim_assign": lambda d: {"assignee": str(User.objects.get(email="committee@demo.test").pk)},
    "elections:claim_add_note": lambda d: {"text": "Checked the service record against payroll."},
    "elections:claim_decide": lambda d: {
        "outcome": "denied",
        "reasons": "The requested date is before the earliest retirement date.",
        "provisions": "§4.3",
        "perfecting_material": "None: the date itself is the reason.",
    },
    "elections:election_start": lambda d: {"asd": d.asd.isoformat(), "claim": d.election_claim_id},
    "elections:election_step": lambda d: {"form": "js50"},
    "elections:election_sign": lambda d: {"password": DEMO_PASSWORD, "confirm": "on"},
    "elections:consent_upload": lambda d: {
        "document": SimpleUploadedFile("consent.pdf", PDF),
        "signed_on": d.today.isoformat(),
        "witness": "plan_representative",
        "witness_name": "Robin Lee, Benefits Office",
        "witnessing": "in_person",
    },
    "elections:notice_batches": lambda d: {
        "plan": "carver-db",
        "rule": "awaiting_election",
        "within_days": "90",
    },
    "elections:notice_issue_one": lambda d: {
        "plan": "carver-db",
        "participant_number": "CFS-10004",
        "kind": "qjsa_explanation",
        "asd": d.asd.isoformat(),
    },
    "elections:consent_reject": lambda d: {"reason": "The notary's seal is missing."},
    "elections:diversification": lambda d: {"shares": "10", "confirm": "on"},
    "elections:deferrals": lambda d: {"percent": "5"},
    "elections:consent_exception": lambda d: {
        "exception": "cannot_locate",
        "certification": "Letters to the last two addresses were returned; no forwarding address was found.",
    },
    "elections:designation_exception": lambda d: {
        "exception": "cannot_locate",
        "certification": "Letters to the last two addresses were returned; no forwarding address was found.",
    },
    "elections:beneficiaries_change": lambda d: {
        "password": DEMO_PASSWORD,
        "confirm": "on",
        "kind_1": "primary",
        "entity_1": "person",
        "name_1": "Sam Morgan",
        "relationship_1": "child",
        "percent_1": "100",
        "birth_date_1": "1995-04-02",
        "address_1": "12 Elm Street, Harlem, NY 10027",
    },
}


# ------------------------------------------------------------------------------------ the data set


def _first_of_month_after(day, days: int):
    d = day + timedelta(days=days)
    return d.replace(year=d.year + (d.month == 12), month=d.month % 12 + 1, day=1)


def _build(today) -> SimpleNamespace:
    """Demo data plus pat's modeler run, quote and its PDF, and claims in each state an action needs."""
    from benefits.services import modeler as portal_services
    from elections.claims import services as claims
    from elections.uploads import check_upload

    call_command("load_demo", as_of=today, verbosity=0)
    pat = User.objects.get(email="pat@demo.test")
    committee = User.objects.get(email="committee@demo.test")
    # The readings left blank by the plan text are set, so the administrator's confirmation can write.
    from benefits.services.plan_settings import plan_update_reading

    carver_db = Plan.objects.get(key="carver-db")
    plan_update_reading(
        plan=carver_db,
        name="revrul_2001_62_reading",
        raw="unloaded",
        actor=User.objects.get(email="admin@demo.test"),
    )
    db = PlanMembership.objects.get(participant__user=pat, plan__key="carver-db")
    other = User.objects.create_user(email="other@sweep.test", password=DEMO_PASSWORD)
    Participant.objects.filter(
        pk=Participant.objects.filter(user__isnull=True, death_date__isnull=True).order_by("pk")[0].pk
    ).update(user=other)
    start = _first_of_month_after(today, 60)
    d = SimpleNamespace(today=today, start=start, pid=pat.participant.pk, membership_id=db.pk)
    d.candidate_id = User.objects.create_user(email="candidate@sweep.test", password=DEMO_PASSWORD).pk

    k401 = PlanMembership.objects.get(participant__user=pat, plan__key="carver-401k")

    def file(on, files=()):
        # 401(k) withdrawals: the demo's claim holds pat's Carver DB benefit, which starts once (issue 22).
        return claims.claim_file(
            filer=pat,
            membership=k401,
            claim_type="withdrawal_59half",
            details={"amount": Decimal("1000.00"), "payment_date": on + timedelta(days=30)},
            statement="I would like part of my account.",
            files=list(files),
            on=on,
        )

    with TestCase.captureOnCommitCallbacks(execute=True):
        run = portal_services.modeler_run_create(
            membership=db, actor=pat, inputs={"commencement_dates": [start.isoformat()]}, as_of=today
        )
    run.refresh_from_db()
    assert run.status == run.Status.DONE, run.error
    quote = portal_services.quote_save(run=run, actor=pat)
    with TestCase.captureOnCommitCallbacks(execute=True):
        document = portal_services.quote_print(quote=quote, actor=pat)
    document.refresh_from_db()
    assert document.status == GeneratedDocument.Status.DONE, document.error
    d.run_id, d.quote_id, d.document_id = run.pk, quote.pk, document.pk

    d.received = file(today).pk
    under_review = file(today, [check_upload(SimpleUploadedFile("evidence.pdf", PDF))])
    claims.claim_start_review(claim=under_review, actor=committee)
    d.under_review, d.claim_document_id = under_review.pk, under_review.documents.get().pk

    # Information asked for with an answer-by date already past: both answer and resume are open.
    asked_on = today - timedelta(days=70)
    info = file(asked_on)
    claims.claim_start_review(claim=info, actor=committee, on=asked_on)
    least = max(info.clock_rules.min_information_days, 1)
    with TestCase.captureOnCommitCallbacks(execute=True):
        claims.claim_request_information(
            claim=info,
            actor=committee,
            what="Proof of age.",
            respond_by=asked_on + timedelta(days=max(least, 30)),
            on=asked_on,
        )
    d.info_requested = info.pk

    denied = file(today)
    claims.claim_start_review(claim=denied, actor=committee)
    with TestCase.captureOnCommitCallbacks(execute=True):
        denied = claims.claim_decide(
            claim=denied,
            actor=committee,
            outcome="denied",
            reasons="Not yet eligible.",
            provisions="§4.3",
            perfecting_material="None.",
        )
    notice = denied.notices.select_related("document").first()
    notice.document.refresh_from_db()
    assert notice.document.status == GeneratedDocument.Status.DONE, notice.document.error
    d.denied, d.notice_id = denied.pk, notice.pk
    _build_elections(d, pat, db, today)
    _build_account_elections(d, pat)

    from benefits.imports import services as imports

    admin = User.objects.get(email="admin@demo.test")
    applied = imports.import_create(kind="market_rates", file_name="a.csv", content=RATES, actor=admin)
    imports.import_check(applied.pk)
    d.import_applied = imports.import_apply(applied.pk, actor=admin, valid_rows_only=False).pk
    previewed = imports.import_create(
        kind="market_rates", file_name="b.csv", content=RATES.replace(b"2001-07", b"2001-08"), actor=admin
    )
    d.import_previewed = imports.import_check(previewed.pk).pk
    _build_delivery(d, pat)
    return d


def _build_account_elections(d, pat) -> None:
    """Pat in the Fairport ESOP too (Sam's record with 14 years of participation, so the fifth year of
    the election period is open on any date) and Pat's 401(k) with its payroll-record rate."""
    sam = PlanMembership.objects.get(participant__participant_number="FSB-40001", plan__key="fairport-esop")
    hours = list(sam.hours.all())
    esop = PlanMembership.objects.create(
        participant=pat.participant,
        plan=sam.plan,
        entry_date=sam.entry_date,
        plan_data={**sam.plan_data, "years_of_participation": 14},
    )
    for h in hours:
        h.pk, h.membership = None, esop
        h.save()
    d.esop_membership_id = esop.pk
    d.k401_membership_id = PlanMembership.objects.get(participant__user=pat, plan__key="carver-401k").pk


def _build_delivery(d, pat) -> None:
    """Pat's explanation went out on paper (no consent then); pat has consented since, and has a fresh
    test document whose code a new consent (a changed address) would use."""
    from benefits.delivery import services as delivery
    from benefits.delivery.models import DocumentDelivery

    d.paper_delivery_id = DocumentDelivery.objects.filter(participant=pat.participant, state="to_mail")[0].pk
    with TestCase.captureOnCommitCallbacks(execute=True):
        first = delivery.delivery_test_start(participant=pat.participant, actor=pat)
    delivery.delivery_consent_give(
        participant=pat.participant, actor=pat, email="pat@example.test", code=first.code, acknowledged=True
    )
    with TestCase.captureOnCommitCallbacks(execute=True):
        test = delivery.delivery_test_start(participant=pat.participant, actor=pat)
    d.delivery_code = test.code


def _build_elections(d, pat, db, today) -> None:
    """Pat's demo claim awaiting an election: its explanation, a signed election waiving the QJSA with
    its consent uploaded, a second consent form still to upload, a draft ready to sign, a batch."""
    from benefits.demo.elections import DEMO_CLAIM_STATEMENT
    from elections.benefit_elections import services as be
    from elections.benefit_elections.models import NoticeBatch
    from elections.consents import services as consents
    from elections.consents.models import SpousalConsent
    from elections.models import Claim
    from elections.uploads import check_upload

    claim = Claim.objects.get(membership=db, statement=DEMO_CLAIM_STATEMENT)
    asd = date.fromisoformat(claim.details["commencement_date"])
    payment = {
        "payment_method": "direct_deposit",
        "payment": {"routing_number": "011000015", "account_number": "12345678", "account_type": "checking"},
        "withholding": {"form": "W-4P", "w4p": "married", "w4p_extra": "0.00"},
    }
    with TestCase.captureOnCommitCallbacks(execute=True):
        notice = be.notice_issue(membership=db, kind="qjsa_explanation", asd=asd, on=today).notice
        draft = be.draft_start(user=pat, membership=db, asd=asd, claim=claim)
        be.draft_explanation_read(draft=draft, user=pat)
        be.draft_save(draft=draft, user=pat, step="form", answers={"form": "life"})
        be.draft_save(draft=draft, user=pat, step="payment", answers=payment)
        election = be.election_sign(draft=draft, user=pat, password=DEMO_PASSWORD, on=today)
    consent = consents.consent_upload(
        consent=election.consents.get(),
        user=pat,
        upload=check_upload(SimpleUploadedFile("consent.pdf", PDF)),
        details={
            "signed_on": today,
            "witness": "plan_representative",
            "witness_name": "Robin Lee",
            "witnessing": "in_person",
        },
    )
    second = SpousalConsent.objects.create(election=election, spouse_name=election.spouse_name)
    ready = be.draft_start(user=pat, membership=db, asd=asd, claim=claim)
    be.draft_explanation_read(draft=ready, user=pat)
    be.draft_save(draft=ready, user=pat, step="form", answers={"form": "js50"})
    be.draft_save(draft=ready, user=pat, step="payment", answers=payment)
    batch = NoticeBatch.objects.create(plan=db.plan, rule="awaiting_election", as_of=today)
    d.asd, d.election_claim_id, d.notice_id = asd, claim.pk, d.notice_id
    d.election_notice_id, d.draft_id, d.election_id = notice.pk, ready.pk, election.pk
    d.consent_id, d.open_consent_id, d.batch_id = consent.pk, second.pk, batch.pk
    # A beneficiary designation naming a child, waiting for the spouse's consent (carver-401k).
    from elections.benefit_elections.beneficiaries import designation_sign

    k401 = PlanMembership.objects.get(participant__user=pat, plan__key="carver-401k")
    with TestCase.captureOnCommitCallbacks(execute=True):
        designation = designation_sign(
            membership=k401,
            user=pat,
            rows=[
                {
                    "kind": "primary",
                    "entity": "person",
                    "name": "Sam Morgan",
                    "relationship": "child",
                    "percent": "100",
                    "birth_date": "1995-04-02",
                    "address": "12 Elm Street, Harlem, NY 10027",
                }
            ],
            password=DEMO_PASSWORD,
            on=today,
        )
    d.k401_membership_id, d.designation_id = k401.pk, designation.pk


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker, tmp_path_factory):
    """Built once, inside a transaction rolled back after the module (each test nests a savepoint)."""
    from benefits.services import today

    private = tmp_path_factory.mktemp("private")
    with override_settings(PRIVATE_STORAGE_ROOT=private), django_db_blocker.unblock(), transaction.atomic():
        yield _build(today())
        transaction.set_rollback(True)


def _client_for(role: str, client):
    """A test client as this kind of user; staff log in with password and TOTP (decisions need it)."""
    if role == "anonymous":
        return [client]
    if role in ("owner", "other"):
        client.force_login(User.objects.get(email="pat@demo.test" if role == "owner" else "other@sweep.test"))
        return [client]
    if role in ("committee", "administrator"):
        email, secret = (
            ("committee@demo.test", COMMITTEE_TOTP_SECRET)
            if role == "committee"
            else ("admin@demo.test", ADMIN_TOTP_SECRET)
        )
        user = User.objects.get(email=email)
        assert login_with_totp(client, user, password=DEMO_PASSWORD, secret=secret).status_code == 302
        return [client]
    from django.test import Client

    from tests.factories import UserFactory

    clients = []
    for user_role in (User.Role.COMMITTEE, User.Role.ADMINISTRATOR):
        # The real password login, made now: allauth asks for a recent authentication before MFA
        # enrolment, so a session without one (force_login) would answer that page with 403.
        user = UserFactory(email=f"no-mfa-{user_role}@sweep.test", role=user_role)
        c = Client()
        assert c.post("/accounts/login/", {"login": user.email, "password": PASSWORD}).status_code == 302
        clients.append(c)
    return clients


# ------------------------------------------------------------------------------------ the tests


def _project_patterns() -> set[str]:
    """The namespaced names of every URL pattern whose view lives in the project's own apps."""
    found: set[str] = set()

    def walk(patterns, namespace: str | None) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                ns = p.namespace if p.namespace else namespace
                if ns and namespace and p.namespace:
                    ns = f"{namespace}:{p.namespace}"
                walk(p.url_patterns, ns)
            elif isinstance(p, URLPattern):
                module = getattr(p.callback, "__module__", "") or ""
                # The Django admin's own views (some wrapped by our audit mixin) are covered by
                # tests/accounts/test_admin_lockdown.py.
                if module.startswith(PROJECT_APPS) and namespace != "admin":
                    assert p.name, f"the view {module}.{p.callback.__name__} has no URL name"
                    found.add(f"{namespace}:{p.name}" if namespace else p.name)

    walk(get_resolver().url_patterns, None)
    return found


def test_every_url_pattern_is_in_the_matrix():
    covered = {row.name for row in MATRIX}
    patterns = _project_patterns()
    assert not patterns - covered, f"views without an access row: {sorted(patterns - covered)}"
    assert not covered - patterns, f"rows for URL names that no longer exist: {sorted(covered - patterns)}"
    assert set(ARGS) <= covered and set(DATA) <= covered


CELLS = [
    pytest.param(
        row,
        role,
        id=f"{row.name}-{row.method}-{role}",
        marks=[pytest.mark.xfail(reason=KNOWN_GAPS[key], strict=True)] if key in KNOWN_GAPS else [],
    )
    for row in MATRIX
    for role in ROLES
    for key in [(row.name, row.method, role)]
]


@pytest.mark.parametrize(("row", "role"), CELLS)
def test_access(demo, client, row: Row, role: str):
    expected: Expect = getattr(row, role)
    url = reverse(row.name, args=ARGS.get(row.name, lambda d: [])(demo))
    for c in _client_for(role, client):
        user_id = c.session.get("_auth_user_id")
        before = AuditEvent.objects.count()
        # Each form that creates something carries a fresh one-time token (issue 15).
        data = {**DATA.get(row.name, lambda d: {})(demo), "submission_token": uuid.uuid4().hex}
        response = c.get(url) if row.method == "GET" else c.post(url, data)
        where = f"{row.method} {url} as {role}: expected {expected}, got {response.status_code}"
        assert response.status_code == expected.status, f"{where} {response.get('Location', '')}"
        if expected.status == 302:
            location = response["Location"]
            if expected.location:
                assert location.startswith(expected.location), f"{where} → {location}"
            else:
                assert not location.startswith((LOGIN.location, ENROL.location)), f"{where} → {location}"
        new = AuditEvent.objects.order_by("pk")[before:]
        if expected.audit == "view":
            assert any(str(e.acting_user_id) == str(user_id) and e.participant_id == demo.pid for e in new), (
                f"{where}: no audit event names the viewer and the participant"
            )
        elif expected.audit == "write":
            assert any(str(e.acting_user_id) == str(user_id) for e in new), f"{where}: nothing was written"
        elif expected.status != 200:
            # A refused request changes nothing: no half-done write, no audit event of a look not had.
            assert AuditEvent.objects.count() == before, where


# The Django admin is not one of the project's apps, but administrators use it for plan data: it logs in
# through allauth (so MFA applies), and only administrators get past its login (followed to the end).
DJANGO_ADMIN = {
    "anonymous": (200, "/accounts/login/"),
    "owner": (403, "/django-admin/login/"),
    "other": (403, "/django-admin/login/"),
    "committee": (403, "/django-admin/login/"),
    "administrator": (200, None),
    # Sent to MFA enrolment, where allauth first asks for the password again (a fresh reauthentication).
    "no_mfa": (200, "/accounts/reauthenticate/?next=" + ENROL.location.replace("/", "%2F")),
}


@pytest.mark.parametrize("role", ROLES)
def test_django_admin(demo, client, role: str):
    status, last_redirect = DJANGO_ADMIN[role]
    for c in _client_for(role, client):
        response = c.get("/django-admin/", follow=True)
        where = f"/django-admin/ as {role}: {response.status_code} after {response.redirect_chain}"
        assert response.status_code == status, where
        if last_redirect is None:
            assert not response.redirect_chain, where
        else:
            assert response.redirect_chain[-1][0].startswith(last_redirect), where
