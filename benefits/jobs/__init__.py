"""Background jobs that are never lost: one row per job with its state, enqueued after commit.

Usage (any area): declare the task beside its service, in the area's ``tasks.py``, on the job task base
class (``benefits/jobs/base.py``); then inside the transaction that makes the work necessary::

    document.job = render_document.enqueue_on_commit(target_id=document.pk)

The row commits with the change; the message goes to the broker only after the commit, and if the broker
is unreachable the request still succeeds and the job waits as ``pending``. A beat task
(``jobs.sweep``) re-sends jobs left pending or whose message was lost, puts back jobs whose worker died,
and fails jobs past their attempts with a reason that staff see (and can retry) on the jobs page.
"""
