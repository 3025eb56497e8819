"""An ESOP's distribution of an account after leaving, in shares of employer stock and cash (pure).

Each ESOP plan package says which forms its text offers for the account it holds (``offer`` in its
``distribution_forms`` module) and puts the result in its contract output under ``distribution``; this
module holds the shapes they share and the JSON the contract gives. A form is a single sum: so many whole
shares delivered and so much cash, and how the account pays it (``postings``: each source's shares and
value out, and what the plan forfeits when the distribution is paid). The web's election, payment record
and posting read these keys only; they never name a plan or its sections.

The law every form states beside the plan's own words:

* Code §409(h)(1)(A): the participant's right to demand employer securities, where the plan gives it.
* Code §409(o)(1)(C): unless the participant elects otherwise, substantially equal periodic payments over
  no more than 5 years (longer for large balances); a plan that pays only single sums offers none.
* Code §402(c)(4): a single sum is an eligible rollover distribution; shares may be rolled over in kind.
* Code §3405(e)(8): no more tax can be withheld than the cash in the payment (never from the shares).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal
from typing import Any

from .money import ZERO, money_str, to_money
from .trace import Trace


def whole_shares(shares: Decimal) -> int:
    return int(shares.to_integral_value(rounding=ROUND_DOWN))


def shares_str(value: Decimal) -> str:
    return f"{value.quantize(Decimal('0.0001')):f}"


@dataclass(frozen=True)
class Posting:
    """One source's movement when the distribution is paid: ``kind`` "distribution" or "forfeiture";
    ``amount`` and ``shares`` signed by their effect on the source (negative: out)."""

    source: str
    kind: str
    amount: Decimal
    shares: Decimal | None
    words: str
    cash: Decimal = ZERO  # of the amount, what is paid in cash (the rest is shares delivered or used)


@dataclass(frozen=True)
class DistributionForm:
    key: str  # "lump_sum_..." (a single sum)
    label: str
    description: str
    section: str
    shares: int  # whole shares of employer stock delivered
    shares_value: Decimal  # their value at the share value used
    cash: Decimal  # cash paid (the Investment Fund, a fraction of a share, or all of it)
    share_value: Decimal
    postings: tuple[Posting, ...]
    default: bool = False
    # ``plan_data`` keys the plan's record takes once the distribution is paid (an input it spends).
    plan_data_after: dict[str, str] = field(default_factory=dict)

    @property
    def value(self) -> Decimal:
        return self.shares_value + self.cash


@dataclass(frozen=True)
class DistributionOffer:
    """What the plan offers for the whole vested account after leaving. ``forms`` empty: nothing can be
    elected, and ``unavailable`` says why in plain words (with the section)."""

    vested_balance: Decimal
    forms: tuple[DistributionForm, ...]
    installments: str  # why installments are or are not offered (Code §409(o)(1)(C))
    rollover_in_kind: bool  # the shares may go to an IRA in kind
    notes: tuple[str, ...] = ()
    unavailable: str = ""
    trace: Trace = field(default_factory=Trace)


def check_postings(form: DistributionForm) -> None:
    """The distribution lines add up to the form's value (an engine invariant, not an input rule)."""
    paid = sum((-p.amount for p in form.postings if p.kind == "distribution"), ZERO)
    if paid != form.value:
        raise ValueError(
            f"{form.key}: the distribution lines ({paid}) differ from the form's value ({form.value})"
        )


def offer_output(offer: DistributionOffer) -> dict[str, Any]:
    """The contract's ``distribution`` object."""
    return {
        "vested_balance": money_str(offer.vested_balance),
        "installments": offer.installments,
        "rollover_in_kind": offer.rollover_in_kind,
        "notes": list(offer.notes),
        "unavailable": offer.unavailable,
        "forms": [
            {
                "form": f.key,
                "label": f.label,
                "description": f.description,
                "section": f.section,
                "default": f.default,
                "shares": f.shares,
                "shares_value": money_str(f.shares_value),
                "cash": money_str(f.cash),
                "value": money_str(f.value),
                "share_value": f"{f.share_value}",
                "plan_data_after": dict(f.plan_data_after),
                "postings": [
                    {
                        "source": p.source,
                        "kind": p.kind,
                        "amount": money_str(p.amount),
                        "shares": shares_str(p.shares) if p.shares is not None else None,
                        "words": p.words,
                        "cash": money_str(p.cash),
                    }
                    for p in f.postings
                ],
            }
            for f in offer.forms
        ],
    }


def fraction_cash(total: Decimal, whole: int, share_value: Decimal, other_cash: Decimal) -> Decimal:
    """The cash for the fraction of a share: what is left of the total (to the cent) once the whole
    shares and the other cash are counted, so the form pays exactly the vested balance."""
    return to_money(total - to_money(whole * share_value) - other_cash)
