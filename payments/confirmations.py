"""The paying agent's confirmation file: an import kind (benefits/imports) that marks each instructed
payment paid or returned and posts what was paid to the plan's books.

A row names the payment, its pay date, ``paid`` or ``returned``, the date, the agent's reference and
the gross amount. The file is refused whole (row, column, reason) when a row names an unknown payment
or a payment not yet instructed, an amount that differs, or a payment already confirmed differently
(paid twice); a file imported again changes nothing. An ESOP's single sum in shares and cash posts the
engine's lines with their shares (``payments.share_distributions``). A paid account-plan payment posts one
``AccountTransaction`` per source it takes (the split stored when it was scheduled, in the plan's
order) and the federal income tax withheld as its own line; a loan posts ``loan_issued`` and the
membership's loan balances (``plan_data.loans``, read by the engine's loan limit) are recomputed.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

from django.utils import timezone

from benefits import formatting
from benefits.engine.payment_order import in_proportion, split_withholding
from benefits.imports import cells as c
from benefits.imports.kinds.base import Cells, Column, Kind, Target
from benefits.imports.kinds.loans import loan_balances
from benefits.models import LOAN_MOVEMENT_KINDS, AccountBalance, AccountTransaction, Plan, PlanMembership
from elections.claims.limits import loans_pending, pending_loan_data
from payments.diversification import transfer_postings
from payments.models import Loan, Payment, PaymentInstalment, PaymentKind
from payments.share_distributions import lines_of, plan_data_moved, share_postings

STATUSES = {"paid": "paid", "returned": "returned"}
MONEY_MAX = Decimal("9999999999.99")
TX_KIND = {"loan": "loan_issued", "withdrawal_59half": "withdrawal", "hardship": "withdrawal"}


def memo(i: PaymentInstalment, line: str) -> str:
    return f"Payment {i.payment_id}, instalment {i.pk}: {line}"


def postings(i: PaymentInstalment) -> list[tuple[str, str, Decimal, str]]:
    """(source, kind, signed amount, memo) for a paid instalment; empty when nothing posts."""
    p = i.payment
    sources = {s: Decimal(v) for s, v in ((p.posting or {}).get("sources") or {}).items()}
    if not sources:
        return []
    if sum(sources.values()) != i.gross:  # an instalment of a schedule: its gross in the stored proportions
        sources = in_proportion(sources, i.gross)
    claim_type = p.claim.claim_type if p.claim_id else ""
    kind = TX_KIND.get(claim_type, "distribution")
    out = []
    withheld = split_withholding(sources, i.withholding)
    for src, part in sources.items():
        w = withheld.get(src, Decimal("0.00"))
        if part - w > 0:
            words = "lent to you" if kind == "loan_issued" else "paid to you"
            out.append((src, kind, -(part - w), memo(i, words)))
        if w > 0:
            out.append((src, kind, -w, memo(i, "federal income tax withheld")))
    return out


def _cash_balance_closed(paid) -> list[Target]:
    """A cash balance single sum of the whole account, confirmed paid: the account is debited with its
    balance as of the Annuity Starting Date and reduced to zero (the plan's account section, cited in
    its package). The plan's books
    are the engine's ledger, which reads ``plan_data.distributed_on`` (the ASD) and ends the account there.
    """
    out: list[Target] = []
    for t in paid:
        p = t.instance.payment
        m = p.membership
        if p.kind != PaymentKind.SINGLE_SUM or m.plan.kind != Plan.Kind.CASH_BALANCE:
            continue
        if (m.plan_data or {}).get("distributed_on") == p.first_pay_date.isoformat():
            continue
        data = {**(m.plan_data or {}), "distributed_on": p.first_pay_date.isoformat()}
        out.append(Target(PlanMembership, ("membership", m.pk), {}, {"plan_data": data}, instance=m))
    return out


class ConfirmationsKind(Kind):
    def context(self, table):
        ids = set()
        for _, cells in table.rows:
            raw = cells.get("payment", "").strip()
            if raw.isdigit():
                ids.add(int(raw))
        found = (
            PaymentInstalment.objects.filter(payment_id__in=ids)
            .select_related("payment__claim", "payment__membership__plan")
            # Not decoded for every row of a 100,000-row file: a membership's plan data is read again
            # (in bulk) only for the loans and transfers whose posting changes it (``derived``).
            .defer(
                "withholding_basis",
                "payment__destination",
                "payment__continuation",
                "payment__withholding_election",
                "payment__membership__plan_data",
            )
        )
        by_key = {(i.payment_id, i.pay_date): i for i in found}
        loans = {loan.payment_id: loan for loan in Loan.objects.filter(payment_id__in=ids)}
        return {
            "instalments": by_key,
            "payments": {i.payment_id for i in by_key.values()},
            "loans": loans,
            "today": timezone.localdate(),
        }

    def targets(self, row: Cells, ctx: dict) -> list[Target]:
        pid = row.get("payment", c.integer, low=1, high=2**62)
        pay_date = row.get("pay_date", c.a_date)
        status = row.get("status", c.choice, STATUSES)
        on = row.get("date", c.a_date)
        reference = row.get("reference", c.text, max_length=60)
        gross = row.get("gross", c.decimal, places=2, low=Decimal("0.01"), high=MONEY_MAX)
        reason = row.get("reason", c.text, max_length=200, required=False) if "reason" in row.cells else ""
        i = ctx["instalments"].get((pid, pay_date)) if pid and pay_date else None
        if pid and pay_date and i is None:
            if pid in ctx["payments"]:
                row.fail("pay_date", f"pay_date: payment {pid} has no payment due on {pay_date}.")
            else:
                row.fail("payment", f"payment: no payment {pid} is known to the plan.")
        if i is not None:
            if i.state in ("scheduled", "cancelled"):
                row.fail(
                    "payment", f"payment: payment {pid} on {pay_date} was never sent to the paying agent."
                )
            if gross is not None and gross != i.gross:
                row.fail("gross", f"gross: {gross} differs from the {i.gross} instructed for payment {pid}.")
            if (
                status
                and i.state in ("paid", "returned")
                and (i.state != status or (reference and i.agent_reference != reference))
            ):
                row.fail(
                    "reference",
                    f"reference: payment {pid} on {pay_date} was already confirmed {i.state} "
                    f"(reference {i.agent_reference or 'none'}); it cannot be confirmed twice.",
                )
            if on and on < i.pay_date and status == "paid":
                row.fail("date", f"date: {on} is before the pay date {i.pay_date}.")
        if on and status and on > ctx["today"]:
            # "Paid" only once it happened: a paid or returned date later than today is refused.
            row.fail(
                "date",
                f"date: a payment cannot be confirmed {status} on a date after today "
                f"({formatting.date_words(on)} is after {formatting.date_words(ctx['today'])}).",
            )
        if status == "returned" and not reason:
            row.fail("reason", "reason: say why the bank returned the payment (for example, account closed).")
        row.done()
        if status == "paid":
            values = {"state": "paid", "paid_on": on, "agent_reference": reference}
        else:
            values = {
                "state": "returned",
                "returned_on": on,
                "agent_reference": reference,
                "returned_reason": reason,
            }
        objs = ctx.setdefault("objs", {})
        p = i.payment
        objs[("instalment", i.pk)], objs[("payment", p.pk)] = i, p
        out = [
            Target(
                PaymentInstalment,
                ("instalment", i.pk),
                {},
                values,
                instance=i,
                label=f"Payment {pid} {pay_date}",
            )
        ]
        p = i.payment
        if status == "paid":
            last = p.number_of_payments is not None and i.sequence >= p.number_of_payments
            new_state = "paid" if last else "in_pay"
        else:
            new_state = "returned"
        if p.state not in ("stopped", "suspended"):
            out.append(
                Target(
                    Payment,
                    ("payment", p.pk),
                    {},
                    {"state": new_state, "state_changed_on": on},
                    instance=p,
                    label=f"Payment {pid}",
                )
            )
        if status == "paid":
            made = ctx["loans"].get(p.pk)
            if made is not None:
                objs[("loan", made.pk)] = made
                out.append(
                    Target(
                        Loan, ("loan", made.pk), {}, {"made_on": on}, instance=made, label=f"Loan {made.pk}"
                    )
                )
            for n, (src, amount, shares, text) in enumerate(transfer_postings(i)):
                out.append(
                    Target(
                        AccountTransaction,
                        ("tx", text, src, n),
                        {"membership": p.membership, "source": src, "date": on, "kind": "transfer"},
                        {"amount": amount, "shares": shares, "memo": text},
                        label=f"Payment {pid} {src}",
                    )
                )
            for n, (src, kind, amount, shares, text) in enumerate(share_postings(i)):
                out.append(
                    Target(
                        AccountTransaction,
                        ("tx", text, src, n),
                        {"membership": p.membership, "source": src, "date": on, "kind": kind},
                        {"amount": amount, "shares": shares, "memo": text},
                        label=f"Payment {pid} {src}",
                    )
                )
            for n, (src, kind, amount, text) in enumerate(postings(i)):
                out.append(
                    Target(
                        AccountTransaction,
                        ("tx", text, src, n),
                        {"membership": p.membership, "source": src, "date": on, "kind": kind},
                        {"amount": amount, "memo": text},
                        label=f"Payment {pid} {src}",
                    )
                )
        return out

    def existing(self, model, keys, ctx):
        if model is PaymentInstalment or model is Payment or model is Loan:
            objs = ctx.get("objs", {})  # found in bulk by ``context``
            return {k: objs[k] for k in keys if k in objs}
        if model is AccountTransaction:
            memos = {k[1] for k in keys}
            rows = AccountTransaction.objects.filter(memo__in=memos)
            found = defaultdict(list)
            for t in rows.order_by("pk"):
                found[(t.memo, t.source)].append(t)
            return {k: found[(k[1], k[2])][0] for k in keys if found.get((k[1], k[2]))}
        if model is AccountBalance:
            rows = AccountBalance.objects.filter(membership_id__in={k[1] for k in keys})
            return {("bal", b.membership_id, b.source, b.as_of): b for b in rows}
        return {}

    def derived(self, planned, ctx):
        """Loan balances (plan_data.loans) and the account balances on each paid date, recomputed."""
        paid = [t for t in planned if t.values.get("state") == "paid" and t.instance.state != "paid"]
        closed = _cash_balance_closed(paid)
        posted: dict[int, list] = defaultdict(list)
        members: dict[int, PlanMembership] = {}
        for t in paid:
            i = t.instance
            lines = [(s, k, a) for s, k, a, _ in postings(i)]
            lines += [(s, k, a) for s, k, a, _, _ in share_postings(i)]
            for src, kind, amount in lines:
                posted[i.payment.membership_id].append((src, kind, amount, t.values["paid_on"]))
                members[i.payment.membership_id] = i.payment.membership
        out: list[Target] = self._transfers_moved(paid) + list(closed)
        if not posted:
            return out
        members = PlanMembership.objects.in_bulk(list(members))
        paid_loans = {
            t.instance.payment.claim_id for t in paid if t.instance.payment.kind == "loan_disbursement"
        }
        pending = loans_pending(list(members), paid_now=paid_loans - {None}) if paid_loans else {}
        balances = defaultdict(list)
        for b in AccountBalance.objects.filter(membership_id__in=members).order_by("as_of"):
            balances[(b.membership_id, b.source)].append(b)
        stored = defaultdict(list)
        for tx in AccountTransaction.objects.filter(membership_id__in=members).only(
            "membership_id", "source", "date", "kind", "amount"
        ):
            stored[tx.membership_id].append(tx)
        for mid, rows in posted.items():
            m = members[mid]
            loans = [(d, -a) for (_, k, a, d) in rows if k == "loan_issued"]
            if loans:
                movements = [(t.date, -t.amount) for t in stored[mid] if t.kind in LOAN_MOVEMENT_KINDS]
                outstanding, highest = loan_balances(
                    movements + loans, max(ctx["today"], max(d for d, _ in loans))
                )
                # The loans paid now are no longer "approved and not yet paid out" (the plan's loan section).
                data = pending_loan_data(m.plan_data, pending[mid])
                data["loans"] = {
                    "outstanding_balance": f"{outstanding:.2f}",
                    "highest_balance_last_12_months": f"{highest:.2f}",
                }
                out.append(Target(PlanMembership, ("membership", mid), {}, {"plan_data": data}, instance=m))
            # A withdrawal or distribution reduces the stored balance of each source it took, as of the paid date.
            for src, kind, _amount, on in rows:
                if kind == "loan_issued":
                    continue
                history = [b for b in balances[(mid, src)] if b.as_of <= on]
                if not history:
                    continue
                base = history[-1]
                between = sum(
                    (t.amount for t in stored[mid] if t.source == src and base.as_of < t.date <= on),
                    Decimal("0"),
                )
                new_rows = sum(
                    (a for (s, k, a, d) in rows if s == src and k != "loan_issued" and d <= on), Decimal("0")
                )
                key = ("bal", mid, src, on)
                value = base.balance + between + new_rows
                existing = next((t for t in out if t.key == key), None)
                if existing:
                    existing.values["balance"] = value
                    continue
                inst = base if base.as_of == on else None
                out.append(
                    Target(
                        AccountBalance,
                        key,
                        {"membership": m, "source": src, "as_of": on},
                        {"balance": value},
                        instance=inst,
                    )
                )
        return out

    def _transfers_moved(self, paid) -> list[Target]:
        """An ESOP diversification transfer moves ``plan_data``'s shares to cash, and a distribution in
        shares and cash takes both out (what the engine and the statement read)."""
        moved: dict[int, tuple[PlanMembership, Decimal, Decimal]] = {}
        distributed: dict[int, list] = defaultdict(list)
        for t in paid:
            i = t.instance
            if lines_of(i.payment):
                distributed[i.payment.membership_id].append(i.payment)
                moved.setdefault(
                    i.payment.membership_id, (i.payment.membership, Decimal("0"), Decimal("0.00"))
                )
            tr = (i.payment.posting or {}).get("transfer")
            if not tr:
                continue
            m = i.payment.membership
            _, shares, value = moved.get(m.pk, (m, Decimal("0"), Decimal("0.00")))
            moved[m.pk] = (m, shares + Decimal(tr["shares"]), value + i.gross)
        out = []
        fresh = PlanMembership.objects.in_bulk(list(moved))
        for mid, (_, shares, value) in moved.items():
            m = fresh[mid]
            data = dict(m.plan_data)
            data["shares"] = f"{Decimal(str(data.get('shares') or '0')) - shares:.4f}"
            data["cash"] = f"{Decimal(str(data.get('cash') or '0')) + value:.2f}"
            if distributed.get(mid):
                data = plan_data_moved(data, distributed[mid])
            out.append(Target(PlanMembership, ("membership", mid), {}, {"plan_data": data}, instance=m))
        return out

    def applied(self, checked, batch, actor) -> None:
        """The claims whose payment the file confirmed now read "in pay", "paid" or "loan made"."""
        from benefits.audit import AuditEventType, audit_record_many
        from payments.services import claims_confirmed

        rows = []  # every state change, old and new, one audit event each (written in bulk)
        for r in checked.rows:
            for t in r.targets:
                if t.model in (PaymentInstalment, Payment) and "state" in t.changes:
                    old, new = t.changes["state"]
                    p = t.instance if t.model is Payment else t.instance.payment
                    rows.append(
                        {
                            "summary": f"Payment {p.pk} ({t.label}): {old} → {new}, confirmed by the paying agent",
                            "participant_id": p.participant_id,
                            "payment_id": p.pk,
                            "record": t.model._meta.model_name,
                            "object_id": t.instance.pk,
                            "old_state": old,
                            "new_state": new,
                            "import_id": batch.pk,
                        }
                    )
        audit_record_many(event_type=AuditEventType.PAYMENT_STATE_CHANGED, rows=rows, actor=actor)
        confirmed = [
            r.targets[0].instance for r in checked.rows if r.targets[0].values.get("state") == "paid"
        ]
        claims_confirmed(confirmed, actor=actor, batch=batch)

    def rolled_back(self, batch, actor) -> None:
        from payments.services import claims_unconfirmed

        claims_unconfirmed(batch=batch, actor=actor)


KIND = ConfirmationsKind(
    name="payment_confirmations",
    label="Payment confirmations from the paying agent",
    description="Each instructed payment the paying agent paid or that the bank returned, with the date and "
    "the agent's reference; a paid payment posts to the plan's books.",
    columns=(
        Column("payment", True, "The payment number, as in the instruction file."),
        Column("pay_date", True, "The pay date of the instruction (YYYY-MM-DD)."),
        Column("status", True, "paid or returned."),
        Column("date", True, "The date it was paid or returned (YYYY-MM-DD)."),
        Column("reference", True, "The paying agent's reference for the payment."),
        Column("gross", True, "The gross amount, exactly as instructed."),
        Column("reason", False, "Why the bank returned it (required for a returned payment)."),
    ),
    key_columns=("payment", "pay_date"),
    rules=(
        "The payment is known and was sent to the paying agent for that pay date.",
        "The gross amount is the amount instructed.",
        "A payment is confirmed once: a second, different confirmation is refused.",
        "The paid or returned date is not later than today.",
        "A paid payment posts to the plan's books: each source it takes, and the tax withheld as its own line.",
    ),
)
