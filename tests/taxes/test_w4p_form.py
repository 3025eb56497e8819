"""The periodic-payment withholding election asks what Form W-4P (2022 or later) asks, stores it, and the
withholding follows Pub. 15-T (2026) Worksheet 1B (the amounts worked in
tests/engine/taxes/test_w4p_and_under_200.py: $287.83 a month)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from types import SimpleNamespace

from benefits.engine.taxes.distributions import Distribution, Kind, Recipient
from benefits.engine.taxes.withholding import compute
from elections.benefit_elections.forms import PaymentForm
from elections.benefit_elections.presenters import _withholding_words
from elections.benefit_elections.services import PaymentNeeds
from taxes import facts

D = Decimal
DATA = {
    "payment_method": "direct_deposit",
    "routing_number": "011000015",
    "account_number": "123456789",
    "account_type": "checking",
    "w4p": "married",
    "w4p_step2_jobs": "30000",
    "w4p_step3": "2000",
    "w4p_step4a": "1200",
    "w4p_step4b": "3000",
    "w4p_extra": "25",
}


def test_every_w4p_step_is_asked_stored_and_used():
    form = PaymentForm(DATA, needs=PaymentNeeds(rollover_allowed=False, w4r=False, w4p=True))
    for step in ("w4p_step2_jobs", "w4p_step2_pensions", "w4p_step3", "w4p_step4a", "w4p_step4b"):
        assert form.fields[step].label.startswith("Form W-4P Step")
    assert "w4p_extra" in form.fields  # Step 4(c)
    assert form.is_valid(), form.errors
    w = form.answers()["withholding"]
    assert w == {
        "form": "W-4P",
        "w4p": "married",
        "w4p_extra": "25.00",
        "w4p_step2_jobs": "30000.00",
        "w4p_step3": "2000.00",
        "w4p_step4a": "1200.00",
        "w4p_step4b": "3000.00",
    }
    assert "credits $2,000.00" in _withholding_words(w)
    payment = SimpleNamespace(
        method="direct_deposit", destination={}, frequency="monthly", withholding_election=w
    )
    e = facts.election(payment)
    annuity = Distribution(
        kind=Kind.ANNUITY,
        recipient=Recipient.PARTICIPANT,
        gross=D("5000.00"),
        paid_on=date(2026, 6, 1),
        participant_birth_date=date(1958, 3, 15),
    )
    assert compute(annuity, e).federal_withholding == D("287.83")


def test_no_withholding_stores_no_steps_and_steps_are_dropped_for_a_lump_sum():
    form = PaymentForm(
        {**DATA, "w4p": "none"}, needs=PaymentNeeds(rollover_allowed=False, w4r=False, w4p=True)
    )
    assert form.is_valid(), form.errors
    assert form.answers()["withholding"] == {"form": "W-4P", "w4p": "none", "w4p_extra": "25.00"}
    lump = PaymentForm({}, needs=PaymentNeeds(rollover_allowed=True, w4r=True, w4p=False, single_sum=True))
    assert not any(f.startswith("w4p") for f in lump.fields)
