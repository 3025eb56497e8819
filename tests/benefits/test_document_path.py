"""A statement PDF's trip is three hops (issue 23): the service that asks for it → its task → the render
service → the PDF. No string look-up of what to run on the way: the task's function calls the render
service, and the job machinery is the task's own base class (``benefits/jobs/base.py``)."""

from __future__ import annotations

import inspect
from unittest import mock

import pytest
from django.core.management import call_command

from accounts.models import User
from benefits.models import GeneratedDocument, PlanMembership
from benefits.presenters.statements import statement_payload
from benefits.services import documents, modeler, today
from benefits.statement_inputs import statement_figures

pytestmark = pytest.mark.django_db(transaction=True)  # on_commit runs inside the asking service's call

APPS = ("benefits", "elections", "taxes", "payments", "accounts", "config")
VEHICLE = "benefits.jobs."  # the task's base class and the job row it keeps: how a task runs, not a hop


def _project_frames(stack) -> list[tuple[str, str]]:
    frames = []
    for info in reversed(stack):  # outermost first
        module = info.frame.f_globals.get("__name__", "")
        if module.split(".")[0] in APPS and not module.startswith(VEHICLE):
            frames.append((module, info.function))
    return frames


def test_a_statement_pdf_goes_service_task_render_service(settings, tmp_path):
    settings.PRIVATE_STORAGE_ROOT = tmp_path
    call_command("load_demo", verbosity=0)
    pat = User.objects.get(email="pat@demo.test")
    membership = PlanMembership.objects.get(participant=pat.participant, plan__key="carver-db")
    payload = statement_payload(statement_figures(membership, today=today()))
    seen = []
    render = documents.render_pdf_bytes

    def recording(template_name, context):
        seen.append(_project_frames(inspect.stack()[1:]))
        return render(template_name, context)

    with mock.patch.object(documents, "render_pdf_bytes", side_effect=recording):
        document = modeler.statement_print(membership=membership, payload=payload, actor=pat)

    assert [chain[-4:] for chain in seen] == [
        [
            ("benefits.services.modeler", "statement_print"),
            ("benefits.services.documents", "document_request"),  # asks for it: its task, on commit
            ("benefits.tasks", "render_document"),  # hop 1: the task
            ("benefits.services.documents", "document_render"),  # hop 2: the render service
        ]  # hop 3: render_pdf_bytes, the PDF
    ]
    document.refresh_from_db()
    assert document.status == GeneratedDocument.Status.DONE and document.job.kind == "document.render"


def test_no_second_registry_of_job_names():
    """A job row finds its task in Celery's own registry by the task's name; nothing else maps names to
    functions (no catalogue of kinds, no ``module:function`` strings resolved at run time)."""
    from pathlib import Path

    jobs = Path(documents.__file__).resolve().parents[1] / "jobs"
    assert not (jobs / "kinds.py").exists() and not (jobs / "registry.py").exists()
    for path in jobs.glob("*.py"):
        assert "import_module" not in path.read_text(), path
