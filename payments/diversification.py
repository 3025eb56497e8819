"""The ESOP diversification transfer (Code §401(a)(28)(B)): the shares a participant elected to diversify
move out of employer stock, as a payment record of kind ``transfer`` paid ``internal``ly.

Diversification is an election (``elections.account_elections``), not a claim: the participant files it
with the Committee inside the plan year's window and may replace it until the window closes. The plan
must carry it out within 90 days after the window (Code §401(a)(28)(B)(ii); the plan's
``diversification`` cites its section). The method here is investment options inside the plan (the
plan's text names it): the elected shares leave the Stock Fund Account and their
value goes to the Investment Fund Account ("other investments"); nothing is paid out, nothing withheld.

The pay-date run schedules the transfer: for every election in force whose window closed before the pay
date, one ``Payment`` (the first pay date after the window closes, which is inside the 90 days), gross =
the shares at the plan's last share value. One live transfer per election is a database rule (a
partial unique index on ``posting->>'diversification_election'``). The trustee confirms it through the
paying agent's confirmation file like any payment; the confirmation posts two ``transfer``
transactions (shares and value out of ``stock_fund``, the value into ``investment_fund``) and moves the
membership's ``plan_data`` shares and cash, which the statement and the engine read.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

from benefits.audit import AuditEventType, audit_record_many
from payments import schedule as sched
from payments.models import Payment, PaymentKind, PaymentMethod

CENT = Decimal("0.01")
FROM_SOURCE, TO_SOURCE = "stock_fund", "investment_fund"  # the ESOP account sources (imports/kinds/common)


def _section(plan_key: str) -> str:
    """The provisions that govern the election, as the plan's package names them."""
    from benefits.engine.plans import get_plan

    program = getattr(get_plan(plan_key), "diversification", None)
    return getattr(program, "election_sections", "") or "Code §401(a)(28)(B)"


def transfer_date(window_closes: date) -> date:
    """The first pay date after the window closes (the election may be replaced until then)."""
    return sched.next_pay_date(window_closes + timedelta(days=1), notice_days=0)


def transfers_schedule(pay_date: date) -> int:
    """Schedule the transfer of every diversification election in force whose window closed before
    ``pay_date`` and that has no live transfer yet (bulk; a second run adds nothing)."""
    from elections.account_elections.models import DiversificationElection

    done = {
        int(x)
        for x in Payment.objects.filter(
            kind=PaymentKind.TRANSFER, posting__has_key="diversification_election"
        )
        .exclude(state=Payment.State.CANCELLED)
        .values_list("posting__diversification_election", flat=True)
    }
    elections = [
        e
        for e in DiversificationElection.objects.filter(
            state="current", window_closes__lt=pay_date
        ).select_related("membership__plan", "participant")
        if e.pk not in done
    ]
    made = []
    for e in elections:
        pd = e.membership.plan_data or {}
        price = Decimal(str(pd.get("share_value") or "0"))
        value = (e.shares * price).quantize(CENT, ROUND_HALF_UP)
        if value <= 0:
            continue
        made.append(
            Payment(
                membership_id=e.membership_id,
                participant_id=e.participant_id,
                payee_name=e.participant.full_name,
                kind=PaymentKind.TRANSFER,
                gross=value,
                first_pay_date=transfer_date(e.window_closes),
                number_of_payments=1,
                form="diversification",
                form_label=f"Diversification of {e.shares.normalize():f} shares",
                method=PaymentMethod.INTERNAL,
                destination={"to": TO_SOURCE},
                destination_masked="Moved to other investments in the plan",
                withholding_election={"form": "none", "reason": "a transfer inside the plan is not paid out"},
                posting={
                    "section": _section(e.membership.plan.key),
                    "diversification_election": e.pk,
                    "transfer": {
                        "from": FROM_SOURCE,
                        "to": TO_SOURCE,
                        "shares": f"{e.shares:.4f}",
                        "share_value": f"{price}",
                        "complete_by": e.complete_by.isoformat(),
                    },
                },
            )
        )
    created = Payment.objects.bulk_create(made, batch_size=2000, ignore_conflicts=True)
    audit_record_many(
        event_type=AuditEventType.PAYMENT_SCHEDULED,
        rows=[
            {
                "summary": f"Diversification transfer scheduled: {p.form_label}, {p.gross} on {p.first_pay_date}",
                "participant_id": p.participant_id,
                "diversification_election_id": p.posting["diversification_election"],
                "old_state": "",
                "new_state": "scheduled",
                "gross": f"{p.gross}",
            }
            for p in created
        ],
    )
    return len(made)


def transfer_postings(i) -> list[tuple[str, Decimal, Decimal | None, str]]:
    """(source, signed amount, signed shares, memo) of a confirmed transfer instalment."""
    t = (i.payment.posting or {}).get("transfer")
    if not t:
        return []
    shares = Decimal(t["shares"])
    memo = f"Payment {i.payment_id}, instalment {i.pk}: diversification"
    return [
        (t["from"], -i.gross, -shares, f"{memo}: {shares.normalize():f} shares out of employer stock"),
        (t["to"], i.gross, None, f"{memo}: moved into other investments"),
    ]
