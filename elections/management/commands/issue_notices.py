"""Issue the §417(a)(3) explanation (or the plan's notice) to everyone in a plan whose payment start
date falls in the next N days. Each notice is issued once (a database uniqueness rule); a second run
issues nothing. With ``--json`` the last line accounts for every person of the batch:
``{"issued": n, "already_issued": m, "failed": [{"participant": ..., "reason": ...}],
"waiting": [{"participant": ..., "asd": ...}]}``. A person is waiting when another worker held their
notice as this run passed it; the batch stays running (the sweeper finishes it) and the command exits 3."""

from __future__ import annotations

import json
import socket
import uuid

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from benefits.models import Plan
from elections.benefit_elections.models import BatchRule, NoticeBatch, NoticeBatchItem
from elections.benefit_elections.services import batch_run, today


class Command(BaseCommand):
    help = "Issue explanations to participants whose payments start within the next N days (exactly once)."

    def add_arguments(self, parser):
        parser.add_argument("plan", help="the plan's key, e.g. carver-db")
        parser.add_argument(
            "--within-days", type=int, default=None, help="days ahead (default: the plan's election period)"
        )
        parser.add_argument("--json", action="store_true", help="end with one line of JSON counts")

    def handle(self, *args, plan: str, within_days: int | None, **options):
        as_json = options["json"]
        from benefits.engine.elections import election_rules

        try:
            plan_row = Plan.objects.get(key=plan)
        except Plan.DoesNotExist:
            raise CommandError(
                f"No plan with the key {plan!r}; the plans are: {', '.join(Plan.objects.values_list('key', flat=True))}"
            ) from None
        days = within_days if within_days is not None else election_rules(plan).period_days
        if not 1 <= days <= 366:
            raise CommandError("--within-days: a whole number of days from 1 to 366.")
        from benefits.jobs.services import job_execute
        from elections.benefit_elections.tasks import issue_notice_batch

        with transaction.atomic():
            batch = NoticeBatch.objects.create(
                plan=plan_row, rule=BatchRule.ASD_WITHIN, within_days=days, as_of=today()
            )
            # The same job row as a batch started from the page: if this command is killed, its
            # heartbeat stops and the sweeper hands the rest of the batch to a worker.
            job = issue_notice_batch.job_create(target_id=batch.pk)

        def report(item):
            who = item.membership.participant.participant_number
            line = f"{who} {item.asd.isoformat()}: {item.get_state_display().lower()}"
            if item.failure_reason:
                line += f" ({item.failure_reason})"
            self.stdout.write(line)

        job_execute(
            job.pk,
            task=issue_notice_batch,
            task_id=f"issue_notices-{uuid.uuid4().hex}",
            worker=f"issue_notices@{socket.gethostname()}",
            body=lambda job: batch_run(job.target_id, item_hook=report),
        )
        job.refresh_from_db()
        if job.status != job.Status.DONE:
            self.stderr.write(f"The batch did not finish here ({job.error}); a worker carries it on.")
        items = list(batch.items.select_related("membership__participant"))
        summary = {
            "issued": sum(i.state == NoticeBatchItem.State.ISSUED for i in items),
            "already_issued": sum(i.state == NoticeBatchItem.State.ALREADY_ISSUED for i in items),
            "failed": [
                {"participant": i.membership.participant.participant_number, "reason": i.failure_reason}
                for i in items
                if i.state == NoticeBatchItem.State.FAILED
            ],
            "waiting": [
                {"participant": i.membership.participant.participant_number, "asd": i.asd.isoformat()}
                for i in items
                if i.state == NoticeBatchItem.State.PENDING
            ],
        }
        if as_json:
            self.stdout.write(_dumps(summary))
        else:
            self.stdout.write(
                f"Issued {summary['issued']}, already issued {summary['already_issued']}, "
                f"failed {len(summary['failed'])}, waiting {len(summary['waiting'])}."
            )
        if summary["waiting"]:
            raise CommandError(
                f"{len(summary['waiting'])} notice(s) of batch {batch.pk} are still waiting: another worker "
                "held them; the batch stays running and the job sweeper issues them.",
                returncode=3,
            )


def _dumps(data) -> str:
    return json.dumps(data)
