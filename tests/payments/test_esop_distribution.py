"""An ESOP distribution from its claim to the plan's books (issue 22, item 2), worked from the Fairport text.

FSB-40002 (Paul Nguyen) left Fairport on July 14, 2023, 80% vested, unmarried: 410 shares at $11.40 and
$96.10 in the Investment Fund ($4,770.10). The Committee approves his claim by a majority of its seats
(§12.6); he elects on the distribution explanation. §10.1: a lump sum only; §9.6: the nonvested $954.02 is
forfeited from the Investment Fund first ($96.10), then 75.2561 shares ($857.92); §10.6: the Stock Fund in
shares, 334 whole shares ($3,807.60), the 0.7439 of a share in cash ($8.48). Code §3405(c): 20% of an
eligible rollover distribution paid to him, $763.22 on $3,816.08, but §3405(e)(8) limits it to the cash in
the payment, $8.48. Nothing posts before the trustee's confirmation; then the account is empty.
"""

from __future__ import annotations

import csv
import io
from datetime import date
from decimal import Decimal

import pytest
from django.test import TestCase

from accounts.models import User
from benefits.engine_adapter import membership_calculate
from benefits.models import AccountTransaction, PlanMembership
from elections.benefit_elections import services as elections
from elections.claims import services as claims
from elections.models import Claim, ClaimState
from payments import services
from payments.models import Payment
from tests.elections.conftest import AS_OF
from tests.payments.clock import on_the_day
from tests.payments.test_payments import confirm

pytestmark = pytest.mark.django_db
PAY_DATE = date(2027, 1, 1)
PASSWORD = "esop-pass-2026"  # noqa: S105 - a test login's password


@pytest.fixture
def paul(demo):
    m = PlanMembership.objects.select_related("participant").get(
        participant__participant_number="FSB-40002", plan__key="fairport-esop"
    )
    user = User.objects.create_user(email="paul@esop.test", password=PASSWORD)
    m.participant.user = user
    m.participant.save(update_fields=["user"])
    return user, m


def approved_claim(user, m) -> Claim:
    claim = claims.claim_file(
        filer=user,
        membership=m,
        claim_type="esop_distribution",
        details={"commencement_date": PAY_DATE},
        statement="Please pay me.",
        on=AS_OF,
    )
    first = User.objects.get(email="committee@demo.test")
    second = User.objects.get(email="committee2@demo.test")
    claims.claim_start_review(claim=claim, actor=first, on=AS_OF)
    with TestCase.captureOnCommitCallbacks(execute=True):
        for member in (first, second):  # §12.6: a majority of the three seats
            claim.refresh_from_db()
            if claim.state == ClaimState.UNDER_REVIEW:
                claims.claim_decide(
                    claim=claim, actor=member, outcome="approved", reasons="", provisions="§10.1", on=AS_OF
                )
    claim.refresh_from_db()
    return claim


def draft_for(user, m, claim, form: str):
    with elections_today():
        draft = elections.draft_start(user=user, membership=m, asd=PAY_DATE, claim=claim)
    elections.draft_explanation_read(draft=draft, user=user)
    elections.draft_save(draft=draft, user=user, step="form", answers={"form": form, "installments": {}})
    elections.draft_save(
        draft=draft,
        user=user,
        step="payment",
        answers={
            "payment_method": "direct_deposit",
            "payment": {
                "routing_number": "011000015",
                "account_number": "12345678",
                "account_type": "checking",
            },
            "withholding": {"form": "W-4R", "w4r_rate": "20"},
        },
    )
    draft.refresh_from_db()
    return draft


def elections_today():
    from unittest import mock

    return mock.patch.object(elections, "today", return_value=AS_OF)


def test_the_approved_claim_waits_for_a_distribution_election_not_a_joint_and_survivor_one(paul):
    user, m = paul
    claim = approved_claim(user, m)
    assert claim.state == ClaimState.ELECTION_REQUIRED
    assert "distribution election" in claim.next_step and "§417" not in claim.next_step


def test_an_election_of_a_form_the_plan_does_not_offer_is_refused_naming_the_rule(paul):
    user, m = paul
    claim = approved_claim(user, m)
    draft = draft_for(user, m, claim, "installments")
    errors = elections.validate_election(draft, on=AS_OF)
    # §10.1: a lump sum only; Code §409(o)(1)(C) is met by a lump sum, so installments are not offered.
    assert errors["form"].startswith("Form of payment: the plan offers lump sum in shares and cash")
    assert "§10.1" in errors["form"] and "§409(o)(1)(C)" in errors["form"]
    with pytest.raises(elections.ElectionInvalid) as refused:
        elections.election_sign(draft=draft, user=user, password=PASSWORD, on=AS_OF)
    assert "form" in refused.value.errors
    assert not Payment.objects.filter(claim=claim).exists()


def test_elected_scheduled_instructed_confirmed_and_posted_from_the_plan_text(paul, client):
    user, m = paul
    claim = approved_claim(user, m)
    draft = draft_for(user, m, claim, "lump_sum_shares")
    assert elections.validate_election(draft, on=AS_OF) == {}
    with TestCase.captureOnCommitCallbacks(execute=True):
        elections.election_sign(draft=draft, user=user, password=PASSWORD, on=AS_OF)
    claim.refresh_from_db()
    assert claim.state == ClaimState.PAYMENT_SCHEDULED
    payment = Payment.objects.get(claim=claim)
    assert (payment.kind, payment.gross, payment.first_pay_date, payment.state) == (
        "single_sum",
        Decimal("3816.08"),
        PAY_DATE,
        "scheduled",
    )
    assert payment.form_label == "Lump sum in shares and cash: 334 shares and $8.48 in cash"

    admin = User.objects.get(email="admin@demo.test")
    services.instruction_export(pay_date=PAY_DATE, actor=admin)
    i = payment.instalments.get(pay_date=PAY_DATE)
    assert i.state == "instructed"
    assert (i.gross, i.withholding, i.net) == (Decimal("3816.08"), Decimal("8.48"), Decimal("3807.60"))
    (row,) = [
        r for r in csv.DictReader(io.StringIO(i.instruction_file.content)) if r["payment"] == str(payment.pk)
    ]
    assert (row["gross"], row["withholding"], row["net"], row["shares"]) == (
        "3816.08",
        "8.48",
        "3807.60",
        "334",
    )
    assert not AccountTransaction.objects.filter(
        membership=m, memo__startswith=f"Payment {payment.pk},"
    ).exists()

    confirm(admin, [(payment.pk, PAY_DATE, "paid", PAY_DATE, "TR-1", "3816.08", "")])
    payment.refresh_from_db()
    claim.refresh_from_db()
    assert payment.state == "paid" and claim.state == ClaimState.PAID
    posted = {
        (t.source, t.kind, t.amount, t.shares)
        for t in AccountTransaction.objects.filter(membership=m, memo__startswith=f"Payment {payment.pk},")
    }
    assert posted == {
        ("investment_fund", "forfeiture", Decimal("-96.10"), None),
        ("stock_fund", "forfeiture", Decimal("-857.92"), Decimal("-75.2561")),
        ("stock_fund", "distribution", Decimal("-3807.60"), Decimal("-334.0000")),
        ("stock_fund", "distribution", Decimal("-8.48"), Decimal("-0.7439")),  # all withheld
    }
    m.refresh_from_db()
    assert (m.plan_data["shares"], m.plan_data["cash"]) == ("0.0000", "0.00")
    after = membership_calculate(m, as_of=date(2027, 1, 4))["account"]
    assert Decimal(after["vested_balance"]) == 0

    # The statement for the period with the pay date shows the distribution in shares and dollars, and
    # the dashboard says it was paid.
    with on_the_day([date(2027, 1, 4)]):
        client.force_login(user)
        url = f"/benefits/participants/{m.participant_id}/plans/fairport-esop/statement/"
        page = client.get(url, {"start": "2026-01-01", "end": "2027-01-01"}).content.decode()
        import re

        main = re.sub(r"<[^>]+>", " ", page[page.index("<main") : page.index("</main>")])
        assert "Distributions" in main and "-334.7439" in main and "-$3,816.08" in main, " ".join(
            main.split()
        )[:4000]
        assert "Forfeitures" in page and "-75.2561" in page
        dashboard = client.get("/", follow=True).content.decode()
        assert "Paid on January 1, 2027" in dashboard

    # Imported again: nothing changes (the same rows, found by their memo).
    confirm(admin, [(payment.pk, PAY_DATE, "paid", PAY_DATE, "TR-1", "3816.08", "")], name="again.csv")
    assert (
        AccountTransaction.objects.filter(membership=m, memo__startswith=f"Payment {payment.pk},").count()
        == 4
    )


# ------------------------------------------------------------------ Carver ESOP: a cash-out in cash


def test_carver_cash_out_in_cash_by_direct_rollover_posts_the_funds_and_spends_the_vested_value(demo):
    # CBI-50002 left Carver on November 15, 2019: 380 shares × $7.85 = $2,983.00 and $55.00, all vested,
    # $3,038.00 ≤ $5,000: §10.6(a) pays it as a lump sum in cash unless he elects shares, directly or by
    # direct rollover as he elects. He chooses cash to his IRA: nothing withheld (Code §3405(c)(2)).
    m = PlanMembership.objects.select_related("participant").get(
        participant__participant_number="CBI-50002", plan__key="carver-esop"
    )
    user = User.objects.create_user(email="cbi@esop.test", password=PASSWORD)
    m.participant.user = user
    m.participant.save(update_fields=["user"])
    claim = claims.claim_file(
        filer=user,
        membership=m,
        claim_type="esop_distribution",
        details={"commencement_date": PAY_DATE},
        statement="Please pay me.",
        on=AS_OF,
    )
    committee = User.objects.get(email="committee@demo.test")
    claims.claim_start_review(claim=claim, actor=committee, on=AS_OF)
    with TestCase.captureOnCommitCallbacks(execute=True):
        claims.claim_decide(
            claim=claim, actor=committee, outcome="approved", reasons="", provisions="§10.6(a)", on=AS_OF
        )
    claim.refresh_from_db()
    assert claim.state == ClaimState.ELECTION_REQUIRED
    with elections_today():
        draft = elections.draft_start(user=user, membership=m, asd=PAY_DATE, claim=claim)
    assert [r["form"] for r in draft.notice.content["forms"]] == ["lump_sum_cash", "lump_sum_shares"]
    elections.draft_explanation_read(draft=draft, user=user)
    elections.draft_save(
        draft=draft, user=user, step="form", answers={"form": "lump_sum_cash", "installments": {}}
    )
    elections.draft_save(
        draft=draft,
        user=user,
        step="payment",
        answers={
            "payment_method": "direct_rollover",
            "payment": {"rollover_type": "ira", "institution": "Example Trust", "account": "IRA-55501234"},
            "withholding": {"form": "none", "note": "No withholding on a direct rollover"},
        },
    )
    with TestCase.captureOnCommitCallbacks(execute=True):
        elections.election_sign(draft=draft, user=user, password=PASSWORD, on=AS_OF)
    payment = Payment.objects.get(claim=claim)
    assert (payment.gross, payment.method, payment.form_label) == (
        Decimal("3038.00"),
        "direct_rollover",
        "Lump sum in cash: $3,038.00 in cash",
    )
    admin = User.objects.get(email="admin@demo.test")
    services.instruction_export(pay_date=PAY_DATE, actor=admin)
    i = payment.instalments.get(pay_date=PAY_DATE)
    assert (i.withholding, i.net) == (Decimal("0.00"), Decimal("3038.00"))
    confirm(admin, [(payment.pk, PAY_DATE, "paid", PAY_DATE, "TR-2", "3038.00", "")])
    posted = {
        (t.source, t.kind, t.amount, t.shares)
        for t in AccountTransaction.objects.filter(membership=m, memo__startswith=f"Payment {payment.pk},")
    }
    assert posted == {
        ("stock_fund", "distribution", Decimal("-2983.00"), Decimal("-380.0000")),
        ("investment_fund", "distribution", Decimal("-55.00"), None),
    }
    m.refresh_from_db()
    assert (m.plan_data["shares"], m.plan_data["cash"], m.plan_data["vested_account_value"]) == (
        "0.0000",
        "0.00",
        "0.00",
    )
