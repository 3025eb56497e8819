"""One commencement per benefit (issue 22): a defined benefit or cash balance accrued benefit is
started once. The database holds the rule (``one_commencement_claim_per_benefit`` on ``Claim``,
``one_election_in_force_per_benefit`` on ``Election``); this module finds the claim or election that
already holds a benefit and says so in plain words, and turns the constraint's refusal of the loser of
a parallel race into the same words.
"""

from __future__ import annotations

from django.db import IntegrityError

from benefits import formatting
from elections.claims.models import COMMENCEMENT_CLOSED, COMMENCEMENT_TYPES, Claim, ClaimState

CLAIM_CONSTRAINT = "one_commencement_claim_per_benefit"
ELECTION_CONSTRAINT = "one_election_in_force_per_benefit"
ELECTION_IN_FORCE = ("awaiting_consent", "waiting_period", "effective")


def _d(d) -> str:
    return f"{formatting.date_words(d)}"


def commencement_claim(membership, *, exclude_pk: int | None = None) -> Claim | None:
    """The membership's open or effective claim to start its benefit, if any."""
    qs = Claim.objects.filter(membership=membership, claim_type__in=COMMENCEMENT_TYPES).exclude(
        state__in=COMMENCEMENT_CLOSED
    )
    if exclude_pk is not None:
        qs = qs.exclude(pk=exclude_pk)
    return qs.order_by("received_on", "pk").first()


def claim_words(claim: Claim) -> str:
    """'You already have a claim to start this benefit, filed on …' naming the claim and where it is."""
    where = "in pay" if claim.state == ClaimState.IN_PAY else claim.get_state_display().lower()
    return (
        f"You already have a claim to start this benefit, filed on {_d(claim.received_on)} "
        f"(claim {claim.pk}: {claim.get_claim_type_display().lower()}, {where}). "
        "A benefit can be started only once: follow that claim instead of filing another."
    )


def election_in_force(membership, *, exclude_pk: int | None = None):
    from elections.benefit_elections.models import Election

    qs = Election.objects.filter(membership=membership, state__in=ELECTION_IN_FORCE)
    if exclude_pk is not None:
        qs = qs.exclude(pk=exclude_pk)
    return qs.order_by("signed_at", "pk").first()


def election_words(election) -> str:
    return (
        f"You already have an election for this benefit, signed on {_d(election.signed_on)}: "
        f"{election.form_label} from {_d(election.asd)} ({election.get_state_display().lower()}). "
        "A benefit can be started only once."
    )


def is_violation(exc: IntegrityError, constraint: str) -> bool:
    """Whether the database refused the row for this constraint (and not for something else)."""
    cause = getattr(exc, "__cause__", None)
    diag = getattr(cause, "diag", None)
    name = getattr(diag, "constraint_name", None)
    return name == constraint if name else constraint in str(exc)
