"""After a death (issue 22, item 6): the stream stops on the plan's rule and the elected form decides
what continues.

Worked from the plan texts:
* Quaker City §5.2 (and §5.5(a), §5.7(a)): monthly payments on the first of each month "ending with the
  calendar month in which his death occurs"; §5.10(b) / §5.11(a)(ii): the survivor's payments begin "on
  the first day of the calendar month next following the Participant's death"; §5.11(a)(iii): a
  participant who dies "before receiving 60, 120, 180, 240 payments" leaves "the remainder of such
  monthly payments" to the Beneficiaries.
* Carver DB §7.1: 50% (or 66-2/3% or 100%) of the retirement income continues to the Spouse; §8.2: in a
  years-certain form "retirement income in the same amount will be paid to the Beneficiary ... for the
  balance of the years certain period"; §7.2: a life form pays nothing after death. Carver is silent on
  the month of death; read as Quaker states it (docs/plan-notes/carver-db/payments-after-death.md).

A participant in pay from January 1, 2027 who dies on February 14, 2027: the February 1 payment was due
(month of death); March 1 and later are not. A survivor's payments start March 1, 2027.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from benefits.models import AuditEvent
from elections.models import ClaimState
from payments import deaths, services
from payments.models import PayeeDeath, Payment, PaymentInstalment
from tests.elections.conftest import demo_for_the_module, membership
from tests.payments.test_payments import admin, confirm  # noqa: F401 - the demo's administrator

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker, tmp_path_factory):
    """Loaded once: no test here commits (see demo_for_the_module)."""
    yield from demo_for_the_module(django_db_blocker, tmp_path_factory)


DIED = date(2027, 2, 14)
ON = date(2027, 3, 20)  # the day the administrator records it (after the March payment went out)


def annuity(pat, plan="carver-db", **kw) -> Payment:
    m = membership(pat, plan)
    values = {
        "membership": m,
        "participant": m.participant,
        "payee_name": "Pat Morgan",
        "kind": "annuity",
        "frequency": "monthly",
        "gross": Decimal("1295.49"),
        "first_pay_date": date(2027, 1, 1),
        "method": "check",
        "form": "sl",
        "form_label": "Single life annuity",
    }
    values.update(kw)
    return Payment.objects.create(**values)


def pay(admin, payment, *months):  # noqa: F811 - the fixture's value
    """Export and confirm the payment on each pay date (the paying agent paid it on the day)."""
    for d in months:
        services.instruction_export(pay_date=d, actor=admin)
        batch, checked = confirm(
            admin,
            [
                (
                    payment.pk,
                    d.isoformat(),
                    "paid",
                    d.isoformat(),
                    f"AG-{payment.pk}-{d:%m}",
                    payment.gross,
                    "",
                )
            ],
            name=f"confirm-{payment.pk}-{d}.csv",
        )
        assert batch.status == "applied", checked.errors


def record(payment, admin, died_on=DIED, on=ON, **kw):  # noqa: F811
    return deaths.payee_death_record(
        payment=payment, died_on=died_on, actor=admin, evidence_reference="NY DC 2027-001234", on=on, **kw
    )


# ------------------------------------------------------------------------------ the plan's rule


def test_the_last_payment_due_is_the_one_for_the_month_of_death():
    p = Payment(first_pay_date=date(2027, 1, 1), frequency="monthly")
    # Quaker §5.2: ending with the calendar month in which death occurs.
    assert deaths.last_pay_date(p, date(2027, 2, 14), "month_of_death") == date(2027, 2, 1)
    assert deaths.last_pay_date(p, date(2027, 2, 1), "month_of_death") == date(2027, 2, 1)
    assert deaths.last_pay_date(p, date(2027, 1, 31), "month_of_death") == date(2027, 1, 1)
    # The other reading, if a plan states it: only the months before the month of death.
    assert deaths.last_pay_date(p, date(2027, 2, 14), "month_before") == date(2027, 1, 1)
    assert deaths.last_pay_date(p, date(2027, 1, 14), "month_before") is None


def test_shares_add_up_to_the_payment_exactly():
    # 1,295.49 in thirds: 431.83 + 431.83 + 431.83 = 1,295.49.
    assert deaths.split_by_shares(Decimal("1295.49"), [Decimal(1)] * 3) == [
        Decimal("431.83"),
        Decimal("431.83"),
        Decimal("431.83"),
    ]
    # 60/40 of 1,000.01: 600.01 (600.006 rounded half up), the rest 400.00.
    assert deaths.split_by_shares(Decimal("1000.01"), [Decimal(60), Decimal(40)]) == [
        Decimal("600.01"),
        Decimal("400.00"),
    ]


# ------------------------------------------------------------------------------ what continues


def test_joint_and_survivor_continues_to_the_spouse_at_its_percent(pat, admin):  # noqa: F811
    p = annuity(pat, form="js50", form_label="50% joint and survivor", survivor_percent=Decimal("50"),
                survivor_name="Alex Morgan")  # fmt: skip
    pay(admin, p, date(2027, 1, 1), date(2027, 2, 1), date(2027, 3, 1))
    services.instalments_make_due(date(2027, 4, 1))
    out = record(p, admin)
    p.refresh_from_db()
    assert p.state == "stopped" and "February 14, 2027" in p.state_reason
    assert out.death.last_pay_date == date(2027, 2, 1)
    # Carver DB §7.1: 50% of 1,295.49 = 647.745, rounded half up to 647.75, due from March 1, 2027.
    # Recorded on March 20, after the March 1 pay date: March is owed as a back payment on April 1, the
    # next pay date, and the stream runs from April 1.
    [s] = out.continuations
    assert (s.payee_name, s.gross, s.first_pay_date, s.continues_from_id) == (
        "Alex Morgan",
        Decimal("647.75"),
        date(2027, 4, 1),
        p.pk,
    )
    assert s.continuation["due_from"] == "2027-03-01"
    [back] = out.back_payments
    assert (back.payee_name, back.gross, back.first_pay_date, back.number_of_payments) == (
        "Alex Morgan",
        Decimal("647.75"),
        date(2027, 4, 1),
        1,
    )
    assert s.number_of_payments is None and s.state == "scheduled" and s.payee_relationship == "survivor"
    # March 1 was paid after the death: to be recovered; April 1 was never sent: cancelled.
    march = PaymentInstalment.objects.get(payment=p, pay_date=date(2027, 3, 1))
    april = PaymentInstalment.objects.get(payment=p, pay_date=date(2027, 4, 1))
    assert march.recovery_due and march.state == "paid"
    assert april.state == "cancelled" and not april.recovery_due
    assert not PaymentInstalment.objects.get(payment=p, pay_date=date(2027, 2, 1)).recovery_due
    assert [i.pk for i in out.to_recover] == [march.pk]
    # The stopped stream is not made due again; the survivor's is, on May 1 (its second month).
    assert services.instalments_make_due(date(2027, 5, 1)) == 1
    assert not PaymentInstalment.objects.filter(payment=p, pay_date=date(2027, 5, 1)).exists()
    pat.participant.refresh_from_db()
    assert pat.participant.death_date == DIED


def test_two_thirds_survivor_is_exactly_two_thirds(pat, admin):  # noqa: F811
    p = annuity(
        pat, gross=Decimal("1000.00"), form="js66", survivor_percent=Decimal("66"), survivor_name="Alex"
    )
    pay(admin, p, date(2027, 1, 1))
    [s] = record(p, admin).continuations
    # Carver DB §7.1 "sixty-six and two-thirds percent": 666.666… → 666.67 (not 660.00).
    assert s.gross == Decimal("666.67")


def test_years_certain_continues_the_remaining_payments_to_the_beneficiaries(pat, admin):  # noqa: F811
    p = annuity(
        pat,
        form="cc10",
        form_label="10 years certain and life",
        certain_until=date(2037, 1, 1),
        gross=Decimal("1000.01"),
        continuation={
            "beneficiaries": [
                {"name": "Sam Morgan", "relationship": "child", "percent": "60", "kind": "primary"},
                {"name": "Lee Morgan", "relationship": "child", "percent": "40", "kind": "primary"},
                {"name": "Kim Morgan", "relationship": "sibling", "percent": "100", "kind": "contingent"},
            ]
        },
    )
    pay(admin, p, date(2027, 1, 1), date(2027, 2, 1))
    out = record(p, admin)
    # §8.2 / Quaker §5.11(a)(iii): 120 payments certain from January 1, 2027; January and February were
    # paid to Pat, so 118 remain, March 1, 2027 through December 1, 2036, in the same amount split 60/40.
    by_name = {c.payee_name: c for c in out.continuations}
    assert set(by_name) == {"Sam Morgan", "Lee Morgan"}
    assert by_name["Sam Morgan"].gross == Decimal("600.01") and by_name["Lee Morgan"].gross == Decimal(
        "400.00"
    )
    # Recorded on March 20: the March 1 payment is owed as a back payment on April 1, and 117 remain
    # from April 1, 2027 through December 1, 2036.
    for c in out.continuations:
        assert c.number_of_payments == 117 and c.first_pay_date == date(2027, 4, 1)
    assert {(b.payee_name, b.gross) for b in out.back_payments} == {
        ("Sam Morgan", Decimal("600.01")),
        ("Lee Morgan", Decimal("400.00")),
    }
    last = by_name["Sam Morgan"]
    from payments.schedule import sequence_on

    assert sequence_on(last, date(2036, 12, 1)) == 117 and sequence_on(last, date(2037, 1, 1)) is None


def test_a_single_life_annuity_stops_with_nothing_more(pat, admin):  # noqa: F811
    p = annuity(pat)
    pay(admin, p, date(2027, 1, 1))
    out = record(p, admin)
    assert out.continuations == [] and "nothing continues" in out.note
    assert Payment.objects.filter(continues_from=p).count() == 0


def test_the_survivors_own_death_stops_the_survivors_stream(pat, admin):  # noqa: F811
    p = annuity(pat, form="js100", survivor_percent=Decimal("100"), survivor_name="Alex Morgan")
    pay(admin, p, date(2027, 1, 1))
    [s] = record(p, admin).continuations
    pay(admin, s, date(2027, 4, 1))
    out = deaths.payee_death_record(
        payment=s, died_on=date(2027, 4, 10), actor=admin, evidence_reference="DC-2", on=date(2027, 4, 20)
    )
    s.refresh_from_db()
    assert s.state == "stopped" and out.continuations == [] and out.death.last_pay_date == date(2027, 4, 1)
    assert out.back_payments == []
    # The participant's record keeps the participant's date of death.
    pat.participant.refresh_from_db()
    assert pat.participant.death_date == DIED


# ------------------------------------------------------------------------------ refusals


def test_a_death_is_recorded_once_per_payee(pat, admin):  # noqa: F811
    p = annuity(pat)
    pay(admin, p, date(2027, 1, 1))
    record(p, admin)
    with pytest.raises(deaths.DeathInvalid) as e:
        record(p, admin)
    assert e.value.errors["died_on"].startswith("Date of death: the death of Pat Morgan was already recorded")
    assert PayeeDeath.objects.filter(payment=p).count() == 1


@pytest.mark.parametrize(
    ("died_on", "reference", "field", "words"),
    [
        (date(2026, 12, 20), "DC-1", "died_on", "is before the first payment (January 1, 2027)"),
        (date(2027, 4, 1), "DC-1", "died_on", "is in the future"),
        (None, "DC-1", "died_on", "enter the date of death"),
        (DIED, "  ", "evidence", "upload the death certificate"),
    ],
)
def test_bad_input_is_refused_with_the_field_named(pat, admin, died_on, reference, field, words):  # noqa: F811
    p = annuity(pat)
    with pytest.raises(deaths.DeathInvalid) as e:
        deaths.payee_death_record(
            payment=p, died_on=died_on, actor=admin, evidence_reference=reference, on=ON
        )
    assert words in e.value.errors[field]
    assert e.value.errors[field].split(":")[0] in ("Date of death", "Evidence")
    p.refresh_from_db()
    assert p.state == "scheduled" and not PayeeDeath.objects.exists()


def test_a_single_sum_or_a_stopped_stream_is_refused(pat, admin):  # noqa: F811
    p = annuity(pat, kind="single_sum", frequency="once", number_of_payments=1)
    with pytest.raises(deaths.DeathInvalid) as e:
        record(p, admin)
    assert e.value.errors["payment"].startswith("Payment: a death is recorded here for an annuity in pay")
    q = annuity(pat, state="stopped")
    with pytest.raises(deaths.DeathInvalid) as e:
        record(q, admin)
    assert "not in pay" in e.value.errors["payment"]


def test_only_an_administrator_records_a_death(pat, admin):  # noqa: F811
    from django.core.exceptions import PermissionDenied

    p = annuity(pat)
    with pytest.raises(PermissionDenied):
        deaths.payee_death_record(payment=p, died_on=DIED, actor=pat, evidence_reference="DC", on=ON)


# ------------------------------------------------------------------------------ audit and the claim


def test_every_change_is_an_audit_event_with_old_and_new_values(pat, admin):  # noqa: F811
    p = annuity(pat, form="js50", survivor_percent=Decimal("50"), survivor_name="Alex Morgan")
    pay(admin, p, date(2027, 1, 1), date(2027, 2, 1), date(2027, 3, 1))
    out = record(p, admin)
    ev = AuditEvent.objects.get(event_type="payment.death_recorded")
    assert ev.acting_user == admin
    assert ev.extra_data["old"] == {"state": "in_pay", "died_on": None}
    assert ev.extra_data["new"]["state"] == "stopped" and ev.extra_data["new"]["died_on"] == "2027-02-14"
    assert ev.extra_data["new"]["last_pay_date"] == "2027-02-01"
    flagged = AuditEvent.objects.get(event_type="payment.instalment_changed")
    assert (
        flagged.extra_data["old"]["recovery_due"] is False
        and flagged.extra_data["new"]["recovery_due"] is True
    )
    assert AuditEvent.objects.filter(
        event_type="payment.scheduled", extra_data__payment_id=out.continuations[0].pk
    ).exists()
    person = AuditEvent.objects.get(event_type="participant.death_recorded")
    assert person.extra_data["old"] == {"death_date": None} and person.extra_data["new"] == {
        "death_date": "2027-02-14"
    }


def test_the_claim_no_longer_reads_in_pay(pat, admin):  # noqa: F811
    from elections.models import Claim
    from tests.elections.conftest import AS_OF, file_db_claim

    claim = file_db_claim(pat, on=AS_OF)
    Claim.objects.filter(pk=claim.pk).update(state=ClaimState.IN_PAY)  # its first payment confirmed
    p = annuity(pat, claim=claim)
    pay(admin, p, date(2027, 1, 1))
    record(p, admin)
    claim.refresh_from_db()
    assert claim.state == ClaimState.PAID and claim.next_step.startswith("Payments ended: Pat Morgan died")
    assert AuditEvent.objects.filter(
        event_type="claim.payments_ended", extra_data__claim_id=claim.pk
    ).exists()


# ------------------------------------------------------------------------------ the pages


PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def test_the_administrator_records_a_death_on_its_page_and_sees_what_to_recover(
    pat,
    admin,  # noqa: F811
    client,
    settings,
):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from benefits.demo.loader import ADMIN_TOTP_SECRET
    from tests.conftest import login_with_totp
    from tests.test_access_matrix import DEMO_PASSWORD

    # The page records today's facts: a stream from September 1, 2026; death on October 14, 2026.
    p = annuity(
        pat,
        first_pay_date=date(2026, 9, 1),
        form="js50",
        survivor_percent=Decimal("50"),
        survivor_name="Alex Morgan",
    )
    pay(admin, p, date(2026, 9, 1), date(2026, 10, 1), date(2026, 11, 1))
    died = date(2026, 10, 14).isoformat()
    login_with_totp(client, admin, DEMO_PASSWORD, ADMIN_TOTP_SECRET)
    listing = client.get(f"/payments/staff/deaths/?participant={pat.participant.pk}").content.decode()
    assert f"/payments/staff/deaths/{p.pk}/" in listing and "Record the death of Pat Morgan" in listing
    assert "/payments/staff/deaths/" in client.get("/payments/staff/").content.decode()
    # A file that is not a PDF, JPEG or PNG is refused, naming the field; nothing is recorded.
    bad = client.post(
        f"/payments/staff/deaths/{p.pk}/",
        {"died_on": died, "evidence": SimpleUploadedFile("dc.txt", b"just text")},
    )
    assert bad.status_code == 400 and "Evidence document:" in bad.content.decode()
    assert not PayeeDeath.objects.exists()
    ok = client.post(
        f"/payments/staff/deaths/{p.pk}/",
        {"died_on": died, "evidence": SimpleUploadedFile("certificate.pdf", PDF)},
    )
    assert ok.status_code == 302, ok.content.decode()[:2000]
    death = PayeeDeath.objects.get(payment=p)
    assert death.evidence_file and death.evidence_reference == "" and len(death.evidence_sha256) == 64
    page = client.get(ok["Location"]).content.decode()
    assert "To be recovered" in page and "November 1, 2026" in page and f"AG-{p.pk}-11" in page
    assert "Alex Morgan" in page  # the survivor's annuity, now scheduled, can have its own death recorded
    again = client.post(f"/payments/staff/deaths/{p.pk}/", {"died_on": died, "evidence_reference": "X"})
    assert again.status_code == 400
    assert "Date of death: the death of Pat Morgan was already recorded" in again.content.decode()


def test_the_survivor_sees_the_continuing_payment_after_linking_as_a_beneficiary(pat, admin, client):  # noqa: F811
    from django.utils import timezone

    from elections.models import BeneficiaryLink
    from tests.factories import UserFactory

    p = annuity(pat, form="js50", survivor_percent=Decimal("50"), survivor_name="Alex Morgan")
    pay(admin, p, date(2027, 1, 1))
    record(p, admin)
    alex = UserFactory(email="alex@example.test")
    client.force_login(alex)
    assert "$647.75" not in client.get("/payments/").content.decode()
    link = BeneficiaryLink.objects.create(
        user=alex, participant=pat.participant, beneficiary_name="Alex Morgan", relationship="spouse"
    )
    assert "$647.75" not in client.get("/payments/").content.decode()  # not yet verified
    link.verified_by, link.verified_at = admin, timezone.now()
    link.save()
    page = client.get("/payments/").content.decode()
    assert "to Alex Morgan after the death of Pat Morgan" in page
    assert "$647.75 scheduled for April 1, 2027" in page
    assert "In pay" not in page and "Paid" not in page  # nothing confirmed yet
    # Pat's own stopped stream is not theirs to see.
    assert "$1,295.49" not in page


def test_quaker_contingent_annuitant_and_certain_period_follow_section_5_11(admin):  # noqa: F811
    from benefits.models import PlanMembership

    m = PlanMembership.objects.get(
        participant__participant_number="QCB-20001", plan__key="quaker-cash-balance"
    )
    base = {
        "membership": m,
        "participant": m.participant,
        "payee_name": m.participant.full_name,
        "kind": "annuity",
        "frequency": "monthly",
        "first_pay_date": date(2027, 1, 1),
        "method": "check",
    }
    # §5.11(a)(ii): the Contingent Annuitant's 66-2/3% of 250.00 = 166.666… → 166.67, "beginning on the
    # first day of the calendar month next following the Participant's death".
    ca = Payment.objects.create(
        **base,
        gross=Decimal("250.00"),
        form="js66",
        survivor_percent=Decimal("66"),
        survivor_name="Robin Doe",
    )
    out = record(ca, admin)
    assert out.death.last_pay_date == date(2027, 2, 1)  # §5.2: ending with the month of death
    assert "§5.2" in out.death.rule
    [s] = out.continuations
    # Recorded March 20: March is a back payment on April 1; the stream runs from April 1.
    assert (s.gross, s.first_pay_date, s.payee_name) == (Decimal("166.67"), date(2027, 4, 1), "Robin Doe")
    assert [(b.gross, b.first_pay_date) for b in out.back_payments] == [(Decimal("166.67"), date(2027, 4, 1))]


def test_quaker_certain_remainder_goes_to_the_beneficiaries(admin):  # noqa: F811
    from benefits.models import PlanMembership

    m = PlanMembership.objects.get(
        participant__participant_number="QCB-20002", plan__key="quaker-cash-balance"
    )
    cc = Payment.objects.create(
        membership=m,
        participant=m.participant,
        payee_name=m.participant.full_name,
        kind="annuity",
        frequency="monthly",
        first_pay_date=date(2026, 1, 1),
        method="check",
        gross=Decimal("900.00"),
        form="cc5",
        certain_until=date(2031, 1, 1),
        continuation={"beneficiaries": [{"name": "Jo Doe", "relationship": "child", "percent": "100"}]},
    )
    # §5.11(a)(iii): 60 payments elected, January 2026 through February 2027 (14) due to the participant
    # who died February 14, 2027; the remaining 46 go to the Beneficiary from March 1, 2027: recorded
    # March 20, the March payment is a back payment on April 1 and 45 remain from April 1.
    out = record(cc, admin)
    [c] = out.continuations
    assert (c.payee_name, c.gross, c.number_of_payments, c.first_pay_date) == (
        "Jo Doe",
        Decimal("900.00"),
        45,
        date(2027, 4, 1),
    )
    assert [b.gross for b in out.back_payments] == [Decimal("900.00")]


# ------------------------------------------------------------------------------ a death recorded late


def test_a_death_recorded_months_late_owes_the_survivor_a_back_payment(pat, admin):  # noqa: F811
    """Carver DB §7.1: the spouse's 50% of 1,295.49 = 647.745 → 647.75 a month, due from March 1, 2027.
    Recorded on August 10, 2027: March 1 through August 1 (6 pay dates) were never paid, 6 × 647.75 =
    3,886.50, paid on September 1, 2027, the next pay date, when the stream resumes."""
    p = annuity(pat, form="js50", survivor_percent=Decimal("50"), survivor_name="Alex Morgan")
    pay(admin, p, date(2027, 1, 1))
    out = record(p, admin, on=date(2027, 8, 10))
    [back] = out.back_payments
    assert (back.gross, back.first_pay_date, back.kind, back.frequency, back.number_of_payments) == (
        Decimal("3886.50"),
        date(2027, 9, 1),
        "annuity",
        "once",
        1,
    )
    owed = back.continuation["back_payment"]
    assert owed["pay_dates"] == [f"2027-{m:02d}-01" for m in range(3, 9)] and owed["each"] == "647.75"
    assert back.continues_from_id == p.pk and back.payee_name == "Alex Morgan"
    [s] = out.continuations
    assert (s.first_pay_date, s.gross, s.number_of_payments) == (date(2027, 9, 1), Decimal("647.75"), None)
    assert "$3,886.50 owed for March 1, 2027 to August 1, 2027" in out.note
    event = AuditEvent.objects.get(event_type="payment.scheduled", extra_data__payment_id=back.pk)
    assert event.extra_data["old_state"] == "" and event.extra_data["new_state"] == "scheduled"
    assert event.extra_data["back_payment"]["total"] == "3886.50"
    # Made due once, on September 1 (with the stream's first instalment), and never again.
    assert services.instalments_make_due(date(2027, 9, 1)) == 2
    assert services.instalments_make_due(date(2027, 10, 1)) == 1
    assert not PaymentInstalment.objects.filter(payment=back, pay_date=date(2027, 10, 1)).exists()


def test_each_month_is_rounded_as_the_stream_pays_it(pat, admin):  # noqa: F811
    # §7.1's 66-2/3% of 1,000.00 = 666.666… → 666.67 a month; six months owed: 6 × 666.67 = 4,000.02
    # (what six monthly payments would have paid), not 4,000.00 rounded once.
    p = annuity(
        pat, gross=Decimal("1000.00"), form="js66", survivor_percent=Decimal("66"), survivor_name="Alex"
    )
    pay(admin, p, date(2027, 1, 1))
    [back] = record(p, admin, on=date(2027, 8, 10)).back_payments
    assert back.gross == Decimal("4000.02")


@pytest.mark.parametrize(
    ("on", "months", "resumes"),
    [
        (date(2027, 2, 20), 0, date(2027, 3, 1)),  # before the first survivor pay date: nothing owed
        (date(2027, 3, 1), 0, date(2027, 3, 1)),  # on it: it is the next pay date, made due as usual
        (date(2027, 3, 2), 1, date(2027, 4, 1)),  # the day after: March is owed
        (date(2027, 7, 31), 5, date(2027, 8, 1)),  # March to July
        (date(2027, 8, 1), 5, date(2027, 8, 1)),
        (date(2027, 8, 2), 6, date(2027, 9, 1)),
    ],
)
def test_both_sides_of_a_pay_date(pat, admin, on, months, resumes):  # noqa: F811
    p = annuity(pat, form="js50", survivor_percent=Decimal("50"), survivor_name="Alex Morgan")
    pay(admin, p, date(2027, 1, 1))
    out = record(p, admin, on=on)
    assert [b.gross for b in out.back_payments] == ([Decimal("647.75") * months] if months else [])
    assert out.continuations[0].first_pay_date == resumes


def test_a_certain_period_that_ended_before_the_death_was_recorded_is_all_back_payment(admin):  # noqa: F811
    """Quaker §5.11(a)(iii): 60 payments certain from March 1, 2022 (the last due February 1, 2027); the
    participant died January 14, 2027, so one payment (February 1) remained to the Beneficiary. Recorded
    March 20, 2027: it is owed as a back payment of 900.00 on April 1, and no stream is left."""
    from benefits.models import PlanMembership

    m = PlanMembership.objects.get(
        participant__participant_number="QCB-20002", plan__key="quaker-cash-balance"
    )
    cc = Payment.objects.create(
        membership=m,
        participant=m.participant,
        payee_name=m.participant.full_name,
        kind="annuity",
        frequency="monthly",
        first_pay_date=date(2022, 3, 1),
        method="check",
        gross=Decimal("900.00"),
        form="cc5",
        certain_until=date(2027, 3, 1),
        continuation={"beneficiaries": [{"name": "Jo Doe", "relationship": "child", "percent": "100"}]},
    )
    out = record(cc, admin, died_on=date(2027, 1, 14))
    assert out.continuations == []
    [back] = out.back_payments
    assert (back.payee_name, back.gross, back.first_pay_date) == (
        "Jo Doe",
        Decimal("900.00"),
        date(2027, 4, 1),
    )
    assert back.continuation["back_payment"]["pay_dates"] == ["2027-02-01"]
