"""When the §402(f) notice must be given before an eligible rollover distribution.

Treas. Reg. §1.402(f)-1 Q&A-2(a), with §1.411(a)-11(c): the notice is given no less than 30 days and no
more than 180 days before the date of distribution (PPA 2006 §1102(a)(1)(B) put 180 for the
regulation's 90). The distribution may be made fewer than 30 days after the notice if the plan
administrator clearly tells the participant of the right to at least 30 days to consider whether to
elect a direct rollover and the participant, after receiving the notice, affirmatively elects the
distribution (Q&A-2(a), last sentence; §1.411(a)-11(c)(2)(iii)(B)). Where the payment is also subject
to the survivor annuity rules the waiver needs more (Code §417(a)(7)(B); Treas. Reg.
§1.417(e)-1(b)(3)(ii)(D)): the payment does not start before the 7-day period beginning the day after
the notice ends. A series of eligible installments needs the notice before the first payment and then
at least once a year while they continue (Q&A-2(b)).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from benefits.engine.dates import add_years

MINIMUM_DAYS = 30  # Treas. Reg. §1.402(f)-1 Q&A-2(a)
MAXIMUM_DAYS = 180  # Treas. Reg. §1.402(f)-1 Q&A-2(a) as PPA 2006 §1102(a)(1)(B) requires it be read
SURVIVOR_RULES_WAIVER_DAYS = 7  # Code §417(a)(7)(B); Treas. Reg. §1.417(e)-1(b)(3)(ii)(D)


@dataclass(frozen=True)
class Timing:
    ok: bool
    reason: str  # plain words with the rule
    earliest_payment: date | None = None  # without a waiver
    latest_payment: date | None = None


def window(notice_on: date) -> tuple[date, date]:
    """The payment dates a notice given on ``notice_on`` covers without a waiver: day 30 to day 180."""
    return notice_on + timedelta(days=MINIMUM_DAYS), notice_on + timedelta(days=MAXIMUM_DAYS)


def check(
    *,
    notice_on: date | None,
    payment_on: date,
    waived_on: date | None = None,
    survivor_rules: bool = False,
) -> Timing:
    """Whether a payment on ``payment_on`` may be made after a notice given on ``notice_on``.

    ``waived_on`` is the day the participant, told of the right to 30 days, elected to be paid sooner
    (None: no waiver). ``survivor_rules``: the payment is also subject to Code §417 (a QJSA plan).
    """
    if notice_on is None:
        return Timing(False, "No §402(f) notice has been given (Code §402(f)).")
    earliest, latest = window(notice_on)
    days = (payment_on - notice_on).days
    if days > MAXIMUM_DAYS:
        return Timing(
            False,
            f"The notice was given {days} days before the payment; it may be no more than {MAXIMUM_DAYS} "
            "days (Treas. Reg. §1.402(f)-1 Q&A-2). A new notice is needed.",
            earliest,
            latest,
        )
    if days >= MINIMUM_DAYS:
        return Timing(True, f"The notice was given {days} days before the payment.", earliest, latest)
    if days < 0:
        return Timing(False, "The notice was given after the payment date.", earliest, latest)
    if waived_on is None:
        return Timing(
            False,
            f"The notice was given {days} days before the payment; at least {MINIMUM_DAYS} days are needed "
            "unless the participant chooses to be paid sooner (Treas. Reg. §1.402(f)-1 Q&A-2).",
            earliest,
            latest,
        )
    if not notice_on <= waived_on <= payment_on:
        return Timing(
            False,
            "The choice to be paid sooner must be made after the notice is received and before the payment.",
            earliest,
            latest,
        )
    if survivor_rules and payment_on <= notice_on + timedelta(days=SURVIVOR_RULES_WAIVER_DAYS):
        first = notice_on + timedelta(days=SURVIVOR_RULES_WAIVER_DAYS + 1)
        return Timing(
            False,
            "Payment may not start until the 7-day period after the notice ends, on "
            f"{first:%B} {first.day}, {first.year} (Code §417(a)(7)(B)).",
            earliest,
            latest,
        )
    return Timing(
        True,
        f"The participant chose to be paid {days} days after the notice, waiving the 30 days "
        "(Treas. Reg. §1.402(f)-1 Q&A-2).",
        earliest,
        latest,
    )


def annual_notice_due(last_notice_on: date, payment_on: date) -> bool:
    """For a continuing series of eligible installments: a new notice is due once a year has passed since
    the last one (Treas. Reg. §1.402(f)-1 Q&A-2(b))."""
    return payment_on > add_years(last_notice_on, 1)
