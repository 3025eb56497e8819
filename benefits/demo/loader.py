"""Load the five plans, the demo participants, their histories and the three demo logins. Idempotent.

Running it twice leaves the same rows: plans, people and users are matched on natural keys, and each
membership's yearly history is replaced whole inside one transaction.
"""

from __future__ import annotations

import base64
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from allauth.mfa.utils import encrypt
from django.db import transaction

from accounts.models import User
from benefits.demo.account_elections import load_demo_account_elections
from benefits.demo.activity import esop_history, k401_history
from benefits.demo.elections import load_demo_elections
from benefits.demo.people import PEOPLE, Person
from benefits.identity import ssn_hash
from benefits.models import (
    AccountBalance,
    AccountTransaction,
    Compensation,
    Employer,
    EmploymentPeriod,
    HoursOfService,
    MarketRate,
    Participant,
    Plan,
    PlanMembership,
)
from benefits.plan_identity.models import PlanContact
from benefits.plan_identity.services import plan_identity_update

DEMO_PASSWORD = "demo-pass-2026"  # noqa: S105 - documented demo credential
# Fixed TOTP secrets so the README can print them (demo only): base32 of 20 fixed bytes.
COMMITTEE_TOTP_SECRET = base64.b32encode(b"demo-committee-2026!").decode()
ADMIN_TOTP_SECRET = base64.b32encode(b"demo-admin-totp-2026").decode()
COMMITTEE2_TOTP_SECRET = base64.b32encode(b"demo-committee2-2026").decode()

CARVER = "Carver Federal Savings Bank"
QUAKER = "Quaker City Bank"
FAIRPORT = "Fairport Savings Bank"

# Plan identification printed on every document (benefits.plan_identity). None of the plan texts
# states its Form 5500 plan number or the administrator's address and telephone: these are the demo's
# own values (numbers 001/002/003 by sponsor, 555-01xx telephone numbers), marked as demo data.
DEMO_PLAN_CONTACTS = {
    "carver-db": (
        "001",
        "Carver Federal Savings Bank",
        "Retirement Plan Administrator, Carver Federal Savings Bank",
    ),
    "carver-401k": (
        "002",
        "Carver Federal Savings Bank",
        "Plan Administrator, Carver Federal Savings Bank 401(k) Plan",
    ),
    "carver-esop": ("003", "Carver Bancorp, Inc.", "ESOP Committee, Carver Bancorp, Inc."),
    "quaker-cash-balance": ("001", "Quaker City Bank", "Retirement Plan Committee, Quaker City Bank"),
    "fairport-esop": ("001", "Fairport Savings Bank", "ESOP Committee, Fairport Savings Bank"),
}
DEMO_SPONSOR_CONTACT = {
    "Carver Federal Savings Bank": ("75 West 125th Street\nNew York, NY 10027", "(212) 555-0125"),
    "Carver Bancorp, Inc.": ("75 West 125th Street\nNew York, NY 10027", "(212) 555-0126"),
    "Quaker City Bank": ("7021 Greenleaf Avenue\nWhittier, CA 90602", "(562) 555-0170"),
    "Fairport Savings Bank": ("45 South Main Street\nFairport, NY 14450", "(585) 555-0145"),
}

PLANS = (
    (
        "carver-db",
        "Carver Federal Savings Bank Retirement Income Plan",
        Plan.Kind.FINAL_AVERAGE_PAY,
        CARVER,
        "Retirement Income Plan (final average pay, frozen December 31, 2000)",
    ),
    (
        "quaker-cash-balance",
        "Quaker City Bank Employees' Retirement Income Plan",
        Plan.Kind.CASH_BALANCE,
        QUAKER,
        "Employees' Retirement Income Plan (cash balance, restated 2000)",
    ),
    (
        "carver-401k",
        "Carver Federal Savings Bank 401(k) Savings Plan",
        Plan.Kind.SAVINGS_401K,
        CARVER,
        "401(k) Savings Plan in RSI Retirement Trust",
    ),
    (
        "fairport-esop",
        "Fairport Savings Bank Employee Stock Ownership Plan",
        Plan.Kind.ESOP,
        FAIRPORT,
        "Employee Stock Ownership Plan",
    ),
    (
        "carver-esop",
        "Carver Bancorp, Inc. Employee Stock Ownership Plan",
        Plan.Kind.ESOP,
        CARVER,
        "Employee Stock Ownership Plan, as amended by the Sixth Amendment",
    ),
)

# Plan readings the demo fills in where the plan text leaves a blank (an administrator must confirm them).
# Fairport §9.2 leaves the maximum of pre-2007 Vesting Years blank (SPEC GAP D1.2); the demo assumes 5.
DEMO_PLAN_SETTINGS: dict[str, dict] = {"fairport-esop": {"pre_plan_vesting_cap_years": 5}}

# Federal Reserve H.15, 10-year Treasury constant maturity, monthly average for November (percent).
# Demo market data entered by hand: confirm each value against H.15 before production use. November
# 2000 is the published monthly average (5.72; the 5.78 once here was the 30-year rate) (issue 24).
TREASURY_10Y_NOVEMBER = {
    1999: "6.03",
    2000: "5.72",  # H.15 published monthly average
    2001: "4.65",
    2002: "4.05",
    2003: "4.30",
    2004: "4.19",
    2005: "4.54",
    2006: "4.60",
    2007: "4.15",
    2008: "3.53",
    2009: "3.40",
    2010: "2.76",
    2011: "2.01",
    2012: "1.65",
    2013: "2.72",
    2014: "2.33",
    2015: "2.26",
    2016: "2.14",
    2017: "2.35",
    2018: "3.12",
    2019: "1.81",
    2020: "0.87",
    2021: "1.56",
    2022: "3.89",
    2023: "4.50",
    2024: "4.36",
    2025: "4.09",
}
TREASURY_SOURCE = "Federal Reserve H.15, 10-year CMT, November monthly average (demo data entered by hand)"

# Federal Reserve H.15, 30-year Treasury constant maturity, monthly averages (percent): the cash balance
# plan's applicable interest rate (§1.2(e)). Demo data entered by hand: confirm against H.15. The months
# marked are the published monthly averages (issue 24); the others are still to confirm.
TREASURY_30Y_MONTHLY = {
    "2024-01": "4.26",
    "2024-02": "4.38",
    "2024-03": "4.36",
    "2024-04": "4.66",
    "2024-05": "4.62",
    "2024-06": "4.44",
    "2024-07": "4.46",
    "2024-08": "4.15",
    "2024-09": "4.04",
    "2024-10": "4.38",
    "2024-11": "4.54",
    "2024-12": "4.58",
    "2025-01": "4.85",
    "2025-02": "4.68",
    "2025-03": "4.60",  # H.15 published
    "2025-04": "4.71",  # H.15 published
    "2025-05": "4.90",
    "2025-06": "4.89",
    "2025-07": "4.92",  # H.15 published
    "2025-08": "4.87",
    "2025-09": "4.74",  # H.15 published
    "2025-10": "4.64",  # H.15 published
}
TREASURY_30Y_SOURCE = "Federal Reserve H.15, 30-year CMT, monthly average (demo data entered by hand)"

# The 401(k) loan rate is prime + 1 point (§8.3). Demo only: an assumed prime rate, not the published one.
DEMO_PRIME_PERCENT = Decimal("6.75")
DEMO_PRIME_SOURCE = (
    "DEMO ONLY: assumed prime rate for the demonstration, not the Wall Street Journal's published rate"
)


def load_demo_prime_rates(*, as_of: date, months: int = 13) -> int:
    """One ``prime_rate`` row a month for the ``months`` months up to ``as_of``; existing rows are kept."""
    created = 0
    year, month = as_of.year, as_of.month
    for _ in range(months):
        _, made = MarketRate.objects.get_or_create(
            series="prime_rate",
            period=date(year, month, 1),
            defaults={"percent": DEMO_PRIME_PERCENT, "source": DEMO_PRIME_SOURCE},
        )
        created += made
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    return created


FULL_YEAR_HOURS = 2080


def _days_in_year_worked(start: date, end: date | None, year: int, as_of: date) -> int:
    first = max(start, date(year, 1, 1))
    last = min(end or as_of, date(year, 12, 31), as_of)
    return max(0, (last - first).days + 1)


def yearly_history(person: Person, as_of: date) -> tuple[dict[int, int], dict[int, Decimal]]:
    """Hours (full-time 2,080 a year, pro rata by days) and pay (raised each year) per calendar year."""
    hours: dict[int, int] = {}
    pay: dict[int, Decimal] = {}
    first_year = person.periods[0][0].year
    for start, end in person.periods:
        for year in range(start.year, (end or as_of).year + 1):
            days = _days_in_year_worked(start, end, year, as_of)
            if days == 0:
                continue
            fraction = Decimal(days) / Decimal(366 if year % 4 == 0 else 365)
            hours[year] = hours.get(year, 0) + int(
                (FULL_YEAR_HOURS * fraction).to_integral_value(ROUND_HALF_UP)
            )
            annual = person.salary * (1 + person.raise_pct / 100) ** (year - first_year)
            amount = (annual * fraction).quantize(Decimal("0.01"), ROUND_HALF_UP)
            pay[year] = pay.get(year, Decimal("0")) + amount
    return hours, pay


def _ensure_user(email: str, role: str, *, staff: bool = False, totp_secret: str | None = None) -> User:
    user, _ = User.objects.get_or_create(email=email, defaults={"role": role})
    user.role = role
    user.is_staff = staff
    user.is_superuser = staff and role == User.Role.ADMINISTRATOR
    user.set_password(DEMO_PASSWORD)
    user.save()
    EmailAddress.objects.update_or_create(
        user=user, email=email, defaults={"verified": True, "primary": True}
    )
    if totp_secret:
        Authenticator.objects.update_or_create(
            user=user, type=Authenticator.Type.TOTP, defaults={"data": {"secret": encrypt(totp_secret)}}
        )
    return user


@transaction.atomic
def load_demo(*, as_of: date) -> dict[str, int]:
    employers = {name: Employer.objects.get_or_create(name=name)[0] for name in (CARVER, QUAKER, FAIRPORT)}
    plans: dict[str, Plan] = {}
    for key, name, kind, employer, title in PLANS:
        plan, _ = Plan.objects.update_or_create(
            key=key,
            defaults={"name": name, "kind": kind, "employer": employers[employer], "document_title": title},
        )
        if key in DEMO_PLAN_SETTINGS and not plan.settings:
            plan.settings = DEMO_PLAN_SETTINGS[key]
            plan.save(update_fields=["settings"])
        plans[key] = plan
        if key in DEMO_PLAN_CONTACTS and not PlanContact.objects.filter(plan=plan).exists():
            number, sponsor, administrator = DEMO_PLAN_CONTACTS[key]
            address, phone = DEMO_SPONSOR_CONTACT[sponsor]
            plan_identity_update(
                plan=plan,
                values={
                    "plan_number": number,
                    "sponsor_name": sponsor,
                    "sponsor_address": address,
                    "administrator_name": administrator,
                    "administrator_address": address,
                    "administrator_phone": phone,
                },
                actor=None,
                demo_data=True,
            )

    users = {
        "pat@demo.test": _ensure_user("pat@demo.test", User.Role.PARTICIPANT),
        "sam@demo.test": _ensure_user("sam@demo.test", User.Role.PARTICIPANT),
        "committee@demo.test": _ensure_user(
            "committee@demo.test", User.Role.COMMITTEE, totp_secret=COMMITTEE_TOTP_SECRET
        ),
        "committee2@demo.test": _ensure_user(
            "committee2@demo.test", User.Role.COMMITTEE, totp_secret=COMMITTEE2_TOTP_SECRET
        ),
        "admin@demo.test": _ensure_user(
            "admin@demo.test", User.Role.ADMINISTRATOR, staff=True, totp_secret=ADMIN_TOTP_SECRET
        ),
    }

    for person in PEOPLE:
        _load_person(person, plans, employers, users, as_of)

    for year, percent in TREASURY_10Y_NOVEMBER.items():
        MarketRate.objects.update_or_create(
            series="treasury_10y_november",
            period=date(year, 11, 1),
            defaults={"percent": Decimal(percent), "source": TREASURY_SOURCE},
        )
    for month, percent in TREASURY_30Y_MONTHLY.items():
        MarketRate.objects.update_or_create(
            series="treasury_30y",
            period=date.fromisoformat(f"{month}-01"),
            defaults={"percent": Decimal(percent), "source": TREASURY_30Y_SOURCE},
        )
    load_demo_prime_rates(as_of=as_of)
    load_demo_market_months(as_of=as_of)
    load_demo_elections(as_of=as_of)
    load_demo_account_elections(as_of=as_of)
    from django.conf import settings

    from benefits.demo.claims import load_demo_claims

    claims = load_demo_claims(as_of=as_of) if settings.DEMO_PLAN_YEAR_CLAIMS else 0
    if settings.DEMO_PAYMENTS:
        from benefits.demo.payments import load_demo_payments

        claims += load_demo_payments(as_of=as_of)
    return {"plans": len(plans), "participants": len(PEOPLE), "users": len(users), "claims": claims}


# Demo market data after the last hand-entered month, through the month of the demo date, so relative
# values and lump sums can be shown for any start date a demo user picks. DEMO DATA: assumed values,
# not published ones; the source column says so on every row.
DEMO_30Y_PERCENT = Decimal("4.60")
DEMO_30Y_SOURCE = "DEMO ONLY: assumed 30-year Treasury rate for the months after October 2025"
# §417(e)(3) segment rates (first, second, third segment), DEMO ONLY: assumed values near recent IRS
# published minimum present value segment rates, to be replaced with the IRS notice's figures.
DEMO_SEGMENT_PERCENTS = (Decimal("4.45"), Decimal("5.20"), Decimal("5.85"))
DEMO_SEGMENT_SOURCE = "DEMO ONLY: assumed §417(e)(3) minimum present value segment rates"


def load_demo_market_months(*, as_of: date, months: int = 25) -> int:
    """30-year Treasury rows for months without one up to ``as_of``, and segment rates for the last
    ``months`` months; existing rows are kept."""
    created = 0
    year, month = as_of.year, as_of.month
    for _ in range(months):
        period = date(year, month, 1)
        _, made = MarketRate.objects.get_or_create(
            series="treasury_30y",
            period=period,
            defaults={"percent": DEMO_30Y_PERCENT, "source": DEMO_30Y_SOURCE},
        )
        created += made
        for segment, percent in enumerate(DEMO_SEGMENT_PERCENTS, start=1):
            _, made = MarketRate.objects.get_or_create(
                series=f"417e_segment_{segment}",
                period=period,
                defaults={"percent": percent, "source": DEMO_SEGMENT_SOURCE},
            )
            created += made
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    return created


def _load_person(person: Person, plans, employers, users, as_of: date) -> None:
    first_plan = plans[person.memberships[0].plan]
    start, _ = person.periods[0]
    end = person.periods[-1][1]
    participant, _ = Participant.objects.update_or_create(
        participant_number=person.number,
        defaults={
            "employer": first_plan.employer,
            "first_name": person.first,
            "last_name": person.last,
            "birth_date": person.birth,
            "ssn_last4": person.ssn[-4:],
            "ssn_hash": ssn_hash(person.ssn),
            "hire_date": start,
            "termination_date": end,
            "marital_status": "married" if person.married else "single",
            "spouse_name": person.spouse,
            "spouse_birth_date": person.spouse_birth,
            "email": person.email,
            "death_date": person.death,
            "disability_date": person.disability,
            "user": users.get(person.login),
        },
    )
    participant.employment_periods.all().delete()
    EmploymentPeriod.objects.bulk_create(
        EmploymentPeriod(participant=participant, start=s, end=e) for s, e in person.periods
    )
    hours, pay = yearly_history(person, as_of)
    for spec in person.memberships:
        membership, _ = PlanMembership.objects.update_or_create(
            participant=participant,
            plan=plans[spec.plan],
            defaults={"entry_date": spec.entry_date, "plan_data": spec.plan_data},
        )
        membership.hours.all().delete()
        membership.compensation.all().delete()
        membership.balances.all().delete()
        merged_hours = {**hours, **spec.hours_override}
        HoursOfService.objects.bulk_create(
            HoursOfService(membership=membership, period_year=y, hours=h)
            for y, h in sorted(merged_hours.items())
        )
        Compensation.objects.bulk_create(
            Compensation(membership=membership, year=y, amount=a) for y, a in sorted(pay.items())
        )
        membership.transactions.all().delete()
        _load_account_history(person, spec, membership, pay, as_of)


def _load_account_history(person: Person, spec, membership, pay, as_of: date) -> None:
    """Balances on each valuation date and the transactions between them (demo/activity.py): the
    as-of balances are the person's figures, and opening + activity = closing to the cent."""
    rows: list[AccountBalance] = []
    if spec.plan == "carver-401k" and spec.balances:
        txs, balances, added = k401_history(person, spec, pay, as_of)
        if added:
            data = dict(membership.plan_data)
            data["deferrals"] = {**data.get("deferrals", {}), **added}
            membership.plan_data = data
            membership.save(update_fields=["plan_data"])
        for on, by_source in balances.items():
            rows += [
                AccountBalance(membership=membership, source=s, as_of=on, balance=b)
                for s, b in by_source.items()
            ]
    elif spec.plan in ("fairport-esop", "carver-esop") and "shares" in spec.plan_data:
        txs, balances = esop_history(person, spec, as_of)
        for on, by_source in balances.items():
            rows += [
                AccountBalance(membership=membership, source=s, as_of=on, balance=b, shares=sh)
                for s, (b, sh) in by_source.items()
            ]
    else:
        AccountBalance.objects.bulk_create(
            AccountBalance(membership=membership, source=src, as_of=as_of, balance=Decimal(bal))
            for src, bal in spec.balances.items()
        )
        return
    AccountBalance.objects.bulk_create(rows)
    AccountTransaction.objects.bulk_create(
        AccountTransaction(
            membership=membership,
            source=t.source,
            date=t.on,
            kind=t.kind,
            amount=t.amount,
            shares=t.shares,
            memo=t.memo,
        )
        for t in sorted(txs, key=lambda t: (t.on, t.source, t.kind))
    )
