"""An account-plan statement of a period, in rows and words (issue 6, item 3).

The figures come from ``benefits.statement_inputs`` (the records rolled forward, the engine's statement
functions, the stored balances checked against them); this module only shapes them: the columns a
401(k) statement shows by source, an ESOP's shares and cash, and every difference in plain words.
"""

from __future__ import annotations

from decimal import Decimal

from benefits import formatting
from benefits.engine.money import ZERO, money_str, to_money
from benefits.models import AccountTransaction
from benefits.statement_inputs import Difference, PeriodFigures, ShareStatement, SourceStatement

from .labels import source_label
from .traces import presented

ESOP_KIND_LABELS = {
    "allocation": "Shares allocated",
    "contribution": "Contributions",
    "dividend": "Dividends",
    "earnings": "Investment Fund earnings",
    "forfeiture": "Forfeitures",
    "restoration": "Restorations",
    "distribution": "Distributions",
    "diversification": "Diversification transfers",
}
COLUMNS = [
    ("opening", "Opening balance"),
    ("contributions", "Contributions"),
    ("earnings", "Investment gain or loss"),
    ("forfeitures", "Forfeitures"),
    ("distributions", "Distributions and withdrawals"),
    ("fees", "Fees"),
    ("loan_activity", "Loans (repaid less lent)"),
    ("closing", "Closing balance"),
]
# Outflows are shown with their sign so every row reads opening + activity = closing.
SIGNS = {"forfeitures": -1, "distributions": -1, "fees": -1}


def difference_words(d: Difference) -> str:
    if d.what == "shares":
        return (
            f"{source_label(d.source)}: the stored share count on {d.on.isoformat()} is "
            f"{formatting.shares(d.stored)}, but the opening shares plus the period's transactions "
            f"come to {formatting.shares(d.expected)}."
        )
    return (
        f"{source_label(d.source)}: the stored balance on {d.on.isoformat()} is "
        f"{formatting.money(d.stored)}, but the opening balance plus the period's transactions "
        f"come to {formatting.money(d.expected)} (a difference of {formatting.money(d.stored - d.expected)})."
    )


def _by_source(figures: SourceStatement) -> dict:
    st = figures.statement
    lines, checks = [], []
    for line in st.lines:
        values = {name: getattr(line, name) * SIGNS.get(name, 1) for name, _ in COLUMNS}
        activity = sum((values[n] for n, _ in COLUMNS if n not in ("opening", "closing")), ZERO)
        if values["opening"] + activity != values["closing"]:
            checks.append(f"{source_label(line.source)}: opening plus activity does not equal closing.")
        by_kind = figures.contributions_by_kind.get(line.source, {})
        lines.append(
            {
                "source": line.source,
                "label": source_label(line.source),
                "values": [money_str(values[n]) for n, _ in COLUMNS],
                "vested_percent": f"{line.vested_percent.normalize():f}",
                "vested_balance": money_str(line.vested_balance),
                "contributions_by_kind": [
                    (AccountTransaction.Kind(k).label, money_str(v)) for k, v in by_kind.items() if v
                ],
            }
        )
    totals = {
        name: sum((getattr(line, name) for line in st.lines), ZERO) * SIGNS.get(name, 1)
        for name, _ in COLUMNS
    }
    shown = [
        i
        for i, (name, _) in enumerate(COLUMNS)
        if name in ("opening", "closing") or any(getattr(line, name) for line in st.lines)
    ]
    return {
        "layout": "by_source",
        "opening_from": figures.opening_from,
        "columns": [COLUMNS[i][1] for i in shown],
        "lines": [{**ln, "values": [ln["values"][i] for i in shown]} for ln in lines],
        "totals": [money_str(totals[COLUMNS[i][0]]) for i in shown],
        "closing": money_str(st.closing),
        "vested_balance": money_str(st.vested_balance),
        "vested_percent": f"{to_money(figures.vested_percent).normalize():f}",
        "loan": {"opening": money_str(st.loan_opening), "closing": money_str(st.loan_closing)}
        if st.loan_opening or st.loan_closing
        else None,
        "contribution_rows": [
            (ln["label"], label, amount) for ln in lines for label, amount in ln["contributions_by_kind"]
        ],
        "checks": checks,
        "trace": presented(st.trace.as_list()),
    }


def _price(value: Decimal) -> str:
    """A share value: in cents when it is a whole number of cents, else every digit the plan keeps."""
    return money_str(to_money(value)) if value == to_money(value) else f"{value:f}"


def _shares_and_cash(figures: ShareStatement) -> dict:
    st = figures.statement

    def row(label, line, balance=False):
        # Movement rows leave a column blank when that kind moved nothing there.
        return {
            "label": label,
            "shares": shares_str(line.shares) if balance or line.shares else "",
            "cash": money_str(line.cash) if balance or line.cash else "",
            "value": money_str(line.value),
        }

    rows = [row("Opening balance", st.opening, balance=True)]
    rows += [row(ESOP_KIND_LABELS[k], line) for k, line in st.movements.items()]
    rows.append(
        {
            "label": "Change in the value of Stock held",
            "shares": "",
            "cash": "",
            "value": money_str(st.stock_value_change),
        }
    )
    rows.append(row("Closing balance", st.closing, balance=True))
    checks = []
    activity = sum((m.value for m in st.movements.values()), ZERO) + st.stock_value_change
    if st.opening.value + activity != st.closing.value:
        checks.append("Opening plus activity does not equal closing.")
    vested_note = ""
    if figures.vested_given is not None:
        valuation, given, pct = figures.vested_given
        vested_note = (
            f"The plan's records give your vested value on {formatting.date_words(valuation)} as "
            f"{formatting.money(given)}, {formatting.percent(pct)} of your account then; that percentage is "
            "applied to this period's closing balance."
        )
    return {
        "layout": "shares_cash",
        "opening_from": figures.opening_from,
        "rows": rows,
        "opening_share_value": _price(figures.opening_share_value),
        "closing_share_value": _price(figures.closing_share_value),
        "closing": money_str(st.closing.value),
        "vested_percent": f"{st.vested_percent.normalize():f}",
        "vested_balance": money_str(st.vested_balance),
        "vested_note": vested_note,
        "checks": checks,
        "trace": presented(st.trace.as_list()),
    }


def shares_str(shares: Decimal) -> str:
    """A share count with the decimals that matter: 1,250 shares, 1,250.5 or 1,250.1234, never
    1,250.0000 (the plan keeps four places)."""
    text = formatting.shares(shares)
    return text.rstrip("0").rstrip(".") if "." in text else text


def period_statement(figures: PeriodFigures) -> dict:
    """The period's statement as the page and the PDF show it, with the consistency checks."""
    if isinstance(figures.accounts, ShareStatement):
        out = _shares_and_cash(figures.accounts)
    else:
        out = _by_source(figures.accounts)
    period = figures.period
    out["checks"] = out["checks"] + [difference_words(d) for d in figures.differences]
    out["consistent"] = not out["checks"]
    out["start"], out["end"], out["label"], out["year"] = (
        period.start.isoformat(),
        period.end.isoformat(),
        period.label,
        period.year,
    )
    out["transaction_count"] = figures.transaction_count
    return out
