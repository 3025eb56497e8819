"""A plan year of claims for the demo: every state the committee meets, spread over the demo people.

Each claim is made with the real services (filed, reviewed, asked about, extended, decided, appealed)
on dates in the past, so the queue shows its due-soon and overdue flags and each claim has a timeline
and notices exactly as if people had done it. People other than pat get a claimant login that cannot
sign in (an unusable password): in real life they filed on paper and the office entered the claim.
Idempotent: nothing is added once the demo's claims are there.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from django.db import transaction

from accounts.models import User
from benefits.models import Participant, PlanMembership

STATEMENT = "I have stopped working and would like my pension to start."
DECIDE_REASONS = "The requested start date is before the earliest retirement date the plan allows."


@dataclass(frozen=True)
class Story:
    """What happened to one claim: filed ``ago`` days before the demo date, then ``steps``."""

    ago: int
    steps: tuple[str, ...]
    note: str = ""


# One claim per story, most recent first. Days are chosen so the queue has work due soon and overdue.
STORIES = (
    Story(3, ()),  # received: review not started
    Story(80, ("review",)),  # under review, due within ~10 days of the 90-day limit → due soon
    Story(95, ("review",)),  # under review past 90 days with no extension → overdue
    Story(40, ("review", "info")),  # information requested, clock stopped
    Story(85, ("review", "extend")),  # extended: the second 90 days
    Story(30, ("review", "deny")),  # denied, inside the appeal window
    Story(72, ("review", "deny", "appeal")),  # appealed 57 days ago, review not started → due soon
    Story(60, ("review", "deny", "appeal", "review")),  # appeal under review
    Story(20, ("review", "approve")),  # approved: the election comes next
    Story(10, ("review",), note="Checked the hire date against the 1982 payroll card."),
)


def _first_of_month_after(day: date, days: int) -> date:
    d = day + timedelta(days=days)
    return d.replace(year=d.year + (d.month == 12), month=d.month % 12 + 1, day=1)


def _claimant_login(participant: Participant) -> User:
    if participant.user_id:
        return participant.user
    email = f"{participant.participant_number.lower()}@claimants.demo.test"
    user, made = User.objects.get_or_create(email=email, defaults={"role": User.Role.PARTICIPANT})
    if made:
        user.set_unusable_password()
        user.save()
    participant.user = user
    participant.save(update_fields=["user"])
    return user


# The record README offers for trying the identity link stays unlinked.
KEEP_UNLINKED = {"CFS-10008"}


def _candidates() -> list[PlanMembership]:
    """Living members of the plans that take a claim to start payments, pat first."""
    qs = (
        PlanMembership.objects.select_related("participant", "plan")
        .filter(participant__death_date__isnull=True, plan__key__in=("carver-db", "quaker-cash-balance"))
        .exclude(participant__participant_number__in=KEEP_UNLINKED)
        .order_by("participant__participant_number", "plan__key")
    )
    return list(qs)


def _file(membership: PlanMembership, on: date):
    """File a commencement claim on ``on`` for the first date the plan allows (None if it refuses)."""
    from benefits.engine_adapter import CalculationError, membership_calculate
    from elections.claims import services
    from elections.claims.checks import ClaimInvalid

    try:
        result = membership_calculate(membership, as_of=on)
    except CalculationError:
        return None
    start = _first_of_month_after(on, 60)
    earliest = result.get("earliest_commencement_date") or result.get("earliest_retirement_date")
    if earliest:
        e = date.fromisoformat(earliest)
        if e > start:
            start = e if e.day == 1 else _first_of_month_after(e, 0)
    married = membership.participant.marital_status == "married"
    for form in ("js50", "life") if married else ("life", "js50"):
        try:
            return services.claim_file(
                filer=_claimant_login(membership.participant),
                membership=membership,
                claim_type="commencement",
                details={"commencement_date": start, "form": form},
                statement=STATEMENT,
                on=on,
            )
        except ClaimInvalid:
            continue
    return None


def load_demo_claims(*, as_of: date) -> int:
    """Claims in every state for the demo (none added if they are there). Returns how many were made."""
    from elections.claims import services
    from elections.models import Claim

    if Claim.objects.filter(statement=STATEMENT).exists():
        return 0
    committee = User.objects.get(email="committee@demo.test")
    second = User.objects.filter(email="committee2@demo.test").first()
    made = 0
    members = _candidates()
    used: set[int] = set()
    for story in STORIES:
        on = as_of - timedelta(days=story.ago)
        claim = None
        for membership in members:
            if membership.pk in used:
                continue
            with transaction.atomic():
                claim = _file(membership, on)
            if claim is not None:
                used.add(membership.pk)
                break
        if claim is None:
            continue
        made += 1
        mark = _date_events(claim, on, after=0)
        day = on
        for step in story.steps:
            day = min(day + timedelta(days=5), as_of)
            if step == "review":
                # An appeal is reviewed by a member who took no part in the first decision.
                reviewer = second if claim.state == "appealed" and second else committee
                services.claim_start_review(claim=claim, actor=reviewer, on=day)
            elif step == "info":
                services.claim_request_information(
                    claim=claim,
                    actor=committee,
                    what="A copy of your birth certificate, to confirm your age for the start date.",
                    respond_by=day + timedelta(days=45),
                    on=day,
                )
            elif step == "extend":
                services.claim_extend(
                    claim=claim,
                    actor=committee,
                    reason="The plan's actuary is checking the service before the 2001 payroll change.",
                    on=day,
                )
            elif step in ("deny", "approve"):
                _decide(claim, "denied" if step == "deny" else "approved", committee, second, day)
            elif step == "appeal":
                services.claim_appeal(
                    claim=claim,
                    actor=claim.filed_by,
                    statement="My service before the break should count; I enclose my pay stubs.",
                    on=day,
                )
            claim.refresh_from_db()
            mark = _date_events(claim, day, after=mark)
        if story.note:
            from elections.claims.committee_work import claim_note_add

            claim_note_add(claim=claim, actor=committee, text=story.note)
    # Someone's work: the first claims under review go to the first committee member.
    for claim in Claim.objects.filter(state="under_review", statement=STATEMENT).order_by("pk")[:2]:
        Claim.objects.filter(pk=claim.pk).update(assigned_to=committee)
    return made


def _date_events(claim, day: date, *, after: int) -> int:
    """Date the timeline entries made since ``after`` on the plan-year day they stand for (not the day
    the demo was loaded); returns the last entry's id."""
    from datetime import datetime, time

    from django.utils import timezone

    events = claim.events.filter(pk__gt=after)
    last = events.order_by("-pk").values_list("pk", flat=True).first() or after
    events.update(at=timezone.make_aware(datetime.combine(day, time(10, 0))))
    return last


def _decide(claim, outcome: str, committee, second, day: date) -> None:
    from elections.claims import services

    kwargs = dict(
        outcome=outcome,
        reasons=DECIDE_REASONS if outcome == "denied" else "",
        provisions="§4.3" if outcome == "denied" else "",
        perfecting_material="None: the start date itself is the reason." if outcome == "denied" else "",
        on=day,
    )
    services.claim_decide(claim=claim, actor=committee, **kwargs)
    claim.refresh_from_db()
    if second is not None and claim.state in ("under_review", "appeal_under_review"):
        services.claim_decide(claim=claim, actor=second, **kwargs)  # a majority of the seats
