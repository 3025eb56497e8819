"""Administrators see every plan reading with its section and gap, change one (validated by the engine), and confirm."""

import pytest

from benefits.engine_adapter import plan_readings
from benefits.models import AuditEvent, Plan
from tests.factories import EmployerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def fairport():
    return Plan.objects.create(
        key="fairport-esop",
        name="Fairport Savings Bank ESOP",
        kind=Plan.Kind.ESOP,
        employer=EmployerFactory(),
    )


def test_every_engine_reading_is_listed_with_its_section(fairport):
    rows = {r.name: r for r in plan_readings(fairport)}
    cap = rows["pre_plan_vesting_cap_years"]
    assert cap.section == "§9.2" and cap.gap == "D1.2" and cap.required and cap.unconfirmed
    assert all(r.section for r in rows.values())


def test_page_lists_readings_and_flags_the_blank_one(staff_client, admin_user, fairport):
    client = staff_client(admin_user)
    body = client.get("/benefits/staff/plans/fairport-esop/").content.decode()
    assert "pre_plan_vesting_cap_years" in body and "§9.2" in body
    assert "A reading the plan text leaves blank must be set" in body


def test_confirming_with_a_blank_required_reading_is_refused(staff_client, admin_user, fairport):
    client = staff_client(admin_user)
    resp = client.post("/benefits/staff/plans/fairport-esop/confirm/", follow=True)
    assert "Set these readings before confirming" in resp.content.decode()
    fairport.refresh_from_db()
    assert fairport.settings_confirmed_at is None


def test_a_valid_change_is_saved_audited_and_needs_confirmation_again(staff_client, admin_user, fairport):
    client = staff_client(admin_user)
    client.post("/benefits/staff/plans/fairport-esop/readings/pre_plan_vesting_cap_years/", {"value": "5"})
    fairport.refresh_from_db()
    assert fairport.settings == {"pre_plan_vesting_cap_years": 5}
    event = AuditEvent.objects.get(event_type="plan.reading_changed")
    assert event.extra_data["new"] == 5 and event.acting_user == admin_user
    assert client.post("/benefits/staff/plans/fairport-esop/confirm/").status_code == 302
    fairport.refresh_from_db()
    assert fairport.settings_confirmed_by == admin_user
    # Any later change clears the confirmation.
    client.post("/benefits/staff/plans/fairport-esop/readings/pre_plan_vesting_cap_years/", {"value": "3"})
    fairport.refresh_from_db()
    assert fairport.settings_confirmed_at is None


def test_an_invalid_value_is_refused_with_the_rule(staff_client, admin_user, fairport):
    client = staff_client(admin_user)
    resp = client.post(
        "/benefits/staff/plans/fairport-esop/readings/pre_plan_vesting_cap_years/",
        {"value": "five"},
        follow=True,
    )
    assert "must be an integer" in resp.content.decode()
    fairport.refresh_from_db()
    assert fairport.settings == {}


def test_a_fixed_choice_reading_offers_its_choices(staff_client, admin_user, fairport):
    client = staff_client(admin_user)
    body = client.get("/benefits/staff/plans/fairport-esop/").content.decode()
    assert '<option value="elapsed" selected>' in body


def test_reset_returns_to_the_engine_default(staff_client, admin_user, fairport):
    client = staff_client(admin_user)
    url = "/benefits/staff/plans/fairport-esop/readings/pre_plan_vesting_cap_years/"
    client.post(url, {"value": "5"})
    client.post(url, {"action": "reset"})
    fairport.refresh_from_db()
    assert fairport.settings == {}


def test_committee_cannot_change_readings(staff_client, committee_user, fairport):
    client = staff_client(committee_user)
    url = "/benefits/staff/plans/fairport-esop/readings/pre_plan_vesting_cap_years/"
    assert client.post(url, {"value": "5"}).status_code == 403


def test_the_page_says_where_the_statute_overrides_the_plans_30_year_treasury_words(staff_client, admin_user):
    # Issue 12: Carver DB Table A's "30-year Treasury" basis gives way to §417(e)(3) (PPA 2006 §302)
    # for plan years from 2008; the page says so, and a plan without such words shows no section.
    Plan.objects.create(
        key="carver-db", name="Carver DB", kind=Plan.Kind.FINAL_AVERAGE_PAY, employer=EmployerFactory()
    )
    client = staff_client(admin_user)
    body = client.get("/benefits/staff/plans/carver-db/").content.decode()
    assert (
        "Where the law overrides the plan&#x27;s words" in body
        or "Where the law overrides the plan's words" in body
    )
    assert "30-year Treasury" in body and "Pension Protection Act of 2006" in body and "2008" in body


def test_no_override_section_for_a_plan_without_such_words(staff_client, admin_user, fairport):
    body = staff_client(admin_user).get("/benefits/staff/plans/fairport-esop/").content.decode()
    assert "Where the law overrides" not in body


def test_rev_rul_2001_62_reading_is_unconfirmed_until_an_administrator_sets_it(staff_client, admin_user):
    # Issue 24: the 2003–2007 §417(e)(3) table is built both ways Rev. Rul. 2001-62 can be read; the
    # unloaded reading stands in, and the readings page flags it until an administrator chooses (audited).
    quaker = Plan.objects.create(
        key="quaker-cash-balance", name="Quaker City", kind=Plan.Kind.CASH_BALANCE, employer=EmployerFactory()
    )
    reading = {r.name: r for r in plan_readings(quaker)}["revrul_2001_62_reading"]
    assert reading.required and reading.unconfirmed and reading.choices == ("unloaded", "loaded")
    client = staff_client(admin_user)
    body = client.get("/benefits/staff/plans/quaker-cash-balance/").content.decode()
    assert "revrul_2001_62_reading" in body and "A reading the plan text leaves blank must be set" in body
    client.post(
        "/benefits/staff/plans/quaker-cash-balance/readings/revrul_2001_62_reading/", {"value": "unloaded"}
    )
    quaker.refresh_from_db()
    assert quaker.settings == {"revrul_2001_62_reading": "unloaded"}
    event = AuditEvent.objects.get(event_type="plan.reading_changed")
    assert event.extra_data["new"] == "unloaded" and event.acting_user == admin_user
    assert not {r.name: r for r in plan_readings(quaker)}["revrul_2001_62_reading"].unconfirmed
