"""The forms the Carver ESOP offers for a Former Participant's distribution, as ``share_distributions``
shapes: only the Sixth Amendment's §10.6 is known (SPEC GAP D2.1), so a distribution is offered only
where §10.6(a) decides it. Readings in docs/plan-notes/carver-esop/distributions.md.

* §10.6(a): "a lump sum shall be made in lieu of all vested benefits if the value of the vested portion
  ... [is] $5,000 ... or less"; "in cash (unless the Participant elects to receive such payment in shares
  of Qualifying Employer Securities)"; "the Participant may elect to have this payment made either in a
  distribution to the Participant directly or in a direct rollover". A claim is the Participant's
  election, so the automatic rollover of §10.6(b) (no election) does not arise.
* Above the threshold the base plan's forms are unknown: nothing is offered (the claim is refused at
  filing with that reason), never a guessed form.
* The vested value is an input; what it takes from each fund is in proportion to the funds (the reading
  the statements use: vested percent = vested value ÷ account). The nonvested part stays in the account:
  the base plan's forfeiture rules are not known. The vested value input is spent (``plan_data_after``).
"""

from __future__ import annotations

from datetime import date
from decimal import ROUND_DOWN, Decimal

from benefits.engine.money import ZERO, to_money
from benefits.engine.share_distributions import (
    DistributionForm,
    DistributionOffer,
    Posting,
    check_postings,
    whole_shares,
)
from benefits.engine.trace import TraceBuilder, money

from .cash_out import CashOutDecision

STOCK, INVESTMENT = "stock_fund", "investment_fund"
INSTALLMENTS = (
    "Not offered: a vested account of this size is paid as a lump sum (Plan §10.6(a)), which meets the "
    "Code's rule on ESOP installments (Internal Revenue Code §409(o)(1)(C))."
)
SHARE = Decimal("0.0001")


def offer(
    *,
    vested: Decimal,
    shares: Decimal,
    cash: Decimal,
    share_value: Decimal,
    termination_date: date | None,
    as_of: date,
    decision: CashOutDecision | None,
) -> DistributionOffer:
    tb = TraceBuilder()
    if termination_date is None or termination_date > as_of:
        return DistributionOffer(
            ZERO,
            (),
            INSTALLMENTS,
            True,
            unavailable="The plan pays the account only after employment ends (§10.6(a)).",
        )
    if decision is None or not decision.required or decision.committee_review:
        return DistributionOffer(
            ZERO,
            (),
            INSTALLMENTS,
            True,
            unavailable=(
                "The plan's forms of payment for a vested account over the cash-out limit are in its base plan "
                "document, which the plan administrator has not given us: the Committee arranges this payment "
                "(§10.6(c))."
            ),
        )
    balance = to_money(shares * share_value + cash)
    if vested <= 0 or balance <= 0 or vested > balance:
        return DistributionOffer(
            ZERO, (), INSTALLMENTS, True, unavailable="There is no vested account to distribute."
        )
    cash_v = min(cash, to_money(cash * vested / balance))
    shares_v = min(shares, (shares * vested / balance).quantize(SHARE, rounding=ROUND_DOWN))
    stock_v = vested - cash_v
    tb.step(
        "The vested value, taken from the Stock Fund and the Investment Fund in proportion",
        section="Carver ESOP §10.6(a); SPEC GAP D2.1",
        result=money(vested),
        from_cash=money(cash_v),
        from_stock=money(stock_v),
    )
    after = {"vested_account_value": "0.00"}
    in_cash = DistributionForm(
        key="lump_sum_cash",
        label="Lump sum in cash",
        description="One payment of your whole vested account in cash.",
        section="Plan §10.6(a)",
        shares=0,
        shares_value=ZERO,
        cash=vested,
        share_value=share_value,
        postings=_lines(shares_v, stock_v, cash_v, stock_cash=stock_v, cash_cash=cash_v, words="in cash"),
        default=True,
        plan_data_after=after,
    )
    whole = whole_shares(vested / share_value)
    frac = vested - to_money(whole * share_value)
    in_shares = DistributionForm(
        key="lump_sum_shares",
        label="Lump sum in shares",
        description="One payment of your whole vested account in shares of the employer's stock; any fraction of "
        "a share in cash.",
        section="Plan §10.6(a)",
        shares=whole,
        shares_value=vested - frac,
        cash=frac,
        share_value=share_value,
        postings=_lines(
            shares_v,
            stock_v,
            cash_v,
            stock_cash=min(frac, stock_v),
            cash_cash=frac - min(frac, stock_v),
            words=f"{whole} shares of stock",
        ),
        plan_data_after=after,
    )
    forms = (in_cash, in_shares) if whole > 0 else (in_cash,)
    for f in forms:
        check_postings(f)
    tb.step(
        "A lump sum in cash, or in shares if you elect them",
        section="Carver ESOP §10.6(a)",
        result=money(vested),
    )
    return DistributionOffer(vested, forms, INSTALLMENTS, True, trace=tb.build())


def _lines(
    shares_v: Decimal,
    stock_v: Decimal,
    cash_v: Decimal,
    *,
    stock_cash: Decimal,
    cash_cash: Decimal,
    words: str,
) -> tuple[Posting, ...]:
    out = []
    if shares_v > 0 or stock_v > 0:
        out.append(
            Posting(STOCK, "distribution", -stock_v, -shares_v, f"the Stock Fund, {words}", stock_cash)
        )
    if cash_v > 0:
        out.append(
            Posting(INVESTMENT, "distribution", -cash_v, None, f"the Investment Fund, {words}", cash_cash)
        )
    return tuple(out)
