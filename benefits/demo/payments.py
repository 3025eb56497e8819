"""Demo payments (issue 22): pat's Carver 401(k) age-59½ withdrawal and loan, filed, decided by the
committee as its claims procedure requires (a majority of its seats where it votes), with the spouse's
consent verified (pat is married: §7.2(a), §8.4(a)), the withholding choices of Form W-4R and the
§402(f) notice for the withdrawal, so both are payments scheduled for the January 1, 2027 pay date.

Everything goes through the services the pages use; nothing is written as raw rows. Idempotent: once
pat has a withdrawal or loan claim, nothing is added.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction

DEMO_PAY_DATE = date(2027, 1, 1)
WITHDRAWAL_AMOUNT = Decimal("10000")
LOAN_AMOUNT = Decimal("20000")
LOAN_TERM_MONTHS = 60
WITHDRAWAL_STATEMENT = "I would like $10,000 from my 401(k) account."
LOAN_STATEMENT = "I would like to borrow $20,000 from my 401(k) account."
# Treas. Reg. §1.402(f)-1 Q&A-2: the notice at least 30 days before the payment, unless waived.
NOTICE_DAYS = 30
# A one-page stand-in for the signed, notarized consent form (demo only: the administrator's
# verification is a person's act in real life).
CONSENT_PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def _decide(claim, committee, second, on: date, provisions: str):
    from elections.claims import services

    services.claim_start_review(claim=claim, actor=committee, on=on)
    for member in (committee, second):  # one decider, or a majority of the seats where the plan votes
        if member is None:
            continue
        claim.refresh_from_db()
        if claim.state != "under_review":
            break
        services.claim_decide(
            claim=claim, actor=member, outcome="approved", reasons="", provisions=provisions, on=on
        )
    claim.refresh_from_db()
    return claim


def _consent(claim, pat, admin, on: date) -> None:
    """The spouse's notarized consent, uploaded by pat and verified by the administrator."""
    from elections.consents import services as consents
    from elections.consents.models import SpousalConsent
    from elections.uploads import check_upload

    consent = SpousalConsent.objects.filter(claim=claim).first()
    if consent is None:
        return
    consent = consents.consent_upload(
        consent=consent,
        user=pat,
        upload=check_upload(SimpleUploadedFile("consent.pdf", CONSENT_PDF, "application/pdf")),
        details={
            "signed_on": on,
            "witness": "notary",
            "witness_name": "Alex Rivera",
            "notary_commission_number": "01RI6123456",
            "notary_commission_state": "NY",
            "notary_commission_expires": date(2028, 6, 30),
            "witnessing": "in_person",
        },
    )
    consents.consent_verify(consent=consent, actor=admin, on=on)


def load_demo_payments(*, as_of: date) -> int:
    """Pat's withdrawal and loan as payments scheduled for January 1, 2027. Returns how many were made."""
    from accounts.models import User
    from benefits.models import MarketRate, PlanMembership
    from elections.claims import services
    from elections.models import Claim, ClaimType

    pat = User.objects.filter(email="pat@demo.test").first()
    committee = User.objects.filter(email="committee@demo.test").first()
    second = User.objects.filter(email="committee2@demo.test").first()
    admin = User.objects.filter(email="admin@demo.test").first()
    m = PlanMembership.objects.filter(participant__user=pat, plan__key="carver-401k").first()
    if None in (pat, committee, admin, m):
        return 0
    # §7.3 / §7.4(a): ten days' prior notice; the demo's pay date must still be ahead of it.
    if as_of + timedelta(days=10) > DEMO_PAY_DATE:
        return 0
    if Claim.objects.filter(
        membership=m, claim_type__in=(ClaimType.WITHDRAWAL_59HALF, ClaimType.LOAN)
    ).exists():
        return 0
    if not MarketRate.objects.filter(series="prime_rate", period=as_of.replace(day=1)).exists():
        return 0  # the loan rate (§8.3) needs the month's prime rate (load_demo_prime_rates)
    made = 0
    with transaction.atomic():
        claim = services.claim_file(
            filer=pat,
            membership=m,
            claim_type=ClaimType.WITHDRAWAL_59HALF,
            details={
                "amount": WITHDRAWAL_AMOUNT,
                "payment_date": DEMO_PAY_DATE,
                "payment_method": "direct_payment",
                "w4r_rate": 20,
                "waive_30_days": (DEMO_PAY_DATE - as_of).days < NOTICE_DAYS,
            },
            statement=WITHDRAWAL_STATEMENT,
            on=as_of,
        )
        claim = _decide(claim, committee, second, as_of, "Plan §7.3")
        _consent(claim, pat, admin, as_of)
        made += 1
    with transaction.atomic():
        claim = services.claim_file(
            filer=pat,
            membership=m,
            claim_type=ClaimType.LOAN,
            details={
                "amount": LOAN_AMOUNT,
                "term_months": LOAN_TERM_MONTHS,
                "principal_residence": False,
                "payment_date": DEMO_PAY_DATE,
            },
            statement=LOAN_STATEMENT,
            on=as_of,
        )
        claim = _decide(claim, committee, second, as_of, "Plan §8.1, §8.2")
        _consent(claim, pat, admin, as_of)
        made += 1
    return made
