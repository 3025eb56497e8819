"""A synthetic population for scale runs (`manage.py generate_population N`): not real people.

Each generated participant is a variation of one of the demo people (benefits/demo/people.py), whose
histories were chosen to exercise each plan's rules, so every generated record is one the engine can
calculate: a different name, number and SSN, a birth date moved by up to 200 days, pay scaled by 70% to
140%. Employment spans, plan entry and plan data are the template's (they carry the plans' dated rules).
SSNs use areas 950-999, which the SSA never issues. Rows are written with bulk_create in chunks.
"""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

from django.db import transaction

from benefits.db_stats import analyze
from benefits.demo.loader import load_demo, yearly_history
from benefits.demo.people import PEOPLE, Person
from benefits.identity import ssn_hash
from benefits.models import (
    AccountBalance,
    Compensation,
    EmploymentPeriod,
    HoursOfService,
    Participant,
    Plan,
    PlanMembership,
)

PREFIX = "GEN-"
FIRST = (
    "Alex", "Bailey", "Camila", "Dana", "Elijah", "Fatima", "Grace", "Hiro", "Imani", "Jamal", "Keiko", "Luis",
    "Maya", "Nikhil", "Olivia", "Priya", "Quinn", "Rosa", "Samuel", "Tanya", "Uma", "Victor", "Wen", "Xavier",
    "Yara", "Zoe", "Andre", "Beatriz", "Chen", "Deborah",
)  # fmt: skip
LAST = (
    "Adams", "Baker", "Castillo", "Davis", "Edwards", "Flores", "Garcia", "Hughes", "Ibrahim", "Johnson", "Kim",
    "Lopez", "Martin", "Nguyen", "Okafor", "Patel", "Quintero", "Robinson", "Singh", "Thompson", "Upton",
    "Vasquez", "Washington", "Xu", "Young", "Zhang", "Brooks", "Carter", "Diaz", "Evans",
)  # fmt: skip
CENT = Decimal("0.01")


def _ssn(index: int) -> str:
    area = 950 + index // (99 * 9999)
    group = (index // 9999) % 99 + 1
    serial = index % 9999 + 1
    return f"{area:03d}-{group:02d}-{serial:04d}"


def _templates() -> list[Person]:
    # Living people without a demo login: their records are ordinary participants of the five plans.
    return [p for p in PEOPLE if p.death is None and not p.login]


def generate_population(count: int, *, as_of: date, seed: int = 2026, chunk: int = 2000) -> dict[str, int]:
    """Add ``count`` participants (numbered after any generated before); returns the rows written."""
    if not Plan.objects.exists():
        load_demo(as_of=as_of)
    plans = {p.key: p for p in Plan.objects.select_related("employer")}
    templates = _templates()
    histories = {t.number: yearly_history(t, as_of) for t in templates}
    start = Participant.objects.filter(participant_number__startswith=PREFIX).count()
    rng = random.Random(seed + start)
    written = {"participants": 0, "memberships": 0, "hours": 0, "compensation": 0, "balances": 0}
    for offset in range(0, count, chunk):
        people = []
        for i in range(offset, min(count, offset + chunk)):
            index = start + i
            template = templates[index % len(templates)]
            factor = Decimal(rng.randint(70, 140)) / 100
            person = replace(
                template,
                number=f"{PREFIX}{index + 1:07d}",
                first=rng.choice(FIRST),
                last=rng.choice(LAST),
                birth=template.birth + timedelta(days=rng.randint(-200, 200)),
                ssn=_ssn(index),
                email="",
            )
            people.append((person, template, factor))
        with transaction.atomic():
            _write(people, plans, histories, written, as_of)
    # Bulk inserts leave the planner without statistics: the dashboard's reads would scan every row.
    analyze([Participant, EmploymentPeriod, PlanMembership, HoursOfService, Compensation, AccountBalance])
    return written


def _write(people, plans, histories, written: dict[str, int], as_of: date) -> None:
    participants = Participant.objects.bulk_create(
        Participant(
            employer=plans[p.memberships[0].plan].employer,
            participant_number=p.number,
            first_name=p.first,
            last_name=p.last,
            birth_date=p.birth,
            ssn_last4=p.ssn[-4:],
            ssn_hash=ssn_hash(p.ssn),
            hire_date=p.periods[0][0],
            termination_date=p.periods[-1][1],
            marital_status="married" if p.married else "single",
            spouse_name=p.spouse,
            spouse_birth_date=p.spouse_birth,
            disability_date=p.disability,
        )
        for p, _, _ in people
    )
    EmploymentPeriod.objects.bulk_create(
        EmploymentPeriod(participant=row, start=s, end=e)
        for row, (p, _, _) in zip(participants, people, strict=True)
        for s, e in p.periods
    )
    pairs = [
        (PlanMembership(participant=row, plan=plans[spec.plan], entry_date=spec.entry_date, plan_data=spec.plan_data),
         spec, template, factor)
        for row, (_, template, factor) in zip(participants, people, strict=True)
        for spec in template.memberships
    ]  # fmt: skip
    memberships = PlanMembership.objects.bulk_create(m for m, *_ in pairs)
    hours_rows, pay_rows, balance_rows = [], [], []
    for membership, (_, spec, template, factor) in zip(memberships, pairs, strict=True):
        hours, pay = histories[template.number]
        merged = {**hours, **spec.hours_override}
        hours_rows += [
            HoursOfService(membership=membership, period_year=y, hours=h) for y, h in merged.items()
        ]
        pay_rows += [
            Compensation(membership=membership, year=y, amount=(a * factor).quantize(CENT, ROUND_HALF_UP))
            for y, a in pay.items()
        ]
        balance_rows += [
            AccountBalance(membership=membership, source=source, as_of=as_of, balance=Decimal(amount))
            for source, amount in spec.balances.items()
        ]
    HoursOfService.objects.bulk_create(hours_rows, batch_size=5000)
    Compensation.objects.bulk_create(pay_rows, batch_size=5000)
    AccountBalance.objects.bulk_create(balance_rows, batch_size=5000)
    written["participants"] += len(participants)
    written["memberships"] += len(memberships)
    written["hours"] += len(hours_rows)
    written["compensation"] += len(pay_rows)
    written["balances"] += len(balance_rows)
