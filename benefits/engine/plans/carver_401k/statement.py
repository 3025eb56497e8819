"""Account statements as data (GAP-35: the plan has none; ERISA §105 applies).

For a period: by source, the opening balance, contributions, earnings, forfeitures, distributions
(including withdrawals), loan activity and the closing balance, then the vested balance at the end.
Earnings are not allocated by formula under unit accounting (§5.3): given the closing Net Values
(units × price), earnings are what the flows do not explain; without them, earnings entries are used.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from enum import StrEnum

from benefits.engine.money import ZERO, to_money
from benefits.engine.trace import Trace, TraceBuilder, money

from .accounts import AccountVesting, vest_accounts
from .settings import DEFAULT_SETTINGS, BenefitSettings
from .sources import ALL_SOURCES, LABELS


class Kind(StrEnum):
    CONTRIBUTION = "contribution"  # includes a §4.2 restoration ("an additional Employer contribution")
    EARNINGS = "earnings"  # income, gains and losses, expenses in unit values (§5.3)
    FORFEITURE = "forfeiture"  # nonvested Units removed at termination (§4.2), amount positive
    DISTRIBUTION = "distribution"  # payment after termination, amount positive
    WITHDRAWAL = "withdrawal"  # §7.3 or §7.4 in-service payment: also adds to §4.1(d)'s D
    LOAN_ISSUED = "loan_issued"  # principal moved from the source to the Loan Account (§8.4(b))
    LOAN_REPAID = "loan_repaid"  # principal credited back to the source (§8.5(c))
    FEE = "fee"  # participant-level charges (§9.11), amount positive


@dataclass(frozen=True)
class Transaction:
    on: date
    source: str
    kind: Kind
    amount: Decimal


@dataclass(frozen=True)
class StatementLine:
    source: str
    opening: Decimal
    contributions: Decimal
    earnings: Decimal
    forfeitures: Decimal
    distributions: Decimal
    fees: Decimal
    loan_activity: Decimal  # repaid − lent: positive when money came back from the Loan Account
    closing: Decimal
    vested_percent: Decimal
    vested_balance: Decimal


@dataclass(frozen=True)
class Statement:
    start: date
    end: date
    lines: tuple[StatementLine, ...]
    loan_opening: Decimal
    loan_closing: Decimal
    trace: Trace

    def total(self, field_name: str) -> Decimal:
        return sum((getattr(line, field_name) for line in self.lines), ZERO)

    @property
    def closing(self) -> Decimal:
        return self.total("closing")

    @property
    def vested_balance(self) -> Decimal:
        return self.total("vested_balance")


def account_statement(
    *,
    start: date,
    end: date,
    opening: Mapping[str, object],
    transactions: Sequence[Transaction],
    scheduled_percent: object,
    closing: Mapping[str, object] | None = None,
    loan_opening: object = ZERO,
    withdrawn_before: Mapping[str, object] | None = None,
    loaned_out_before: Mapping[str, object] | None = None,
    fully_vested: bool = False,
    settings: BenefitSettings = DEFAULT_SETTINGS,
) -> Statement:
    """One statement from `start` to `end` inclusive. `scheduled_percent` is the §4.1(c) percentage at
    `end`; `withdrawn_before`/`loaned_out_before` are §4.1(d)'s D components at `start`."""
    inside = [t for t in transactions if start <= t.on <= end]
    tb = TraceBuilder()
    withdrawn = {k: to_money(v) for k, v in (withdrawn_before or {}).items()}
    loaned = {k: to_money(v) for k, v in (loaned_out_before or {}).items()}
    sources = [
        s for s in ALL_SOURCES if s in opening or any(t.source == s for t in inside) or s in (closing or {})
    ]
    sums: dict[str, dict[Kind, Decimal]] = {s: dict.fromkeys(Kind, ZERO) for s in sources}
    for t in inside:
        sums[t.source][t.kind] += to_money(t.amount)
    closes: dict[str, Decimal] = {}
    for s in sources:
        k = sums[s]
        flows = (
            k[Kind.CONTRIBUTION]
            - k[Kind.FORFEITURE]
            - k[Kind.DISTRIBUTION]
            - k[Kind.WITHDRAWAL]
            - k[Kind.FEE]
            - k[Kind.LOAN_ISSUED]
            + k[Kind.LOAN_REPAID]
        )
        op = to_money(opening.get(s, ZERO))
        if closing is not None and s in closing:
            closes[s] = to_money(closing[s])
            k[Kind.EARNINGS] = closes[s] - op - flows
            tb.step(
                f"{LABELS[s]}: earnings are the change in value not explained by the money in and out",
                section="§5.3",
                result=money(k[Kind.EARNINGS]),
                opening=money(op),
                closing=money(closes[s]),
                net_flows=money(flows),
            )
        else:
            closes[s] = op + flows + k[Kind.EARNINGS]
        withdrawn[s] = withdrawn.get(s, ZERO) + k[Kind.WITHDRAWAL]
        loaned[s] = max(ZERO, loaned.get(s, ZERO) + k[Kind.LOAN_ISSUED] - k[Kind.LOAN_REPAID])
    vesting: AccountVesting = vest_accounts(
        closes,
        scheduled_percent,
        withdrawn=withdrawn,
        loaned_out=loaned,
        fully_vested=fully_vested,
        settings=settings,
    )
    tb.include(vesting.trace)
    lines = []
    for s in sources:
        k = sums[s]
        sv = vesting.by_source[s]
        lines.append(
            StatementLine(
                s,
                to_money(opening.get(s, ZERO)),
                k[Kind.CONTRIBUTION],
                k[Kind.EARNINGS],
                k[Kind.FORFEITURE],
                k[Kind.DISTRIBUTION] + k[Kind.WITHDRAWAL],
                k[Kind.FEE],
                k[Kind.LOAN_REPAID] - k[Kind.LOAN_ISSUED],
                closes[s],
                sv.vested_percent,
                sv.vested_balance,
            )
        )
    lent = sum((t.amount for t in inside if t.kind is Kind.LOAN_ISSUED), ZERO)
    repaid = sum((t.amount for t in inside if t.kind is Kind.LOAN_REPAID), ZERO)
    loan_close = to_money(loan_opening) + to_money(lent) - to_money(repaid)
    tb.step(
        "Loan Account: opening principal, plus new loans, less principal repaid",
        section="§8.4(d)",
        result=money(loan_close),
        opening=money(to_money(loan_opening)),
        lent=money(to_money(lent)),
        repaid=money(to_money(repaid)),
    )
    return Statement(start, end, tuple(lines), to_money(loan_opening), loan_close, tb.build())
