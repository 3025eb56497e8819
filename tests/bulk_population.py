"""Memberships by the hundred thousand in seconds (issue 31's scale tests): INSERT ... SELECT
generate_series, not the minutes ``generate_population`` takes. Rows carry the columns the dashboard's
and the batches' reads filter and join on (participant, plan, membership, a year of hours and pay, a
balance, an employment period); nobody's figures are meant to be calculated from them."""

from __future__ import annotations

from django.db import connection

from benefits.db_stats import analyze
from benefits.models import (
    AccountBalance,
    Compensation,
    EmploymentPeriod,
    HoursOfService,
    Participant,
    Plan,
    PlanMembership,
)


def bulk_people(first: int, last: int) -> None:
    """Participants ``first``..``last`` (numbered SCALE-n), each a member of every plan, with history."""
    employer = Plan.objects.order_by("pk").values_list("employer_id", flat=True).first()
    after = Participant.objects.order_by("-pk").values_list("pk", flat=True).first()
    statements = (
        """INSERT INTO benefits_participant (employer_id, participant_number, first_name, last_name,
               birth_date, ssn_last4, ssn_hash, hire_date, marital_status, spouse_name, email, phone, address)
           SELECT %(employer)s, 'SCALE-' || g, 'Sam', 'Scale' || g, date '1960-01-01' + (g %% 7000),
               lpad((g %% 10000)::text, 4, '0'), md5('scale' || g) || md5('ssn' || g),
               date '1985-01-01' + (g %% 9000), 'single', '', '', '', ''
           FROM generate_series(%(first)s, %(last)s) AS g""",
        """INSERT INTO benefits_employmentperiod (participant_id, start, "end")
           SELECT p.id, p.hire_date, NULL FROM benefits_participant p WHERE p.id > %(after)s""",
        """INSERT INTO benefits_planmembership (participant_id, plan_id, entry_date, plan_data)
           SELECT p.id, pl.id, p.hire_date, '{}'::jsonb
           FROM benefits_participant p CROSS JOIN benefits_plan pl WHERE p.id > %(after)s""",
        """INSERT INTO benefits_hoursofservice (membership_id, period_year, hours)
           SELECT m.id, 2025, 2080 FROM benefits_planmembership m WHERE m.participant_id > %(after)s""",
        """INSERT INTO benefits_compensation (membership_id, year, amount)
           SELECT m.id, 2025, 60000 FROM benefits_planmembership m WHERE m.participant_id > %(after)s""",
        """INSERT INTO benefits_accountbalance (membership_id, source, as_of, balance)
           SELECT m.id, 'employer', date '2025-12-31', 1000
           FROM benefits_planmembership m WHERE m.participant_id > %(after)s""",
    )
    with connection.cursor() as cur:
        for sql in statements:
            cur.execute(sql, {"employer": employer, "first": first, "last": last, "after": after})
    # As the bulk loaders do (generate_population, import_data, the payment confirmations).
    analyze([Participant, EmploymentPeriod, PlanMembership, HoursOfService, Compensation, AccountBalance])
