"""Background jobs that are never lost: one row per job with its state, enqueued after commit.

Usage (any app): register what a kind of job does once (``register_job_kind`` in ``AppConfig.ready``),
then inside the transaction that makes the work necessary::

    job = job_create("document.render", target_id=document.pk, queue="pdf")
    enqueue_on_commit(job)

The row commits with the change; the message goes to the broker only after the commit, and if the broker
is unreachable the request still succeeds and the job waits as ``pending``. A beat task
(``jobs.sweep``) re-sends jobs left pending or whose message was lost, puts back jobs whose worker died,
and fails jobs past their attempts with a reason that staff see (and can retry) on the jobs page.
"""
