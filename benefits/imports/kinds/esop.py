"""ESOP share releases: shares released from the loan suspense account and allocated, at the share value."""

from __future__ import annotations

from collections import defaultdict
from decimal import ROUND_HALF_UP, Decimal

from benefits.imports import cells as c
from benefits.imports.kinds.base import Cells, Column, Kind, Target
from benefits.imports.kinds.common import (
    MONEY_MAX,
    PARTICIPANT,
    PLAN,
    SHARES_MAX,
    label,
    membership,
    membership_context,
    source,
)
from benefits.imports.kinds.transactions import existing_transactions
from benefits.models import AccountTransaction, Plan, PlanMembership

CENT = Decimal("0.01")


class EsopKind(Kind):
    def context(self, table):
        return membership_context(table)

    def targets(self, row: Cells, ctx: dict) -> list[Target]:
        m = membership(row, ctx)
        if m is not None and m.plan.kind != Plan.Kind.ESOP:
            row.fail("plan", f"plan: {m.plan.key} is not an employee stock ownership plan.")
            m = None
        src = source(row, m, ctx) if m is not None else row.get("source", c.text, max_length=40)
        on = row.get("release_date", c.a_date)
        shares = row.get("shares", c.decimal, places=4, low=Decimal("0.0001"), high=SHARES_MAX)
        value = row.get("share_value", c.decimal, places=4, low=Decimal("0.0001"), high=Decimal("1000000"))
        memo = row.get("memo", c.text, max_length=200, required=False)
        amount = None
        if shares is not None and value is not None:
            amount = (shares * value).quantize(CENT, ROUND_HALF_UP)
            if amount > MONEY_MAX:
                row.fail("shares", "shares × share_value is more than the largest amount an account holds.")
        row.done()
        target = Target(
            AccountTransaction,
            (m.pk, src, on, "employer"),
            {"membership": m, "source": src, "date": on, "kind": "employer"},
            {"shares": shares, "amount": amount, **({"memo": memo} if "memo" in row.cells else {})},
            label=label(m, src, on),
        )
        ctx.setdefault("share_value", {})[id(target)] = value
        return [target]

    def existing(self, model, keys, ctx):
        return existing_transactions(keys, ("employer",))

    def derived(self, planned: list[Target], ctx: dict) -> list[Target]:
        """Each membership's Company Stock shares grow by the newly allocated shares; the share value is
        the one of the latest release in the file (plan_data.shares / share_value, engine contract)."""
        by_membership: dict[PlanMembership, list[Target]] = defaultdict(list)
        for t in planned:
            by_membership[t.lookup["membership"]].append(t)
        out = []
        for m, targets in by_membership.items():
            data = dict(m.plan_data)
            added = sum(
                (
                    t.values["shares"] - ((t.instance.shares or Decimal(0)) if t.instance else Decimal(0))
                    for t in targets
                ),
                Decimal(0),
            )
            if added:
                data["shares"] = f"{Decimal(str(data.get('shares', '0'))) + added:f}"
            latest = max(targets, key=lambda t: t.lookup["date"])
            data["share_value"] = f"{ctx['share_value'][id(latest)]:f}"
            out.append(
                Target(
                    PlanMembership, ("membership", m.pk), {}, {"plan_data": data}, instance=m, label=label(m)
                )
            )
        return out


KIND = EsopKind(
    name="esop",
    label="ESOP share releases",
    description="Shares released from the ESOP loan suspense account and allocated to each participant, "
    "with the share value on the release date.",
    columns=(
        PARTICIPANT,
        PLAN,
        Column("source", True, "The account the shares go to (stock_fund)."),
        Column("release_date", True, "The date the shares were released and allocated (YYYY-MM-DD)."),
        Column("shares", True, "Shares allocated to the participant, more than zero (up to 4 places)."),
        Column(
            "share_value", True, "The value of one share on the release date, in dollars (up to 4 places)."
        ),
        Column("memo", False, "A note shown on the statement (optional)."),
    ),
    key_columns=("participant_number", "plan", "source", "release_date"),
    rules=(
        "The plan is an employee stock ownership plan and the participant is a member of it.",
        "Shares and the share value are more than zero.",
        "The participant's share count grows by the shares allocated; the share value becomes that of the "
        "latest release in the file.",
        "One row per participant, plan, source and release date.",
    ),
)
