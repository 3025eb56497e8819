"""factory_boy factories for the Django side."""

from __future__ import annotations

from datetime import date

import factory
from allauth.account.models import EmailAddress
from factory.django import DjangoModelFactory

from accounts.models import User
from benefits.identity import ssn_hash
from benefits.models import Employer, Participant, Plan, PlanMembership
from tests.conftest import PASSWORD  # noqa: F401 - re-exported for tests


class UserFactory(DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    email = factory.Sequence(lambda n: f"user{n}@example.test")
    role = User.Role.PARTICIPANT

    @factory.post_generation
    def password(self, create, extracted, **kwargs):
        self.set_password(extracted or PASSWORD)
        if create:
            self.save()
            EmailAddress.objects.create(user=self, email=self.email, verified=True, primary=True)


class EmployerFactory(DjangoModelFactory):
    class Meta:
        model = Employer
        django_get_or_create = ("name",)

    name = "Carver Federal Savings Bank"


class PlanFactory(DjangoModelFactory):
    class Meta:
        model = Plan
        django_get_or_create = ("key",)

    key = "carver-db"
    name = "Carver Federal Savings Bank Retirement Income Plan"
    kind = Plan.Kind.FINAL_AVERAGE_PAY
    employer = factory.SubFactory(EmployerFactory)


class ParticipantFactory(DjangoModelFactory):
    class Meta:
        model = Participant

    employer = factory.SubFactory(EmployerFactory)
    participant_number = factory.Sequence(lambda n: f"T-{n:05d}")
    first_name = "Test"
    last_name = factory.Sequence(lambda n: f"Person{n}")
    birth_date = date(1965, 4, 28)
    ssn_last4 = factory.LazyAttribute(lambda o: o.ssn[-4:])
    ssn_hash = factory.LazyAttribute(lambda o: ssn_hash(o.ssn))
    hire_date = date(1990, 1, 2)

    class Params:
        ssn = factory.Sequence(lambda n: f"900-99-{n:04d}")


class MembershipFactory(DjangoModelFactory):
    class Meta:
        model = PlanMembership

    participant = factory.SubFactory(ParticipantFactory)
    plan = factory.SubFactory(PlanFactory)
