"""The forms the Fairport ESOP offers for a Participant's own distribution after Service ends (F §10.1,
§10.6, §9.5–§9.6), as ``share_distributions`` shapes. Readings in docs/plan-notes/fairport-esop/
distributions.md.

* §10.1: "by payment in a lump sum": the plan has no installment or annuity form, and a lump sum meets
  Code §409(o)(1)(C) (SPEC A7.4).
* §9.5: the nonvested part is forfeited when the Participant "receives a distribution of his entire
  vested interest pursuant to Section 10.1"; §9.6: "Stock ... shall be forfeited only after other assets
  are forfeited" (``forfeiture.forfeiture_split``), charged when the forfeiture becomes certain, here the
  day the distribution is paid.
* §10.6: the vested interest in the Stock Fund "shall be distributed in shares of Stock", the Investment
  Fund "in cash"; a terminated Participant "may instruct the Committee to distribute the Participant's
  entire vested interest in his Account in the form of Stock" unless ownership is restricted (the Code
  §409(h) right to demand stock). No general right to all cash (SPEC GAP D1.13); whole shares, the
  fraction of a share in cash (setting ``fraction_in_cash``, GAP D1.13).
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from benefits.engine.money import ZERO, to_money, to_money_down
from benefits.engine.share_distributions import (
    DistributionForm,
    DistributionOffer,
    Posting,
    check_postings,
    fraction_cash,
    whole_shares,
)
from benefits.engine.trace import TraceBuilder, money, price
from benefits.engine.trace import shares as shares_of

from .forfeiture import forfeiture_split
from .settings import DEFAULT_SETTINGS, BenefitSettings

STOCK, INVESTMENT = "stock_fund", "investment_fund"
INSTALLMENTS = (
    "Not offered: the plan pays a lump sum only (Plan §10.1), which meets the Code's rule on ESOP "
    "installments (Internal Revenue Code §409(o)(1)(C))."
)


def offer(
    *,
    shares: Decimal,
    cash: Decimal,
    share_value: Decimal,
    vested_percent: Decimal,
    termination_date: date | None,
    as_of: date,
    ownership_restricted: bool = False,
    elected_dividends: Decimal = ZERO,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> DistributionOffer:
    tb = TraceBuilder()
    if elected_dividends > 0 and vested_percent < 100:
        # §7.2-2(i)(B): elected dividends are fully vested inside a partly vested account; §9.6's order of
        # forfeiture does not say how they are kept apart, so no figure is offered that could be wrong.
        return DistributionOffer(
            ZERO,
            (),
            INSTALLMENTS,
            True,
            unavailable="The Committee works out this distribution itself: your account holds dividends you "
            "elected to keep, which are fully vested while the rest of the account is not (§7.2-2, §9.6).",
        )
    if termination_date is None or termination_date > as_of:
        tb.step("Still employed: the account is paid only after Service ends", section="Fairport ESOP §10.1")
        return DistributionOffer(
            ZERO,
            (),
            INSTALLMENTS,
            True,
            unavailable="The plan pays the account only after Service ends (§10.1).",
            trace=tb.build(),
        )
    split = forfeiture_split(shares, cash, share_value, vested_percent)
    tb.include(split.trace)
    vested = to_money(shares * share_value + cash) - split.nonvested_value
    if vested <= 0:
        return DistributionOffer(
            ZERO,
            (),
            INSTALLMENTS,
            True,
            unavailable="There is no vested account balance to distribute (§9.1).",
            trace=tb.build(),
        )
    # The Investment Fund forfeited to the cent, rounded down (the kept part is never short, §9.7); the
    # shares forfeited carry the rest of the nonvested value.
    cash_f = to_money_down(split.cash_forfeited)
    forfeit: list[Posting] = []
    if cash_f > 0:
        forfeit.append(
            Posting(INVESTMENT, "forfeiture", -cash_f, None, "the nonvested part forfeited (§9.5, §9.6)")
        )
    if split.shares_forfeited > 0 or split.nonvested_value - cash_f > 0:
        forfeit.append(
            Posting(
                STOCK,
                "forfeiture",
                -(split.nonvested_value - cash_f),
                -split.shares_forfeited,
                "the nonvested shares forfeited (§9.5, §9.6)",
            )
        )
    kept_shares, kept_cash = split.shares_kept, cash - cash_f
    forms = [_shares_and_cash(vested, kept_shares, kept_cash, share_value, forfeit, settings)]
    tb.step(
        "Lump sum: the Stock Fund in whole shares, the Investment Fund and any fraction of a share in cash",
        section="Fairport ESOP §10.1, §10.6; SPEC GAP D1.13",
        result=money(vested),
        shares=shares_of(kept_shares),
        cash=money(kept_cash),
        share_value=price(share_value),
    )
    if kept_cash > 0 and not ownership_restricted:
        forms.append(_all_stock(vested, kept_shares, kept_cash, share_value, forfeit, settings))
        tb.step(
            "On request, the whole vested interest in Stock: the Investment Fund buys shares",
            section="Fairport ESOP §10.6; Code §409(h)(1)(A)",
            result=money(vested),
        )
    for f in forms:
        check_postings(f)
    return DistributionOffer(
        vested,
        tuple(forms),
        INSTALLMENTS,
        True,
        notes=(
            "Shares you receive that are not readily tradable carry the put right (Plan §10.6) and the plan's "
            "right of first refusal (Plan §10.7).",
        ),
        trace=tb.build(),
    )


def _shares_and_cash(
    vested: Decimal,
    kept_shares: Decimal,
    kept_cash: Decimal,
    value: Decimal,
    forfeit: list[Posting],
    settings: BenefitSettings,
) -> DistributionForm:
    whole = whole_shares(kept_shares)
    fraction = kept_shares - whole
    stock_out = vested - kept_cash  # the Stock Fund's vested value, all of it leaves
    whole_value = min(to_money(whole * value), stock_out)
    frac_cash = stock_out - whole_value if settings.fraction_in_cash else ZERO
    lines = [*forfeit]
    if whole:
        lines.append(
            Posting(STOCK, "distribution", -whole_value, -Decimal(whole), f"{whole} shares of stock")
        )
    if fraction > 0 or frac_cash > 0:
        lines.append(
            Posting(
                STOCK, "distribution", -frac_cash, -fraction, "the fraction of a share, in cash", frac_cash
            )
        )
    if kept_cash > 0:
        lines.append(
            Posting(INVESTMENT, "distribution", -kept_cash, None, "the Investment Fund, in cash", kept_cash)
        )
    return DistributionForm(
        key="lump_sum_shares",
        label="Lump sum in shares and cash",
        description=(
            "One payment of your whole vested account: your Stock Fund in whole shares of stock, and your "
            "Investment Fund (and any fraction of a share) in cash."
        ),
        section="Plan §10.1, §10.6",
        shares=whole,
        shares_value=whole_value,
        cash=frac_cash + kept_cash,
        share_value=value,
        postings=tuple(lines),
        default=True,
    )


def _all_stock(
    vested: Decimal,
    kept_shares: Decimal,
    kept_cash: Decimal,
    value: Decimal,
    forfeit: list[Posting],
    settings: BenefitSettings,
) -> DistributionForm:
    total_shares = kept_shares + kept_cash / value
    whole = whole_shares(total_shares)
    frac_cash = max(ZERO, fraction_cash(vested, whole, value, ZERO)) if settings.fraction_in_cash else ZERO
    stock_part = vested - kept_cash
    lines = [
        *forfeit,
        Posting(
            STOCK,
            "distribution",
            -stock_part,
            -kept_shares,
            f"{whole} shares of stock (with those bought)",
            frac_cash,
        ),
        Posting(
            INVESTMENT, "distribution", -kept_cash, None, "the Investment Fund, used to buy shares for you"
        ),
    ]
    return DistributionForm(
        key="lump_sum_all_stock",
        label="Lump sum all in shares",
        description=(
            "One payment of your whole vested account in shares of stock: the plan uses your Investment Fund "
            "to buy shares for you; only a fraction of a share is paid in cash."
        ),
        section="Plan §10.6",
        shares=whole,
        shares_value=vested - frac_cash,
        cash=frac_cash,
        share_value=value,
        postings=tuple(lines),
    )
