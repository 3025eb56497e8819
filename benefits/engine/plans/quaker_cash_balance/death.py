"""The pre-retirement death benefit: the §5.12 Survivor Annuity (the QPSA).

A participant who dies vested and before his ASD leaves his Surviving Spouse (or, failing one, his
Beneficiary) a life annuity that is the Actuarial Equivalent, on the §1.2(g) basis, of the whole
account "as of the date of commencement of the Survivor Annuity" (§5.12(b),(c)). The account earns
Interest Credits for each quarter ending after death and before that date (§5.12(d)). It starts on
the first of the month after the later of the month of death and the elected date; for a spouse no
later than the first of the month on or after the participant's 65th birthday. A lump sum is paid
instead if the balance is $5,000 or less, or on election with consent (§5.12(e)).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import Literal

from benefits.engine.dates import (
    add_years,
    date_attaining_age,
    first_of_month_on_or_after,
    first_of_next_month,
)
from benefits.engine.trace import Trace, money

from .annuity import ApplicableBasis, balance_to_life_annuity

Recipient = Literal["spouse", "beneficiary"]


@dataclass(frozen=True)
class SurvivorDates:
    earliest_start: date
    latest_start: date
    lump_sum_election_deadline: date
    trace: Trace


def survivor_dates(*, death_date: date, birth_date: date, recipient: Recipient) -> SurvivorDates:
    """§5.12(b),(c),(e) windows for the survivor's start and lump-sum election."""
    earliest = first_of_next_month(death_date)
    if recipient == "spouse":
        latest = first_of_month_on_or_after(date_attaining_age(birth_date, 65))
        deadline = latest - timedelta(days=60)
        words = "first of the month on or after the date the participant would have reached 65"
        section = "§5.12(b), §5.12(e)"
    else:
        # The elected date must fall by Dec 31 of the year of the first anniversary of death; the
        # annuity starts on the first of the following month.
        last_elected = date(add_years(death_date, 1).year, 12, 31)
        latest = first_of_next_month(last_elected)
        deadline = last_elected - timedelta(days=60)
        words = "first of the month after the last day of the year of the first anniversary of death"
        section = "§5.12(c), §5.12(e)"
    trace = Trace().add(
        "Survivor Annuity start window and lump-sum election deadline",
        section=section,
        result={"earliest": earliest, "latest": latest, "lump_sum_election_by": deadline},
        recipient=recipient,
        latest_rule=words,
    )
    return SurvivorDates(earliest, latest, deadline, trace)


@dataclass(frozen=True)
class SurvivorAnnuity:
    recipient: Recipient
    start: date
    balance: Decimal  # as of the start (with §5.12(d) interest)
    monthly: Decimal
    lump_sum: Decimal
    lump_sum_automatic: bool  # balance ≤ the cash-out limit (§5.12(e))
    dates: SurvivorDates
    trace: Trace


def survivor_annuity(
    balance: Decimal,
    *,
    recipient: Recipient,
    start: date,
    survivor_birth_date: date,
    dates: SurvivorDates,
    basis: ApplicableBasis,
    cash_out_threshold: Decimal,
) -> SurvivorAnnuity:
    """The survivor's monthly life annuity bought by ``balance`` at ``start`` (basis B4)."""
    life = balance_to_life_annuity(
        balance,
        birth_date=survivor_birth_date,
        start=start,
        basis=basis,
        section="§5.12(b)-(d), §1.2(g)",
        what=f"life annuity on the {recipient}'s life",
    )
    automatic = balance <= cash_out_threshold
    trace = dates.trace.extend(life.trace).add(
        "Lump sum instead of the Survivor Annuity: "
        + ("paid automatically (balance not over the limit)" if automatic else "only with consent"),
        section="§5.12(e)",
        result=money(balance),
        threshold=money(cash_out_threshold),
    )
    return SurvivorAnnuity(recipient, start, balance, life.monthly, balance, automatic, dates, trace)
