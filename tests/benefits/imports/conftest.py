from __future__ import annotations

from datetime import date

import pytest

DOCS = __import__("pathlib").Path(__file__).resolve().parents[3] / "docs" / "import"
# The order the samples load in: the other samples name the participants of participants.csv.
SAMPLE_ORDER = (
    "participants",
    "hours",
    "compensation",
    "contributions",
    "valuations",
    "esop",
    "loans",
    "market_rates",
)


@pytest.fixture
def plans(db):
    """The employers and plans the samples name (as the demo creates them), without any participant."""
    from benefits.models import Employer, Plan

    carver = Employer.objects.create(name="Carver Federal Savings Bank")
    quaker = Employer.objects.create(name="Quaker City Bank")
    fairport = Employer.objects.create(name="Fairport Savings Bank")
    made = {}
    for key, kind, employer, settings in (
        ("carver-db", Plan.Kind.FINAL_AVERAGE_PAY, carver, {}),
        ("carver-401k", Plan.Kind.SAVINGS_401K, carver, {}),
        ("quaker-cash-balance", Plan.Kind.CASH_BALANCE, quaker, {}),
        ("fairport-esop", Plan.Kind.ESOP, fairport, {"pre_plan_vesting_cap_years": 5}),
    ):
        made[key] = Plan.objects.create(
            key=key, name=key.replace("-", " ").title(), kind=kind, employer=employer, settings=settings
        )
    return made


@pytest.fixture
def member(plans):
    """A Fairport ESOP participant hired January 4, 2021, with two full years of hours."""
    from benefits.identity import ssn_hash
    from benefits.models import HoursOfService, Participant, PlanMembership

    p = Participant.objects.create(
        employer=plans["fairport-esop"].employer,
        participant_number="FSB-77001",
        first_name="Ada",
        last_name="Quinn",
        birth_date=date(1980, 5, 1),
        ssn_last4="7001",
        ssn_hash=ssn_hash("900-77-7001"),
        hire_date=date(2021, 1, 4),
    )
    m = PlanMembership.objects.create(
        participant=p,
        plan=plans["fairport-esop"],
        entry_date=date(2021, 1, 4),
        plan_data={"shares": "0.0000", "cash": "0.00", "share_value": "10.00"},
    )
    HoursOfService.objects.bulk_create(
        HoursOfService(membership=m, period_year=y, hours=2080) for y in (2021, 2022)
    )
    return m


def csv_bytes(*lines: str) -> bytes:
    return ("\n".join(lines) + "\n").encode()


def run(
    kind: str,
    content: bytes,
    *,
    file_name: str = "file.csv",
    dry_run: bool = False,
    valid_rows_only: bool = False,
):
    from benefits.imports.kinds import KINDS
    from benefits.imports.services import import_run

    # A regulatory table's year and source are import fields, not columns (kinds/tables.py).
    params = TABLE_PARAMS.get(kind) if getattr(KINDS[kind], "whole_file", False) else None
    return import_run(
        kind=kind,
        file_name=file_name,
        content=content,
        dry_run=dry_run,
        valid_rows_only=valid_rows_only,
        params=params,
    )


# The year(s) and source each table sample in docs/import/ is for (docs/import/README.md).
TABLE_PARAMS = {
    "mortality_417e": {"year": 2024, "last_year": 2024, "source": "Notice 2023-73"},
    "single_life": {"year": 2002, "last_year": 2021, "source": "Treas. Reg. §1.401(a)(9)-9, A-1 (T.D. 8987)"},
}


def snapshot() -> dict:
    """Every row of every table an import may write, as plain values: to prove nothing changed."""
    from django.forms.models import model_to_dict

    from benefits.models import (
        AccountBalance,
        AccountTransaction,
        Compensation,
        HoursOfService,
        MarketRate,
        Participant,
        PlanMembership,
    )

    out = {}
    for model in (
        Participant,
        PlanMembership,
        HoursOfService,
        Compensation,
        AccountBalance,
        AccountTransaction,
        MarketRate,
    ):
        out[model.__name__] = sorted(str(model_to_dict(o)) for o in model.objects.all())
    return out
