"""Every sample in docs/import imports, re-imports with no change, and is refused whole with one bad row."""

from __future__ import annotations

import pytest

from tests.benefits.imports.conftest import DOCS, SAMPLE_ORDER, run, snapshot

pytestmark = pytest.mark.django_db

# One row each sample kind refuses, appended to the sample: a rule of that kind broken.
BAD_ROW = {
    "participants": "CFS-69999,Carver Federal Savings Bank,Bad,Row,1980-01-01,900-69-9999,1979-01-01,,single,,,,,",
    "hours": "CFS-60001,carver-401k,2018,9000",
    "compensation": "CFS-60001,carver-401k,2018,-1.00",
    "contributions": "CFS-60001,carver-401k,no_such_source,2025-11-14,deferral,10.00,",
    "valuations": "CFS-60001,carver-401k,before_tax,2025-13-31,10.00,",
    "esop": "FSB-60001,fairport-esop,stock_fund,2026-12-31,0,16.00,",
    "loans": "CFS-60001,carver-401k,before_tax,2025-12-31,borrowed,100.00,",
    "market_rates": "prime_rate,2024-07,26.00,WSJ",
}


def test_every_kind_has_a_sample_and_a_bad_row():
    from benefits.imports.kinds import KINDS

    # The paying agent's confirmation file needs instructed payments to refer to: its sample and its
    # refusals are in docs/payments/ and tests/payments/.
    # The regulatory tables' samples carry real published values and need their year and source:
    # tests/benefits/imports/test_regulatory_tables.py loads them.
    kinds = set(KINDS) - {"payment_confirmations", "mortality_417e", "single_life"}
    assert kinds == set(SAMPLE_ORDER) == set(BAD_ROW)
    for name in kinds:
        assert (DOCS / f"{name}.csv").is_file()
        assert f"`{name}`" in (DOCS / "README.md").read_text()


def test_samples_import_then_reimport_unchanged(plans):
    for name in SAMPLE_ORDER:
        content = (DOCS / f"{name}.csv").read_bytes()
        rows = len(content.decode().strip().splitlines()) - 1
        batch, checked = run(name, content, file_name=f"{name}.csv")
        assert checked.errors == [], (name, checked.errors)
        assert batch.status == "applied"
        assert (checked.created, checked.updated, checked.unchanged) == (rows, 0, 0), name
        before = snapshot()
        again, checked = run(name, content, file_name=f"{name}.csv")
        assert (checked.created, checked.updated, checked.unchanged) == (0, 0, rows), name
        assert again.changes.count() == 0
        assert snapshot() == before, name


def test_each_sample_is_refused_whole_with_one_bad_row(plans):
    for name in SAMPLE_ORDER:
        content = (DOCS / f"{name}.csv").read_bytes()
        bad = content.rstrip(b"\n") + b"\n" + BAD_ROW[name].encode() + b"\n"
        before = snapshot()
        batch, checked = run(name, bad, file_name=f"{name}.csv")
        assert batch.status == "previewed", name
        assert len(checked.errors) >= 1 and all(
            e.row == len(bad.decode().strip().splitlines()) for e in checked.errors
        ), (
            name,
            checked.errors,
        )
        assert snapshot() == before, name
        # The good rows then load, so the next sample has its participants.
        batch, checked = run(name, content, file_name=f"{name}.csv")
        assert batch.status == "applied" and not checked.errors


def test_each_kind_stores_its_rows_as_the_models_expect(plans):
    """One row of each sample, read back: signs, dates, shares and sources as the statements use them."""
    from datetime import date
    from decimal import Decimal

    from benefits.models import (
        AccountBalance,
        AccountTransaction,
        Compensation,
        HoursOfService,
        MarketRate,
        Participant,
    )

    for name in SAMPLE_ORDER:
        run(name, (DOCS / f"{name}.csv").read_bytes())
    p = Participant.objects.get(participant_number="CFS-60001")
    assert (p.first_name, p.marital_status, p.spouse_name, p.spouse_birth_date) == (
        "Renee",
        "married",
        "Samuel Okafor",
        date(1977, 2, 11),
    )
    assert p.ssn_last4 == "0001" and "900" not in p.ssn_hash  # only a keyed hash of the SSN is kept
    assert list(p.memberships.values_list("plan__key", "entry_date")) == [("carver-401k", date(2019, 7, 1))]
    assert HoursOfService.objects.get(membership__participant=p, period_year=2024).hours == 2088
    assert Compensation.objects.get(membership__participant=p, year=2025).amount == Decimal("75589.13")
    deferral = AccountTransaction.objects.get(
        membership__participant=p, date=date(2025, 10, 15), kind="deferral"
    )
    assert (deferral.source, deferral.amount, deferral.memo) == (
        "before_tax",
        Decimal("314.95"),
        "payroll 2025-20",
    )
    loan = AccountTransaction.objects.get(membership__participant=p, kind="loan_issued")
    assert loan.amount == Decimal("-6000.00")  # money out of the source (AccountTransaction's signs)
    stock = AccountBalance.objects.get(
        membership__participant__participant_number="FSB-60001", source="stock_fund"
    )
    assert (stock.as_of, stock.balance, stock.shares) == (
        date(2025, 12, 31),
        Decimal("9815.40"),
        Decimal("612.5000"),
    )
    rate = MarketRate.objects.get(series="treasury_10y_november", period=date(1998, 11, 1))
    assert rate.percent == Decimal("4.83") and rate.source.startswith("Federal Reserve H.15")


def test_imported_segment_rates_reach_the_engine(plans):
    """The three §417(e)(3) segment rates of a month go to the engine as assumptions.segment_rates."""
    from benefits.engine_adapter import plan_assumptions

    run("market_rates", (DOCS / "market_rates.csv").read_bytes())
    assumptions = plan_assumptions(plans["carver-db"])
    assert assumptions["segment_rates"] == {"2025-11": ["4.1600", "5.2800", "6.0200"]}
    assert assumptions["treasury_10y_november"]["1998"] == "4.8300"
