"""Participant writes: modeler runs, saved quotes, statement and quote PDFs.

Each checks that the actor is the participant (plan staff see these pages read-only), changes state
and records an audit event in one transaction; tasks are enqueued on commit.
"""

from __future__ import annotations

from datetime import date

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from benefits.audit import AuditEventType, audit_record
from benefits.engine import ENGINE_VERSION
from benefits.engine_adapter import modeler_request, request_calculate
from benefits.models import GeneratedDocument, ModelerRun, PlanMembership, SavedQuote
from benefits.presenters.labels import field_words
from benefits.presenters.modeler import grid
from benefits.services.documents import document_request
from benefits.tasks import run_model


def _require_participant(actor, participant) -> None:
    if not (
        getattr(actor, "is_authenticated", False)
        and actor.is_participant_role
        and participant.user_id == actor.pk
    ):
        raise PermissionDenied("Only the participant can do this; plan staff have a read-only view.")


def modeler_run_create(
    *, membership: PlanMembership, actor, inputs: dict, as_of: date, request=None
) -> ModelerRun:
    _require_participant(actor, membership.participant)
    with transaction.atomic():
        run = ModelerRun.objects.create(
            membership=membership,
            requested_by=actor,
            as_of=as_of,
            inputs=inputs,
            progress_total=len(inputs["commencement_dates"]),
        )
        audit_record(
            event_type=AuditEventType.MODELER_RUN_REQUESTED,
            summary=f"Retirement model of {membership.plan.key} for {len(inputs['commencement_dates'])} dates",
            actor=actor,
            participant=membership.participant,
            request=request,
            run_id=run.pk,
            inputs=inputs,
        )
        run.job = run_model.enqueue_on_commit(
            target_id=run.pk, unique_key=f"{run_model.name}:{run.pk}", created_by=actor
        )
        run.save(update_fields=["job"])
    return run


def modeler_run_execute(run_id: int) -> ModelerRun:
    """Price every date of the run in one engine call; idempotent once finished.

    The request carries no traces: a plan with a commencement grid prices every date, form, relative
    value and cash-out in one vectorized pass (``Plan.grid.outputs``), and the steps behind a figure
    are worked out for the one date a person opens (``engine_adapter.estimate_traces``)."""
    run = ModelerRun.objects.select_related("membership__plan", "membership__participant").get(pk=run_id)
    if run.status in (ModelerRun.Status.DONE, ModelerRun.Status.FAILED):
        return run
    dates = [date.fromisoformat(d) for d in run.inputs["commencement_dates"]]
    run.status, run.progress_done, run.progress_total = ModelerRun.Status.RUNNING, 0, len(dates)
    run.save(update_fields=["status", "progress_done", "progress_total"])
    req = modeler_request(run.membership, as_of=run.as_of, inputs=run.inputs, dates=dates)
    result = request_calculate(req)
    if "error" in result:
        error = result["error"]
        run.status = ModelerRun.Status.FAILED
        run.error = f"Missing or unusable: {field_words(error['field'])}. {error['message']}"
        run.finished_at = timezone.now()
        run.save(update_fields=["status", "error", "finished_at"])
        return run
    run.request = req
    run.result = result
    run.progress_done = len(dates)
    run.engine_version = ENGINE_VERSION
    run.status = ModelerRun.Status.DONE
    run.finished_at = timezone.now()
    run.save(update_fields=["request", "result", "progress_done", "engine_version", "status", "finished_at"])
    return run


def modeler_run_mark_waiting(run_id: int) -> None:
    """Staff try its job again: a run not finished waits again, its progress from the start."""
    ModelerRun.objects.filter(pk=run_id).exclude(status=ModelerRun.Status.DONE).update(
        status=ModelerRun.Status.PENDING, error="", progress_done=0, finished_at=None
    )


def modeler_run_fail(run_id: int, error: str) -> None:
    ModelerRun.objects.filter(pk=run_id).exclude(status=ModelerRun.Status.DONE).update(
        status=ModelerRun.Status.FAILED, error=error[:2000], finished_at=timezone.now()
    )


def quote_save(*, run: ModelerRun, actor, request=None) -> SavedQuote:
    participant = run.membership.participant
    _require_participant(actor, participant)
    if run.status != ModelerRun.Status.DONE:
        raise ValueError("Only a finished model can be saved as a quote.")
    with transaction.atomic():
        quote = SavedQuote.objects.create(
            participant=participant,
            membership=run.membership,
            modeler_run=run,
            as_of=run.as_of,
            inputs=run.inputs,
            result=run.result,
            engine_version=run.engine_version,
            created_by=actor,
        )
        audit_record(
            event_type=AuditEventType.QUOTE_SAVED,
            summary=f"Retirement quote {quote.pk} saved for {run.membership.plan.key}",
            actor=actor,
            participant=participant,
            request=request,
            quote_id=quote.pk,
            run_id=run.pk,
            engine_version=run.engine_version,
        )
    return quote


def quote_payload(quote: SavedQuote) -> dict:
    """Every figure the quote PDF shows, as strings."""
    g = grid(quote.result, quote.participant.birth_date)
    return {
        "as_of": quote.as_of.isoformat(),
        "quote_date": timezone.localtime(quote.created_at).date().isoformat(),
        "plan_name": quote.membership.plan.name,
        "engine_version": quote.engine_version,
        "inputs": quote.inputs,
        "forms": [label for _, label in g["forms"]],
        "has_relative_value": g["has_relative_value"],
        "rows": [
            {
                "date": r["date"].isoformat(),
                "age": r["age"],
                "error": r["error"],
                "normal_form": r["normal_form"],
                "cells": [
                    None
                    if c is None
                    else {
                        "monthly": c.monthly,
                        "survivor": c.survivor,
                        "lump_sum": c.lump_sum,
                        "relative_value": c.relative_value,
                    }
                    for c in r["cells"]
                ],
            }
            for r in g["rows"]
        ],
        "notes": list(quote.result.get("notes") or []),
    }


def quote_print(*, quote: SavedQuote, actor, request=None) -> GeneratedDocument:
    _require_participant(actor, quote.participant)
    with transaction.atomic():
        document = document_request(
            kind="quote",
            participant=quote.participant,
            title=f"Retirement quote — {quote.membership.plan.name}",
            template_name="pdf/quote.html",
            payload=quote_payload(quote) | {"engine_version": quote.engine_version},
            plans=quote.membership.plan,
            requested_by=actor,
            request=request,
        )
        quote.document = document
        quote.save(update_fields=["document"])
    return document


STATEMENT_TEMPLATES = {
    "account": "pdf/statement_account.html",
    "cash_balance": "pdf/statement_cash_balance.html",
    "db": "pdf/statement_db.html",
}


def statement_print(*, membership: PlanMembership, payload: dict, actor, request=None) -> GeneratedDocument:
    _require_participant(actor, membership.participant)
    return document_request(
        kind="statement",
        participant=membership.participant,
        title=f"Statement — {membership.plan.name}",
        template_name=STATEMENT_TEMPLATES[payload["kind"]],
        payload=payload,
        plans=membership.plan,
        requested_by=actor,
        request=request,
    )
