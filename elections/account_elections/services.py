"""Writes for account elections: the diversification election and deferral rate changes. Each checks
permission, asks the engine (through the plan protocol) for the window, the maximum or the dates,
refuses an invalid election whole with a message naming the field and the rule, and records the change
and its audit event in one transaction (the confirmation PDF is rendered after commit)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Max, Sum
from django.utils import timezone

from benefits import formatting
from benefits.audit import AuditEventType, audit_record
from benefits.engine import ENGINE_VERSION
from benefits.engine.money import percent_str
from benefits.engine.plans import get_plan
from benefits.engine_adapter import CalculationError, engine_inputs, membership_request, request_calculate
from benefits.models import Participant, PlanMembership
from benefits.presenters.plain import people_date
from benefits.services.documents import document_request
from elections.account_elections.models import DeferralElection, DiversificationElection
from elections.authority import staff_viewed as audited_view

SHARE_PLACES = Decimal("0.0001")
RATE_PLACES = Decimal("0.01")


class AccountElectionRefused(Exception):
    """The election is refused whole; ``errors`` maps a field to a message naming the rule."""

    def __init__(self, errors: dict[str, str]):
        super().__init__("; ".join(errors.values()))
        self.errors = errors


def today() -> date:
    return timezone.localdate()


def require_owner(membership: PlanMembership, user) -> None:
    if not (
        getattr(user, "is_participant_role", False)
        and membership.participant.user_id is not None
        and membership.participant.user_id == user.pk
    ):
        raise PermissionDenied("Only the participant makes this election.")


def staff_viewed(*, viewer, participant: Participant, what: str, request=None) -> None:
    """Every staff view of a participant's diversification elections or contribution rates is audited."""
    audited_view(
        viewer=viewer,
        participant=participant,
        what=what,
        request=request,
        event_type=AuditEventType.ACCOUNT_ELECTIONS_VIEWED_BY_STAFF,
    )


# ------------------------------------------------------------------------------ diversification


@dataclass
class Diversification:
    """The engine's diversification block for one membership on one day, with the elections made here."""

    program: object  # the plan's DiversificationProgram
    result: dict  # the engine's ``diversification`` block
    on: date
    current: DiversificationElection | None = None  # the election in force for the open window
    versions: list[DiversificationElection] = field(default_factory=list)  # every version for that window

    @property
    def eligible(self) -> bool:
        return bool(self.result.get("eligible"))

    @property
    def max_shares(self) -> Decimal:
        return Decimal(self.result.get("max_shares") or "0")

    @property
    def share_value(self) -> Decimal | None:
        raw = self.result.get("share_value")
        return Decimal(raw) if raw else None

    def when(self, key: str) -> date | None:
        raw = self.result.get(key) or (self.result.get("qualified_election_period") or {}).get(key)
        return date.fromisoformat(raw) if raw else None


def _elected_here(membership: PlanMembership, *, excluding_plan_year: int | None = None) -> Decimal:
    """Shares of the elections in force made in this service (versions replaced do not count)."""
    qs = DiversificationElection.objects.filter(
        membership=membership, state=DiversificationElection.State.CURRENT
    )
    if excluding_plan_year is not None:
        qs = qs.exclude(plan_year=excluding_plan_year)
    return qs.aggregate(total=Sum("shares"))["total"] or Decimal("0")


def _engine_block(membership: PlanMembership, on: date, extra_elected: Decimal) -> dict:
    """The engine's diversification block, counting the shares elected here as already elected.

    ``plan_data.shares_diversified`` holds the elections the record keeper had before this service."""
    request = membership_request(membership, as_of=on)
    pd = request["participants"][0]["plan_data"]
    recorded = Decimal(str(pd.get("shares_diversified") or "0"))
    pd["shares_diversified"] = str(recorded + extra_elected)
    result = request_calculate(request)
    if "error" in result:
        raise CalculationError(result["error"]["field"], result["error"]["message"])
    block = result.get("diversification") or {}
    if block and pd.get("share_value"):
        # The share value the record keeper's data gives (the latest valuation), to value the shares.
        block = block | {"share_value": str(pd["share_value"])}
    return block


def diversification_for(membership: PlanMembership, *, on: date | None = None) -> Diversification | None:
    """None when the plan has no diversification election (or the engine has no data for it)."""
    on = on or today()
    program = get_plan(membership.plan.key).diversification
    if program is None:
        return None
    block = _engine_block(membership, on, _elected_here(membership))
    if not block:
        return None
    out = Diversification(program=program, result=block, on=on)
    if block.get("eligible"):
        year = int(block["plan_year"])
        out.versions = list(
            DiversificationElection.objects.filter(membership=membership, plan_year=year).order_by("-version")
        )
        out.current = next(
            (v for v in out.versions if v.state == DiversificationElection.State.CURRENT), None
        )
        if out.current is not None:
            # A new election replaces the one in force: its own shares are not "previously elected".
            out.result = _engine_block(membership, on, _elected_here(membership, excluding_plan_year=year))
    return out


def parse_shares(raw: object) -> Decimal:
    try:
        value = Decimal(str(raw).strip().replace(",", ""))
    except (InvalidOperation, ValueError):
        raise AccountElectionRefused(
            {"shares": "Shares to diversify: give a number of shares, like 250."}
        ) from None
    if not value.is_finite():
        raise AccountElectionRefused({"shares": "Shares to diversify: give a number of shares, like 250."})
    if value != value.quantize(SHARE_PLACES):
        raise AccountElectionRefused({"shares": "Shares to diversify: at most four decimal places."})
    return value


def diversification_elect(
    *, user, membership: PlanMembership, shares: object, on: date | None = None, request=None
):
    """Make (or replace) the election for the open window, up to the engine's maximum."""
    require_owner(membership, user)
    on = on or today()
    amount = parse_shares(shares)
    with transaction.atomic():
        # One election at a time per participant and plan: the window's versions are numbered in order.
        PlanMembership.objects.select_for_update().filter(pk=membership.pk).first()
        facts = diversification_for(membership, on=on)
        if facts is None:
            raise AccountElectionRefused({"shares": "This plan has no diversification election."})
        sections = facts.program.election_sections
        if not facts.eligible:
            raise AccountElectionRefused({"shares": _not_open_reason(facts) + f" ({sections})."})
        limit = facts.max_shares
        if amount <= 0:
            raise AccountElectionRefused(
                {"shares": "Shares to diversify: give a number of shares greater than zero."}
            )
        if amount > limit:
            raise AccountElectionRefused(
                {
                    "shares": (
                        f"Shares to diversify: at most {formatting.shares(limit)} shares in this election period "
                        f"({facts.result['percent']}% of the shares allocated to your account, less shares "
                        f"you elected to diversify before; {sections})."
                    )
                }
            )
        year = int(facts.result["plan_year"])
        current = facts.current
        if current is not None:
            current.state = DiversificationElection.State.SUPERSEDED
            current.save(update_fields=["state"])
        version = (
            DiversificationElection.objects.filter(membership=membership, plan_year=year).aggregate(
                v=Max("version")
            )["v"]
            or 0
        ) + 1
        r = facts.result
        election = DiversificationElection.objects.create(
            participant=membership.participant,
            membership=membership,
            plan_year=year,
            qep_year=int(r["qep_year"]),
            window_opens=date.fromisoformat(r["window_opens"]),
            window_closes=date.fromisoformat(r["window_closes"]),
            complete_by=date.fromisoformat(r["complete_by"]),
            percent=Decimal(r["percent"]),
            last_year=bool(r["last_year"]),
            shares=amount,
            max_shares=limit,
            shares_allocated=Decimal(r["shares_allocated_since_inception"]),
            shares_previously_elected=Decimal(r["shares_already_elected"]),
            version=version,
            supersedes=current,
            made_on=on,
            made_by=user,
            engine_version=ENGINE_VERSION,
        )
        audit_record(
            event_type=AuditEventType.DIVERSIFICATION_ELECTED,
            summary=(
                f"Diversification election for {year}: {amount} shares (version {version}"
                + (f", replacing version {current.version})" if current else ")")
            ),
            actor=user,
            participant=membership.participant,
            request=request,
            election_id=election.pk,
            plan=membership.plan.key,
            plan_year=year,
            shares=str(amount),
            max_shares=str(limit),
            supersedes=current.pk if current else None,
        )
        election.confirmation = document_request(
            kind="diversification_confirmation",
            participant=membership.participant,
            title=f"Diversification election confirmation, {membership.plan.name}",
            template_name="pdf/account_elections/diversification_confirmation.html",
            payload=_confirmation_payload(election, facts),
            plans=membership.plan,
            requested_by=user,
            request=request,
        )
        election.save(update_fields=["confirmation"])
    return election


def _not_open_reason(facts: Diversification) -> str:
    opens = facts.when("next_window_opens")
    closed = facts.when("last_window_closed")
    if opens:
        return f"Your first diversification election period opens on {people_date(opens)}"
    if closed:
        return f"Your last diversification election period closed on {people_date(closed)}"
    return "No diversification election period is open today"


def _confirmation_payload(election: DiversificationElection, facts: Diversification) -> dict:
    plan = election.membership.plan
    return {
        "as_of": election.made_on.isoformat(),
        "plan_name": plan.name,
        "plan_year": election.plan_year,
        "qep_year": election.qep_year,
        "last_year": election.last_year,
        # Never Decimal.normalize() alone: 50 would print as "5E+1".
        "percent": percent_str(election.percent),
        "window_opens": election.window_opens.isoformat(),
        "window_closes": election.window_closes.isoformat(),
        "complete_by": election.complete_by.isoformat(),
        "shares": formatting.shares(election.shares),
        "max_shares": formatting.shares(election.max_shares),
        # The shares in dollars at the latest valuation the plan's data gives.
        "share_value": formatting.share_price(facts.share_value) if facts.share_value else "",
        "shares_worth": formatting.money(election.shares * facts.share_value) if facts.share_value else "",
        "max_shares_worth": formatting.money(election.max_shares * facts.share_value)
        if facts.share_value
        else "",
        "shares_allocated": formatting.shares(election.shares_allocated),
        "shares_previously_elected": formatting.shares(election.shares_previously_elected),
        "version": election.version,
        "replaces_version": election.supersedes.version if election.supersedes_id else None,
        "methods": list(facts.program.methods),
        "completion": facts.program.completion,
        "sections": facts.program.election_sections,
        "engine_version": election.engine_version,
    }


# ------------------------------------------------------------------------------ deferral rates


@dataclass
class Deferrals:
    """The participant's rate history and what a change made today would do."""

    program: object  # the plan's DeferralProgram
    on: date
    kind: object  # the DeferralKind shown (the plan's first)
    history: list[DeferralElection]
    current: DeferralElection | None
    pending: DeferralElection | None
    next_effective: date
    next_effective_stop: date
    quarter_used: bool
    pay_year: int | None
    limit: object  # DeferralLimit for the year of ``on``
    estimate: object | None  # DeferralEstimate of the current rate
    employed: bool
    settings: object  # the plan's benefit settings the change rules read (None without engine inputs)
    earlier: list[tuple[date, Decimal]]  # the changes made here, (filed on, rate), for the change rules


def rate_in_force(history: list[DeferralElection], on: date) -> DeferralElection | None:
    """The latest rate filed among those in effect on ``on``."""
    in_effect = [h for h in history if h.effective_on <= on]
    return max(in_effect, key=lambda h: (h.filed_on, h.pk), default=None)


def _earlier(history: list[DeferralElection]) -> list[tuple[date, Decimal]]:
    return [(h.filed_on, h.percent) for h in history if not h.from_payroll_record]


def _benefit_settings(membership: PlanMembership, on: date):
    try:
        return engine_inputs(membership, as_of=on).settings.get("benefits")
    except CalculationError:
        return None


def deferrals_for(membership: PlanMembership, *, on: date | None = None) -> Deferrals | None:
    on = on or today()
    program = get_plan(membership.plan.key).deferrals
    if program is None:
        return None
    kind = program.kinds[0]
    history = list(
        DeferralElection.objects.filter(membership=membership, kind=kind.value).order_by("-filed_on", "-pk")
    )
    settings = _benefit_settings(membership, on)
    earlier = _earlier(history)
    current = rate_in_force(history, on)
    future = [h for h in history if h.effective_on > on]
    pending = max(future, key=lambda h: (h.filed_on, h.pk), default=None)
    pay = membership.compensation.filter(year__lte=on.year).order_by("-year").first()
    participant = membership.participant
    limit = program.annual_limit(on.year, participant.birth_date)
    estimate = (
        program.estimate(current.percent, pay.amount, on.year, participant.birth_date)
        if current is not None and pay is not None
        else None
    )
    employed = participant.termination_date is None or participant.termination_date > on
    return Deferrals(
        program=program,
        on=on,
        kind=kind,
        history=history,
        current=current,
        pending=pending,
        next_effective=program.next_effective(on, earlier, Decimal("1"), settings),
        next_effective_stop=program.next_effective(on, earlier, Decimal("0"), settings),
        quarter_used=program.quarter_used(on, earlier, settings),
        pay_year=pay.year if pay else None,
        limit=limit,
        estimate=estimate,
        employed=employed,
        settings=settings,
        earlier=earlier,
    )


def parse_rate(raw: object) -> Decimal:
    try:
        value = Decimal(str(raw).strip().rstrip("%").strip())
    except (InvalidOperation, ValueError):
        raise AccountElectionRefused({"percent": "Contribution rate: give a percentage, like 6."}) from None
    if not value.is_finite():
        raise AccountElectionRefused({"percent": "Contribution rate: give a percentage, like 6."})
    return value


def deferral_change(
    *, user, membership: PlanMembership, percent: object, on: date | None = None, request=None
):
    """Record a new rate effective with the first payroll the plan allows."""
    require_owner(membership, user)
    on = on or today()
    rate = parse_rate(percent)
    with transaction.atomic():
        PlanMembership.objects.select_for_update().filter(pk=membership.pk).first()
        facts = deferrals_for(membership, on=on)
        if facts is None:
            raise AccountElectionRefused({"percent": "This plan takes no contributions from your pay."})
        program = facts.program
        if not facts.employed:
            raise AccountElectionRefused(
                {"percent": "Contribution rate: contributions come from pay, and you are no longer employed."}
            )
        problems = program.check_rate(rate)
        if problems:
            raise AccountElectionRefused({"percent": "Contribution rate: " + "; ".join(problems)})
        rate = rate.quantize(RATE_PLACES)
        latest = facts.pending or facts.current
        if latest is not None and latest.percent == rate:
            raise AccountElectionRefused(
                {"percent": f"Contribution rate: {formatting.percent(rate)} is already your rate."}
            )
        effective = program.next_effective(on, facts.earlier, rate, facts.settings)
        problems = program.check_change(on, effective, rate, facts.earlier, facts.settings)
        if problems:
            # The plan's next_effective already moved past this quarter's used change.
            raise AccountElectionRefused(
                {
                    "percent": "Contribution rate: "
                    + "; ".join(problems)
                    + f". Your next change can take effect on {people_date(effective)} if you make it "
                    "once the next calendar quarter begins; stopping your contributions is allowed now."
                }
            )
        previous = latest.percent if latest is not None else None
        change = DeferralElection.objects.create(
            participant=membership.participant,
            membership=membership,
            kind=facts.kind.value,
            percent=rate,
            previous_percent=previous,
            filed_on=on,
            effective_on=effective,
            made_by=user,
        )
        audit_record(
            event_type=AuditEventType.DEFERRAL_RATE_CHANGED,
            summary=f"Contribution rate {previous}% → {rate}% from {effective.isoformat()}",
            actor=user,
            participant=membership.participant,
            request=request,
            deferral_id=change.pk,
            plan=membership.plan.key,
            kind=facts.kind.value,
            old=str(previous) if previous is not None else None,
            new=str(rate),
            effective_on=effective.isoformat(),
        )
    return change
