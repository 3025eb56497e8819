"""Claims for benefits and their appeals (29 CFR 2560.503-1 and each plan's claims article).

The claim's state is a protected django-fsm field: it changes only through the transitions below,
called by ``elections.claims.services``, which check who may act, keep the clock and write the audit event
and the ``ClaimEvent`` timeline row in the same transaction.
"""

from __future__ import annotations

from datetime import date

from django.conf import settings as django_settings
from django.db import models
from django_fsm import FSMField, FSMModelMixin, transition

from benefits.models import GeneratedDocument, Participant, PlanMembership
from elections.claims import deadlines


class ClaimType(models.TextChoices):
    COMMENCEMENT = "commencement", "Start of benefit payments"
    HARDSHIP = "hardship", "Hardship distribution (401(k))"
    WITHDRAWAL_59HALF = "withdrawal_59half", "Age 59½ withdrawal (401(k))"
    TERMINATION_DISTRIBUTION = "termination_distribution", "Distribution after termination (401(k))"
    ESOP_DISTRIBUTION = "esop_distribution", "ESOP distribution"
    LUMP_SUM = "lump_sum", "Cash balance lump sum"
    LOAN = "loan", "Loan (401(k))"
    DEATH_BENEFIT = "death_benefit", "Death benefit"


class ClaimState(models.TextChoices):
    RECEIVED = "received", "Received"
    UNDER_REVIEW = "under_review", "Under review"
    INFO_REQUESTED = "info_requested", "Information requested"
    APPROVED = "approved", "Approved"
    DENIED = "denied", "Denied"
    APPEALED = "appealed", "Appeal received"
    APPEAL_UNDER_REVIEW = "appeal_under_review", "Appeal under review"
    APPEAL_INFO_REQUESTED = "appeal_info_requested", "Information requested on appeal"
    APPROVED_ON_REVIEW = "approved_on_review", "Approved on review"
    DENIED_ON_REVIEW = "denied_on_review", "Denied on review (final)"
    ELECTION_REQUIRED = "election_required", "Approved: election required"
    PAYMENT_SCHEDULED = "payment_scheduled", "Payment scheduled"
    IN_PAY = "in_pay", "In pay"
    PAID = "paid", "Paid"
    LOAN_IN_EFFECT = "loan_in_effect", "Loan made"


S = ClaimState
# Claims that start a defined benefit or cash balance accrued benefit: it can be commenced once.
COMMENCEMENT_TYPES = (ClaimType.COMMENCEMENT, ClaimType.LUMP_SUM)
# A commencement claim stops holding the benefit only when it is denied (finally, or until appealed).
COMMENCEMENT_CLOSED = (ClaimState.DENIED, ClaimState.DENIED_ON_REVIEW)
INITIAL_OPEN = (S.RECEIVED, S.UNDER_REVIEW, S.INFO_REQUESTED)
REVIEW_OPEN = (S.APPEALED, S.APPEAL_UNDER_REVIEW, S.APPEAL_INFO_REQUESTED)
COMMITTEE_OPEN = (*INITIAL_OPEN, *REVIEW_OPEN)


def _clock_not_paused(claim: Claim) -> bool:
    return not claim.clock().paused


def _within_appeal_window(claim: Claim) -> bool:
    return (
        claim.appeal_by is not None
        and claim.appeal_filed_on is not None
        and (claim.appeal_filed_on <= claim.appeal_by)
    )


def _deemed_denied(claim: Claim) -> bool:
    """No decision was made in time: the claimant may treat the claim as denied (29 CFR 2560.503-1(l);
    a plan's claims article may say so too). The service has set the appeal window from the missed due date."""
    return claim.decided_on is None and _within_appeal_window(claim)


class Claim(FSMModelMixin, models.Model):
    participant = models.ForeignKey(Participant, on_delete=models.PROTECT, related_name="claims")
    membership = models.ForeignKey(PlanMembership, on_delete=models.PROTECT, related_name="claims")
    filed_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="claims_filed"
    )
    claimant_name = models.CharField(max_length=200)
    claimant_relationship = models.CharField(max_length=60, default="participant")  # or e.g. "spouse"
    claim_type = models.CharField(max_length=40, choices=ClaimType.choices)
    disability_based = models.BooleanField(default=False)
    statement = models.TextField(blank=True)  # the basis of the claim, in the claimant's words
    # What the claimant asked for, by field (amount, reason, term_months, commencement_date, form, ...).
    details = models.JSONField(default=dict)
    # The engine numbers the request was checked against at filing, with the engine version.
    engine_check = models.JSONField(default=dict)

    state = FSMField(default=ClaimState.RECEIVED, choices=ClaimState.choices, protected=True)

    received_on = models.DateField()
    # The initial decision clock: extension days taken and every request for information as
    # [sent, answered (null = open), tolls the clock, answer-by] (see ``_tolls``).
    initial_extensions = models.JSONField(default=list)
    initial_tolls = models.JSONField(default=list)
    decided_on = models.DateField(null=True, blank=True)
    notice_delivered_on = models.DateField(null=True, blank=True)
    appeal_by = models.DateField(null=True, blank=True)
    appeal_filed_on = models.DateField(null=True, blank=True)
    appeal_statement = models.TextField(blank=True)
    review_extensions = models.JSONField(default=list)
    review_tolls = models.JSONField(default=list)
    review_decided_on = models.DateField(null=True, blank=True)
    documents_requested_on = models.DateField(null=True, blank=True)
    information_due_on = models.DateField(null=True, blank=True)  # answer-by date of an open request
    # The date the running decision is due (kept for the committee queue's ordering); null when none runs.
    due_on = models.DateField(null=True, blank=True, db_index=True)
    initial_decided_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    next_step = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # The committee member who prepares the claim for the committee (any member may still act on it).
    assigned_to = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="claims_assigned",
    )

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            # One commencement per benefit (issue 22): at most one open or effective claim to start a
            # membership's accrued benefit, held by PostgreSQL against parallel filings.
            models.UniqueConstraint(
                fields=["membership"],
                condition=models.Q(claim_type__in=COMMENCEMENT_TYPES)
                & ~models.Q(state__in=COMMENCEMENT_CLOSED),
                name="one_commencement_claim_per_benefit",
            )
        ]

    def __str__(self) -> str:
        return f"Claim {self.pk}: {self.get_claim_type_display()} ({self.get_state_display()})"

    # ------------------------------------------------------------------------------- the clock

    @property
    def plan_rules(self) -> deadlines.PlanClaimRules:
        return deadlines.plan_rules(self.membership.plan.key)

    @property
    def clock_rules(self) -> deadlines.ClockRules:
        return self.plan_rules.clock_for(disability=self.disability_based)

    @property
    def in_review_stage(self) -> bool:
        return self.appeal_filed_on is not None

    def clock(self) -> deadlines.Clock:
        """The decision clock running now: the review's once an appeal is filed, else the initial one."""
        rules = self.clock_rules
        if self.in_review_stage:
            return deadlines.Clock(
                received=self.appeal_filed_on,
                base_days=rules.review_days,
                allowed_extensions=rules.review_extensions,
                extensions=tuple(self.review_extensions),
                tolls=_tolls(self.review_tolls),
            )
        return deadlines.Clock(
            received=self.received_on,
            base_days=rules.initial_days,
            allowed_extensions=rules.initial_extensions,
            extensions=tuple(self.initial_extensions),
            tolls=_tolls(self.initial_tolls),
        )

    def set_clock(self, clock: deadlines.Clock) -> None:
        extensions = list(clock.extensions)
        tolls = [
            [
                t.start.isoformat(),
                t.end.isoformat() if t.end else None,
                t.tolls,
                t.respond_by.isoformat() if t.respond_by else None,
            ]
            for t in clock.tolls
        ]
        if self.in_review_stage:
            self.review_extensions, self.review_tolls = extensions, tolls
        else:
            self.initial_extensions, self.initial_tolls = extensions, tolls

    def refresh_due(self, *, today: date) -> None:
        self.due_on = self.clock().due(today=today) if self.state in COMMITTEE_OPEN else None

    # ------------------------------------------------------------------------------- transitions

    @transition(field=state, source=S.RECEIVED, target=S.UNDER_REVIEW)
    def start_review(self) -> None:
        pass

    @transition(field=state, source=S.UNDER_REVIEW, target=S.INFO_REQUESTED)
    def request_information(self) -> None:
        pass

    @transition(field=state, source=S.INFO_REQUESTED, target=S.UNDER_REVIEW)
    def answer_information(self) -> None:
        pass

    @transition(field=state, source=[S.RECEIVED, S.UNDER_REVIEW], target=S.UNDER_REVIEW)
    def extend_initial(self) -> None:
        pass

    @transition(field=state, source=S.UNDER_REVIEW, target=S.APPROVED, conditions=[_clock_not_paused])
    def approve(self) -> None:
        pass

    @transition(field=state, source=S.UNDER_REVIEW, target=S.DENIED, conditions=[_clock_not_paused])
    def deny(self) -> None:
        pass

    @transition(field=state, source=S.DENIED, target=S.APPEALED, conditions=[_within_appeal_window])
    def appeal(self) -> None:
        pass

    # A request for information without an extension leaves the clock running, so a claim waiting
    # for that answer can be overdue too.
    @transition(
        field=state,
        source=[S.RECEIVED, S.UNDER_REVIEW, S.INFO_REQUESTED],
        target=S.APPEALED,
        conditions=[_deemed_denied],
    )
    def appeal_deemed_denial(self) -> None:
        pass

    @transition(field=state, source=S.APPEALED, target=S.APPEAL_UNDER_REVIEW)
    def start_appeal_review(self) -> None:
        pass

    @transition(field=state, source=S.APPEAL_UNDER_REVIEW, target=S.APPEAL_INFO_REQUESTED)
    def request_appeal_information(self) -> None:
        pass

    @transition(field=state, source=S.APPEAL_INFO_REQUESTED, target=S.APPEAL_UNDER_REVIEW)
    def answer_appeal_information(self) -> None:
        pass

    @transition(field=state, source=[S.APPEALED, S.APPEAL_UNDER_REVIEW], target=S.APPEAL_UNDER_REVIEW)
    def extend_review(self) -> None:
        pass

    @transition(
        field=state, source=S.APPEAL_UNDER_REVIEW, target=S.APPROVED_ON_REVIEW, conditions=[_clock_not_paused]
    )
    def approve_on_review(self) -> None:
        pass

    @transition(
        field=state, source=S.APPEAL_UNDER_REVIEW, target=S.DENIED_ON_REVIEW, conditions=[_clock_not_paused]
    )
    def deny_on_review(self) -> None:
        pass

    @transition(field=state, source=[S.APPROVED, S.APPROVED_ON_REVIEW], target=S.ELECTION_REQUIRED)
    def require_election(self) -> None:
        pass

    # The election took effect (elections.benefit_elections), or the approved claim needs none: a payment
    # record is scheduled (payments). The claim reads "in pay", "paid" or "loan made" only once the
    # paying agent confirmed the first payment (payments.confirmations).
    @transition(
        field=state,
        source=[S.ELECTION_REQUIRED, S.APPROVED, S.APPROVED_ON_REVIEW, S.PAYMENT_SCHEDULED],
        target=S.PAYMENT_SCHEDULED,
    )
    def schedule_payment(self) -> None:
        pass

    @transition(field=state, source=S.PAYMENT_SCHEDULED, target=S.IN_PAY)
    def start_payments(self) -> None:
        pass

    @transition(field=state, source=S.PAYMENT_SCHEDULED, target=S.PAID)
    def pay_single_sum(self) -> None:
        pass

    # The loan's disbursement was confirmed paid: the loan is in effect on its note and schedule.
    @transition(field=state, source=S.PAYMENT_SCHEDULED, target=S.LOAN_IN_EFFECT)
    def make_loan(self) -> None:
        pass

    # A confirmation import rolled back: the payment is scheduled again.
    @transition(field=state, source=[S.IN_PAY, S.PAID, S.LOAN_IN_EFFECT], target=S.PAYMENT_SCHEDULED)
    def unconfirm_payment(self) -> None:
        pass

    # The payee died (payments.deaths): the stream ended; its last payment was confirmed paid.
    @transition(field=state, source=S.IN_PAY, target=S.PAID)
    def end_payments(self) -> None:
        pass

    # The election was revoked before the annuity starting date: a new election is needed.
    @transition(field=state, source=[S.PAYMENT_SCHEDULED, S.IN_PAY, S.PAID], target=S.ELECTION_REQUIRED)
    def reopen_election(self) -> None:
        pass


def _tolls(rows: list) -> tuple[deadlines.InformationRequest, ...]:
    """Each row: [sent, answered, tolls, answer-by]. A row of two (written before the regulation's
    reading of (f)(4) was applied) is a request without an extension: it never stopped the clock."""

    def day(value):
        return date.fromisoformat(value) if value else None

    return tuple(
        deadlines.InformationRequest(
            date.fromisoformat(row[0]),
            day(row[1]),
            bool(row[2]) if len(row) > 2 else False,
            day(row[3]) if len(row) > 3 else None,
        )
        for row in rows
    )


class ClaimEvent(models.Model):
    """The claim's timeline, shown to the claimant: every transition and every filing."""

    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="events")
    at = models.DateTimeField(auto_now_add=True)
    actor = models.ForeignKey(  # PROTECT: the timeline keeps who acted (users are deactivated instead)
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    actor_label = models.CharField(max_length=100)  # "You", "Plan committee": what the claimant is shown
    action = models.CharField(max_length=60)
    from_state = models.CharField(max_length=30, blank=True)
    to_state = models.CharField(max_length=30, blank=True)
    note = models.TextField(blank=True)
    due_on = models.DateField(null=True, blank=True)  # the decision due date after this event

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d} {self.action}"


class ClaimNote(models.Model):
    """A committee member's internal note on a claim: never shown to the claimant, audited when added."""

    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="internal_notes")
    author = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    text = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"Note on claim {self.claim_id} by {self.author_id}"


class ClaimDocument(models.Model):
    """An upload (PDF, JPEG or PNG, checked by content), stored outside the web root."""

    class Stage(models.TextChoices):
        CLAIM = "claim", "With the claim"
        INFORMATION = "information", "Answer to a request for information"
        APPEAL = "appeal", "With the appeal"

    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="documents")
    stage = models.CharField(max_length=20, choices=Stage.choices, default=Stage.CLAIM)
    description = models.CharField(max_length=200, blank=True)
    original_name = models.CharField(max_length=200)
    content_type = models.CharField(max_length=40)
    size = models.PositiveIntegerField()
    sha256 = models.CharField(max_length=64)
    file_name = models.CharField(
        max_length=300
    )  # its name in the private storage (benefits/private_files.py)
    uploaded_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    uploaded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["uploaded_at", "pk"]

    def __str__(self) -> str:
        return self.original_name


class ClaimDetermination(models.Model):
    """A decision with its reasons: the initial one or the one on review, and the notice sent for it."""

    class Stage(models.TextChoices):
        INITIAL = "initial", "Initial decision"
        REVIEW = "review", "Decision on review"

    class Outcome(models.TextChoices):
        APPROVED = "approved", "Approved"
        DENIED = "denied", "Denied"

    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="determinations")
    stage = models.CharField(max_length=10, choices=Stage.choices)
    outcome = models.CharField(max_length=10, choices=Outcome.choices)
    reasons = models.TextField(blank=True)
    provisions = models.TextField(blank=True)
    perfecting_material = models.TextField(blank=True)
    decided_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    decided_on = models.DateField()
    notice = models.ForeignKey(
        GeneratedDocument, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at"]
        constraints = [models.UniqueConstraint(fields=["claim", "stage"], name="determination_one_per_stage")]

    def __str__(self) -> str:
        return f"{self.get_stage_display()}: {self.get_outcome_display()}"


class ClaimVote(models.Model):
    """One committee member's vote, where the plan's committee acts by a majority of its seats."""

    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="votes")
    stage = models.CharField(max_length=10, choices=ClaimDetermination.Stage.choices)
    member = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    outcome = models.CharField(max_length=10, choices=ClaimDetermination.Outcome.choices)
    reasons = models.TextField(blank=True)
    provisions = models.TextField(blank=True)
    perfecting_material = models.TextField(blank=True)
    cast_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["cast_at"]
        constraints = [
            models.UniqueConstraint(fields=["claim", "stage", "member"], name="vote_one_per_member_stage")
        ]

    def __str__(self) -> str:
        return f"{self.member} {self.outcome}"


class ClaimNotice(models.Model):
    """A notice delivered to the claimant about this claim (denial, extension, decision, loan papers)."""

    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="notices")
    kind = models.CharField(max_length=40)
    document = models.ForeignKey(GeneratedDocument, on_delete=models.PROTECT, related_name="+")
    delivered_on = models.DateField()

    class Meta:
        ordering = ["document__created_at"]

    def __str__(self) -> str:
        return f"{self.kind} ({self.delivered_on})"


class BeneficiaryLink(models.Model):
    """A login verified by an administrator as a Beneficiary of a participant who has died.

    It lets that login file a death benefit claim for the participant, and see only that claim.
    Administrators create it (Django admin) after checking the designation and the death certificate.
    """

    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="beneficiary_links"
    )
    participant = models.ForeignKey(Participant, on_delete=models.PROTECT, related_name="beneficiary_links")
    beneficiary_name = models.CharField(max_length=200)
    relationship = models.CharField(max_length=60)
    verified_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    verified_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "participant"], name="beneficiary_link_unique")
        ]

    def __str__(self) -> str:
        return f"{self.beneficiary_name} ({self.relationship}) of {self.participant}"
