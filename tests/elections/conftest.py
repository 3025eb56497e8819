from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.core.management import call_command
from django.db import transaction
from django.test import override_settings

from accounts.models import User
from benefits.models import PlanMembership
from elections.claims import services
from tests.conftest import enroll_totp
from tests.factories import UserFactory

AS_OF = date(2026, 11, 21)


@pytest.fixture
def demo(db, settings, tmp_path):
    settings.PRIVATE_STORAGE_ROOT = tmp_path
    call_command("load_demo", as_of=AS_OF)


def demo_for_the_module(django_db_blocker, tmp_path_factory):
    """The demo loaded once for a module, inside a transaction rolled back after it; each test's own
    transaction is a savepoint within it, so every test still starts from the demo as loaded. For a
    module none of whose tests commit (no transaction=True): it overrides `demo` with

        @pytest.fixture(scope="module")
        def demo(django_db_setup, django_db_blocker, tmp_path_factory):
            yield from demo_for_the_module(django_db_blocker, tmp_path_factory)
    """
    private = tmp_path_factory.mktemp("private")
    with override_settings(PRIVATE_STORAGE_ROOT=private), django_db_blocker.unblock(), transaction.atomic():
        call_command("load_demo", as_of=AS_OF)
        yield
        transaction.set_rollback(True)


@pytest.fixture
def pat(demo):
    return User.objects.get(email="pat@demo.test")


@pytest.fixture
def committee(demo):
    return User.objects.get(email="committee@demo.test")


@pytest.fixture
def committee2(demo):
    user = UserFactory(role=User.Role.COMMITTEE)
    enroll_totp(user)
    return user


@pytest.fixture
def committee3(demo):
    user = UserFactory(role=User.Role.COMMITTEE)
    enroll_totp(user)
    return user


def membership(user, key: str) -> PlanMembership:
    return PlanMembership.objects.get(participant__user=user, plan__key=key)


def start_date(today: date | None = None) -> date:
    """A first-of-month start at least 60 days away (past any filing lead time)."""
    d = (today or services.today()) + timedelta(days=60)
    return date(d.year + (d.month == 12), d.month % 12 + 1, 1)


def clear_demo_claims(m: PlanMembership) -> None:
    """The demo's own claim holds pat's Carver DB benefit, and a benefit is started once (issue 22):
    a test that files its own claim for that benefit removes the demo's first."""
    from elections.models import Claim

    Claim.objects.filter(pk__in=demo_claim_ids(), membership=m).delete()


def file_db_claim(user, *, on: date | None = None, **kw):
    on = on or services.today()
    clear_demo_claims(membership(user, "carver-db"))
    return services.claim_file(
        filer=user,
        membership=membership(user, "carver-db"),
        claim_type="commencement",
        details={"commencement_date": start_date(on), "form": "js50"},
        statement="I would like to retire.",
        on=on,
        **kw,
    )


def demo_claim_ids() -> list[int]:
    """The claims load_demo itself files (pat's claim awaiting an election)."""
    from benefits.demo.elections import DEMO_CLAIM_STATEMENT
    from elections.models import Claim

    return list(Claim.objects.filter(statement=DEMO_CLAIM_STATEMENT).values_list("pk", flat=True))


def file_withdrawal(user, *, on: date, amount: str = "1000.00"):
    """A 401(k) age-59½ withdrawal claim: where a test needs several claims for one person, since the
    Carver DB benefit can be claimed once (issue 22)."""
    from decimal import Decimal

    return services.claim_file(
        filer=user,
        membership=membership(user, "carver-401k"),
        claim_type="withdrawal_59half",
        details={"amount": Decimal(amount), "payment_date": on + timedelta(days=30)},
        statement="I would like part of my account.",
        on=on,
    )
