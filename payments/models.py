"""Payment records: what the plan pays, to whom, when, and whether the paying agent confirmed it.

One ``Payment`` per benefit payment (an annuity in pay, a single sum, an installment schedule, a loan
disbursement, an ESOP transfer); one ``PaymentInstalment`` per dated payment of it (a single sum has
one). Words follow facts: only an instalment the paying agent confirmed is "paid", and a payment
reads "in pay" only while its stream runs and has been confirmed at least once.

The invariants that protect money are database constraints: one live payment record per election and
per claim, one instalment per payment and pay date (so a pay date is instructed exactly once for each
payee's payment), one instruction file per pay date and sequence.
"""

from __future__ import annotations

from django.conf import settings as django_settings
from django.db import models
from django.db.models import Q
from django.db.models.fields.json import KT

from benefits.models import Participant, PlanMembership


class PaymentKind(models.TextChoices):
    ANNUITY = "annuity", "Annuity"
    SINGLE_SUM = "single_sum", "Single sum"
    INSTALLMENTS = "installments", "Installments"
    LOAN_DISBURSEMENT = "loan_disbursement", "Loan disbursement"
    TRANSFER = "transfer", "Transfer between accounts"


class PaymentFrequency(models.TextChoices):
    ONCE = "once", "Once"
    MONTHLY = "monthly", "Monthly"
    QUARTERLY = "quarterly", "Quarterly"
    ANNUAL = "annual", "Yearly"


class PaymentMethod(models.TextChoices):
    DIRECT_DEPOSIT = "direct_deposit", "Direct deposit"
    CHECK = "check", "Check"
    DIRECT_ROLLOVER = "direct_rollover", "Direct rollover"
    SPLIT = "split", "Part rollover, part direct deposit"
    INTERNAL = "internal", "Within the plan"  # an ESOP diversification transfer moves no cash out


class Payment(models.Model):
    """A benefit payment record. Lifecycle fields move only through ``payments.services``."""

    class State(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        IN_PAY = "in_pay", "In pay"  # a stream whose first payment the paying agent confirmed
        PAID = "paid", "Paid"  # every instalment confirmed (a single sum, a finished schedule)
        RETURNED = "returned", "Returned: bank account to correct"
        SUSPENDED = "suspended", "Suspended"
        STOPPED = "stopped", "Stopped"
        CANCELLED = "cancelled", "Cancelled before payment"  # the election was revoked or replaced

    LIVE_STATES = ("scheduled", "in_pay", "returned", "suspended")

    membership = models.ForeignKey(PlanMembership, on_delete=models.PROTECT, related_name="payments")
    participant = models.ForeignKey(Participant, on_delete=models.PROTECT, related_name="payments")
    claim = models.ForeignKey(
        "elections.Claim", null=True, blank=True, on_delete=models.PROTECT, related_name="payments"
    )
    election = models.ForeignKey(
        "elections.Election", null=True, blank=True, on_delete=models.PROTECT, related_name="payments"
    )
    # The payee: the participant, or a beneficiary / survivor (named; linked login once verified).
    payee_name = models.CharField(max_length=200)
    payee_relationship = models.CharField(max_length=60, default="participant")
    payee_link = models.ForeignKey(
        "elections.BeneficiaryLink", null=True, blank=True, on_delete=models.PROTECT, related_name="payments"
    )
    kind = models.CharField(max_length=20, choices=PaymentKind.choices)
    frequency = models.CharField(
        max_length=10, choices=PaymentFrequency.choices, default=PaymentFrequency.ONCE
    )
    gross = models.DecimalField(max_digits=14, decimal_places=2)  # per period (the whole of a single sum)
    first_pay_date = models.DateField()
    number_of_payments = models.PositiveIntegerField(null=True, blank=True)  # null: for life
    form = models.CharField(max_length=20, blank=True)  # the elected form's key
    form_label = models.CharField(max_length=100, blank=True)
    # What continues after the payee's death: a survivor percent, or certain payments to an end date.
    survivor_percent = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True)
    survivor_name = models.CharField(max_length=200, blank=True)
    certain_until = models.DateField(null=True, blank=True)
    continuation = models.JSONField(default=dict, blank=True)  # beneficiaries named for what continues
    continues_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="continuations"
    )
    method = models.CharField(max_length=20, choices=PaymentMethod.choices)
    # Where the money goes (routing/account or rollover trustee); shown only masked (``destination_masked``).
    destination = models.JSONField(default=dict, blank=True)
    destination_masked = models.CharField(max_length=120, blank=True)
    withholding_election = models.JSONField(default=dict, blank=True)  # W-4P / W-4R as elected
    # How a confirmed payment posts to an account plan's books: [{source, amount}] in the plan's order.
    posting = models.JSONField(default=dict, blank=True)
    # lifecycle
    state = models.CharField(max_length=12, choices=State.choices, default=State.SCHEDULED)
    state_reason = models.CharField(max_length=300, blank=True)
    state_changed_on = models.DateField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["first_pay_date", "pk"]
        indexes = [models.Index(fields=["participant", "state"], name="payment_participant_state")]
        constraints = [
            # Exactly one live payment record per election and per claim (a replaced election's record
            # is cancelled first, in the same transaction).
            models.UniqueConstraint(
                fields=["election"],
                condition=Q(election__isnull=False) & ~Q(state="cancelled"),
                name="payment_one_live_per_election",
            ),
            models.UniqueConstraint(
                fields=["claim", "kind"],
                condition=Q(claim__isnull=False) & ~Q(state="cancelled") & Q(continues_from__isnull=True),
                name="payment_one_live_per_claim",
            ),
            models.CheckConstraint(condition=Q(gross__gt=0), name="payment_gross_positive"),
            # One live ESOP diversification transfer per diversification election (payments/diversification).
            models.UniqueConstraint(
                KT("posting__diversification_election"),
                condition=Q(kind="transfer") & ~Q(state="cancelled"),
                name="payment_one_live_per_diversification",
            ),
        ]

    def __str__(self) -> str:
        return (
            f"Payment {self.pk}: {self.get_kind_display()} to {self.payee_name} ({self.get_state_display()})"
        )


class Loan(models.Model):
    """A 401(k) loan's terms: the disbursement is its ``payment``; repayments post to the books."""

    payment = models.OneToOneField(Payment, on_delete=models.PROTECT, related_name="loan")
    principal = models.DecimalField(max_digits=14, decimal_places=2)
    rate_percent = models.DecimalField(max_digits=6, decimal_places=3)
    term_months = models.PositiveSmallIntegerField()
    level_payment = models.DecimalField(max_digits=12, decimal_places=2)
    first_due = models.DateField(null=True, blank=True)
    schedule = models.JSONField(default=list, blank=True)  # [{due, payment, interest, principal, balance}]
    made_on = models.DateField(null=True, blank=True)  # the day the disbursement was confirmed paid

    def __str__(self) -> str:
        return f"Loan {self.pk}: {self.principal} at {self.rate_percent}%"


class InstructionFile(models.Model):
    """One export of a pay date for the paying agent. Exporting the same pay date again returns the
    stored bytes; instalments that became due after an export go into the next ``sequence``."""

    pay_date = models.DateField()
    sequence = models.PositiveSmallIntegerField(default=1)
    content = models.TextField()  # the CSV, exactly as exported (docs/payments/instruction-file.md)
    sha256 = models.CharField(max_length=64)
    rows = models.PositiveIntegerField()
    total_gross = models.DecimalField(max_digits=16, decimal_places=2)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["pay_date", "sequence"]
        constraints = [models.UniqueConstraint(fields=["pay_date", "sequence"], name="instruction_file_once")]

    def __str__(self) -> str:
        return f"Instructions for {self.pay_date} ({self.sequence})"


class PaymentInstalment(models.Model):
    """One dated payment of a record: scheduled → instructed → paid or returned."""

    class State(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        INSTRUCTED = "instructed", "Sent to the paying agent"
        PAID = "paid", "Paid"
        RETURNED = "returned", "Returned by the bank"
        CANCELLED = "cancelled", "Cancelled"

    payment = models.ForeignKey(Payment, on_delete=models.PROTECT, related_name="instalments")
    sequence = models.PositiveIntegerField(default=1)
    pay_date = models.DateField(db_index=True)
    gross = models.DecimalField(max_digits=14, decimal_places=2)
    # Federal income tax withheld and why (W-4P / W-4R; the rate or table used). Filled when scheduled.
    withholding = models.DecimalField(max_digits=14, decimal_places=2, default=0)
    withholding_basis = models.JSONField(default=dict, blank=True)
    net = models.DecimalField(max_digits=14, decimal_places=2)
    state = models.CharField(max_length=12, choices=State.choices, default=State.SCHEDULED)
    instruction_file = models.ForeignKey(
        InstructionFile, null=True, blank=True, on_delete=models.PROTECT, related_name="instalments"
    )
    instructed_at = models.DateTimeField(null=True, blank=True)
    paid_on = models.DateField(null=True, blank=True)
    agent_reference = models.CharField(max_length=60, blank=True)
    returned_on = models.DateField(null=True, blank=True)
    returned_reason = models.CharField(max_length=200, blank=True)
    confirmed_by_import = models.ForeignKey(
        "benefits.ImportBatch", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    recovery_due = models.BooleanField(default=False)  # paid after the payee's death: to be recovered

    class Meta:
        ordering = ["pay_date", "pk"]
        constraints = [
            # A payment is due once on a pay date: re-running a pay date never adds a second instruction.
            models.UniqueConstraint(fields=["payment", "pay_date"], name="instalment_once_per_pay_date"),
            models.CheckConstraint(condition=Q(gross__gt=0), name="instalment_gross_positive"),
            models.CheckConstraint(
                condition=Q(net=models.F("gross") - models.F("withholding")),
                name="instalment_net_is_gross_less_withholding",
            ),
            models.CheckConstraint(
                condition=~Q(state="paid") | (Q(paid_on__isnull=False) & ~Q(agent_reference="")),
                name="instalment_paid_has_date_and_reference",
            ),
            models.CheckConstraint(
                condition=Q(state="scheduled") | Q(state="cancelled") | Q(instruction_file__isnull=False),
                name="instalment_instructed_in_a_file",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.pay_date} {self.gross} ({self.get_state_display()})"


class PayeeDeath(models.Model):
    """The recorded death of the payee of a stream (the participant, or a survivor or beneficiary in pay).

    One per stream (the one-to-one is the database's refusal of a second record); written only by
    ``payments.deaths.payee_death_record``, which stops the stream on the plan's rule, starts what the
    elected form continues and flags for recovery what was paid for periods after the death.
    """

    payment = models.OneToOneField(Payment, on_delete=models.PROTECT, related_name="death")
    payee_name = models.CharField(max_length=200)
    died_on = models.DateField()
    evidence_reference = models.CharField(max_length=200, blank=True)  # e.g. a death certificate number
    evidence_file = models.CharField(max_length=300, blank=True)  # private storage name (never served raw)
    evidence_sha256 = models.CharField(max_length=64, blank=True)
    last_pay_date = models.DateField(null=True, blank=True)  # the last payment due to this payee
    rule = models.CharField(max_length=300)  # the plan's rule applied, with its section
    recorded_at = models.DateTimeField(auto_now_add=True)
    recorded_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["-recorded_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(evidence_reference="") | ~Q(evidence_file=""), name="payee_death_has_evidence"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.payee_name} died {self.died_on}"


class LoanRepayment(models.Model):
    """One scheduled repayment of a loan that was collected and posted to the books (payroll deductions
    while the borrower is on the payroll: the plan's ``LoanTerms.repayment_section``). Posted once: one
    row per loan and due date."""

    class Via(models.TextChoices):
        PAYROLL = "payroll", "Payroll deduction"
        CASH = "cash", "Paid by the borrower"

    loan = models.ForeignKey(Loan, on_delete=models.PROTECT, related_name="repayments")
    sequence = models.PositiveSmallIntegerField()
    due = models.DateField()
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    interest = models.DecimalField(max_digits=12, decimal_places=2)
    principal = models.DecimalField(max_digits=12, decimal_places=2)
    balance_after = models.DecimalField(max_digits=14, decimal_places=2)
    # Principal credited to each source (the plan's order for loans); the interest rides with it.
    credited = models.JSONField(default=dict)
    via = models.CharField(max_length=10, choices=Via.choices, default=Via.PAYROLL)
    posted_on = models.DateField()
    posted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["loan", "due"]
        constraints = [
            models.UniqueConstraint(fields=["loan", "due"], name="loan_repayment_once_per_due_date"),
            models.CheckConstraint(
                condition=Q(amount=models.F("interest") + models.F("principal")),
                name="loan_repayment_is_interest_plus_principal",
            ),
        ]

    def __str__(self) -> str:
        return f"Loan {self.loan_id} repayment {self.sequence} due {self.due}"
