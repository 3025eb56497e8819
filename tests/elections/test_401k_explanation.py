"""The §417(a)(3) explanation for the Carver 401(k): the plan buys annuities with the vested balance and
states no conversion basis, so the engine illustrates them on the §417(e)(3) basis for the ASD
(docs/plan-notes/carver-401k/benefits.md). The explanation's figures are the engine's, for that person
and date, and the notice says the insurer's price governs."""

from __future__ import annotations

import io
from datetime import date

import pytest
from django.test import Client, TestCase
from django.urls import reverse

from benefits.engine_adapter import membership_calculate
from elections.benefit_elections import services
from tests.elections.conftest import AS_OF, demo_for_the_module, membership

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker, tmp_path_factory):
    """Loaded once: no test here commits (see demo_for_the_module)."""
    yield from demo_for_the_module(django_db_blocker, tmp_path_factory)


ASD = date(2027, 2, 1)  # after pat's Early Retirement Date, inside the 13-month lump-sum window


def test_the_401k_explanation_states_the_engines_amounts_and_relative_values(pat):
    k = membership(pat, "carver-401k")
    assert pat.participant.marital_status == "married"
    with TestCase.captureOnCommitCallbacks(execute=True):
        notice = services.notice_issue(membership=k, kind="qjsa_explanation", asd=ASD, on=AS_OF).notice
    engine = membership_calculate(k, as_of=AS_OF, commencement_dates=[ASD])["estimates"][0]
    c = notice.content
    assert c["qjsa_form"] == engine["normal_form"] == "js50"  # §7.5(a)
    rows = {r["form"]: r for r in c["forms"]}
    assert set(engine["forms"]) >= {"js50", "js75", "js100", "life", "lump_sum"}
    # §7.6(e)-(g): the account forms follow the annuities and the lump sum
    assert set(rows) == set(engine["forms"]) | {"installments", "partial_lump_sum", "direct_rollover"}
    for key, figures in engine["forms"].items():
        row = rows[key]
        assert row["monthly"] == figures.get("monthly", "")
        assert row["survivor_monthly"] == figures.get("survivor_monthly", "")
        assert row["lump_sum"] == figures.get("lump_sum", "")
        assert row["relative_value_percent"] == figures["relative_value"]["percent"]
        assert row["approximately_equal"] == figures["relative_value"]["approximately_equal"]
    assert rows["js50"]["is_qjsa"] and not rows["js50"]["consent_needed"]  # §7.2(a)(i), A11
    assert rows["life"]["consent_needed"]
    # the basis is the §417(e)(3) one of the look-back month of the ASD's plan year (November 2026)
    assert engine["relative_value_basis"]["lookback_month"] == "2026-11"
    assert c["relative_value_basis"]["interest"] == engine["relative_value_basis"]["interest"]
    assert c["annuity_purchase"]["illustrated"] == ["js50", "js75", "js100", "life"]

    client = Client()
    client.force_login(pat)
    page = client.get(reverse("elections:notice_detail", args=[notice.pk])).content.decode()
    assert "The plan pays an annuity by buying it from an insurance company" in page
    assert "price on the purchase date sets the actual amount" in page
    assert "Value compared with the" in page and "approximately equal in value" in page
    monthly = f"{float(rows['js50']['monthly']):,.2f}"
    assert monthly in page

    # The PDF the participant keeps says the same, with the same figures.
    from pypdf import PdfReader

    from benefits.models import GeneratedDocument
    from benefits.services import document_bytes

    document = GeneratedDocument.objects.get(pk=notice.document_id)
    assert document.status == GeneratedDocument.Status.DONE, document.error
    text = " ".join(
        " ".join((pg.extract_text() or "").split())
        for pg in PdfReader(io.BytesIO(document_bytes(document))).pages
    )
    assert monthly in text and "insurance company" in text


# ------------------------------------------------------------------------------------ installments etc.
#
# Pat Morgan (demo): born March 14, 1962; vested balance 148,250 + 21,400 + 61,875 + 12,000 = $243,525.00
# (fully vested, §4.1). Payments from February 1, 2027: age 65 on the 2027 birthday, Single Life Table
# (Treas. Reg. §1.401(a)(9)-9(b)) 22.9 years, so the plan's 10 years bind (§7.6(e)). A12: each
# installment = balance ÷ installments remaining, to the cent.

BALANCE = "243525.00"


def _issue(pat):
    k = membership(pat, "carver-401k")
    with TestCase.captureOnCommitCallbacks(execute=True):
        return k, services.notice_issue(membership=k, kind="qjsa_explanation", asd=ASD, on=AS_OF).notice


def test_the_explanation_describes_installments_partial_rollover_and_deferral_with_the_engines_figures(pat):
    k, notice = _issue(pat)
    engine = membership_calculate(k, as_of=AS_OF, commencement_dates=[ASD])["estimates"][0]["account_options"]
    c = notice.content
    assert c["account_options"] == engine  # every figure is the engine's, for Pat on that date
    assert engine["vested_balance"] == BALANCE
    inst = engine["installments"]
    assert (inst["age"], inst["life_expectancy"], inst["max_years"]) == (65, "22.9", 10)
    ex = {e["years"]: e for e in inst["examples"]}
    # 243,525 ÷ 120 = 2,029.375 → 2,029.38; ÷ 108 = 2,254.861… → 2,254.86; ÷ 20 quarters = 12,176.25
    assert ex[10]["first"]["monthly"] == "2029.38" and not ex[10]["rollover_eligible"]  # SPEC §6.12
    assert ex[9]["first"]["monthly"] == "2254.86" and ex[9]["rollover_eligible"]
    assert ex[5]["first"]["quarterly"] == "12176.25"
    rows = {r["form"]: r for r in c["forms"]}
    for key in ("installments", "partial_lump_sum", "direct_rollover"):
        assert rows[key]["consent_needed"]  # §7.2(a)(i), A11: only the 50% J&S with the spouse is free
        assert rows[key]["relative_value_percent"] == ""  # not annuities: no relative value
    assert rows["direct_rollover"]["lump_sum"] == BALANCE
    assert "$2,029.38" in rows["installments"]["summary"]
    # half now (121,762.50), the rest ÷ 120 = 1,014.6875 → 1,014.69
    assert "$1,014.69" in rows["partial_lump_sum"]["description"]

    client = Client()
    client.force_login(pat)
    page = client.get(reverse("elections:notice_detail", args=[notice.pk])).content.decode()
    for text in (
        "Installments: what the first payment would be",
        "$2,029.38",
        "$2,254.86",
        "$12,176.25",
        "$243,525.00",
        "not annuities",
        "Not an annuity: it pays out your account balance of $243,525.00",
        "Partial lump sum with installments",
        "Direct rollover",
        "April 1, 2027",  # deferral to the normal retirement date (§7.5(a))
    ):
        assert text in page, text

    from pypdf import PdfReader

    from benefits.models import GeneratedDocument
    from benefits.services import document_bytes

    document = GeneratedDocument.objects.get(pk=notice.document_id)
    text = " ".join(
        " ".join((pg.extract_text() or "").split())
        for pg in PdfReader(io.BytesIO(document_bytes(document))).pages
    )
    assert "2,029.38" in text and "2,254.86" in text and "Installments" in text


def _draft(pat):
    k, notice = _issue(pat)
    with TestCase.captureOnCommitCallbacks(execute=True):
        draft = services.draft_start(user=pat, membership=k, asd=ASD)
        services.draft_explanation_read(draft=draft, user=pat)
        return draft


def _form_post(client, draft, **data):
    return client.post(reverse("elections:election_step", args=[draft.pk, "form"]), data)


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        ({"form": "installments", "frequency": "monthly", "years": "11"}, "years", "no more than 10 years"),
        (
            {"form": "installments", "frequency": "", "years": "5"},
            "frequency",
            "monthly, quarterly or annual",
        ),
        ({"form": "installments", "frequency": "monthly", "years": "0"}, "years", "at least 1"),
        (
            {"form": "partial_lump_sum", "frequency": "monthly", "years": "5", "partial_amount": "243525.00"},
            "partial_amount",
            "less than your vested balance of $243,525.00",
        ),
    ],
)
def test_the_wizard_refuses_an_invalid_installment_choice_naming_the_field_and_rule(pat, data, field, words):
    draft = _draft(pat)
    client = Client()
    client.force_login(pat)
    response = _form_post(client, draft, **data)
    assert response.status_code == 200  # the step again, with the error
    form = response.context["form"]
    assert words in " ".join(form.errors[field])
    draft.refresh_from_db()
    assert draft.answers.get("form") != data["form"]  # nothing saved


def test_installments_over_life_expectancy_are_refused_by_the_service(pat):
    draft = _draft(pat)
    # an older participant's options: 82 on the birthday, 9.9 years → at most 9 (§7.6(e))
    opts = draft.notice.content["account_options"]
    opts["installments"].update(age=82, life_expectancy="9.9", max_years=9, limited_by="life_expectancy")
    services.draft_save(
        draft=draft,
        user=pat,
        step="form",
        answers={"form": "installments", "installments": {"frequency": "annual", "years": "10"}},
    )
    errors = services.validate_election(draft, on=AS_OF)
    assert "life expectancy" in errors["years"] and "at most 9 years" in errors["years"]


DEPOSIT = {
    "payment_method": "direct_deposit",
    "routing_number": "011000015",
    "account_number": "12345678",
    "account_type": "checking",
}


def test_a_participant_elects_ten_year_monthly_installments_w4p_and_consent(pat):
    draft = _draft(pat)
    client = Client()
    client.force_login(pat)
    r = _form_post(client, draft, form="installments", frequency="monthly", years="10")
    assert r.status_code == 302 and r.url.endswith("/payment/")
    page = client.get(r.url).content.decode()
    assert "cannot be rolled over" in page and "Form W-4P" in page and "w4r_rate" not in page
    # a W-4R rate is not what 10-year installments take: W-4P is required (Code §3405(a))
    r = client.post(r.url, {**DEPOSIT})
    assert r.status_code == 200 and "w4p" in r.context["form"].errors
    r = client.post(
        reverse("elections:election_step", args=[draft.pk, "payment"]), {**DEPOSIT, "w4p": "married"}
    )
    assert r.status_code == 302
    review = client.get(r.url).content.decode()
    assert "Monthly installments over 10 years (120 payments), the first $2,029.38 a month" in review
    from tests.elections.test_benefit_elections import DEMO_PASSWORD

    draft.refresh_from_db()
    with TestCase.captureOnCommitCallbacks(execute=True):
        election = services.election_sign(draft=draft, user=pat, password=DEMO_PASSWORD, on=AS_OF)
    assert election.form == "installments"
    assert election.figures["first_installment"] == "2029.38" and election.figures["installments"] == "120"
    assert election.figures["installments_rollover_eligible"] == "no"
    assert election.withholding["form"] == "W-4P" and "mandatory_20_percent" not in election.withholding
    assert election.needs_consent  # §7.2(a)(i): any form but the 50% J&S with the spouse


def test_nine_year_installments_are_rollover_eligible_and_take_w4r(pat):
    draft = _draft(pat)
    client = Client()
    client.force_login(pat)
    _form_post(client, draft, form="installments", frequency="quarterly", years="9")
    url = reverse("elections:election_step", args=[draft.pk, "payment"])
    r = client.post(url, {**DEPOSIT, "w4r_rate": "10"})
    assert r.status_code == 200 and "w4r_rate" in r.context["form"].errors  # at least 20% (Code §3405(c))
    r = client.post(url, {**DEPOSIT, "w4r_rate": "20"})
    assert r.status_code == 302
    draft.refresh_from_db()
    assert draft.answers["withholding"] == {"form": "W-4R", "w4r_rate": "20"}
    assert services.validate_election(draft, on=AS_OF) == {}


def test_a_partial_lump_sum_with_the_rest_over_ten_years(pat):
    draft = _draft(pat)
    client = Client()
    client.force_login(pat)
    r = _form_post(
        client, draft, form="partial_lump_sum", partial_amount="43525.00", frequency="quarterly", years="10"
    )
    assert r.status_code == 302
    url = reverse("elections:election_step", args=[draft.pk, "payment"])
    # the single sum rolled over; the 10-year installments cannot be, so a bank account and W-4P are needed
    rollover = {
        "payment_method": "direct_rollover",
        "rollover_type": "ira",
        "rollover_institution": "Example Trust Co.",
        "rollover_account": "IRA-99812",
    }
    r = client.post(url, rollover)
    assert r.status_code == 200 and {"routing_number", "w4p"} <= set(r.context["form"].errors)
    r = client.post(
        url, {**rollover, **{k: v for k, v in DEPOSIT.items() if k != "payment_method"}, "w4p": "single"}
    )
    assert r.status_code == 302
    from tests.elections.test_benefit_elections import DEMO_PASSWORD

    draft.refresh_from_db()
    with TestCase.captureOnCommitCallbacks(execute=True):
        election = services.election_sign(draft=draft, user=pat, password=DEMO_PASSWORD, on=AS_OF)
    # 243,525 − 43,525 = 200,000 ÷ 40 quarters = 5,000.00
    assert election.figures["lump_sum"] == "43525.00" and election.figures["rest"] == "200000.00"
    assert election.figures["first_installment"] == "5000.00"
    assert election.withholding == {"form": "W-4P", "w4p": "single", "w4p_extra": "0.00"}
    assert (
        election.payment["institution"] == "Example Trust Co."
        and election.payment["account_number"] == "12345678"
    )


def test_a_direct_rollover_must_be_rolled_over(pat):
    draft = _draft(pat)
    services.draft_save(draft=draft, user=pat, step="form", answers={"form": "direct_rollover"})
    services.draft_save(
        draft=draft,
        user=pat,
        step="payment",
        answers={
            "payment_method": "direct_deposit",
            "payment": {},
            "withholding": {"form": "W-4R", "w4r_rate": "20"},
        },
    )
    assert "direct rollover" in services.validate_election(draft, on=AS_OF)["payment_method"]
