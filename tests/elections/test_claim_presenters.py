"""The claim pages' rows come from the figures the view read; the loan's sections are the plan's own
(``LoanProgram.terms``), never the web app's."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from types import SimpleNamespace

from benefits.engine.plans import get_plan
from elections.claims.models import ClaimType
from elections.claims.presenters import figure_rows

TODAY = date(2027, 4, 1)


def test_loan_figures_cite_the_plans_sections():
    terms = get_plan("carver-401k").loans.terms
    prime = SimpleNamespace(percent=Decimal("7.50"), source="WSJ, April 1, 2027")
    rows = figure_rows(
        ClaimType.LOAN,
        {"loan": {"maximum_new_loan": "12000.00"}},
        today=TODAY,
        pending=[],
        most={ClaimType.LOAN: Decimal("12000.00")},
        loan_terms=terms,
        prime=prime,
        loan_rate=Decimal("8.50"),  # Carver 401(k) §8.3: prime 7.50% + 1 point
    )
    assert rows == [
        ("Most you can borrow (§8.2)", "$12,000.00"),
        ("Loan rate for requests in April 2027 (§8.3)", "8.50%"),
        ("Prime rate it is based on", "7.5% (WSJ, April 1, 2027)"),
    ]


def test_no_prime_rate_yet_says_why():
    rows = figure_rows(
        ClaimType.LOAN,
        {"loan": {"maximum_new_loan": "0.00"}},
        today=TODAY,
        pending=[],
        most={ClaimType.LOAN: Decimal("0.00")},
        rate_missing="Not available yet.",
    )
    assert rows == [("Most you can borrow", "$0.00"), ("Loan rate", "Not available yet.")]
