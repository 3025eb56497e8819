"""The forms the Fairport ESOP offers for a Participant's own distribution, worked from the plan text.

* §10.1: "by payment in a lump sum" — no installments (a lump sum meets Code §409(o)(1)(C)).
* §9.5: the nonvested part is forfeited once the entire vested interest is distributed; §9.6: "Stock
  allocated ... shall be forfeited only after other assets are forfeited" (the Investment Fund first).
* §10.6: the Stock Fund in shares, the Investment Fund in cash; on request the entire vested interest in
  Stock (the Investment Fund buys shares); whole shares, the fraction in cash (SPEC GAP D1.13).
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from benefits.engine.plans.fairport_esop.distribution_forms import offer

D = Decimal
LEFT, AS_OF = date(2023, 7, 14), date(2026, 11, 21)


def test_paul_80_percent_vested_forfeits_cash_first_and_takes_334_shares_and_the_fraction_in_cash():
    # Account: 410 shares × $11.40 = $4,674.00 + $96.10 = $4,770.10; vested 80% = $3,816.08 (§9.1).
    # Nonvested $954.02 (§9.6): the $96.10 Investment Fund first, then $857.92 ÷ $11.40 = 75.2561 shares
    # (rounded down, so the kept part is never short). Kept: 334.7439 shares, $0.00.
    o = offer(
        shares=D("410"),
        cash=D("96.10"),
        share_value=D("11.40"),
        vested_percent=D("80"),
        termination_date=LEFT,
        as_of=AS_OF,
    )
    assert o.vested_balance == D("3816.08")
    (f,) = o.forms  # no Investment Fund left: "all in Stock" would be the same payment
    assert (f.key, f.shares, f.shares_value, f.cash, f.value) == (
        "lump_sum_shares",
        334,
        D("3807.60"),
        D("8.48"),
        D("3816.08"),  # 334 × $11.40; 0.7439 sh → $8.48
    )
    lines = [(p.source, p.kind, p.amount, p.shares, p.cash) for p in f.postings]
    assert lines == [
        ("investment_fund", "forfeiture", D("-96.10"), None, D("0")),
        ("stock_fund", "forfeiture", D("-857.92"), D("-75.2561"), D("0")),
        ("stock_fund", "distribution", D("-3807.60"), D("-334"), D("0")),
        ("stock_fund", "distribution", D("-8.48"), D("-0.7439"), D("8.48")),
    ]
    # Everything leaves the account: 410 shares and $4,770.10.
    assert sum(p.shares or 0 for p in f.postings) == D("-410")
    assert sum(p.amount for p in f.postings) == D("-4770.10")
    assert "§409(o)(1)(C)" in o.installments and "§10.1" in o.installments


def test_fully_vested_with_an_investment_fund_may_ask_for_all_in_stock():
    # 100% vested: $4,770.10. §10.6 default: 410 shares ($4,674.00) and the $96.10 Investment Fund in cash.
    # On request, all in Stock: 410 + 96.10 ÷ 11.40 = 418.4298 shares → 418 whole ($4,765.20) and the
    # fraction in cash, $4,770.10 − $4,765.20 = $4.90.
    o = offer(
        shares=D("410"),
        cash=D("96.10"),
        share_value=D("11.40"),
        vested_percent=D("100"),
        termination_date=LEFT,
        as_of=AS_OF,
    )
    shares_and_cash, all_stock = o.forms
    assert (shares_and_cash.shares, shares_and_cash.cash, shares_and_cash.default) == (410, D("96.10"), True)
    assert (all_stock.key, all_stock.shares, all_stock.shares_value, all_stock.cash) == (
        "lump_sum_all_stock",
        418,
        D("4765.20"),
        D("4.90"),
    )
    assert [p.kind for p in all_stock.postings] == ["distribution", "distribution"]  # nothing forfeited


def test_ownership_restricted_to_employees_takes_away_the_right_to_all_stock():
    o = offer(
        shares=D("410"),
        cash=D("96.10"),
        share_value=D("11.40"),
        vested_percent=D("100"),
        termination_date=LEFT,
        as_of=AS_OF,
        ownership_restricted=True,
    )
    assert [f.key for f in o.forms] == ["lump_sum_shares"]


def test_nothing_is_offered_while_employed_or_with_nothing_vested():
    # §10.1: "For a Participant whose Service ends"; the day before he leaves, nothing; the day after, the forms.
    before = offer(
        shares=D("410"),
        cash=D("96.10"),
        share_value=D("11.40"),
        vested_percent=D("80"),
        termination_date=LEFT,
        as_of=date(2023, 7, 13),
    )
    on = offer(
        shares=D("410"),
        cash=D("96.10"),
        share_value=D("11.40"),
        vested_percent=D("80"),
        termination_date=LEFT,
        as_of=LEFT,
    )
    assert before.forms == () and "§10.1" in before.unavailable
    assert on.forms
    none = offer(
        shares=D("410"),
        cash=D("96.10"),
        share_value=D("11.40"),
        vested_percent=D("0"),
        termination_date=LEFT,
        as_of=AS_OF,
    )
    assert none.forms == () and none.unavailable


@given(
    shares=st.decimals(min_value=D("0.0001"), max_value=D("50000"), places=4),
    cash=st.decimals(min_value=D("0"), max_value=D("100000"), places=2),
    value=st.decimals(min_value=D("0.50"), max_value=D("500"), places=2),
    pct=st.sampled_from([D(x) for x in ("20", "40", "60", "80", "100")]),
)
def test_every_form_pays_exactly_the_vested_balance_and_empties_the_account(shares, cash, value, pct):
    o = offer(
        shares=shares, cash=cash, share_value=value, vested_percent=pct, termination_date=LEFT, as_of=AS_OF
    )
    for f in o.forms:
        assert f.value == o.vested_balance
        assert sum(-p.amount for p in f.postings if p.kind == "distribution") == f.value
        assert sum(p.shares or 0 for p in f.postings) == -shares
        assert sum(p.amount for p in f.postings if p.shares is None) == -cash
        assert sum(p.cash for p in f.postings) == f.cash  # withholding can come only from this


def test_elected_dividends_in_a_partly_vested_account_are_left_to_the_committee():
    # §7.2-2(i)(B): elected dividends are always vested; §9.6 does not say how they stand apart from the
    # forfeiture order, so nothing is offered (fully vested, the question does not arise).
    kw = dict(shares=D("410"), cash=D("96.10"), share_value=D("11.40"), termination_date=LEFT, as_of=AS_OF)
    partly = offer(vested_percent=D("80"), elected_dividends=D("20.00"), **kw)
    assert partly.forms == () and "§7.2-2" in partly.unavailable
    assert offer(vested_percent=D("100"), elected_dividends=D("20.00"), **kw).forms
