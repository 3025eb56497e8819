"""The task base class of every background job: the task is declared beside its service, and the base
class gives it the job row (``benefits/jobs/models.py``), the send after commit, the heartbeat, retries with
backoff and the failure recorded where people look.

A job task takes the ``Job`` and calls its service with the ids on it::

    @shared_task(base=JobTask, name="document.render", job_queue="pdf", time_limit=180, label="PDF document",
                 job_failed=_document_failed)
    def render_document(job):
        from benefits.services.documents import document_render

        document_render(job.target_id)

and the service that needs the work, inside its transaction: ``render_document.enqueue_on_commit(
target_id=document.pk)``. The row's ``kind`` is the task's Celery name, so a row finds its task in Celery's
own registry (``app.tasks``); there is no other list of job names.

Hooks, given as task options (plain functions; they stay functions, not methods):
- ``job_failed(job, reason)``: the job gave up; put the failure on its target (the document, the run);
- ``job_retried(job)``: staff try it again; make the target waiting again;
- ``job_sweep() -> int``: the beat sweeper asks the kind to queue again work left with no open job.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from celery import Task

if TYPE_CHECKING:
    from benefits.jobs.models import Job

HOOKS = ("job_failed", "job_retried", "job_sweep")


class JobTask(Task):
    # The message stays on the broker until the job ran, and goes back if the worker process dies; the
    # job row (its claim under a row lock) keeps a redelivered message from doing the work twice.
    acks_late = True
    reject_on_worker_lost = True
    ignore_result = True
    label = ""  # what staff read on the Background work page, e.g. "PDF document"
    # The queue its messages go to (sent explicitly with each job: Celery's own ``queue`` task
    # attribute is deprecated in favour of routes).
    job_queue = "default"
    time_limit = 180  # seconds per attempt; the broker's visibility timeout stays above the longest
    max_attempts = 3
    job_failed = None
    job_retried = None
    job_sweep = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for name in HOOKS:  # Celery puts task options on the class: keep a hook a plain function
            hook = cls.__dict__.get(name)
            if callable(hook) and not isinstance(hook, staticmethod):
                setattr(cls, name, staticmethod(hook))
        if "soft_time_limit" not in cls.__dict__:  # not the settings' default, which may exceed its own
            cls.soft_time_limit = max(1, cls.time_limit - 10)  # 10 s to record why it stopped

    def __call__(self, job_id: int, *args, **kwargs):
        """The worker's entry (and the eager one): claim the job, beat, run the body, record the end.

        Celery's tracer pushed this message's request already (its id is the execution's claim)."""
        from benefits.jobs.services import job_execute

        request = self.request
        job_execute(job_id, task=self, task_id=request.id or "", worker=request.hostname or "")
        # Nothing returned: the worker's log would print the row as it was when the body started.

    def job_create(
        self,
        *,
        target_id: int | None = None,
        args: dict | None = None,
        unique_key: str | None = None,
        created_by=None,
    ) -> Job:
        """This task's job row (call inside the transaction of the change that needs it).

        With ``unique_key`` an existing job is returned instead of a second one, so asking twice for the
        same piece of work queues it once."""
        from benefits.jobs.models import Job

        fields = {
            "kind": self.name,
            "target_id": target_id,
            "args": args or {},
            "queue": self.job_queue,
            "time_limit": self.time_limit,
            "max_attempts": self.max_attempts,
            "created_by": created_by if getattr(created_by, "is_authenticated", False) else None,
        }
        if unique_key is None:
            return Job.objects.create(**fields)
        job, _ = Job.objects.get_or_create(unique_key=unique_key, defaults=fields)
        return job

    def enqueue_on_commit(self, **job_fields) -> Job:
        """The job row now, its message once the transaction commits (see ``job_create``)."""
        from benefits.jobs.services import enqueue_on_commit

        job = self.job_create(**job_fields)
        enqueue_on_commit(job)
        return job


def job_tasks() -> dict[str, JobTask]:
    """Every job task, by name: Celery's registry after each area's tasks module is imported."""
    from config.celery import app, import_task_modules

    if not getattr(app, "_job_tasks_imported", False):
        import_task_modules()  # each area's tasks module (config/celery.py says why not Celery's loader)
        app._job_tasks_imported = True
    return {name: task for name, task in app.tasks.items() if isinstance(task, JobTask)}


def job_task(kind: str) -> JobTask | None:
    """The task a job row names (None for a kind no task carries any longer)."""
    return job_tasks().get(kind)


def job_label(job: Job) -> str:
    """What staff read for the job's kind: its task's label (the kind itself if no task carries it)."""
    task = job_task(job.kind)
    return (task.label if task is not None else "") or job.kind
