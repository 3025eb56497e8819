"""An ESOP's single sum in shares and cash, posted once the paying agent (the trustee) confirms it.

The payment record keeps the engine's lines (``posting.share_distribution.postings``, from the plan's
``distribution`` object): each source's shares and value out and what the plan forfeits when the
distribution is paid. Posted here as ``AccountTransaction`` rows with their shares; the federal income tax
withheld is its own line, taken from the lines paid in cash and never more than their cash (Code
§3405(e)(8): nothing is withheld from shares). The membership's ``plan_data`` shares and Investment Fund
cash, which the engine and the statement read, move by the same lines.
"""

from __future__ import annotations

from decimal import Decimal

ZERO = Decimal("0.00")


def lines_of(payment) -> list[dict]:
    return list(((payment.posting or {}).get("share_distribution") or {}).get("postings") or [])


def share_postings(i) -> list[tuple[str, str, Decimal, Decimal | None, str]]:
    """(source, kind, signed amount, signed shares, memo) for a paid instalment; [] when not an ESOP
    distribution in shares and cash."""
    lines = lines_of(i.payment)
    if not lines:
        return []
    to_withhold = i.withholding
    head = f"Payment {i.payment_id}, instalment {i.pk}"
    out = []
    for line in lines:
        amount = Decimal(line["amount"])
        shares = Decimal(line["shares"]) if line.get("shares") not in (None, "") else None
        src, kind, words = line["source"], line["kind"], line["words"]
        if kind != "distribution":
            out.append((src, kind, amount, shares, f"{head}: {words}"))
            continue
        withheld = min(to_withhold, Decimal(line.get("cash") or "0"))
        to_withhold -= withheld
        if amount + withheld == 0 and withheld > 0:  # all of this line's cash went to the tax
            out.append((src, kind, -withheld, shares, f"{head}: federal income tax withheld ({words})"))
            continue
        out.append((src, kind, amount + withheld, shares, f"{head}: paid to you, {words}"))
        if withheld > 0:
            out.append((src, kind, -withheld, None, f"{head}: federal income tax withheld ({words})"))
    if to_withhold > 0:  # the withholding was limited to the cash when it was computed: never here
        raise ValueError(f"payment {i.payment_id}: {to_withhold} withheld beyond the cash in the payment")
    return out


def plan_data_moved(plan_data: dict, payments) -> dict:
    """``plan_data`` after the paid distributions: shares out of the Stock Fund, cash out of the
    Investment Fund (the lines without shares)."""
    shares = Decimal(str(plan_data.get("shares") or "0"))
    cash = Decimal(str(plan_data.get("cash") or "0"))
    for p in payments:
        for line in lines_of(p):
            if line.get("shares") not in (None, ""):
                shares += Decimal(line["shares"])
            else:
                cash += Decimal(line["amount"])
    after = {}
    for p in payments:
        after.update((p.posting or {}).get("share_distribution", {}).get("plan_data_after") or {})
    return {**plan_data, "shares": f"{shares:.4f}", "cash": f"{cash:.2f}", **after}
