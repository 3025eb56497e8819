"""Plans, participants, their service and pay history, account balances, and the audit log.

The engine never sees these rows: ``benefits.services`` translates them into engine inputs.
"""

from __future__ import annotations

from django.conf import settings as django_settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Upper


class Employer(models.Model):
    name = models.CharField(max_length=200, unique=True)
    ein = models.CharField("EIN", max_length=10, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Plan(models.Model):
    class Kind(models.TextChoices):
        FINAL_AVERAGE_PAY = "final_average_pay", "Final-average-pay defined benefit"
        CASH_BALANCE = "cash_balance", "Cash balance defined benefit"
        SAVINGS_401K = "401k", "401(k) savings"
        ESOP = "esop", "Employee stock ownership"

    # The engine's plan key (docs/engine-cli.md), e.g. "carver-db".
    key = models.SlugField(max_length=40, unique=True)
    name = models.CharField(max_length=200)
    kind = models.CharField(max_length=30, choices=Kind.choices)
    employer = models.ForeignKey(Employer, on_delete=models.PROTECT, related_name="plans")
    document_title = models.CharField(max_length=300, blank=True)
    # Plan readings (the SPEC's GAP settings), by setting name. Empty means the engine's default.
    settings = models.JSONField(default=dict, blank=True)
    settings_confirmed_at = models.DateTimeField(null=True, blank=True)
    settings_confirmed_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def is_account_plan(self) -> bool:
        return self.kind in (self.Kind.SAVINGS_401K, self.Kind.ESOP)


class Participant(models.Model):
    class MaritalStatus(models.TextChoices):
        SINGLE = "single", "Single"
        MARRIED = "married", "Married"

    employer = models.ForeignKey(Employer, on_delete=models.PROTECT, related_name="participants")
    participant_number = models.CharField(max_length=20, unique=True)
    user = models.OneToOneField(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="participant",
    )
    first_name = models.CharField(max_length=100)
    last_name = models.CharField(max_length=100)
    birth_date = models.DateField()
    # The clear SSN is never stored: the last four digits and a keyed hash (HMAC-SHA256) only.
    ssn_last4 = models.CharField("SSN (last four)", max_length=4)
    ssn_hash = models.CharField(max_length=64, unique=True)
    hire_date = models.DateField()
    termination_date = models.DateField(null=True, blank=True)
    marital_status = models.CharField(
        max_length=10, choices=MaritalStatus.choices, default=MaritalStatus.SINGLE
    )
    spouse_name = models.CharField(max_length=200, blank=True)
    spouse_birth_date = models.DateField(null=True, blank=True)
    email = models.EmailField(blank=True)
    phone = models.CharField(max_length=30, blank=True)
    address = models.TextField(blank=True)
    death_date = models.DateField(null=True, blank=True)
    disability_date = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["last_name", "first_name"]
        indexes = [
            # The staff list pages through participants in name order, and a search by number is
            # case-insensitive: both through an index, flat in the number of participants. Name
            # searches use a trigram index (PostgreSQL; migration 0007).
            models.Index(fields=["last_name", "first_name", "id"], name="participant_name_order"),
            models.Index(Upper("participant_number"), name="participant_number_upper"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(termination_date__isnull=True) | Q(termination_date__gte=models.F("hire_date")),
                name="participant_termination_after_hire",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.full_name} ({self.participant_number})"

    def clean(self) -> None:
        """The engine's plausible windows, for any form that edits a participant (the Django admin too)."""
        from django.core.exceptions import ValidationError
        from django.utils import timezone

        from benefits.engine.dates import add_years, age_on
        from benefits.engine.input_ranges import MAX_AGE_AT_PLAN_DATES, MIN_AGE_AT_PLAN_DATES

        today, errors = timezone.localdate(), {}
        if self.birth_date:
            alive_until = min(today, self.death_date) if self.death_date else today
            if self.birth_date >= today or age_on(self.birth_date, alive_until) > MAX_AGE_AT_PLAN_DATES:
                errors["birth_date"] = (
                    f"Birth date: the participant is at most {MAX_AGE_AT_PLAN_DATES} years old."
                )
            elif self.hire_date and self.hire_date < add_years(self.birth_date, MIN_AGE_AT_PLAN_DATES):
                errors["hire_date"] = f"Hire date: on or after the {MIN_AGE_AT_PLAN_DATES}th birthday."
        if self.spouse_birth_date and (
            self.spouse_birth_date >= today or age_on(self.spouse_birth_date, today) > MAX_AGE_AT_PLAN_DATES
        ):
            errors["spouse_birth_date"] = "Spouse's birth date: before today, and at most 110 years ago."
        if self.death_date and (
            self.death_date > today or (self.birth_date and self.death_date <= self.birth_date)
        ):
            errors["death_date"] = "Date of death: after the birth date and not in the future."
        if errors:
            raise ValidationError(errors)

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}"


class EmploymentPeriod(models.Model):
    """One span of employment; several spans record rehires."""

    participant = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="employment_periods")
    start = models.DateField()
    end = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["participant", "start"]
        constraints = [
            models.UniqueConstraint(fields=["participant", "start"], name="employment_period_unique_start"),
            models.CheckConstraint(
                condition=Q(end__isnull=True) | Q(end__gte=models.F("start")),
                name="employment_period_end_after_start",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.start} – {self.end or 'present'}"


class PlanMembership(models.Model):
    """A participant in one plan, with the plan-specific inputs the engine needs."""

    participant = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="memberships")
    plan = models.ForeignKey(Plan, on_delete=models.PROTECT, related_name="memberships")
    entry_date = models.DateField(null=True, blank=True)
    # Plan-specific inputs named as in the engine contract (e.g. social_security_amount, opening_balance).
    plan_data = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["plan__name"]
        constraints = [
            models.UniqueConstraint(
                fields=["participant", "plan"], name="membership_unique_participant_plan"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.participant} in {self.plan}"


class HoursOfService(models.Model):
    """Hours of Service in one plan computation period, keyed by the year the period begins."""

    membership = models.ForeignKey(PlanMembership, on_delete=models.CASCADE, related_name="hours")
    period_year = models.PositiveSmallIntegerField()
    hours = models.PositiveIntegerField()

    class Meta:
        ordering = ["membership", "period_year"]
        constraints = [
            models.UniqueConstraint(fields=["membership", "period_year"], name="hours_unique_period"),
            # A year holds at most 366 × 24 = 8,784 hours (benefits.engine.input_ranges).
            models.CheckConstraint(condition=Q(hours__lte=8784), name="hours_at_most_a_leap_year"),
        ]

    def __str__(self) -> str:
        return f"{self.period_year}: {self.hours} hours"


class Compensation(models.Model):
    """The plan's Compensation (or Earnings) for one calendar year."""

    membership = models.ForeignKey(PlanMembership, on_delete=models.CASCADE, related_name="compensation")
    year = models.PositiveSmallIntegerField()
    amount = models.DecimalField(max_digits=12, decimal_places=2)

    class Meta:
        ordering = ["membership", "year"]
        constraints = [
            models.UniqueConstraint(fields=["membership", "year"], name="compensation_unique_year"),
            models.CheckConstraint(condition=Q(amount__gte=0), name="compensation_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.year}: {self.amount}"


class AccountBalance(models.Model):
    """An account plan's balance by source on a valuation date."""

    membership = models.ForeignKey(PlanMembership, on_delete=models.CASCADE, related_name="balances")
    source = models.CharField(max_length=40)
    as_of = models.DateField()
    balance = models.DecimalField(max_digits=14, decimal_places=2)
    shares = models.DecimalField(max_digits=16, decimal_places=4, null=True, blank=True)

    class Meta:
        ordering = ["membership", "as_of", "source"]
        constraints = [
            models.UniqueConstraint(
                fields=["membership", "source", "as_of"], name="balance_unique_source_date"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.source} {self.as_of}: {self.balance}"


class MarketRate(models.Model):
    """Market data kept by administrators with its source: Treasury yields, §417(e) segment rates."""

    series = models.CharField(max_length=60)  # e.g. "treasury_10y_november", "417e_segment_1"
    period = models.DateField()  # the month the rate is for (first of month)
    percent = models.DecimalField(max_digits=7, decimal_places=4)
    source = models.CharField(max_length=300)

    class Meta:
        ordering = ["series", "period"]
        constraints = [models.UniqueConstraint(fields=["series", "period"], name="market_rate_unique")]

    def __str__(self) -> str:
        return f"{self.series} {self.period:%Y-%m}: {self.percent}%"


class AuditEvent(models.Model):
    """Who did what to whom, when: written in the same transaction as the change it records."""

    event_time = models.DateTimeField(db_index=True)
    event_type = models.CharField(max_length=60, db_index=True)
    # PROTECT: who acted, and on whom, outlives any account; users are deactivated, never deleted.
    acting_user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="audit_events",
    )
    participant = models.ForeignKey(
        Participant, null=True, blank=True, on_delete=models.PROTECT, related_name="audit_events"
    )
    summary = models.CharField(max_length=300)
    extra_data = models.JSONField(default=dict, blank=True)
    ip_address = models.GenericIPAddressField(null=True, blank=True)

    class Meta:
        ordering = ["-event_time"]

    def __str__(self) -> str:
        return f"{self.event_time:%Y-%m-%d %H:%M} {self.event_type}"


class GeneratedDocument(models.Model):
    """A PDF rendered by a Celery worker from a stored payload: statements, quotes, notices.

    The payload holds every number the document shows, so a document can be rendered again and
    checked against what the engine said. The file lives outside the web root and is served only by
    a permission-checked view.
    """

    class Status(models.TextChoices):
        PENDING = "pending", "Being prepared"
        DONE = "done", "Ready"
        FAILED = "failed", "Failed"

    participant = models.ForeignKey(Participant, on_delete=models.PROTECT, related_name="documents")
    kind = models.CharField(max_length=40)  # e.g. "statement", "quote", "claim_notice"
    title = models.CharField(max_length=200)
    template_name = models.CharField(max_length=200)
    payload = models.JSONField(default=dict)
    engine_version = models.CharField(max_length=20, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    error = models.TextField(blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    file_name = models.CharField(
        max_length=300, blank=True
    )  # its name in the private storage (benefits/private_files.py)
    sha256 = models.CharField(max_length=64, blank=True)
    size = models.PositiveIntegerField(default=0)
    requested_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    rendered_at = models.DateTimeField(null=True, blank=True)
    # The background job that renders it (its state says whether it waits for the task queue).
    job = models.OneToOneField(
        "benefits.Job", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.title} ({self.get_status_display()})"


class CalculationResult(models.Model):
    """An engine result for one membership on one date, stored with the engine version and its request.

    The request is the engine contract's JSON (docs/engine-cli.md), so any stored number
    can be reproduced from the command line with the same engine version.
    """

    membership = models.ForeignKey(PlanMembership, on_delete=models.CASCADE, related_name="calculations")
    as_of = models.DateField()
    engine_version = models.CharField(max_length=20)
    request_sha256 = models.CharField(max_length=64)
    request = models.JSONField()
    result = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["membership", "engine_version", "request_sha256"], name="calculation_unique_request"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.membership} as of {self.as_of} (engine {self.engine_version})"


class ModelerRun(models.Model):
    """One retirement-modeler calculation: the participant's what-if inputs, then the engine's result.

    Large grids (every month to age 70) are run by a Celery task; the page polls ``status`` and
    ``progress_done`` / ``progress_total`` (commencement dates priced so far).
    """

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting to start"
        RUNNING = "running", "Calculating"
        DONE = "done", "Ready"
        FAILED = "failed", "Could not be calculated"

    membership = models.ForeignKey(PlanMembership, on_delete=models.CASCADE, related_name="modeler_runs")
    requested_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    as_of = models.DateField()
    # What the participant asked: mode, commencement dates, spouse birth date, future pay and hours.
    inputs = models.JSONField(default=dict)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    progress_done = models.PositiveIntegerField(default=0)
    progress_total = models.PositiveIntegerField(default=0)
    # The engine contract request and the merged contract result (every estimate and its trace).
    request = models.JSONField(default=dict, blank=True)
    result = models.JSONField(default=dict, blank=True)
    engine_version = models.CharField(max_length=20, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    job = models.OneToOneField(
        "benefits.Job", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Modeler run {self.pk} for {self.membership} ({self.get_status_display()})"


class SavedQuote(models.Model):
    """A dated retirement quote the participant kept: the inputs, every figure and the engine version."""

    participant = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="quotes")
    membership = models.ForeignKey(PlanMembership, on_delete=models.CASCADE, related_name="quotes")
    modeler_run = models.ForeignKey(
        ModelerRun, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    as_of = models.DateField()
    inputs = models.JSONField(default=dict)
    result = models.JSONField(default=dict)
    engine_version = models.CharField(max_length=20)
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    document = models.ForeignKey(
        GeneratedDocument, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Quote {self.pk} for {self.membership} as of {self.as_of}"


# Transaction kinds that only add to a source, and kinds that only take from it.
# A loan offset (issue 27) applies the Loan Account to the unpaid loan: it comes back to the sources (an
# inflow, like a repayment) and leaves at once as a distribution of the same amount.
TRANSACTION_INFLOWS = (
    "deferral",
    "match",
    "employer",
    "rollover",
    "dividend",
    "loan_repayment",
    "loan_offset",
)
TRANSACTION_OUTFLOWS = ("forfeiture", "distribution", "withdrawal", "loan_issued", "fee")
TRANSACTION_KINDS = TRANSACTION_INFLOWS + TRANSACTION_OUTFLOWS + ("earnings", "transfer")
# The kinds data imports write (contributions, ESOP releases, loans), each identified by its natural key
# (membership, source, date, kind): the database keeps one row per key, so an import run twice, or two
# at once, creates each movement once.
TRANSACTION_IMPORTED = ("deferral", "match", "employer", "rollover", "loan_issued", "loan_repayment")
# The movements that change a membership's outstanding loan balance (plan_data.loans).
LOAN_MOVEMENT_KINDS = ("loan_issued", "loan_repayment", "loan_offset")


class AccountTransaction(models.Model):
    """One dated movement in an account plan's source: what a period statement is built from.

    ``amount`` is signed by its effect on the source's balance (money in positive, money out negative),
    so a source's balance on a date is its opening balance plus the amounts up to that date; the
    statement service turns the signs into the ones each plan's engine statement expects. ESOP stock
    movements also carry ``shares`` (``amount`` is then their value on ``date``).
    """

    class Kind(models.TextChoices):
        DEFERRAL = "deferral", "Before-tax deferral"
        MATCH = "match", "Matching contribution"
        EMPLOYER = "employer", "Employer contribution or ESOP allocation"
        ROLLOVER = "rollover", "Rollover contribution"
        EARNINGS = "earnings", "Investment gain or loss"
        DIVIDEND = "dividend", "Dividend"
        FORFEITURE = "forfeiture", "Forfeiture"
        DISTRIBUTION = "distribution", "Distribution"
        WITHDRAWAL = "withdrawal", "In-service withdrawal"
        LOAN_ISSUED = "loan_issued", "Loan issued"
        LOAN_REPAYMENT = "loan_repayment", "Loan repayment (principal)"
        LOAN_OFFSET = "loan_offset", "Loan offset (the unpaid loan applied against the account)"
        TRANSFER = "transfer", "Transfer between accounts"
        FEE = "fee", "Fee"

    INFLOWS = TRANSACTION_INFLOWS
    OUTFLOWS = TRANSACTION_OUTFLOWS

    membership = models.ForeignKey(PlanMembership, on_delete=models.CASCADE, related_name="transactions")
    source = models.CharField(max_length=40)  # the engine's source key, as in AccountBalance
    date = models.DateField()
    kind = models.CharField(max_length=20, choices=Kind.choices)
    amount = models.DecimalField(max_digits=14, decimal_places=2)
    shares = models.DecimalField(max_digits=16, decimal_places=4, null=True, blank=True)
    memo = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["membership", "date", "source", "pk"]
        indexes = [models.Index(fields=["membership", "date"], name="transaction_membership_date")]
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=TRANSACTION_KINDS), name="transaction_kind_known"),
            models.CheckConstraint(
                condition=~Q(kind__in=TRANSACTION_INFLOWS) | Q(amount__gt=0),
                name="transaction_inflow_positive",
            ),
            models.CheckConstraint(
                condition=~Q(kind__in=TRANSACTION_OUTFLOWS) | Q(amount__lt=0),
                name="transaction_outflow_negative",
            ),
            models.CheckConstraint(
                condition=~Q(amount=0) | Q(shares__isnull=False), name="transaction_not_empty"
            ),
            models.UniqueConstraint(
                fields=["membership", "source", "date", "kind"],
                condition=Q(kind__in=TRANSACTION_IMPORTED),
                name="transaction_unique_imported_key",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.date} {self.source} {self.get_kind_display()}: {self.amount}"


# Areas of this app keep their models in their own package; Django finds them through this module.
from benefits.batches.models import StatementBatch, StatementBatchItem  # noqa: E402, F401
from benefits.delivery.models import DeliveryConsent, DeliveryTest, DocumentDelivery  # noqa: E402, F401
from benefits.imports.models import ImportBatch, ImportChange, RegulatoryTable  # noqa: E402, F401
from benefits.jobs.models import Job  # noqa: E402, F401
from benefits.plan_identity.models import PlanContact  # noqa: E402, F401
